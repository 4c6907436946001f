import TrackeeCore

extension PlaceTracker.Progress {
    /// Takes a fix classified as `seen` (nil: neither inside nor outside).
    /// Returns the transition it completes and the fix that began it, if
    /// any. Fixes no newer than the last one taken (to the millisecond)
    /// change nothing; a dwell holds once the fixes that kept the new state
    /// span it to the millisecond.
    public mutating func take(_ fix: Fix, seen: PlaceState?) -> (transition: PlaceTransition, fix: Fix)? {
        if let lastFix, fix.time <= lastFix { return nil }
        lastFix = fix.time
        guard let seen else { return nil }
        if seen == state {
            candidate = nil
            return nil
        }
        if candidate?.state != seen { candidate = PlaceTracker.Candidate(state: seen, fix: fix) }
        guard let began = candidate,
            fix.time.milliseconds - began.fix.time.milliseconds >= (began.state == .inside ? arriveDwell : leaveDwell) &* 1000
        else { return nil }
        let previous = state
        state = began.state
        since = began.fix.time
        candidate = nil
        if previous == .unknown && state == .outside { return nil }
        return (state == .inside ? .arrive : .leave, began.fix)
    }

    /// Whether a fix far from the place (certainly outside) could change
    /// anything: not when the place is settled outside.
    var caresAboutDistantFixes: Bool { state != .outside || candidate != nil }
}

extension PlaceTracker {
    /// Takes a fix classified as `seen` (nil: neither inside nor outside).
    /// Returns the transition it completes, if any. Fixes older than the
    /// last one taken change nothing.
    public mutating func take(_ fix: Fix, seen: PlaceState?) -> PlaceEvent? {
        progress.take(fix, seen: seen).map {
            PlaceEvent(place: place, transition: $0.transition, dwell: $0.transition == .arrive ? arriveDwell : leaveDwell,
                       fix: $0.fix)
        }
    }
}
