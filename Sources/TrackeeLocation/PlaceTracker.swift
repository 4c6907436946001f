import TrackeeCore

/// One place's state as seen by triggers with one dwell (`for:`): what it
/// is, since when, and a new state waiting to have held long enough.
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
    /// Seconds.
    public var dwell: Int64
    public var state: PlaceState = .unknown
    /// The time of the fix that began `state`.
    public var since: Instant?
    /// A new state, waiting for the dwell.
    public var candidate: Candidate?
    /// The newest fix this tracker has taken.
    public var lastFix: Instant?

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
        self.place = place
        self.dwell = dwell
        self.state = state
        self.since = since
        self.candidate = candidate
        self.lastFix = lastFix
    }

    /// Takes a fix classified as `seen` (nil: neither inside nor outside).
    /// Returns the transition it completes, if any. Fixes older than the
    /// last one taken change nothing.
    public mutating func take(_ fix: Fix, seen: PlaceState?) -> PlaceEvent? {
        if let lastFix, fix.time <= lastFix { return nil }
        lastFix = fix.time
        guard let seen else { return nil }
        if seen == state {
            candidate = nil
            return nil
        }
        if candidate?.state != seen { candidate = Candidate(state: seen, fix: fix) }
        guard let began = candidate, fix.time - began.fix.time >= dwell else { return nil }
        let previous = state
        state = began.state
        since = began.fix.time
        candidate = nil
        if previous == .unknown && state == .outside { return nil }
        return PlaceEvent(place: place, transition: state == .inside ? .arrive : .leave, dwell: dwell, fix: began.fix)
    }

    /// Whether a fix far from the place (certainly outside) could change
    /// anything: not when the place is settled outside.
    var caresAboutDistantFixes: Bool { state != .outside || candidate != nil }
}
