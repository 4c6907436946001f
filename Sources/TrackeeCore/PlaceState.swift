/// Where the last fixes put someone with respect to a place.
public enum PlaceState: String, Sendable, Equatable, CaseIterable {
    case inside, outside, unknown
}

/// One place's state as seen by triggers with one pair of dwells (`for:`
/// on arriving and on leaving): what it is, since when, and a new state
/// waiting to have held long enough. The store keeps it; TrackeeLocation
/// moves it on with each fix.
///
/// A fix that puts the place in another state than the current one starts
/// a candidate; the candidate becomes the state once fixes have kept it
/// for its dwell (`arriveDwell` seconds to become inside, `leaveDwell` to
/// become outside, measured between fix times to the millisecond), and the
/// transition then takes the time of the candidate's first fix. A fix that agrees with the current state drops
/// the candidate; a fix that cannot tell (nil) changes nothing. Arriving
/// from unknown counts; leaving from unknown does not (nobody left).
///
/// So a leave comes at least `arriveDwell` after the arrive before it, an
/// arrive at least `leaveDwell` after the leave before it, and arrives and
/// leaves alternate, however the fixes jitter. A place's arrive and leave
/// rules share one tracker, so a visit that counted as an arrive is always
/// followed by a leave.
public struct PlaceTracker: Sendable, Equatable {
    public var place: String
    /// Everything but the name: plain numbers, so the geofences keep a
    /// thousand of them in one flat array and copy them for free.
    public var progress: Progress

    /// Seconds a new inside state must hold.
    public var arriveDwell: Int64 {
        get { progress.arriveDwell }
        set { progress.arriveDwell = newValue }
    }
    /// Seconds a new outside state must hold.
    public var leaveDwell: Int64 {
        get { progress.leaveDwell }
        set { progress.leaveDwell = newValue }
    }
    public var state: PlaceState {
        get { progress.state }
        set { progress.state = newValue }
    }
    /// The time of the fix that began `state`.
    public var since: FixTime? {
        get { progress.since }
        set { progress.since = newValue }
    }
    /// A new state, waiting for the dwell.
    public var candidate: Candidate? {
        get { progress.candidate }
        set { progress.candidate = newValue }
    }
    /// The newest fix this tracker has taken.
    public var lastFix: FixTime? {
        get { progress.lastFix }
        set { progress.lastFix = newValue }
    }

    public struct Progress: Sendable, Equatable {
        /// Seconds.
        public var arriveDwell: Int64
        public var leaveDwell: Int64
        public var state: PlaceState = .unknown
        public var since: FixTime?
        public var candidate: Candidate?
        public var lastFix: FixTime?

        public init(arriveDwell: Int64, leaveDwell: Int64, state: PlaceState = .unknown, since: FixTime? = nil,
                    candidate: Candidate? = nil, lastFix: FixTime? = nil) {
            self.arriveDwell = arriveDwell
            self.leaveDwell = leaveDwell
            self.state = state
            self.since = since
            self.candidate = candidate
            self.lastFix = lastFix
        }
    }

    public struct Candidate: Sendable, Equatable {
        public var state: PlaceState
        /// The fix that began it: its time is the transition's.
        public var fix: Fix

        public init(state: PlaceState, fix: Fix) {
            self.state = state
            self.fix = fix
        }
    }

    public init(place: String, arriveDwell: Int64, leaveDwell: Int64, state: PlaceState = .unknown,
                since: FixTime? = nil, candidate: Candidate? = nil, lastFix: FixTime? = nil) {
        self.init(place: place, progress: Progress(arriveDwell: arriveDwell, leaveDwell: leaveDwell, state: state,
                                                   since: since, candidate: candidate, lastFix: lastFix))
    }

    /// A tracker with one dwell both ways.
    public init(place: String, dwell: Int64, state: PlaceState = .unknown) {
        self.init(place: place, arriveDwell: dwell, leaveDwell: dwell, state: state)
    }

    public init(place: String, progress: Progress) {
        self.place = place
        self.progress = progress
    }
}

/// The dwells one tracker of a place applies: how long a new inside and a
/// new outside state must hold. Worked out from a place's triggers by
/// ``pairs(arrives:leaves:)``.
public struct PlaceDwells: Hashable, Comparable, Sendable {
    public var arrive: Int64
    public var leave: Int64

    public init(arrive: Int64, leave: Int64) {
        self.arrive = arrive
        self.leave = leave
    }

    public static func < (a: PlaceDwells, b: PlaceDwells) -> Bool { (a.arrive, a.leave) < (b.arrive, b.leave) }

    /// The trackers a place needs for its `arrive:` triggers' dwells and its
    /// `leave:` triggers' dwells: each arrive dwell paired with the longest
    /// leave dwell, each leave dwell with the shortest arrive dwell (a
    /// dwell alone where the place has none of the other), and (0, 0) for
    /// the place's plain state. So with arrive for 2m and leave for 5m one
    /// tracker serves both, and a visit of three minutes that starts a
    /// timer is also the visit whose end stops it.
    public static func pairs(arrives: Set<Int64>, leaves: Set<Int64>) -> [PlaceDwells] {
        var pairs: Set<PlaceDwells> = [PlaceDwells(arrive: 0, leave: 0)]
        for a in arrives { pairs.insert(PlaceDwells(arrive: a, leave: leaves.max() ?? a)) }
        for l in leaves { pairs.insert(PlaceDwells(arrive: arrives.min() ?? l, leave: l)) }
        return pairs.sorted()
    }
}
