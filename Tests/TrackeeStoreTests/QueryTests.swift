import Testing
import TrackeeCore
@testable import TrackeeStore

@Suite struct QueryTests {
    private func store(entries: Int) throws -> TemporaryStore {
        let t = try TemporaryStore()
        for i in 0..<entries {
            // Entries 2 and 3 share a start, to check paging breaks ties by id.
            let s = i == 2 ? at(minutes: 10) : at(minutes: Int64(i * 10))
            _ = try t.store.add(TimerParameters(project: "P"), start: s, end: s + 300, now: nine)
        }
        return t
    }

    @Test func logPagesWithoutGapsOrOverlapsByEntry() throws {
        let t = try store(entries: 7)
        let page1 = try t.store.log(limit: 3)
        #expect(page1.map(\.id) == [7, 6, 5])
        let page2 = try t.store.log(limit: 3, before: .entry(5))
        #expect(page2.map(\.id) == [4, 3, 2])
        let page3 = try t.store.log(limit: 3, before: .entry(2))
        #expect(page3.map(\.id) == [1])
        #expect(try t.store.log(limit: 3, before: .entry(1)) == [])
    }

    @Test func logPagesByTime() throws {
        let t = try store(entries: 5)
        #expect(try t.store.log(limit: 10, before: .time(at(minutes: 30))).map(\.id) == [3, 2, 1])
        #expect(throws: StoreError.unknownEntry(99)) { try t.store.log(limit: 3, before: .entry(99)) }
    }

    @Test func summaryClipsEntriesToTheSpanAndCountsTheRunningOneToNow() throws {
        let t = try TemporaryStore()
        _ = try t.store.addProject("Docs", client: "Acme", changes: ProjectChanges(billable: true, rateCents: .some(8000)), now: nine)
        _ = try t.store.add(TimerParameters(project: "Docs", client: "Acme"), start: nine - 3600, end: nine + 3600, now: nine)
        _ = try t.store.add(TimerParameters(project: "Review", client: "Acme"), start: nine + 3600, end: nine + 5400, now: nine)
        _ = try t.store.add(TimerParameters(), start: nine + 5400, end: nine + 6000, now: nine)
        _ = try t.store.apply(start("Talk", client: "Globex", at: nine + 7200), now: nine + 7200)
        let span = Timespan(start: nine, end: nine + 86400)
        let now = nine + 9000
        let byProject = try t.store.summary(in: span, now: now, by: .project)
        #expect(byProject.lines == [
            SummaryLine(name: "Docs", client: "Acme", seconds: 3600, billableSeconds: 3600, amountCents: 8000, entries: 1),
            SummaryLine(name: "Review", client: "Acme", seconds: 1800, billableSeconds: 0, amountCents: nil, entries: 1),
            SummaryLine(name: "Talk", client: "Globex", seconds: 1800, billableSeconds: 0, amountCents: nil, entries: 1),
            SummaryLine(name: nil, client: nil, seconds: 600, billableSeconds: 0, amountCents: nil, entries: 1),
        ])
        #expect(byProject.seconds == 7800)
        let byClient = try t.store.summary(in: span, now: now, by: .client)
        #expect(byClient.lines == [
            SummaryLine(name: "Acme", client: nil, seconds: 5400, billableSeconds: 3600, amountCents: 8000, entries: 2),
            SummaryLine(name: "Globex", client: nil, seconds: 1800, billableSeconds: 0, amountCents: nil, entries: 1),
            SummaryLine(name: nil, client: nil, seconds: 600, billableSeconds: 0, amountCents: nil, entries: 1),
        ])
        #expect(try t.store.total(in: span, now: now) == 7800)
    }

    @Test func exportStreamsFinishedEntriesInStartOrderWithinTheRange() throws {
        let t = try store(entries: 4)
        _ = try t.store.apply(start("Live", at: at(minutes: 100)), now: at(minutes: 100))
        var ids: [Int64] = []
        try t.store.forEachFinished(from: nil, to: nil) { ids.append($0.id) }
        #expect(ids == [1, 2, 3, 4])
        ids = []
        try t.store.forEachFinished(from: at(minutes: 10), to: at(minutes: 30)) { ids.append($0.id) }
        #expect(ids == [2, 3])
    }
}
