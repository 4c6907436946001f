import Foundation
import Glibc
import Logging
import ServiceLifecycle
import TrackeeAutomation
import TrackeeCore
import TrackeeLocation
import UnixSignals

/// Fires schedules: a pass over what is due, then sleep until the next
/// elapse, or at most a minute when nothing is due sooner. There is no
/// polling loop; the minute bounds how long a clock change or a resume
/// from suspend can go unnoticed. Sleeps run on the core's sleep clock,
/// which counts suspend, so a deadline that passed while the machine slept
/// wakes the daemon at resume.
struct ScheduleService: Service {
    let core: DaemonCore
    static let longestSleep: Int64 = 60_000_000_000

    func run() async throws {
        let first = await core.pass()
        await core.announce(next: first, ready: true)
        // Start-up is over: give back the pages only it needed.
        Footprint.releaseStartupPages()
        let (core, alarm) = (core, core.alarm)
        // One shutdown handler for the whole loop, not one per sleep:
        // ending one starts an unstructured task on the shared pool, and a
        // busy pool would then hold up every pass.
        await cancelWhenGracefulShutdown {
            var next = first
            while !Task.isCancelled {
                let now = core.clocks.wall.read().wall
                var delay = Self.longestSleep
                if let next { delay = min(delay, max(0, next.seconds * 1_000_000_000 - now)) }
                await alarm.sleep(nanoseconds: delay)
                // Shut down while asleep: no pass after the sleep.
                if Task.isCancelled { return }
                next = await core.pass()
                await core.announce(next: next, ready: false)
            }
        }
    }
}

/// Reads JSON event lines from stdin when stdin is not a terminal. A bad
/// line is logged with its number and skipped; the end of input (stdin is
/// /dev/null under systemd) ends only the reading: the service itself
/// waits for shutdown, since a service group takes a service that ends on
/// its own during shutdown for a failure.
struct EventLineService: Service {
    let core: DaemonCore
    let logger: Logger
    let zone: Zone
    /// stdin's lines; nil when stdin is a terminal.
    let lines: AsyncStream<String>?

    func run() async throws {
        if let lines { await read(lines) }
        try? await gracefulShutdown()
    }

    private func read(_ lines: AsyncStream<String>) async {
        let (core, logger, zone) = (core, logger, zone)
        let wall = core.clocks.wall
        let count = await cancelWhenGracefulShutdown {
            var number = 0
            // Fix lines (NMEA, gpsd, OwnTracks, CSV) and event lines (JSON
            // with "type") mix: the first byte and the keys tell them apart.
            var decoder = FeedDecoder(format: .auto, now: wall.now)
            var items: [FeedItem] = []
            for await line in lines {
                number += 1
                let bytes = Array(line.utf8)
                items.removeAll(keepingCapacity: true)
                // "More than a day ahead" is judged against today, not the start.
                decoder.now = wall.now
                bytes.withUnsafeBufferPointer { decoder.line($0, number: number, into: &items) }
                let earlier = decoder.earlier
                for (index, item) in items.enumerated() {
                    // An NMEA epoch's fix or problem comes with the next epoch's first line.
                    let number = index < earlier.count ? earlier.line : number
                    switch EventInput.action(item, line: line, number: number, now: wall.now, zone: zone,
                                             origin: "stdin line \(number)") {
                    case .take(let input): await core.take([input])
                    case .skip(let level, let message): logger.log(level: level, "\(message); line skipped")
                    }
                }
            }
            items.removeAll()
            decoder.finish(into: &items)
            for item in items { await core.handle(item) }
            // Cancelled: shutdown, not the end of input.
            return Task.isCancelled ? nil : number
        }
        if let count {
            logger.info("end of stdin after \(count) line\(count == 1 ? "" : "s"); schedules go on")
        }
    }

    /// stdin's lines, read on a thread of their own (reads block).
    static func lines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                while let line = readLine(strippingNewline: true) {
                    continuation.yield(line)
                }
                continuation.finish()
            }
        }
    }
}

/// Reloads the rules on SIGHUP and when a rule file changes, and reads a
/// calendar again when its file or folder changes.
struct ReloadService: Service {
    let core: DaemonCore
    /// Trapped before any service starts, so a SIGHUP right after READY
    /// reloads instead of ending the process.
    let hangups: UnixSignalsSequence
    /// Watched from before the first load, so no change is missed.
    let changes: AsyncStream<String>

    func run() async throws {
        let (core, hangups, changes) = (core, hangups, changes)
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in hangups { await core.reloadAndAnnounce(reason: "SIGHUP") }
                }
                group.addTask {
                    for await path in changes { await core.changed(path) }
                }
            }
        }
    }
}

/// What service-lifecycle's debug log names these services by: their names,
/// and none of what they hold.
extension ScheduleService: CustomStringConvertible {
    var description: String { "ScheduleService" }
}

extension EventLineService: CustomStringConvertible {
    var description: String { "EventLineService" }
}

extension ReloadService: CustomStringConvertible {
    var description: String { "ReloadService" }
}
