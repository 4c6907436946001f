import ArgumentParser
import TrackeeAutomation
import TrackeeCore

extension Trackee {
    struct Tick: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tick",
            abstract: "Fire every schedule occurrence due since the last tick (for cron and systemd timers).",
            discussion: """
                Looks at the schedule from the stored watermark up to now, fires what fell \
                due under each rule's catch-up policy, and moves the watermark. The first \
                tick only sets the watermark. An occurrence fires once, however often tick \
                runs and whether or not trackee run is running too.
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        @Option(parsing: .unconditional, help: "Evaluate as if it were this time (default now); see TIME FORMATS.")
        var now: String?

        struct View: Encodable {
            var from: String?
            var to: String
            var fired: [FiringView]
            var skipped: [SkippedView]
            var not_fired: [SkippedView]
        }

        struct SkippedView: Encodable {
            var rule: String
            var time: String
            var reason: String
        }

        func run() throws {
            try Session.run(common) { session in
                let automation = try session.strictRules(rules)
                let now = try self.now.map { try session.time($0, option: "--now") } ?? session.now
                let store = try session.openStore()
                if self.now != nil, let last = try session.runner(store).timedWatermark(), now < last {
                    // The window would run backwards; a past window is
                    // simulate's, which leaves the store alone.
                    throw CommandFailure.refused(
                        "--now \(session.zone.iso8601(now)) is before the last tick at \(session.zone.iso8601(last)); "
                            + "tick only moves forward; to replay a past window run `trackee simulate --from TIME --to TIME`")
                }
                let report = try session.runner(store).tick(automation, now: now)
                if session.out.json {
                    session.out.emit(View(
                        from: report.from.map(session.zone.iso8601), to: session.zone.iso8601(report.to),
                        fired: report.reports.map { FiringView($0, zone: session.zone) },
                        skipped: report.skipped.map {
                            SkippedView(rule: $0.event.rule ?? $0.event.kindName, time: session.zone.iso8601($0.event.time), reason: "\($0.reason)")
                        },
                        not_fired: report.quiet.map {
                            SkippedView(rule: $0.rule ?? $0.kindName, time: session.zone.iso8601($0.time), reason: "conditions not met or cooling down")
                        }))
                    return
                }
                guard let from = report.from else {
                    session.out.line("first tick: watermark set to \(session.zone.iso8601(now)); nothing before it fires")
                    return
                }
                for (event, reason) in report.skipped {
                    session.out.line("skipped \(event.rule ?? event.kindName) at \(session.zone.iso8601(event.time)): \(reason)")
                }
                for r in report.reports { session.out.line(r.line(zone: session.zone)) }
                for event in report.quiet {
                    session.out.line("not fired \(event.rule ?? event.kindName) at \(session.zone.iso8601(event.time)): conditions not met or cooling down")
                }
                if now < from {
                    // A clock set back: nothing runs twice, nothing is lost.
                    session.out.line("the clock (\(session.zone.iso8601(now))) is before the last tick at \(session.zone.iso8601(from)); nothing fired")
                } else if report.reports.isEmpty && report.skipped.isEmpty && report.quiet.isEmpty {
                    session.out.line("nothing due from \(session.zone.iso8601(from)) to \(session.zone.iso8601(now))")
                }
            }
        }
    }
}
