import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "List the intents applied (start, stop, cancel), newest first: why a timer started or stopped.",
            discussion: """
                One line per intent: its number, when it took effect, its source (cli, stdin, \
                rule:ID with the trigger that fired it, http:DEVICE for a device of the HTTP API, \
                web:DEVICE for the web page signed in with that token), the action and its \
                parameters, the outcome, and the entry it touched. A call whose key was applied before says so. Page back with \
                the --before value printed at the end.
                """)

        @OptionGroup var common: CommonOptions

        @Option(help: "How many intents to show.")
        var limit: Int = 20

        @Option(help: "Show intents older than this number (from an earlier page).")
        var before: Int64?

        @Option(help: "Only intents from this source: cli, stdin, rule:ID, http:DEVICE, web:DEVICE, or rule, http or web for every one of that kind.")
        var source: String?

        func validate() throws {
            if limit < 1 { throw ValidationError("--limit must be at least 1.") }
            if let source, source.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("--source is empty; leave it out for every source.")
            }
        }

        struct View: Encodable {
            var intents: [IntentView]
            var next_before: Int64?
        }

        func run() throws {
            try Session.run(common) { session in
                let store = try session.openStore()
                let filter = source.flatMap(SourceFilter.init)
                var records: [IntentRecord] = []
                // Text no source has matches nothing, as a source without
                // intents does.
                if source == nil || filter != nil {
                    records = try store.intentHistory(limit: limit + 1, before: before, source: filter)
                }
                let hasMore = records.count > limit
                if hasMore { records.removeLast() }
                let next = hasMore ? records.last?.id : nil
                let views = records.map { IntentView($0, session: session) }
                if session.out.json {
                    session.out.emit(View(intents: views, next_before: next))
                    return
                }
                if views.isEmpty { session.out.line("no intents" + (source.map { " from \($0)" } ?? "")) }
                for v in views { session.out.line(Self.line(v, session: session)) }
                if let next { session.out.line(session.out.dim("older: trackee history --before \(next)")) }
            }
        }

        /// `#12  2026-11-23 09:00  rule:standup  start Meetings · standup  started #40  (calendar work: start of "Standup")`.
        static func line(_ v: IntentView, session: Session) -> String {
            let local = session.zone.localDateTime(Instant(seconds: v.at))
            var text = "#\(v.id)  \(local.date) \(pad(local.hour, 2)):\(pad(local.minute, 2))  \(v.source)  \(v.action)"
            if let p = v.parameters {
                let e = Entry(id: 0, project: p.project, client: p.client, description: p.description, tags: p.tags,
                              start: Instant(seconds: v.at), end: nil, source: v.source)
                text += " " + session.label(e)
            }
            if v.replayed {
                text += "  " + session.out.yellow("applied before") + " (key \"\(v.key ?? "")\", as #\(v.replay_of ?? 0): \(v.outcome))"
            } else {
                text += "  " + v.outcome
            }
            if let entry = v.entry { text += " #\(entry)" }
            if let first = v.voided {
                text += "  " + session.out.yellow("voided: \(v.rule == nil ? "applied" : "fired") on \(first) first")
            }
            if let trigger = v.trigger { text += session.out.dim("  (\(trigger))") }
            if let device = v.device { text += session.out.dim("  on \(device)") }
            return text
        }
    }
}

/// One intent of `trackee history --json`.
struct IntentView: Encodable {
    struct Parameters: Encodable {
        var project: String?
        var client: String?
        var description: String
        var tags: [String]
    }

    var id: Int64
    /// When it took effect, and when it was applied (they differ for
    /// `--at` and for a rule's occurrence handled late).
    var time: String
    var applied: String
    var source: String
    var action: String
    /// `start`'s timer; null for stop and cancel.
    var parameters: Parameters?
    var outcome: String
    var replayed: Bool
    var replay_of: Int64?
    var key: String?
    var entry: Int64?
    var previous_entry: Int64?
    var rule: String?
    /// What fired the rule: `schedule Mon..Fri 09:00`, `focus deep on`, a
    /// calendar edge or a place transition.
    var trigger: String?
    /// The device it was applied on, for an intent pulled from the hub;
    /// absent for one applied here.
    var device: String?
    /// Set when the intent's key or its rule's firing was applied first on
    /// another device (named), whose application stands; this one counts
    /// for nothing.
    var voided: String?
    /// Seconds, for the text form.
    fileprivate var at: Int64

    enum CodingKeys: String, CodingKey {
        case id, time, applied, source, action, parameters, outcome, replayed, replay_of, key, entry, previous_entry, rule,
             trigger, device, voided
    }

    init(_ r: IntentRecord, session: Session) {
        id = r.id
        at = r.at.seconds
        time = session.zone.iso8601(r.at)
        applied = session.zone.iso8601(r.applied)
        source = r.source.storedText
        action = r.action
        outcome = r.outcome
        replayed = r.replayOf != nil
        replay_of = r.replayOf
        key = r.key
        entry = r.entryID
        previous_entry = r.previousEntryID
        rule = r.source.rule
        trigger = r.trigger
        device = r.device
        voided = r.voided
        if r.action == "start", let p = TimerParameters(loggedParameters: r.parameters) {
            parameters = Parameters(project: p.project, client: p.client, description: p.description, tags: p.tags)
        }
    }
}
