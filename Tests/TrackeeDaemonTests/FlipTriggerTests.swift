import Foundation
import Logging
import Testing
import TrackeeAutomation
import TrackeeCore
import TrackeeRules
import TrackeeStore
@testable import TrackeeDaemon

/// The cube's changes through the daemon on a real store: a flip starts
/// and switches, a pause stops, a change seen again (live, then in the
/// history) fires nothing twice, and the store keeps how far the cube's
/// history was taken.
@Suite struct FlipTriggerTests {
    /// Thursday 2026-11-26 09:00 in Prague.
    let nine = Instant(seconds: 1_795_680_000)
    let cube = "0C:61:CF:C7:77:71"

    static let rules = """
        rules:
          - {id: f1-docs, when: {flip: {facet: 1}}, do: [{start: {project: Docs}}]}
          - {id: f2-mail, when: {flip: {facet: 2}}, do: [{start: {project: Mail}}]}
          - {id: f12-stop, when: {flip: {facet: 12}}, do: [stop]}
          - {id: cube-paused, when: {flip: paused}, do: [stop]}
        """

    @Test func flipsStartSwitchAndStopOnceEachAndTheCursorFollows() async throws {
        let s = try await DeskDaemon(rules: Self.rules, at: nine)
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        let (store, clock, core) = (s.store, s.clock, s.core)
        func flip(_ change: FlipEdge.Change, _ event: UInt32, _ at: Instant, series: UInt32 = 0) async {
            clock.now = max(clock.now, at)
            await core.handle(.flip(device: cube, change, event: event, flippedAt: at, series: series), at: at)
        }
        await flip(.facet(1), 40, nine)
        #expect(try store.running()?.project == "Docs")
        await flip(.facet(2), 41, nine + 1800)
        #expect(try store.running()?.project == "Mail")
        // The same interval again, as a catch-up reads it: nothing.
        await flip(.facet(2), 41, nine + 1800)
        await flip(.paused(facet: 2), 42, nine + 3600)
        #expect(try store.running() == nil)
        // Leaving the pause on 2 starts Mail again: a new interval.
        await flip(.facet(2), 43, nine + 3900)
        #expect(try store.running()?.project == "Mail")
        // The cube reset: its interval 41 again, in the next series, is a new flip.
        await flip(.facet(1), 41, nine + 4000, series: 1)
        #expect(try store.running()?.project == "Docs")
        await flip(.facet(1), 41, nine + 4000, series: 1)
        let fired = try store.intentHistory(limit: 20).reversed().filter { if case .rule = $0.source { true } else { false } }
            .map { "\($0.key ?? "") \($0.trigger ?? "") \($0.outcome)" }
        #expect(fired == [
            "f1-docs@flip:0C%3A61%3ACF%3AC7%3A77%3A71:40#0 flip 1 on 0C:61:CF:C7:77:71 started",
            "f2-mail@flip:0C%3A61%3ACF%3AC7%3A77%3A71:41#0 flip 2 on 0C:61:CF:C7:77:71 switched",
            "cube-paused@flip:0C%3A61%3ACF%3AC7%3A77%3A71:42#0 flip paused on 2 on 0C:61:CF:C7:77:71 stopped",
            "f2-mail@flip:0C%3A61%3ACF%3AC7%3A77%3A71:43#0 flip 2 on 0C:61:CF:C7:77:71 started",
            "f1-docs@flip:0C%3A61%3ACF%3AC7%3A77%3A71:s1:41#0 flip 1 on 0C:61:CF:C7:77:71 switched",
        ])
        #expect(try store.deskCursor("flip:" + cube)
            == DeskCursor(subject: "flip:" + cube, number: 41, at: nine + 4000, series: 1))
    }
}
