import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show the running timer and today's and this week's totals.")

        @OptionGroup var common: CommonOptions

        struct View: Encodable {
            var running: EntryView?
            var elapsed_seconds: Int64?
            var today_seconds: Int64
            var week_seconds: Int64
        }

        func run() throws {
            try Session.run(common) { session in
                let store = try session.openStore()
                let running = try store.running()
                let today = try store.total(in: session.zone.span(.day, containing: session.now), now: session.now)
                let week = try store.total(
                    in: session.zone.span(.week, containing: session.now, weekStart: session.settings.weekStart),
                    now: session.now)
                if session.out.json {
                    session.out.emit(View(
                        running: running.map { EntryView($0, session: session) },
                        elapsed_seconds: running?.duration(now: session.now), today_seconds: today, week_seconds: week))
                    return
                }
                if let e = running {
                    session.out.line("running \(session.label(e)) #\(e.id)")
                    session.out.line("since   \(session.clock(e.start)) (\(session.duration(e.duration(now: session.now))) elapsed)")
                } else {
                    session.out.line("no timer running")
                }
                session.out.line("today   \(session.duration(today))")
                session.out.line("week    \(session.duration(week))")
            }
        }
    }
}
