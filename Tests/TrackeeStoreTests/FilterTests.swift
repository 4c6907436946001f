import Testing
import TrackeeCore
@testable import TrackeeStore

/// ``EntryFilter`` on `log` and `summary`, summaries by tag, billable and
/// non-billable money apart, and `continue` through `apply`.
@Suite struct FilterTests {
    /// From 09:00 (UTC): #1 Docs (Acme) 09:00–10:00 #writing; #2 Web (Acme)
    /// 10:00–10:30 #review #writing; #3 Docs (Globex) 10:30–11:00; #4 no
    /// project 11:00–11:15 #errand; #5 Docs (Acme) running since 11:30.
    /// Docs (Acme) is billable at 80.00; Web is not, though it has 40.00.
    private func store() throws -> TemporaryStore {
        let t = try TemporaryStore()
        _ = try t.store.addProject("Docs", client: "Acme", changes: ProjectChanges(billable: true, rateCents: .some(8000)), now: nine)
        _ = try t.store.addProject("Web", client: "Acme", changes: ProjectChanges(billable: false, rateCents: .some(4000)), now: nine)
        _ = try t.store.add(TimerParameters(project: "Docs", client: "Acme", tags: ["writing"]),
                            start: nine, end: at(minutes: 60), now: nine)
        _ = try t.store.add(TimerParameters(project: "Web", client: "Acme", tags: ["writing", "review"]),
                            start: at(minutes: 60), end: at(minutes: 90), now: nine)
        _ = try t.store.add(TimerParameters(project: "Docs", client: "Globex"), start: at(minutes: 90), end: at(minutes: 120), now: nine)
        _ = try t.store.add(TimerParameters(tags: ["errand"]), start: at(minutes: 120), end: at(minutes: 135), now: nine)
        _ = try t.store.apply(start("Docs", client: "Acme", at: at(minutes: 150)), now: at(minutes: 150))
        return t
    }

    private let noon = at(minutes: 180)
    private var morning: Timespan { Timespan(start: nine, end: at(minutes: 240)) }

    private func ids(_ t: TemporaryStore, _ filter: EntryFilter) throws -> [Int64] {
        try t.store.log(limit: 10, filter: filter).map(\.id)
    }

    @Test func eachKindOfFilterAloneKeepsItsEntries() throws {
        let t = try store()
        #expect(try ids(t, EntryFilter()) == [5, 4, 3, 2, 1])
        #expect(try ids(t, EntryFilter(projects: ["Docs"])) == [5, 3, 1])
        #expect(try ids(t, EntryFilter(clients: ["Acme"])) == [5, 2, 1])
        #expect(try ids(t, EntryFilter(tags: ["writing"])) == [2, 1])
        // The window keeps what overlaps it, whole.
        #expect(try ids(t, EntryFilter(from: at(minutes: 75), to: at(minutes: 105))) == [3, 2])
        #expect(try ids(t, EntryFilter(from: at(minutes: 135))) == [5])
        #expect(try ids(t, EntryFilter(to: at(minutes: 60))) == [1])
    }

    /// The running timer (#5, since 11:30) lasts until now: a window that
    /// starts after now does not hold it, one that starts before does.
    @Test func theRunningTimerOverlapsOnlyAWindowStartingBeforeNow() throws {
        let t = try store()
        let later = EntryFilter(from: at(minutes: 200))
        #expect(try t.store.log(limit: 10, filter: later, now: noon).map(\.id) == [])
        #expect(try t.store.log(limit: 10, filter: EntryFilter(from: at(minutes: 170)), now: noon).map(\.id) == [5])
        #expect(try t.store.log(limit: 10, filter: later, now: at(minutes: 201)).map(\.id) == [5])
    }

    @Test func kindsCombineWithAndAndRepeatedNamesWithOr() throws {
        let t = try store()
        #expect(try ids(t, EntryFilter(projects: ["Docs"], clients: ["Acme"])) == [5, 1])
        #expect(try ids(t, EntryFilter(tags: ["writing", "errand"])) == [4, 2, 1])
        #expect(try ids(t, EntryFilter(projects: ["Docs", "Web"], tags: ["writing"])) == [2, 1])
        #expect(try ids(t, EntryFilter(clients: ["Acme", "Globex"], tags: ["review"])) == [2])
        #expect(try ids(t, EntryFilter(from: at(minutes: 30), projects: ["Docs"], clients: ["Globex"])) == [3])
        // Paging keeps the filter.
        #expect(try t.store.log(limit: 10, before: .entry(5), filter: EntryFilter(projects: ["Docs"])).map(\.id) == [3, 1])
    }

