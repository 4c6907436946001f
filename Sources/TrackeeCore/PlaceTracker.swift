/// Where the last fixes put someone with respect to a place.
public enum PlaceState: String, Sendable, Equatable, CaseIterable {
    case inside, outside, unknown
}

/// One place's state as seen by triggers with one dwell (`for:`): what it
/// is, since when, and a new state waiting to have held long enough. The
/// store keeps it; TrackeeLocation moves it on with each fix.
///
/// A fix that puts the place in another state than the current one starts
/// a candidate; the candidate becomes the state once fixes have kept it
/// for `dwell` seconds, and the transition then takes the time of the
/// candidate's first fix. A fix that agrees with the current state drops
/// the candidate; a fix that cannot tell (nil) changes nothing. Arriving
/// from unknown counts; leaving from unknown does not (nobody left).
///
/// So two transitions are never closer than the dwell, and an arrive is
/// always followed by a leave before the next arrive, however the fixes
/// jitter.
public struct PlaceTracker: Sendable, Equatable {
    public var place: String
    /// Everything but the name: plain numbers, so the geofences keep a
    /// thousand of them in one flat array and copy them for free.
    public var progress: Progress

    /// Seconds.
    public var dwell: Int64 {
        get { progress.dwell }
        set { progress.dwell = newValue }
    }
    public var state: PlaceState {
        get { progress.state }
        set { progress.state = newValue }
    }
    /// The time of the fix that began `state`.
    public var since: Instant? {
        get { progress.since }
        set { progress.since = newValue }
    }
    /// A new state, waiting for the dwell.
    public var candidate: Candidate? {
        get { progress.candidate }
        set { progress.candidate = newValue }
    }
    /// The newest fix this tracker has taken.
    public var lastFix: Instant? {
        get { progress.lastFix }
        set { progress.lastFix = newValue }
    }

    public struct Progress: Sendable, Equatable {
        /// Seconds.
        public var dwell: Int64
        public var state: PlaceState = .unknown
        public var since: Instant?
        public var candidate: Candidate?
        public var lastFix: Instant?

        public init(dwell: Int64, state: PlaceState = .unknown, since: Instant? = nil, candidate: Candidate? = nil,
                    lastFix: Instant? = nil) {
            self.dwell = dwell
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

    public init(place: String, dwell: Int64, state: PlaceState = .unknown, since: Instant? = nil,
                candidate: Candidate? = nil, lastFix: Instant? = nil) {
        self.init(place: place, progress: Progress(dwell: dwell, state: state, since: since, candidate: candidate,
                                                   lastFix: lastFix))
    }

    public init(place: String, progress: Progress) {
        self.place = place
        self.progress = progress
    }
}
