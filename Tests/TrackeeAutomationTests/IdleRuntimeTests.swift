import Testing
import TrackeeCore
import TrackeeRules
@testable import TrackeeAutomation

/// The idle period and the lengths rules wait for: reached on time, late,
/// once; ended with the source's since or the period's.
@Suite struct IdleRuntimeTests {
    /// 2026-11-26 09:50 in Prague.
    let t0 = Instant(seconds: 1_795_683_000)

    func reached(_ threshold: Int64, since: Instant? = nil) -> TriggerEvent {
        TriggerEvent(.idleReached(since: since ?? t0, threshold: threshold), time: (since ?? t0) + threshold)
    }

    @Test func aLengthIsADeadlineUntilItIsReachedOnce() {
        var idle = IdleRuntime(thresholds: [600, 300, 600])
        #expect(idle.thresholds == [300, 600])
        #expect(idle.nextDeadline == nil)
        #expect(idle.take(.idle(since: t0), at: t0 + 60) == [])
        #expect(idle.since == t0)
        #expect(idle.nextDeadline == t0 + 300)
        #expect(idle.due(now: t0 + 299) == [])
        #expect(idle.due(now: t0 + 300) == [reached(300)])
        #expect(idle.nextDeadline == t0 + 600)
        #expect(idle.due(now: t0 + 300) == [])
        #expect(idle.due(now: t0 + 900) == [reached(600)])
        #expect(idle.nextDeadline == nil)
    }

    /// Mutter's watch fires after its interval; logind's hint is read
    /// later still: lengths already past fire at once, at their own time.
    @Test func aLateReportReachesThePastLengthsAtOnce() {
        var idle = IdleRuntime(thresholds: [60, 600, 3600])
        #expect(idle.take(.idle(since: t0), at: t0 + 700) == [reached(60), reached(600)])
        #expect(idle.nextDeadline == t0 + 3600)
    }

    @Test func theSamePeriodAgainChangesNothing() {
        var idle = IdleRuntime(thresholds: [600])
        #expect(idle.take(.idle(since: t0), at: t0 + 700) == [reached(600)])
        #expect(idle.take(.idle(since: t0), at: t0 + 800) == [])
        #expect(idle.nextDeadline == nil)
        // A new period (the user was active in between without a report).
        #expect(idle.take(.idle(since: t0 + 1000), at: t0 + 1000) == [])
        #expect(idle.nextDeadline == t0 + 1600)
    }

    @Test func activityEndsThePeriodOnceWithTheSourcesSinceOrItsOwn() {
        var idle = IdleRuntime(thresholds: [600])
        _ = idle.take(.idle(since: t0), at: t0 + 60)
        #expect(idle.take(.active(since: nil), at: t0 + 400)
                == [TriggerEvent(.idleEnded(since: t0, duration: 400), time: t0 + 400)])
        #expect(idle.since == nil)
        #expect(idle.nextDeadline == nil)
        #expect(idle.due(now: t0 + 900) == [])
        // The source knows when idleness began though no period was seen.
        #expect(idle.take(.active(since: t0 + 1000), at: t0 + 1900)
                == [TriggerEvent(.idleEnded(since: t0 + 1000, duration: 900), time: t0 + 1900)])
        // Neither knows: nothing to say.
        #expect(idle.take(.active(since: nil), at: t0 + 2000) == [])
        // A since after the report is no idle period.
        #expect(idle.take(.active(since: t0 + 3000), at: t0 + 2500) == [])
    }

    @Test func otherChangesAreNotIdleness() {
        var desk = DeskRuntime(idle: IdleRuntime(thresholds: [600]))
        #expect(desk.take(.idle(since: t0), at: t0) == [])
        #expect(desk.take(.session(.locked), at: t0 + 10) == [TriggerEvent(.session(.locked), time: t0 + 10)])
        #expect(desk.idle.since == t0)
        #expect(desk.nextDeadline == t0 + 600)
    }

    @Test func theRulesGiveTheLengthsAndTheShortestOfForAndAfter() throws {
        let automation = Automation.load([RuleFile(path: "rules.yaml", text: """
            rules:
              - id: away
                when: [{idle: {for: 10m}}, {idle: {for: 1h}}]
                do: [stop]
              - id: back
                when: {idle: {ended: true, after: 5m}}
                do: [stop]
              - id: off
                enabled: false
                when: {idle: {for: 1m}}
                do: [stop]
            """)]).automation
        let idle = IdleRuntime(automation)
        #expect(idle.thresholds == [600, 3600])
        #expect(idle.afters == [300])
        #expect(idle.shortestThreshold == 300)
        #expect(IdleRuntime().shortestThreshold == nil)
    }

    /// Rules reloaded inside a period: the new lengths count from its since.
    @Test func newRulesKeepThePeriodUnderWay() {
        var idle = IdleRuntime(thresholds: [3600])
        _ = idle.take(.idle(since: t0), at: t0)
        idle = idle.with(IdleRuntime(thresholds: [300, 3600]))
        #expect(idle.since == t0)
        #expect(idle.due(now: t0 + 400) == [reached(300)])
        #expect(idle.nextDeadline == t0 + 3600)
    }
}