    @Test func aNameThatMatchesNothingIsAnErrorWithTheNearestName() throws {
        let t = try store()
        #expect(throws: StoreError.unknownFilterName(kind: .project, name: "Dcos", nearest: "Docs")) {
            try t.store.log(limit: 10, filter: EntryFilter(projects: ["Docs", "Dcos"]))
        }
        #expect(throws: StoreError.unknownFilterName(kind: .client, name: "Initech", nearest: nil)) {
            try t.store.summary(in: morning, now: noon, by: .project, matching: EntryFilter(clients: ["Initech"]))
        }
        // A part of a tag is not a tag.
        #expect(throws: StoreError.unknownFilterName(kind: .tag, name: "writ", nearest: nil)) {
            try t.store.log(limit: 10, filter: EntryFilter(tags: ["writ"]))
        }
        #expect(throws: StoreError.unknownFilterName(kind: .tag, name: "wrting", nearest: "writing")) {
            try t.store.log(limit: 10, filter: EntryFilter(tags: ["wrting"]))
        }
        #expect(StoreError.unknownFilterName(kind: .project, name: "Dcos", nearest: "Docs").description
            == #"--project "Dcos" names no project; did you mean "Docs"?"#)
        #expect(StoreError.unknownFilterName(kind: .tag, name: "x", nearest: nil).description
            == #"--tag "x" is on no entry; `trackee tags` lists them"#)
    }

    @Test func summaryChargesOnlyBillableProjectsAndTotalsTheTwoKindsApart() throws {
        let t = try store()
        let s = try t.store.summary(in: morning, now: noon, by: .project)
        #expect(s.lines == [
            SummaryLine(name: "Docs", client: "Acme", seconds: 5400, billableSeconds: 5400, amountCents: 12000, entries: 2),
            SummaryLine(name: "Docs", client: "Globex", seconds: 1800, billableSeconds: 0, amountCents: nil, entries: 1),
            SummaryLine(name: "Web", client: "Acme", seconds: 1800, billableSeconds: 0, amountCents: nil, entries: 1),
            SummaryLine(name: nil, client: nil, seconds: 900, billableSeconds: 0, amountCents: nil, entries: 1),
        ])
        #expect(s.seconds == 9900)
        #expect(s.billableSeconds == 5400)
        #expect(s.nonBillableSeconds == 4500)
        #expect(s.amountCents == 12000)

        let byClient = try t.store.summary(in: morning, now: noon, by: .client)
        #expect(byClient.lines == [
            SummaryLine(name: "Acme", client: nil, seconds: 7200, billableSeconds: 5400, amountCents: 12000, entries: 3),
            SummaryLine(name: "Globex", client: nil, seconds: 1800, billableSeconds: 0, amountCents: nil, entries: 1),
            SummaryLine(name: nil, client: nil, seconds: 900, billableSeconds: 0, amountCents: nil, entries: 1),
        ])
        #expect(byClient.amountCents == 12000)
    }

    @Test func byTagAnEntryCountsUnderEachTagAndTheTotalOnce() throws {
        let t = try store()
        let s = try t.store.summary(in: morning, now: noon, by: .tag)
        #expect(s.lines == [
            SummaryLine(name: "writing", client: nil, seconds: 5400, billableSeconds: 3600, amountCents: 8000, entries: 2),
            SummaryLine(name: nil, client: nil, seconds: 3600, billableSeconds: 1800, amountCents: 4000, entries: 2),
            SummaryLine(name: "review", client: nil, seconds: 1800, billableSeconds: 0, amountCents: nil, entries: 1),
            SummaryLine(name: "errand", client: nil, seconds: 900, billableSeconds: 0, amountCents: nil, entries: 1),
        ])
        #expect(s.seconds == 9900)
        #expect(s.amountCents == 12000)
    }

    @Test func summaryClipsEntriesAtBothEdgesOfTheSpan() throws {
        let t = try store()
        // 09:30–10:15: the second half of #1 and the first quarter hour of #2.
        let s = try t.store.summary(in: Timespan(start: at(minutes: 30), end: at(minutes: 75)), now: noon, by: .project)
        #expect(s.lines == [
            SummaryLine(name: "Docs", client: "Acme", seconds: 1800, billableSeconds: 1800, amountCents: 4000, entries: 1),
            SummaryLine(name: "Web", client: "Acme", seconds: 900, billableSeconds: 0, amountCents: nil, entries: 1),
        ])
        #expect(s.seconds == 2700)
        // The running timer is clipped at now.
        let late = try t.store.summary(in: Timespan(start: at(minutes: 170), end: at(minutes: 600)), now: noon, by: .project)
        #expect(late.seconds == 600)
        #expect(try t.store.total(in: morning, now: noon, matching: EntryFilter(tags: ["writing"])) == 5400)
        #expect(try t.store.total(in: morning, now: noon, matching: EntryFilter()) == 9900)
    }

    @Test func summaryWithNamesAddsUpOnlyTheEntriesTheyKeep() throws {
        let t = try store()
        let s = try t.store.summary(in: morning, now: noon, by: .project, matching: EntryFilter(tags: ["writing"]))
        #expect(s.lines == [
            SummaryLine(name: "Docs", client: "Acme", seconds: 3600, billableSeconds: 3600, amountCents: 8000, entries: 1),
            SummaryLine(name: "Web", client: "Acme", seconds: 1800, billableSeconds: 0, amountCents: nil, entries: 1),
        ])
        #expect(s.seconds == 5400)
        #expect(s.nonBillableSeconds == 1800)
    }

    @Test func descriptionMatchesAPieceInAnyCaseAndBillingGoesByTheProject() throws {
        let t = try store()
        // #6 Web 08:00–08:30 and #7 without a project 08:30–08:40.
        _ = try t.store.add(TimerParameters(project: "Web", client: "Acme", description: "ČTENÍ of a Code Review"),
                            start: at(minutes: -60), end: at(minutes: -30), now: nine)
        _ = try t.store.add(TimerParameters(description: "reviewing notes"), start: at(minutes: -30), end: at(minutes: -20), now: nine)
        #expect(try ids(t, EntryFilter(description: "REVIEW")) == [7, 6])
        // Folded beyond ASCII, which SQLite's lower() and LIKE are not.
        #expect(try ids(t, EntryFilter(description: "čtení")) == [6])
        #expect(try ids(t, EntryFilter(description: "nowhere")) == [])
        #expect(try ids(t, EntryFilter(billable: true)) == [5, 1])
        // Web is not billable, whatever its rate; #4 and #7 have no project.
        #expect(try ids(t, EntryFilter(billable: false)) == [4, 3, 2, 7, 6])
        #expect(try ids(t, EntryFilter(projects: ["Web"], description: "review")) == [6])
        #expect(try ids(t, EntryFilter(description: "review", billable: true)) == [])

        let billable = try t.store.summary(in: morning, now: noon, by: .project, matching: EntryFilter(billable: true))
        #expect(billable.lines == [
            SummaryLine(name: "Docs", client: "Acme", seconds: 5400, billableSeconds: 5400, amountCents: 12000, entries: 2),
        ])
        let other = try t.store.summary(in: morning, now: noon, by: .client, matching: EntryFilter(billable: false))
        #expect(other.seconds == 4500)
        #expect(try t.store.total(in: Timespan(start: at(minutes: -60), end: nine), now: noon,
                                  matching: EntryFilter(description: "Review")) == 2400)
    }

    @Test func continueStartsTheLastEntryAgainAndIsUnchangedWhenItRuns() throws {
        let t = try store()
        let running = try t.store.apply(continuing: nil, at: noon, source: .cli, key: nil, now: noon)
        #expect(running.outcome == .unchanged)
        #expect(running.entry?.id == 5)
        _ = try t.store.apply(Intent(.stop, at: noon, source: .cli), now: noon)
        let again = try t.store.apply(continuing: nil, at: noon + 60, source: .cli, key: nil, now: noon + 60)
        #expect(again.outcome == .started)
        #expect(again.entry?.parameters == TimerParameters(project: "Docs", client: "Acme"))
        #expect(again.entry?.id == 6)
        let switched = try t.store.apply(continuing: 2, at: noon + 120, source: .cli, key: nil, now: noon + 120)
        #expect(switched.outcome == .switched)
        #expect(switched.previous?.id == 6)
        #expect(switched.entry?.parameters == TimerParameters(project: "Web", client: "Acme", tags: ["review", "writing"]))
        #expect(try t.store.apply(continuing: 2, at: noon + 180, source: .cli, key: nil, now: noon + 180).outcome == .unchanged)
        #expect(throws: StoreError.unknownEntry(99)) {
            try t.store.apply(continuing: 99, at: noon, source: .cli, key: nil, now: noon + 180)
        }
    }

    @Test func continueWithNoEntryIsRefused() throws {
        let t = try TemporaryStore()
        #expect(throws: StoreError.nothingToContinue) {
            try t.store.apply(continuing: nil, at: nine, source: .cli, key: nil, now: nine)
        }
        #expect(try t.store.entryCount() == 0)
    }

    @Test func aBareStartKeepsTheRunningTimerAndStartsOneWithoutAProjectOtherwise() throws {
        let t = try store()
        let kept = try t.store.apply(Intent(.start(TimerParameters()), at: noon, source: .cli), now: noon)
        #expect(kept.outcome == .unchanged)
        #expect(kept.entry?.id == 5)
        #expect(try t.store.entryCount() == 5)
        _ = try t.store.apply(Intent(.stop, at: noon, source: .cli), now: noon)
        let started = try t.store.apply(Intent(.start(TimerParameters()), at: noon + 60, source: .cli), now: noon + 60)
        #expect(started.outcome == .started)
        #expect(started.entry?.parameters == TimerParameters())
    }
}
