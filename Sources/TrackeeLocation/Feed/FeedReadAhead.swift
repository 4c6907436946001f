import Glibc
import TrackeeCore

/// Reading a large file of fixes on two cores: one thread reads and
/// decodes lines into batches of items while the caller's thread puts the
/// batches, in order, through the geofences and the rules.
///
/// Only for a regular file of at least ``minimumBytes``: a pipe or a
/// terminal is read as before, one line at a time, so a live feed hands on
/// each fix as soon as its line arrives. For a file, `now` (which judges
/// fixes from the future) stays the time the read began.
enum FeedReadAhead {
    static let minimumBytes: Int64 = 4 << 20
    /// Items per batch: large enough that a hand-over is rare, small enough
    /// that the batches in flight stay a few hundred kilobytes.
    static let batchItems = 4096
    /// Batches decoded ahead of the consumer at most.
    static let depth = 4

    /// Whether `fd` is a regular file large enough to be worth a thread.
    static func worthIt(_ fd: Int32) -> Bool {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
        return Int64(st.st_size) >= minimumBytes
    }

    /// Decodes the rest of `reader` on a thread of its own and calls `body`
    /// with each item and its line number, in input order, on this one.
    /// Returns how many lines the input had. When `body` throws, the reading
    /// thread stops at its next batch and the error is rethrown.
    static func read(_ reader: ChunkReader, format: FeedFormat, now: Instant,
                     _ body: (ArraySlice<FeedItem>, Int) throws -> Void) throws -> Int {
        let queue = BatchQueue(depth: depth)
        let producer = try ReaderThread {
            var reader = reader
            var decoder = FeedDecoder(format: format, now: now)
            var batch = Batch()
            var number = 0
            var atEnd = false
            while !atEnd {
                reader.forEachLine { line in
                    number += 1
                    let before = batch.items.count
                    decoder.line(line, number: number, into: &batch.items)
                    batch.tag(from: before, earlier: decoder.earlier, number: number)
                    return batch.items.count < batchItems
                }
                if batch.items.count < batchItems {
                    let before = batch.items.count
                    decoder.finish(into: &batch.items)
                    batch.tag(from: before, earlier: decoder.earlier, number: number)
                    atEnd = true
                }
                if !queue.push(batch) { break }
                batch = Batch()
            }
            queue.close(lines: number)
        }
        do {
            while let batch = queue.pop() {
                for index in batch.items.indices { try body(batch.items[index...index], batch.lines[index]) }
            }
        } catch {
            queue.cancel()
            _ = queue.waitClosed()
            producer.join()
            throw error
        }
        let lines = queue.waitClosed()
        producer.join()
        return lines
    }

    /// Items with the number of the line each came from.
    struct Batch: Sendable {
        var items: [FeedItem] = []
        var lines: [Int] = []

        init() {
            items.reserveCapacity(FeedReadAhead.batchItems + 8)
            lines.reserveCapacity(FeedReadAhead.batchItems + 8)
        }

        /// Numbers the items appended since `from`: the first
        /// `earlier.count` of them complete an NMEA epoch that began on
        /// `earlier.line`, the rest come from line `number`.
        mutating func tag(from: Int, earlier: (count: Int, line: Int), number: Int) {
            let added = items.count - from
            guard added > 0 else { return }
            let fromEarlier = min(earlier.count, added)
            for _ in 0..<fromEarlier { lines.append(earlier.line) }
            for _ in fromEarlier..<added { lines.append(number) }
        }
    }
}

/// A bounded first-in first-out hand-over of batches between one reading
/// thread and one consuming thread.
final class BatchQueue: @unchecked Sendable {
    private let condition = Condition()
    private var batches: [FeedReadAhead.Batch] = []
    private let depth: Int
    private var closed = false
    private var cancelled = false
    private var lines = 0

    init(depth: Int) { self.depth = depth }

    /// Waits for room; false once the consumer has given up.
    func push(_ batch: FeedReadAhead.Batch) -> Bool {
        condition.locked {
            while batches.count >= depth && !cancelled { condition.wait() }
            if cancelled { return false }
            batches.append(batch)
            condition.broadcast()
            return true
        }
    }

    /// The next batch, or nil once the reader has closed and all are taken.
    func pop() -> FeedReadAhead.Batch? {
        condition.locked {
            while batches.isEmpty && !closed { condition.wait() }
            if batches.isEmpty { return nil }
            let batch = batches.removeFirst()
            condition.broadcast()
            return batch
        }
    }

    func close(lines: Int) {
        condition.locked {
            self.lines = lines
            closed = true
            condition.broadcast()
        }
    }

    func cancel() {
        condition.locked {
            cancelled = true
            batches.removeAll()
            condition.broadcast()
        }
    }

    /// Waits for the reader to finish; the number of lines it read.
    func waitClosed() -> Int {
        condition.locked {
            while !closed { condition.wait() }
            return lines
        }
    }
}

/// A POSIX mutex with its condition variable, so TrackeeLocation needs
/// nothing from Foundation. The pthread objects live at fixed addresses for
/// the life of the object, as POSIX requires.
final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(cond, nil)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a broadcast; call only inside ``locked(_:)``.
    func wait() { pthread_cond_wait(cond, mutex) }

    func broadcast() { pthread_cond_broadcast(cond) }
}

/// A thread of its own with a 1 MB stack, started at once and joined by
/// ``join()``.
struct ReaderThread {
    private let thread: pthread_t

    /// Throws when the system refuses a new thread.
    init(_ body: @escaping @Sendable () -> Void) throws {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 1 << 20)
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            throw ReadAheadFailure(status: status)
        }
        self.thread = thread
    }

    func join() { pthread_join(thread, nil) }
}

/// What the new thread runs, passed to it through a raw pointer.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The system refused the reading thread (`pthread_create`'s status).
struct ReadAheadFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "cannot start a thread to read ahead (error \(status))" }
}
