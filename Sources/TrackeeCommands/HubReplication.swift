import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TrackeeCore
import TrackeeHub
import TrackeeStore

/// `trackee run`'s replication through the hub, on a thread of its own
/// (libpq blocks): a sync at start, then one soon after each change made
/// here (the store is looked at five times a second), at once when
/// another device's push is announced (`LISTEN trackee_change`), and
/// every minute regardless. A hub out of reach is tried again after 1 s,
/// 2 s, 4 s … up to a minute; the local store never waits for it.
struct HubReplication: Service {
    let client: any HubClient
    let settings: HubSettings
    let password: String?
    let store: Store
    let logger: Logger

    /// How long one wait for an announcement lasts, in milliseconds,
    /// between looks at the store.
    static let look: Int32 = 200
    static let everyMinute: TimeInterval = 60

    func run() async throws {
        let stopped = Flag()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            loop(until: stopped)
            done.signal()
        }
        thread.name = "trackee hub"
        thread.start()
        try? await gracefulShutdown()
        stopped.set()
        await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                done.wait()
                ended.resume()
            }
        }
    }

    private func loop(until stopped: Flag) {
        var backoff: TimeInterval = 1
        var failing: String?
        while !stopped.isSet {
            do {
                let session = try client.connect(settings, password: password)
                try session.listen()
                let sync = HubSync(store: store, settings: settings, session: session)
                // The head is read before each sync: a change committed
                // while it runs is then seen by the next look (and what the
                // sync itself wrote costs one more sync that finds nothing).
                var head = try store.hubLocalHead()
                try once(sync)
                if let failing { logger.info("hub: reached again (after: \(failing))") }
                failing = nil
                backoff = 1
                var last = Date()
                while !stopped.isSet {
                    let announced = try session.waitForPush(milliseconds: Self.look, excluding: settings.device)
                    let now = try store.hubLocalHead()
                    if announced || now != head || Date().timeIntervalSince(last) >= Self.everyMinute {
                        head = now
                        try once(sync)
                        last = Date()
                    }
                }
            } catch {
                let message = "\(error)"
                try? store.hubSynced(error: message, now: SystemClock.now())
                if failing != message { logger.error("hub: \(message); trying again, local work goes on") }
                failing = message
                var waited: TimeInterval = 0
                while waited < backoff && !stopped.isSet {
                    usleep(100_000)
                    waited += 0.1
                }
                backoff = min(backoff * 2, Self.everyMinute)
            }
        }
    }

    private func once(_ sync: HubSync) throws {
        let report = try sync.run(now: SystemClock.now)
        try store.hubSynced(error: nil, now: SystemClock.now())
        for warning in report.warnings { logger.warning("hub: \(warning)") }
        if report.pushed + report.pulled > 0 {
            logger.debug("hub: pushed \(report.pushed), pulled \(report.pulled), applied \(report.applied)")
        }
        if report.conflicts > 0 { logger.warning("hub: \(report.conflicts) conflict(s); trackee hub conflicts lists them") }
    }

    /// Set once, read from another thread.
    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }
}

/// What service-lifecycle's debug log names this service by: its name, and
/// none of what it holds (settings, passwords, tokens).
extension HubReplication: CustomStringConvertible {
    var description: String { "HubReplication(device: \(settings.device))" }
}
