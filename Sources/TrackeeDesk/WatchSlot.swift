/// One watch on its bus's thread and where it stands.
struct WatchSlot {
    enum State: Equatable {
        /// Not tried on this connection yet.
        case waiting
        case attached
        /// Its service is not on the bus; it attaches when the name appears.
        case absent
        /// Its service is there but attaching failed; tried again at
        /// `retryAt`, a reading of the bus thread's ``DeskClock``.
        case failed(reason: String, retryAt: Duration, backoff: Backoff)
    }

    let plan: DeskWatchPlan
    var watch: any DeskWatch
    var state = State.waiting

    /// When a failed attach is tried again; nil in any other state.
    var retryAt: Duration? {
        if case .failed(_, let at, _) = state { return at }
        return nil
    }

    /// Attaching failed at `now` for `reason` while its service is on the
    /// bus (an object not yet exported, no session yet): it is tried again
    /// after the next wait of its own backoff, which goes on from its last
    /// failure and starts anew from any other state.
    mutating func failed(_ reason: String, at now: Duration) {
        var backoff = Backoff()
        if case .failed(_, _, let previous) = state { backoff = previous }
        let wait = backoff.take()
        state = .failed(reason: reason, retryAt: now + wait, backoff: backoff)
    }
}
