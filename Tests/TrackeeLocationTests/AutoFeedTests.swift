import Testing
import TrackeeCore

@testable import TrackeeLocation

/// Shared by the feed tests: a fixed "now" and ways to feed text in.
enum Feed {
    /// 2026-11-23T12:00:00Z.
    static let now = utc(2026, 11, 23, 12, 0, 0)

    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Instant {
        Instant(seconds: LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second).secondsSinceEpoch)
    }

    /// Every line of `text` (split at `\n`) through one decoder, then `finish`.
    static func decode(_ text: String, _ format: FeedFormat = .auto, now: Instant = Feed.now) -> [FeedItem] {
        decode(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }, format, now: now)
    }

    static func decode(lines: [[UInt8]], _ format: FeedFormat = .auto, now: Instant = Feed.now) -> [FeedItem] {
        var decoder = FeedDecoder(format: format, now: now)
        var items: [FeedItem] = []
        for (index, line) in lines.enumerated() {
            line.withUnsafeBufferPointer { decoder.line($0, number: index + 1, into: &items) }
        }
        decoder.finish(into: &items)
        return items
    }

    /// `$BODY*hh` with the right checksum.
    static func nmea(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        let digits = Array("0123456789ABCDEF")
        return "$\(body)*\(digits[Int(sum >> 4)])\(digits[Int(sum & 15)])"
    }

    static func fix(_ time: Instant, _ latitude: Double, _ longitude: Double, _ accuracy: Double? = nil) -> FeedItem {
        .fix(Fix(time: time, latitude: latitude, longitude: longitude, accuracy: accuracy))
    }

    /// A fix `millisecond` ms past the whole second `time`.
    static func fix(_ time: Instant, ms millisecond: Int64, _ latitude: Double, _ longitude: Double, _ accuracy: Double? = nil) -> FeedItem {
        .fix(Fix(time: FixTime(time, millisecond: millisecond), latitude: latitude, longitude: longitude, accuracy: accuracy))
    }
}

@Suite("Feeds: telling formats apart line by line")
struct AutoFeedTests {
    @Test func eachLineIsReadInTheFormatItsFirstByteAndKeysSay() {
        let lines = [
            Feed.nmea("GPRMC,085703,A,4807.500,N,01115.000,E,0.0,0.0,231126,,"),
            #"{"class":"TPV","mode":3,"time":"2026-11-23T08:57:04.000Z","lat":48.125,"lon":11.25,"eph":7.5}"#,
            #"{"_type":"location","lat":48.125,"lon":11.25,"tst":1795424225,"acc":12}"#,
            #"owntracks/ana/phone {"_type":"location","lat":48.125,"lon":11.25,"tst":1795424226}"#,
            "2026-11-23T08:57:07Z,48.125,11.25,9",
            #"{"type":"focus","mode":"deep","state":"on"}"#,
        ].joined(separator: "\n")
        let t = Feed.utc(2026, 11, 23, 8, 57, 3)
        #expect(Feed.decode(lines) == [
            Feed.fix(t + 1, 48.125, 11.25, 7.5),
            Feed.fix(t + 2, 48.125, 11.25, 12),
            Feed.fix(t + 3, 48.125, 11.25),
            Feed.fix(t + 4, 48.125, 11.25, 9),
            .notLocation,
            // The NMEA epoch is complete only at the end of the input.
            Feed.fix(t, 48.125, 11.25),
        ])
    }

    @Test func garbageAndBinaryLinesAreUnreadable() {
        let unknown = FeedItem.ignored(
            .unreadable, message: "the line is of no known format (NMEA, gpsd or OwnTracks JSON, or CSV time,lat,lon)")
        #expect(Feed.decode("hello world\nhello world") == [unknown, unknown])
        #expect(Feed.decode(lines: [[0x00, 0xFF, 0x13, 0x37, 0x80]]) == [unknown])
        #expect(Feed.decode(lines: [[UInt8(ascii: "{"), UInt8(ascii: "\""), 0x01, 0x02]]) == [
            .ignored(.unreadable, message: "the line is not JSON: a string holds a control byte at column 3 (binary data?)"),
        ])
        #expect(Feed.decode(#"{"a":1}"#) == [
            .ignored(.unreadable, message: #"the JSON object has none of "class" (gpsd), "_type" (OwnTracks) or "type" (an event)"#),
        ])
    }

    @Test func aGPXLineIsSentToTheFileReader() {
        #expect(Feed.decode("<?xml version=\"1.0\"?>") == [
            .ignored(.unreadable, message: "GPX is read per file, not line by line; give the file itself"),
        ])
    }

    @Test func blankLinesCarriageReturnsSpacesAndAByteOrderMarkGiveNothingExtra() {
        let line = Array("\u{FEFF}  2026-11-23T08:57:03Z,48.125,11.25  \r".utf8)
        #expect(Feed.decode(lines: [[], Array(" \t\r".utf8), line]) == [Feed.fix(Feed.utc(2026, 11, 23, 8, 57, 3), 48.125, 11.25)])
    }

    @Test func aCSVHeaderIsSkippedOnlyAsTheFirstLine() {
        let items = Feed.decode("time,lat,lon,accuracy\n1795424223,48.125,11.25\ntime,lat,lon")
        #expect(items == [
            Feed.fix(Feed.utc(2026, 11, 23, 8, 57, 3), 48.125, 11.25),
            .ignored(.unreadable, message: "the line is of no known format (NMEA, gpsd or OwnTracks JSON, or CSV time,lat,lon)"),
        ])
    }

    @Test func anExplicitFormatRefusesTheOthers() {
        let tpv = #"{"class":"TPV","mode":3,"time":"2026-11-23T08:57:03Z","lat":1,"lon":2}"#
        let location = #"{"_type":"location","lat":1,"lon":2,"tst":1795424223}"#
        #expect(Feed.decode(location, .gpsd) == [
            .ignored(.unreadable, message: #"the line is an OwnTracks message (it has "_type"), but the feed is read as gpsd"#),
        ])
        #expect(Feed.decode(tpv, .owntracks) == [
            .ignored(.unreadable, message: #"the line is a gpsd report (it has "class"), but the feed is read as OwnTracks"#),
        ])
        #expect(Feed.decode(tpv, .nmea) == [
            .ignored(.unreadable, message: "the line is not an NMEA sentence: it does not start with $"),
        ])
        #expect(Feed.decode("$GPRMC", .gpsd) == [
            .ignored(.unreadable, message: "the line is not a gpsd JSON report: it does not start with {"),
        ])
        #expect(Feed.decode(#"{"type":"focus","mode":"deep"}"#, .owntracks) == [.notLocation])
    }
}
