import Glibc
import TrackeeCore

/// One input's feed items, each with the line it comes from: lines through
/// ``FeedDecoder`` (an NMEA epoch's items with the line that gave them),
/// or a GPX document through ``GPXDecoder`` (a point's items with the line
/// of its start tag). Serves `feed` and `simulate --feed`.
public enum FeedInput {
    /// Reads `fd` to its end and returns how many lines it had. `now`
    /// judges fixes from the future; `clock` moves it on now and then, for
    /// a pipe that runs for days.
    public static func read(fd: Int32, format: FeedFormat, now: Instant, clock: () -> Instant,
                            _ body: (ArraySlice<FeedItem>, Int) throws -> Void) throws -> Int {
        var reader = ChunkReader(fd: fd)
        var items: [FeedItem] = []
        if format == .gpx || (format == .auto && reader.peekFirstNonSpace() == UInt8(ascii: "<")) {
            var decoder = GPXDecoder(now: now)
            var lines: [Int] = []
            var done = false
            while !done {
                if let chunk = reader.nextChunk() {
                    chunk.withUnsafeBufferPointer { decoder.consume($0, into: &items, lines: &lines) }
                } else {
                    decoder.finish(into: &items, lines: &lines)
                    done = true
                }
                for (index, line) in lines.enumerated() { try body(items[index...index], line) }
                items.removeAll(keepingCapacity: true)
                lines.removeAll(keepingCapacity: true)
            }
            return decoder.linesRead
        }
        if FeedReadAhead.worthIt(fd) { return try FeedReadAhead.read(reader, format: format, now: now, body) }
        var decoder = FeedDecoder(format: format, now: now)
        var number = 0
        var atEnd = false
        while !atEnd {
            // Up to the next line that gives items, or to the end.
            reader.forEachLine { line in
                number += 1
                if number & 1023 == 0 { decoder.now = clock() }
                decoder.line(line, number: number, into: &items)
                return items.isEmpty
            }
            if items.isEmpty {
                decoder.finish(into: &items)
                atEnd = true
            }
            // The first `earlier.count` items come from an earlier line (an
            // NMEA epoch this line completed).
            let earlier = decoder.earlier
            if earlier.count > 0 { try body(items[..<earlier.count], earlier.line) }
            if earlier.count < items.count { try body(items[earlier.count...], number) }
            items.removeAll(keepingCapacity: true)
        }
        return number
    }
}

