import Foundation
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
        let producer = Thread {
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
        producer.stackSize = 1 << 20
        producer.start()
        do {
            while let batch = queue.pop() {
                for index in batch.items.indices { try body(batch.items[index...index], batch.lines[index]) }
            }
        } catch {
            queue.cancel()
            _ = queue.waitClosed()
            throw error
        }
        return queue.waitClosed()
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
    private let condition = NSCondition()
    private var batches: [FeedReadAhead.Batch] = []
    private let depth: Int
    private var closed = false
    private var cancelled = false
    private var lines = 0

    init(depth: Int) { self.depth = depth }

    /// Waits for room; false once the consumer has given up.
    func push(_ batch: FeedReadAhead.Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= depth && !cancelled { condition.wait() }
        if cancelled { return false }
        batches.append(batch)
        condition.broadcast()
        return true
    }

    /// The next batch, or nil once the reader has closed and all are taken.
    func pop() -> FeedReadAhead.Batch? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !closed { condition.wait() }
        if batches.isEmpty { return nil }
        let batch = batches.removeFirst()
        condition.broadcast()
        return batch
    }

    func close(lines: Int) {
        condition.lock()
        self.lines = lines
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the reader to finish; the number of lines it read.
    func waitClosed() -> Int {
        condition.lock()
        defer { condition.unlock() }
        while !closed { condition.wait() }
        return lines
    }
}
