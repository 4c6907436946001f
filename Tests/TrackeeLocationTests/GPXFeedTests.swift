import Testing
import TrackeeCore

@testable import TrackeeLocation

@Suite("Feeds: GPX, streamed")
struct GPXFeedTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8" standalone="no" ?>
        <!DOCTYPE gpx [ <!ENTITY x "y>"> ]>
        <gpx version="1.1" creator="Test > & 'quotes'" xmlns="http://www.topografix.com/GPX/1/1">
          <metadata><time>2020-01-01T00:00:00Z</time></metadata>
          <!-- a comment with > and <trkpt lat="1" lon="1"><time>2026-11-23T08:57:00Z</time></trkpt> in it -->
          <wpt lon="14.25" lat="50.5"><time>2026-11-23T08:57:00Z</time><name>Office</name></wpt>
          <rte><rtept lat='50.25' lon='14.5'><time> 2026-11-23T09:57:01+01:00 </time><hdop>1.5</hdop></rtept></rte>
          <trk><name>Walk</name><trkseg>
            <trkpt lat="50.125" lon="-14.75">
              <ele>245.5</ele>
              <time><![CDATA[2026-11-23T08:57:02.500Z]]></time>
              <hdop>0.8</hdop>
              <extensions><x:speed xmlns:x="urn:x"><time>1999-01-01T00:00:00Z</time></x:speed></extensions>
            </trkpt>
            <trkpt lat="50.0" lon="14.0"></trkpt>
            <trkpt lat="north" lon="14.0"><time>2026-11-23T08:57:04Z</time></trkpt>
            <trkpt lon="14.0"><time>2026-11-23T08:57:05Z</time></trkpt>
            <trkpt lat="91" lon="14.0"><time>2026-11-23T08:57:06Z</time></trkpt>
            <trkpt lat="50" lon="14"><time>2026-11-23T08:57:07</time></trkpt>
            <trkpt lat="50" lon="14"><time>tomorrow</time></trkpt>
            <gpx:trkpt lat="-33.75" lon="151.25"><gpx:time>2026-11-23T08:57:09Z</gpx:time><gpx:hdop>2</gpx:hdop></gpx:trkpt>
            <trkpt lat="0" lon="180"><time>2026-11-25T08:57:10Z</time></trkpt>
            <wpt lat="50" lon="14"/>
          </trkseg></trk>
        </gpx>

        """

    static var expected: [FeedItem] {
        let t = Feed.utc(2026, 11, 23, 8, 57, 0)
        return [
            Feed.fix(t, 50.5, 14.25),
            Feed.fix(t + 1, 50.25, 14.5, 7.5),
            Feed.fix(t + 2, ms: 500, 50.125, -14.75, 4),
            .ignored(.noTime, message: "a <trkpt> has no <time>"),
            .ignored(.unreadable, message: "the <trkpt> lat \"north\" is not a number"),
            .ignored(.unreadable, message: "a <trkpt> has no lat attribute"),
            .ignored(.impossibleCoordinates, message: "latitude 91 is outside -90…90"),
            // GPX times are UTC even without the Z.
            Feed.fix(t + 7, 50, 14),
            .ignored(.noTime, message: "the <trkpt> time \"tomorrow\" is not an ISO 8601 time"),
            Feed.fix(t + 9, -33.75, 151.25, 10),
            .ignored(.future, message: "the time 2026-11-25T08:57:10Z is more than a day after now (2026-11-23T12:00:00Z)"),
            .ignored(.noTime, message: "a <wpt> has no <time>"),
        ]
    }

    /// The line of each item of ``expected``: its point's start tag.
    static let expectedLines = [6, 7, 9, 15, 16, 17, 18, 19, 20, 21, 22, 23]

    static func decode(_ chunks: [ArraySlice<UInt8>]) -> [FeedItem] { decodeWithLines(chunks).items }

    static func decodeWithLines(_ chunks: [ArraySlice<UInt8>]) -> (items: [FeedItem], lines: [Int], read: Int) {
        var decoder = GPXDecoder(now: Feed.now)
        var items: [FeedItem] = []
        var lines: [Int] = []
        for chunk in chunks {
            chunk.withUnsafeBufferPointer { decoder.consume($0, into: &items, lines: &lines) }
        }
        decoder.finish(into: &items, lines: &lines)
        return (items, lines, decoder.linesRead)
    }

    @Test func pointsOfEveryKindWithTheirTimesAndHDOP() {
        let bytes = Array(Self.document.utf8)
        #expect(Self.decode([bytes[...]]) == Self.expected)
    }

    @Test func eachItemCarriesTheLineOfItsPointWhereverTheChunksAreCut() {
        let bytes = Array(Self.document.utf8)
        var differing: [Int] = []
        for cut in 0...bytes.count {
            let decoded = Self.decodeWithLines([bytes[..<cut], bytes[cut...]])
            if decoded.lines != Self.expectedLines || decoded.read != 25 { differing.append(cut) }
        }
        #expect(differing == [])
        let whole = Self.decodeWithLines([bytes[...]])
        #expect(whole.lines == Self.expectedLines)
        #expect(whole.read == 25)
        // A last line without a line feed still counts; a truncated point is
        // reported at the line of its start tag.
        let truncated = Array("<gpx>\n<trkpt lat=\"1\" lon=\"2\">\n<time>".utf8)
        let cut = Self.decodeWithLines([truncated[...]])
        #expect(cut.items == [.ignored(.unreadable, message: "the GPX document is truncated: it ends inside a <trkpt>, whose point is lost")])
        #expect(cut.lines == [2])
        #expect(cut.read == 3)
    }

    @Test func cuttingTheDocumentAtAnyByteGivesTheSameItems() {
        let bytes = Array(Self.document.utf8)
        let expected = Self.expected
        var differing: [Int] = []
        for cut in 0...bytes.count where Self.decode([bytes[..<cut], bytes[cut...]]) != expected {
            differing.append(cut)
        }
        #expect(differing == [])
        #expect(Self.decode(bytes.indices.map { bytes[$0...$0] }) == expected)
    }

    @Test func aTruncatedDocumentSaysWhereItEnds() {
        let text = """
            <gpx><trk><trkseg><trkpt lat="50" lon="14"><time>2026-11-23T08:57:00Z</time></trkpt>
            <trkpt lat="50" lon="14"><time>2026-11-23T08:5
            """
        let first = Feed.fix(Feed.utc(2026, 11, 23, 8, 57, 0), 50, 14)
        #expect(Self.decode([Array(text.utf8)[...]]) == [
            first, .ignored(.unreadable, message: "the GPX document is truncated: it ends inside a <trkpt>, whose point is lost"),
        ])
        #expect(Self.decode([Array("<gpx><trk><trkseg><trkpt lat=\"50\" lon=\"14\"><time>2026-11-23T08:57:00Z</time></trkpt></trkseg>".utf8)[...]]) == [
            first, .ignored(.unreadable, message: "the GPX document is truncated: it ends before its elements close"),
        ])
        #expect(Self.decode([Array("<gpx><trkpt lat=\"50\" lo".utf8)[...]]) == [
            .ignored(.unreadable, message: "the GPX document is truncated: it ends inside a tag or comment"),
        ])
        #expect(Self.decode([Array("<gpx><!-- no end".utf8)[...]]) == [
            .ignored(.unreadable, message: "the GPX document is truncated: it ends inside a tag or comment"),
        ])
    }

    @Test func anotherDocumentOrNoneIsReported() {
        #expect(Self.decode([]) == [.ignored(.unreadable, message: "the input is not a GPX document: it has no <gpx> element")])
        #expect(Self.decode([Array("<kml><Placemark/></kml>".utf8)[...]]) == [
            .ignored(.unreadable, message: "the document's root element is <kml>, not <gpx>"),
        ])
        let binary: [UInt8] = [0x3C] + Array(repeating: 0x41, count: XMLStream.longestTag + 10)
        #expect(Self.decode([binary[..<1000], binary[1000...]]) == [
            .ignored(.unreadable, message: "the GPX document has a tag longer than 64 KiB; it is binary data or broken, and the rest is not read"),
        ])
    }
}
