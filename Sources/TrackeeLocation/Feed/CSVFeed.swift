import TrackeeCore

#if canImport(Glibc)
import Glibc
#endif

/// `time,lat,lon[,accuracy]` lines.
///
/// `time` is ISO 8601 with `Z` or an offset (`2026-11-23T08:57:03Z`,
/// `2026-11-23T09:57:03.5+01:00`) or seconds since 1970 (`1795424223`,
/// `1795424223.25`), kept to the millisecond.
/// A time without an offset is refused rather than guessed: a wrong zone
/// would move every firing by hours. Fields may be double-quoted; columns
/// after the fourth are ignored; an empty accuracy is none.
enum CSVFeed {
    /// Whether a first line is a header: three or more fields, the second
    /// of which is not a number (`time,lat,lon`).
    static func isHeader(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var fields = CSVFields(p: p, index: start, end: end)
        _ = fields.next()
        let lat = fields.next()
        return fields.count == 2 && fields.hasMore && ByteNumbers.decimal(p, lat.start, lat.end) == nil
    }

    static func line(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, now: Instant, into items: inout [FeedItem]) {
        var fields = CSVFields(p: p, index: start, end: end)
        let time = fields.next()
        let lat = fields.next()
        let lon = fields.next()
        let accuracyField = fields.next()
        guard fields.count >= 3 else {
            items.append(.ignored(.unreadable, message: "a CSV line needs time,lat,lon[,accuracy], and this one has \(fields.count) field\(fields.count == 1 ? "" : "s")"))
            return
        }
        guard let latitude = ByteNumbers.decimal(p, lat.start, lat.end) else {
            items.append(.ignored(.unreadable, message: "the latitude \"\(ByteNumbers.quoted(p, lat.start, lat.end))\" is not a number"))
            return
        }
        guard let longitude = ByteNumbers.decimal(p, lon.start, lon.end) else {
            items.append(.ignored(.unreadable, message: "the longitude \"\(ByteNumbers.quoted(p, lon.start, lon.end))\" is not a number"))
            return
        }
        var accuracy: Double?
        if accuracyField.start < accuracyField.end {
            guard let value = ByteNumbers.decimal(p, accuracyField.start, accuracyField.end) else {
                items.append(.ignored(.unreadable, message: "the accuracy \"\(ByteNumbers.quoted(p, accuracyField.start, accuracyField.end))\" is not a number"))
                return
            }
            accuracy = FixCheck.accuracy(value)
        }
        let milliseconds: Int64
        if time.end - time.start >= 10, p[time.start + 4] == UInt8(ascii: "-") {
            guard let parsed = ByteNumbers.iso8601(p, time.start, time.end) else {
                items.append(.ignored(.noTime, message: "the time \"\(ByteNumbers.quoted(p, time.start, time.end))\" is not an ISO 8601 time such as 2026-11-23T08:57:03Z"))
                return
            }
            guard parsed.zoned else {
                items.append(.ignored(.noTime, message: "the time \"\(ByteNumbers.quoted(p, time.start, time.end))\" has no UTC offset; add Z or one such as +01:00"))
                return
            }
            milliseconds = parsed.milliseconds
        } else {
            guard let parsed = ByteNumbers.unixMilliseconds(p, time.start, time.end) else {
                items.append(.ignored(.noTime, message: "the time \"\(ByteNumbers.quoted(p, time.start, time.end))\" is neither ISO 8601 nor seconds since 1970"))
                return
            }
            milliseconds = parsed
        }
        FixCheck.append(Fix(time: FixTime(milliseconds: milliseconds), latitude: latitude, longitude: longitude, accuracy: accuracy),
                        now: now, into: &items)
    }
}

/// Walks comma-separated fields, each trimmed of spaces and of one pair
/// of double quotes.
struct CSVFields {
    let p: UnsafeBufferPointer<UInt8>
    var index: Int
    let end: Int
    /// Fields read so far that exist in the line.
    private(set) var count = 0
    private var done = false

    init(p: UnsafeBufferPointer<UInt8>, index: Int, end: Int) {
        self.p = p
        self.index = index
        self.end = end
    }

    /// Whether another field follows the last one read.
    var hasMore: Bool { !done }

    @inline(__always)
    mutating func next() -> (start: Int, end: Int) {
        guard !done else { return (end, end) }
        var start = index
        // memchr: a field is a dozen bytes or more, most of a line's cost.
        if index < end, let base = p.baseAddress, let comma = memchr(base + index, Int32(UInt8(ascii: ",")), end - index) {
            index = base.distance(to: comma.assumingMemoryBound(to: UInt8.self))
        } else {
            index = end
        }
        var stop = index
        if index < end { index += 1 } else { done = true }
        count += 1
        while start < stop, p[start] == 0x20 || p[start] == 0x09 { start += 1 }
        while stop > start, p[stop - 1] == 0x20 || p[stop - 1] == 0x09 { stop -= 1 }
        if stop - start >= 2, p[start] == UInt8(ascii: "\""), p[stop - 1] == UInt8(ascii: "\"") {
            start += 1
            stop -= 1
        }
        return (start, stop)
    }
}
