import TrackeeCore

/// Turns a feed's lines into fixes: NMEA 0183, gpsd JSON, OwnTracks JSON
/// (also as `mosquitto_sub -v` prints it, the topic first) and CSV.
///
/// Every line gives at most a few ``FeedItem``s; a valid line is read
/// straight from its bytes, with no string or array built. NMEA sentences
/// are grouped by epoch, so an NMEA fix appears when the next epoch's first
/// sentence arrives, or at ``finish(into:)``.
///
/// With ``FeedFormat/auto`` each line's first byte (after spaces) decides:
/// `$` is NMEA; `{` is JSON, and its keys tell gpsd (`class`), OwnTracks
/// (`_type`) and other events (`type`: ``FeedItem/notLocation``) apart; a
/// digit, `-` or `+` is CSV; a word followed by a space and `{` is an MQTT
/// topic before OwnTracks JSON. A first line of words with commas is a CSV
/// header and gives nothing.
///
/// ```swift
/// var decoder = FeedDecoder(format: .auto, now: SystemClock.now())
/// var items: [FeedItem] = []
/// line.withUnsafeBufferPointer { decoder.line($0, number: 1, into: &items) }
/// decoder.finish(into: &items)
/// ```
public struct FeedDecoder: Sendable {
    public let format: FeedFormat
    /// Fixes more than a day after this are refused as ``IgnoredReason/future``;
    /// a long-running reader moves it on as time passes.
    public var now: Instant
    private var nmea = NMEAEpochs()
    /// Until the first non-blank line, which may be a CSV header.
    private var atFirstLine = true

    public init(format: FeedFormat, now: Instant) {
        self.format = format
        self.now = now
    }

    /// One line without its line end (a trailing `\r` is tolerated).
    /// Appends to `items` what the line gives, usually nothing or one item.
    ///
    /// Lines that are silently not fixes append nothing: blank lines, NMEA
    /// sentences other than RMC, GGA and GST, gpsd classes other than TPV,
    /// OwnTracks types other than location and transition, and a CSV
    /// header. `number` is the line's number in its input; the decoder does
    /// not put it in messages, which the caller prefixes with it.
    public mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, number: Int, into items: inout [FeedItem]) {
        nmea.forget()
        var start = 0
        var end = bytes.count
        // A UTF-8 byte order mark, as spreadsheet programs write it.
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard start < end else { return }
        let first = atFirstLine
        atFirstLine = false
        let byte = bytes[start]
        switch format {
        case .nmea:
            guard byte == UInt8(ascii: "$") else {
                items.append(.ignored(.unreadable, message: "the line is not an NMEA sentence: it does not start with $"))
                return
            }
            nmea.sentence(bytes, start, end, number: number, now: now, into: &items)
        case .gpsd:
            guard byte == UInt8(ascii: "{") else {
                items.append(.ignored(.unreadable, message: "the line is not a gpsd JSON report: it does not start with {"))
                return
            }
            JSONFeeds.line(bytes, start, end, format: format, now: now, into: &items)
        case .owntracks:
            if byte != UInt8(ascii: "{") {
                guard let json = Self.afterTopic(bytes, start, end) else {
                    items.append(.ignored(.unreadable, message: "the line is not OwnTracks JSON, alone or after an MQTT topic"))
                    return
                }
                start = json
            }
            JSONFeeds.line(bytes, start, end, format: format, now: now, into: &items)
        case .csv:
            if first && CSVFeed.isHeader(bytes, start, end) { return }
            CSVFeed.line(bytes, start, end, now: now, into: &items)
        case .gpx:
            items.append(Self.gpxByLine)
        case .auto:
            switch byte {
            case UInt8(ascii: "$"):
                nmea.sentence(bytes, start, end, number: number, now: now, into: &items)
            case UInt8(ascii: "{"):
                JSONFeeds.line(bytes, start, end, format: format, now: now, into: &items)
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"):
                CSVFeed.line(bytes, start, end, now: now, into: &items)
            case UInt8(ascii: "<"):
                items.append(Self.gpxByLine)
            default:
                if let json = Self.afterTopic(bytes, start, end) {
                    JSONFeeds.line(bytes, json, end, format: format, now: now, into: &items)
                } else if first && CSVFeed.isHeader(bytes, start, end) {
                    return
                } else {
                    items.append(.ignored(
                        .unreadable,
                        message: "the line is of no known format (NMEA, gpsd or OwnTracks JSON, or CSV time,lat,lon)"))
                }
            }
        }
    }

    /// End of input: flushes what is pending (the last NMEA epoch).
    public mutating func finish(into items: inout [FeedItem]) {
        nmea.finish(now: now, into: &items)
    }

    /// How many of the items the last ``line(_:number:into:)`` or
    /// ``finish(into:)`` appended first belong to an earlier line, and
    /// which: an NMEA epoch is complete only when the next one begins, so
    /// its fix, or why it gave none, comes with a later line.
    public var earlier: (count: Int, line: Int) { nmea.completed }

    private static let gpxByLine = FeedItem.ignored(
        .unreadable, message: "GPX is read per file, not line by line; give the file itself")

    /// Where the JSON starts in `topic {…}`: a topic is printable, has no
    /// spaces, and is followed by one space (or more) and `{`.
    private static func afterTopic(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start
        while i < end, p[i] > 0x20, p[i] != 0x7F { i += 1 }
        guard i > start, i < end, p[i] == 0x20 else { return nil }
        while i < end, p[i] == 0x20 { i += 1 }
        return i < end && p[i] == UInt8(ascii: "{") ? i : nil
    }
}
