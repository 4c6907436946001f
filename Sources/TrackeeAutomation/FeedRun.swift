import TrackeeCore
import TrackeeLocation
import TrackeeRules
import TrackeeStore

/// What a feed counted, for its closing line.
public struct FeedCounts: Encodable, Sendable {
    public var lines = 0
    public var fixes = 0
    public var used = 0
    public var ignored: [String: Int] = [:]
    public var transitions = 0
    public var fired = 0

    /// Lines the input got wrong (not ignored fixes that were merely
    /// inaccurate, repeated or already seen).
    public var rejected: Int { IgnoredReason.allCases.reduce(0) { $0 + (ignored[$1.rawValue] ?? 0) } }

    mutating func ignore(_ reason: String) { ignored[reason, default: 0] += 1 }

    /// Reasons the decoder refuses a whole fix, a position with its time,
    /// rather than a line that holds none: these count among `fixes`, as a
    /// stale or inaccurate fix does, so a file of fixes says how many it had
    /// whatever became of them.
    static let refusedFixes: Set<IgnoredReason> = [.future, .simulator, .deadReckoning]
}

/// One run of `trackee feed`: fixes through the place runtime into the
/// rules, the counts and the warnings. What it prints is the command's:
/// the run hands each shown transition, firing report and warning to its
/// ``Observer``.
public struct FeedRun {
    /// What a feed run tells as it goes.
    public struct Observer {
        /// A place crossing, once however many dwells (`for:`) the rules
        /// watch it with.
        public var transition: (PlaceEvent) -> Void
        /// A rule the crossing fired, or tried to.
        public var report: (Runner.Report) -> Void
        /// A line that was not a fix, as `name:line: message`, with how
        /// many such lines there were so far (this one included).
        public var warning: (String, Int) -> Void

        public init(transition: @escaping (PlaceEvent) -> Void, report: @escaping (Runner.Report) -> Void,
                    warning: @escaping (String, Int) -> Void) {
            self.transition = transition
            self.report = report
            self.warning = warning
        }
    }

    public let automation: Automation
    public let store: Store
    public let runner: Runner
    public let zone: Zone
    /// When the run began: no rule fires earlier.
    public let now: Instant
    /// Whether `store` is a throwaway copy: then the place states are not stored.
    public let dryRun: Bool
    public var places: PlaceRuntime
    public private(set) var counts = FeedCounts()
    /// Lines that were not fixes, however many were shown.
    public private(set) var warnings = 0
    /// Places a `place:` condition asks about: rules see their plain state.
    let conditionPlaces: Set<String>
    private let observer: Observer
    private var shownTransitions: Set<String> = []

    public init(automation: Automation, store: Store, runner: Runner, zone: Zone, now: Instant,
                defaultAccuracy: Double, dryRun: Bool, observer: Observer) throws {
        self.automation = automation
        self.store = store
        self.runner = runner
        self.zone = zone
        self.now = now
        self.dryRun = dryRun
        self.observer = observer
        conditionPlaces = Self.placesInConditions(automation.ruleSet.rules)
        places = PlaceRuntime(automation, stored: try store.placeTrackers(), defaultAccuracy: defaultAccuracy)
    }

    /// Reads one input to its end, line by line (GPX by chunks); `clock`
    /// moves the judge of fixes from the future on, for a pipe that runs
    /// for days.
    public mutating func read(fd: Int32, name: String, format: FeedFormat, clock: () -> Instant) throws {
        counts.lines += try FeedInput.read(fd: fd, format: format, now: now, clock: clock) {
            try take($0, line: $1, name: name)
        }
    }

    private mutating func take(_ items: some Collection<FeedItem>, line: Int, name: String) throws {
        for item in items {
            switch item {
            case .fix, .transition:
                counts.fixes += 1
                guard let outcome = places.take(item) else { continue }
                if let ignored = outcome.ignored {
                    counts.ignore(ignored.rawValue)
                    continue
                }
                counts.used += 1
                // Fired before the new states are stored: a crash between
                // the two takes the fix again next time, and the ledger
                // turns its firing away; the other way round it would be lost.
                try fire(outcome.events)
                if !outcome.changed.isEmpty && !dryRun { try store.savePlaceTrackers(outcome.changed) }
            case .ignored(let reason, let message):
                if FeedCounts.refusedFixes.contains(reason) { counts.fixes += 1 }
                counts.ignore(reason.rawValue)
                warnings += 1
                observer.warning("\(name):\(line): \(message)", warnings)
            case .notLocation:
                counts.ignore("not_location")
            }
        }
    }

    private mutating func fire(_ events: [TriggerEvent]) throws {
        for event in events {
            guard let p = event.payload as? PlaceEvent else { continue }
            // A crossing no rule sees (a leave shorter than every leave
            // rule's dwell, at a place no place: condition names) only
            // keeps the place's state: it is not shown or counted, so feed,
            // its dry run and simulate --feed report the same transitions.
            // Kept as a trace all the same, so `rules why` can say no rule
            // waited for it.
            guard automation.engine.considers(event, zone: zone)
                || (p.dwell == 0 && p.geofence == .fixes && conditionPlaces.contains(p.place))
            else {
                if let trace = automation.engine.unawaited(event, noticed: max(now, event.time)) { runner.record(trace) }
                continue
            }
            // One place crossing is one transition, however many dwells
            // (`for:`) the rules watch it with.
            let shown = "\(p.place)\u{0}\(p.transition.rawValue)\u{0}\(event.time.seconds)\u{0}\(p.geofence.rawValue)"
            if shownTransitions.insert(shown).inserted {
                counts.transitions += 1
                observer.transition(p)
            }
            let reports = try runner.handle(event, automation: automation, now: max(now, event.time),
                                            inside: places.inside)
            for report in reports {
                if case .fired = report.status { counts.fired += 1 }
                observer.report(report)
            }
        }
    }

    /// The places named by the `place:` conditions of enabled rules, at any depth.
    static func placesInConditions(_ rules: [Rule]) -> Set<String> {
        func places(_ condition: Condition) -> Set<String> {
            switch condition {
            case .place(let name): [name]
            case .any(let conditions), .all(let conditions): conditions.reduce(into: []) { $0.formUnion(places($1)) }
            case .not(let inner): places(inner)
            case .weekdays, .time, .focus, .timer: []
            }
        }
        return rules.filter(\.enabled).reduce(into: []) { names, rule in
            for condition in rule.conditions { names.formUnion(places(condition)) }
        }
    }

    /// Stores every tracker, with the last fix each took.
    public func finish() throws {
        runner.flushTraces()
        if !dryRun { try store.savePlaceTrackers(places.trackersToStore) }
    }
}
