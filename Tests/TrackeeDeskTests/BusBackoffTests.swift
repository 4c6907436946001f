import Foundation
import Glibc
import Testing
import TrackeeCore
@testable import TrackeeDesk

/// The waits of a bus's thread without a bus: when it tries its bus again
/// and when a failed watch is tried again, on a desk clock the test moves,
/// so none of them takes wall time; and the real clock's wait.
struct BusBackoffTests {
    /// No bus at the address: tried again after a quarter of a second,
    /// then after twice as long each time, up to half a minute.
    @Test func aBusThatIsNotThereIsTriedAfterAQuarterSecondDoublingToHalfAMinute() async {
        let clock = ManualDeskClock()
        let tries = AttachTries(on: clock)
        // A directory that is never made: connecting fails at once.
        let address = "unix:path=\(FileManager.default.temporaryDirectory.path)/trackee-no-bus-\(UUID().uuidString)/bus"
        let monitor = DeskMonitor(environment: ["DBUS_SESSION_BUS_ADDRESS": address], idle: [], watches: [
            FlakyWatch.plan("Steady", reports: "idle", serviceName: "org.freedesktop.DBus", failures: 0, tries: tries),
        ], clock: { SystemMocks.now }, monotonic: clock, log: LogRecorder().log)
        defer { monitor.stop() }
        #expect(monitor.start().description == "desk: nothing attached; absent: session bus (could not connect to \(address))")
        var waits: [ManualDeskClock.Wait?] = []
        for _ in 0..<10 {
            let wait = await clock.nextWait()
            waits.append(wait)
            guard case .until(let deadline) = wait else { break }
            clock.advance(to: deadline)
        }
        #expect(waits == [250, 750, 1750, 3750, 7750, 15750, 31750, 61750, 91750, 121_750].map { .until(.milliseconds($0)) })
        #expect(tries.all == [])
    }

    /// A connection lost a nanosecond short of a minute after it was made
    /// goes on with the backoff; one lost a minute after starts it again.
    @Test func aConnectionThatLastedAMinuteStartsTheReconnectBackoffAgain() {
        let clock = ManualDeskClock()
        var reconnect = Reconnect()
        /// Connecting fails now: the time of the next try, which comes.
        func fail() -> Duration {
            let next = reconnect.retry(after: clock.now)
            clock.advance(to: next)
            return next
        }
        #expect([fail(), fail(), fail()] == [.milliseconds(250), .milliseconds(750), .milliseconds(1750)])
        reconnect.connected(at: clock.now)
        clock.advance(to: clock.now + Reconnect.goodConnection - .nanoseconds(1))
        #expect(fail() == .nanoseconds(63_749_999_999))
        reconnect.connected(at: clock.now)
        clock.advance(to: clock.now + Reconnect.goodConnection)
        #expect([fail(), fail()] == [.nanoseconds(123_999_999_999), .nanoseconds(124_499_999_999)])
    }

    /// Each watch has a backoff of its own, which goes on from its last
    /// failure and starts again after the watch attached.
    @Test func eachWatchIsTriedAgainOnItsOwnBackoff() {
        let tries = AttachTries(on: ManualDeskClock())
        let plan = FlakyWatch.plan("Flaky", reports: "idle", serviceName: "org.freedesktop.DBus", failures: 0, tries: tries)
        var early = WatchSlot(plan: plan, watch: plan.make())
        var late = WatchSlot(plan: plan, watch: plan.make())
        early.failed("not ready", at: .seconds(10))
        early.failed("not ready", at: .milliseconds(10_250))
        late.failed("not ready", at: .milliseconds(10_500))
        early.failed("not ready", at: .milliseconds(10_750))
        late.failed("not ready", at: .milliseconds(10_750))
        #expect([early.retryAt, late.retryAt] == [.milliseconds(11_750), .milliseconds(11_250)])
        early.state = .attached
        #expect(early.retryAt == nil)
        early.failed("gone", at: .seconds(20))
        var once = Backoff()
        _ = once.take()
        #expect(early.state == .failed(reason: "gone", retryAt: .milliseconds(20_250), backoff: once))
        #expect(tries.all == [])
    }

    /// The real clock waits in poll(2) until its deadline, not at all for
    /// one past, and no longer than a descriptor takes to be ready.
    @Test func theContinuousClockWaitsUntilItsDeadlineOrADescriptor() {
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        defer { for end in ends where end >= 0 { close(end) } }
        let clock = PollClock.continuous
        var descriptors = [pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
        let deadline = clock.now + .milliseconds(30)
        #expect(clock.poll(&descriptors, until: deadline) == 0)
        #expect(clock.now >= deadline)
        let passed = clock.now
        #expect(clock.poll(&descriptors, until: passed - .seconds(1)) == 0)
        #expect(clock.now - passed < .seconds(1))
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        let asked = clock.now
        #expect(clock.poll(&descriptors, until: asked + .seconds(10)) == 1)
        #expect(clock.now - asked < .seconds(5))
        #expect(descriptors[0].revents == Int16(POLLIN))
    }
}
