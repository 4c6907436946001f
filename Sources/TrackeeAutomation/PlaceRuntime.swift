import TrackeeCore
import TrackeeLocation
import TrackeeRules
import TrackeeStore

/// Arrive and leave triggers: fixes through the geofences of the places the
/// rules name, and the transitions they complete as trigger events. Used by
/// `trackee feed`, by `trackee run` for fix lines on its stdin, and by
/// `trackee simulate --feed`.
///
/// Fixes must come in time order, compared to the millisecond (a 10 Hz
/// receiver's fixes are all newer than one another): a fix no newer than
/// the last one taken is ignored (a duplicate, or out of order), as is one no newer than what
/// the store's trackers last took (already seen by an earlier run), so a
/// feed read twice, or two overlapping recordings, change nothing twice.
public struct PlaceRuntime: Sendable {
    public private(set) var geofences: Geofences
    /// Meters, for fixes that give no accuracy.
    public let defaultAccuracy: Double
    /// The newest fix taken, or what the store had taken before.
    private var newest: FixTime?
    private var tookAny = false
    private let ownTracksPlaces: Set<String>
    private let worstAccuracy: Double

    /// Why a fix was not used once decoded.
    public enum Ignored: String, Sendable, CaseIterable {
        /// Less accurate than any place's `max_accuracy`.
        case inaccurate
        /// The same time as the fix before it, to the millisecond.
        case duplicate
        /// Older than the fix before it.
        case outOfOrder = "out_of_order"
        /// No newer than what an earlier run already took.
        case stale
        /// An OwnTracks transition no rule asks for (`source: owntracks`).
        case unused
    }

    /// What one fix did.
    public struct Outcome: Sendable {
        public var events: [TriggerEvent] = []
        /// The trackers whose state or waiting state changed: worth storing.
        public var changed: [PlaceTracker] = []
        public var ignored: Ignored?
    }

    /// `stored` are the trackers the store kept.
    public init(_ automation: Automation, stored: [PlaceTracker], defaultAccuracy: Double) {
        var arrives: [String: Set<Int64>] = [:]
        var leaves: [String: Set<Int64>] = [:]
        var ownTracks: Set<String> = []
        for rule in automation.ruleSet.rules where rule.enabled {
            for case let trigger as PlaceTrigger in rule.triggers {
                if trigger.geofence == .owntracks {
                    ownTracks.insert(trigger.place)
                } else if trigger.transition == .arrive {
                    arrives[trigger.place, default: []].insert(trigger.dwell)
                } else {
                    leaves[trigger.place, default: []].insert(trigger.dwell)
                }
            }
        }
        let dwells = Dictionary(uniqueKeysWithValues: Set(arrives.keys).union(leaves.keys).map {
            ($0, PlaceDwells.pairs(arrives: arrives[$0] ?? [], leaves: leaves[$0] ?? []))
        })
        geofences = Geofences(places: automation.ruleSet.places, dwells: dwells, stored: stored)
        self.defaultAccuracy = defaultAccuracy
        ownTracksPlaces = ownTracks
        newest = stored.compactMap(\.lastFix).max()
        worstAccuracy = automation.ruleSet.places.map(\.maxAccuracy).max() ?? 0
    }

    /// Takes a decoded feed item: a fix, or an OwnTracks transition; nil
    /// for anything else (ignored lines, other events).
    public mutating func take(_ item: FeedItem) -> Outcome? {
        switch item {
        case .fix(let fix): take(fix)
        case .transition(let transition): take(transition)
        case .ignored, .notLocation: nil
        }
    }

    /// Takes one fix.
    public mutating func take(_ fix: Fix) -> Outcome {
        var outcome = Outcome()
        let accuracy = fix.accuracy ?? defaultAccuracy
        if let newest, fix.time <= newest {
            outcome.ignored = !tookAny ? .stale : fix.time == newest ? .duplicate : .outOfOrder
            return outcome
        }
        guard accuracy <= worstAccuracy || geofences.fences.isEmpty else {
            outcome.ignored = .inaccurate
            return outcome
        }
        newest = fix.time
        tookAny = true
        let taken = geofences.take(fix, accuracy: accuracy)
        outcome.changed = taken.changed
        outcome.events = taken.events.map { TriggerEvent(.place($0), time: $0.fix.time.instant) }
        return outcome
    }

    /// Takes a transition the phone decided (OwnTracks).
    public func take(_ transition: OwnTracksTransition) -> Outcome {
        var outcome = Outcome()
        guard ownTracksPlaces.contains(transition.place) else {
            outcome.ignored = .unused
            return outcome
        }
        let event = PlaceEvent(place: transition.place, transition: transition.transition, geofence: .owntracks, fix: transition.fix)
        outcome.events = [TriggerEvent(.place(event), time: transition.fix.time.instant)]
        return outcome
    }

    /// The places whose state is inside, for `place:` conditions.
    public var inside: Set<String> { geofences.inside }

    /// Every tracker, for storing, each as having taken the newest fix:
    /// every tracker considered it, also those a distant fix leaves alone
    /// (settled outside), so a file fed again is all stale.
    public var trackersToStore: [PlaceTracker] {
        geofences.allTrackers.map { tracker in
            var tracker = tracker
            if let newest, tracker.lastFix.map({ $0 < newest }) ?? true { tracker.lastFix = newest }
            return tracker
        }
    }
}
