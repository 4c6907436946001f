/// One watch on its bus's thread and where it stands.
struct WatchSlot {
    enum State: Equatable {
        /// Not tried on this connection yet.
        case waiting
        case attached
        /// Its service is not on the bus; it attaches when the name appears.
        case absent
        /// Its service is there but attaching failed; tried again at `retryAt`.
        case failed(reason: String, retryAt: ContinuousClock.Instant, backoff: Backoff)
    }

    let plan: DeskWatchPlan
    var watch: any DeskWatch
    var state = State.waiting
}
