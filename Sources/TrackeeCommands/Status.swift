import ArgumentParser
import TrackeeAPI
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show the running timer and today's and this week's totals.")

        @OptionGroup var common: CommonOptions

        func run() throws {
            try Session.run(common) { session in
                let store = try session.openStore()
                let reading = try StatusReading(
                    store: store, zone: session.zone, now: session.now, weekStart: session.settings.weekStart)
                if session.out.json {
                    session.out.emit(reading.view(zone: session.zone, now: session.now))
                    return
                }
                let (running, today, week) = (reading.running, reading.today, reading.week)
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
