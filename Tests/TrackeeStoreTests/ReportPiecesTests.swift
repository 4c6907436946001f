import Testing
import TrackeeCore
@testable import TrackeeStore

/// What the reports of `summary`, `log`, `sync --dry-run` and the rules
/// take from the store's values.
@Suite struct ReportPiecesTests {
    @Test func summaryLineNamesByGrouping() {
        func line(_ name: String?, _ client: String?) -> SummaryLine {
            SummaryLine(name: name, client: client, seconds: 60, billableSeconds: 0, amountCents: nil, entries: 1)
        }
        #expect(line("Docs", "Acme").shownName(by: .project) == "Docs (Acme)")
        #expect(line("Docs", nil).shownName(by: .project) == "Docs")
        #expect(line(nil, nil).shownName(by: .project) == "(no project)")
        #expect(line("Acme", nil).shownName(by: .client) == "Acme")
        #expect(line(nil, nil).shownName(by: .client) == "(no client)")
        #expect(line("urgent", nil).shownName(by: .tag) == "#urgent")
        #expect(line(nil, nil).shownName(by: .tag) == "(no tag)")
    }

    /// 2026-11-19 23:00 to 2026-11-20 01:00 on P, 09:00 to 10:00 on Q, and
    /// R running since 11:00 (UTC); now is 12:00.
    private func day() throws -> TemporaryStore {
        let t = try TemporaryStore()
        _ = try t.store.add(TimerParameters(project: "P"), start: nine - 36_000, end: nine - 28_800, now: nine)
        _ = try t.store.add(TimerParameters(project: "Q"), start: nine, end: nine + 3600, now: nine)
        _ = try t.store.apply(start("R", at: nine + 7200), now: nine + 7200)
        return t
    }

    private let days = [
        LocalDate(year: 2026, month: 11, day: 20), LocalDate(year: 2026, month: 11, day: 19),
        LocalDate(year: 2026, month: 11, day: 18),
    ]

    @Test func dayTotalsCountWholeDaysWithTheRunningTimerToNow() throws {
        let t = try day()
        let now = nine + 10_800
        #expect(try t.store.dayTotals(days, zone: .utc, now: now, matching: EntryFilter()) == [10_800, 3600, 0])
        #expect(try t.store.dayTotals([], zone: .utc, now: now, matching: EntryFilter()) == [])
    }

    @Test func dayTotalsStayInsideTheFiltersWindowAndNames() throws {
        let t = try day()
        let now = nine + 10_800
        // From 00:30: half of P's hour on the 20th, nothing of the 19th.
        #expect(try t.store.dayTotals(days, zone: .utc, now: now, matching: EntryFilter(from: nine - 30_600))
                    == [9000, 0, 0])
        // To 09:30: P's hour and half of Q's; R starts after.
        #expect(try t.store.dayTotals(days, zone: .utc, now: now, matching: EntryFilter(to: nine + 1800))
                    == [5400, 3600, 0])
        #expect(try t.store.dayTotals(days, zone: .utc, now: now, matching: EntryFilter(projects: ["Q"])) == [3600, 0, 0])
    }

    @Test func createProjectsLetsRulesCreateOnlyUnderAlways() {
        #expect(CreateProjects.always.forRules == .create)
        #expect(CreateProjects.ask.forRules == .refuse)
        #expect(CreateProjects.never.forRules == .refuse)
        #expect(CreateProjects.allCases.map(\.rawValue) == ["ask", "always", "never"])
    }

    @Test func plannedActionsOfQueuedChanges() {
        func item(_ operation: OutboxItem.Operation, remoteID: String? = nil, createSent: Bool = false) -> OutboxItem {
            OutboxItem(target: "work", entryID: 1, operation: operation, seq: 1, attempts: 0, entry: nil,
                       remoteID: remoteID, createSent: createSent, sent: nil)
        }
        #expect(item(.delete, remoteID: "r1").plannedAction == "delete")
        #expect(item(.put, remoteID: "r1", createSent: true).plannedAction == "update")
        #expect(item(.put, createSent: true).plannedAction == "adopt or create")
        #expect(item(.put).plannedAction == "create")
    }
}