/// The five one-line kinds: one event per edge, a repeat makes none.
@Suite struct DeskRuntimeTests {
    let t0 = Instant(seconds: 1_795_683_000)

    @Test func aRepeatedStateIsNoEdge() {
        var desk = DeskRuntime()
        #expect(desk.take(.session(.locked), at: t0) == [TriggerEvent(.session(.locked), time: t0)])
        #expect(desk.take(.session(.locked), at: t0 + 5) == [])
        #expect(desk.take(.session(.unlocked), at: t0 + 9) == [TriggerEvent(.session(.unlocked), time: t0 + 9)])
        #expect(desk.take(.power(.battery), at: t0) == [TriggerEvent(.power(.battery), time: t0)])
        #expect(desk.take(.power(.battery), at: t0 + 1) == [])
        #expect(desk.take(.sleep(.suspend), at: t0) == [TriggerEvent(.sleep(.suspend), time: t0)])
        #expect(desk.take(.sleep(.resume), at: t0 + 60) == [TriggerEvent(.sleep(.resume), time: t0 + 60)])
    }

    @Test func eachConnectionAndDeviceHasItsOwnState() {
        var desk = DeskRuntime()
        let home = NetworkChange(state: .connected, connection: "Home", ssid: "Home", uuid: "u-home")
        let office = NetworkChange(state: .connected, connection: "ACME", ssid: "ACME-Office", uuid: "u-acme")
        var homeDown = home
        homeDown.state = .disconnected
        #expect(desk.take(.network(home), at: t0).count == 1)
        #expect(desk.take(.network(home), at: t0 + 1) == [])
        #expect(desk.take(.network(homeDown), at: t0 + 2) == [TriggerEvent(.network(homeDown), time: t0 + 2)])
        #expect(desk.take(.network(office), at: t0 + 3) == [TriggerEvent(.network(office), time: t0 + 3)])
        let dock = DeviceChange(action: .added, devpath: "/d/1-2", subsystem: "usb", vendor: "17ef", product: "30b4")
        let mouse = DeviceChange(action: .added, devpath: "/d/1-3", subsystem: "usb")
        #expect(desk.take(.device(dock), at: t0).count == 1)
        #expect(desk.take(.device(dock), at: t0 + 1) == [])
        #expect(desk.take(.device(mouse), at: t0 + 1).count == 1)
    }

    @Test func idlenessGoesThroughTheIdleRuntime() {
        var desk = DeskRuntime(idle: IdleRuntime(thresholds: [600]))
        #expect(desk.take(.idle(since: t0), at: t0 + 5) == [])
        #expect(desk.nextDeadline == t0 + 600)
        #expect(desk.due(now: t0 + 600) == [TriggerEvent(.idleReached(since: t0, threshold: 600), time: t0 + 600)])
        #expect(desk.take(.active(since: nil), at: t0 + 700)
                == [TriggerEvent(.idleEnded(since: t0, duration: 700), time: t0 + 700)])
    }
}
