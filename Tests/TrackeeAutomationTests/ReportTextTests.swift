import Testing
import TrackeeCore
import TrackeeRules
import TrackeeStore

@testable import TrackeeAutomation

/// 2026-11-23T09:00:00Z.
private let nine = Instant(seconds: 1_795_424_400)

private func entry(_ project: String?, description: String = "") -> Entry {
    Entry(id: 12, project: project, client: nil, description: description, tags: [], start: nine, end: nil, source: "rule:standup")
}

private func report(_ status: Runner.Report.Status, actions: [Firing.Action]? = nil) -> Runner.Report {
    let start = Intent(.start(TimerParameters(project: "Meetings")), at: nine)
    let firing = Firing(
        key: FiringKey(rule: "standup", occurrence: "1795424400"), time: nine, trigger: "schedule 09:00",
        description: "standup at 09:00",
        actions: actions ?? [
            .intent(start), .notify(title: "Standup", body: "in room 2"),
            .run(argv: ["notify-send", "it's time"], environment: [:]), .intent(Intent(.stop, at: nine)),
        ])
    return Runner.Report(firing: firing, status: status)
}

private let fired = report(.fired([
    IntentResult(outcome: .started, entry: entry("Meetings", description: "daily"), created: ["project \"Meetings\""], logID: 1),
    IntentResult(outcome: .unchanged, entry: nil, logID: 2),
]))

@Suite struct ReportTextTests {
    @Test func oneLinePerReport() {
        #expect(fired.line(zone: .utc)
                    == #"fired standup at 2026-11-23T09:00:00Z: started Meetings, unchanged (created project "Meetings")"#)
        #expect(report(.fired([IntentResult(outcome: .stopped, entry: entry(nil), logID: 1)])).line(zone: .utc)
                    == "fired standup at 2026-11-23T09:00:00Z: stopped (no project)")
        #expect(report(.fired([])).line(zone: .utc) == "fired standup at 2026-11-23T09:00:00Z")
        #expect(report(.alreadyFired).line(zone: .utc) == "already fired standup at 2026-11-23T09:00:00Z")
        #expect(report(.refused("no project \"X\"")).line(zone: .utc)
                    == #"refused standup at 2026-11-23T09:00:00Z: no project "X""#)
        #expect(report(.failed("disk full")).line(zone: .utc) == "failed standup at 2026-11-23T09:00:00Z: disk full")
    }

    @Test func aDryRunSaysWhatEachActionDidOrWouldDo() {
        #expect(fired.dryRunLines(zone: .utc, style: TextStyle(color: false)) == [
            "2026-11-23T09:00:00Z  standup  started Meetings · daily",
            "2026-11-23T09:00:00Z  standup  would notify: Standup: in room 2",
            "2026-11-23T09:00:00Z  standup  would run: notify-send 'it'\\''s time'",
            "2026-11-23T09:00:00Z  standup  unchanged nothing running",
        ])
        #expect(fired.dryRunLines(zone: .utc, style: TextStyle(color: true))[0]
                    == "2026-11-23T09:00:00Z  standup  started \u{1B}[1mMeetings\u{1B}[0m · daily")
        // Fewer results than intents: the intents past them say nothing.
        let short = report(.fired([]), actions: [.intent(Intent(.stop, at: nine)), .notify(title: "Done", body: nil)])
        #expect(short.dryRunLines(zone: .utc, style: TextStyle(color: false)) == ["2026-11-23T09:00:00Z  standup  would notify: Done"])
        #expect(report(.alreadyFired).dryRunLines(zone: .utc, style: TextStyle(color: false))
                    == ["2026-11-23T09:00:00Z  standup  already fired standup at 2026-11-23T09:00:00Z"])
    }

    @Test func firingViews() {
        let view = FiringView(fired, zone: .utc)
        #expect([view.rule, view.key, view.time, view.status] == ["standup", "standup@1795424400", "2026-11-23T09:00:00Z", "fired"])
        #expect(view.outcomes == ["started", "unchanged"])
        #expect(view.error == nil && view.would_notify == nil && view.would_run == nil)
        let simulated = FiringView(simulated: fired, zone: .utc)
        #expect(simulated.would_notify == ["Standup: in room 2"])
        #expect(simulated.would_run == [["notify-send", "it's time"]])
        #expect(FiringView(simulated: report(.fired([]), actions: [.intent(Intent(.stop, at: nine))]), zone: .utc).would_run == nil)
        let refused = FiringView(simulated: report(.refused("no project")), zone: .utc)
        #expect([refused.status, refused.error] == ["refused", "no project"])
        #expect(refused.outcomes == [] && refused.would_notify == nil && refused.would_run == nil)
        #expect(FiringView(report(.alreadyFired), zone: .utc).status == "already_fired")
        let failed = FiringView(report(.failed("disk full")), zone: .utc)
        #expect([failed.status, failed.error] == ["failed", "disk full"])
    }
}
