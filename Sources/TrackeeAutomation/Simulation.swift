import Foundation
import TrackeeCore
import TrackeeLocation
import TrackeeStore

/// A dry run of the rules over a window of simulated time, on a store the
/// caller throws away: `trackee simulate`'s timeline, apart from how the
/// command prints it.
///
/// Focus lines and a track's place transitions are laid out ahead
/// (``steps``); timed occurrences (schedules, calendar edges, `running_for`
/// timers) are asked for as the simulated store changes, since a timer's
/// edge needs the timer the simulation started. Everything is noticed on
/// time: each event is handled at its own instant.
///
/// ```swift
/// let simulation = Simulation(automation: automation, runner: runner, from: start, to: end,
///                             steps: try Simulation.eventSteps(in: text, automation: automation, now: now, zone: zone, from: start, to: end))
/// let events = try simulation.play { step, reports in print(step.time, reports.count) }
/// ```
public struct Simulation {
    /// Something that happens in the simulated window besides timed
    /// occurrences.
    public enum Step: Sendable {
        case trigger(TriggerEvent)
        case focus(mode: String, state: FocusState, at: Instant)
        /// Place states a fix of the track changed, for `place:` conditions.
        case places([PlaceTracker], at: Instant)

        public var time: Instant {
            switch self {
            case .trigger(let event): event.time
            case .focus(_, _, let at): at
            case .places(_, let at): at
            }
        }

        /// Whether the step is an event (not only place states kept).
        public var isEvent: Bool {
            if case .places = self { false } else { true }
        }
    }

    public let automation: Automation
    /// On the throwaway store.
    public let runner: Runner
    public let from: Instant
    public let to: Instant
    /// In time order, ties in the order given.
    public let steps: [Step]

    public init(automation: Automation, runner: Runner, from: Instant, to: Instant, steps: [Step]) {
        self.automation = automation
        self.runner = runner
        self.from = from
        self.to = to
        self.steps = steps.enumerated()
            .sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }
            .map(\.element)
    }

    /// Plays the window: before each step, and at the end, the timed
    /// occurrences due by then, in time order; when an instant's firings
    /// changed the store, the rest is looked at again from there. `observe`
    /// sees every step played with its reports. Returns how many events
    /// were played (timed occurrences and steps that are events).
    @discardableResult
    public func play(_ observe: (Step, [Runner.Report]) throws -> Void) throws -> Int {
        var events = steps.count { $0.isEvent }
        var played = from - 1
        for step in steps.map(Optional.some) + [nil] {
            let through = step?.time ?? to
            look: while played < through {
                let due = automation.occurrences(after: played, through: through, zone: runner.zone, state: runner.state)
                var index = 0
                while index < due.count {
                    let instant = due[index].time
                    var changed = false
                    while index < due.count && due[index].time == instant {
                        changed = try play(.trigger(due[index]), observe) || changed
                        events += 1
                        index += 1
                    }
                    played = instant
                    if changed { continue look }
                }
                played = through
            }
            if let step { _ = try play(step, observe) }
        }
        return events
    }

    /// Whether the step applied an intent, which may change what timed
    /// sources see.
    private func play(_ step: Step, _ observe: (Step, [Runner.Report]) throws -> Void) throws -> Bool {
        let reports: [Runner.Report]
        switch step {
        case .trigger(let event):
            reports = try runner.handle(event, automation: automation, now: event.time)
        case .focus(let mode, let state, let at):
            guard case .changed(_, let fired) = try runner.focus(
                mode, state, automation: automation, at: at, source: .simulate)
            else { return false }
            reports = fired
        case .places(let trackers, _):
            try runner.store.savePlaceTrackers(trackers)
            return false
        }
        try observe(step, reports)
        return reports.contains { if case .fired(let results) = $0.status { !results.isEmpty } else { false } }
    }

    /// The arrive and leave transitions of a recorded track read from `fd`
    /// (any format `trackee feed` reads), through fresh geofences (every
    /// place unknown at the start), in `[from, to]`: those a rule waits
    /// for as events, and the place states each fix changed. `recorded` is
    /// the time the track counts as read, for judging fixes from the future.
    public static func feedSteps(fd: Int32, automation: Automation, defaultAccuracy: Double, recorded: Instant,
                                 from: Instant, to: Instant, zone: Zone) throws -> [Step] {
        var places = PlaceRuntime(automation, stored: [], defaultAccuracy: defaultAccuracy)
        var steps: [Step] = []
        _ = try FeedInput.read(fd: fd, format: .auto, now: recorded, clock: { recorded }) { items, _ in
            for item in items {
                guard let outcome = places.take(item) else { continue }
                if case .fix(let fix) = item, !outcome.changed.isEmpty { steps.append(.places(outcome.changed, at: fix.time.instant)) }
                // A transition is an event when a rule waits for it; the
                // place's other dwells only keep its state.
                steps += outcome.events.filter {
                    $0.time >= from && $0.time <= to && automation.engine.considers($0, zone: zone)
                }.map(Step.trigger)
            }
        }
        return steps
    }

    /// A line of an events file that cannot be simulated.
    public struct EventsFailure: Error, Equatable {
        public var line: Int
        public var message: String
    }

    /// The focus changes and desk changes of an events file (JSON lines
    /// as `trackee run` reads them, each with its `time`) in `[from, to]`.
    /// Desk changes go through a ``DeskRuntime`` as in the daemon: a repeat
    /// makes nothing, and an idle period reaches the lengths `automation`'s
    /// rules wait for at `since + D`, when that falls before the next line
    /// or the window's end.
    public static func eventSteps(in text: String, automation: Automation, now: Instant, zone: Zone, from: Instant,
                                  to: Instant) throws(EventsFailure) -> [Step]
    {
        var steps: [Step] = []
        var desk: [(change: DeskEvent, time: Instant)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let event: EventLine?
            do {
                event = try EventLine.parse(line, line: index + 1, now: now, zone: zone)
            } catch {
                throw EventsFailure(line: error.line, message: error.message)
            }
            switch event {
            case .focus(let mode, let state, let time)?:
                guard let time else { throw EventsFailure(line: index + 1, message: "\"time\" is required in a simulation") }
                if time >= from && time <= to { steps.append(.focus(mode: mode, state: state, at: time)) }
            case .desk(let change, let time)?:
                guard let time else { throw EventsFailure(line: index + 1, message: "\"time\" is required in a simulation") }
                desk.append((change, time))
            case nil:
                break
            }
        }
        var runtime = DeskRuntime(idle: IdleRuntime(automation))
        var events: [TriggerEvent] = []
        for (change, time) in desk.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) })
            .map(\.element)
        {
            events += runtime.due(now: time)
            events += runtime.take(change, at: time)
        }
        events += runtime.due(now: to)
        steps += events.filter { $0.time >= from && $0.time <= to }.map(Step.trigger)
        return steps
    }
}
