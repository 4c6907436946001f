import TrackeeCore

/// GPX 1.1, streamed: reads a file's bytes chunk by chunk, cut anywhere,
/// and never holds more than one tag of it.
///
/// Every `trkpt`, `rtept` and `wpt` with `lat` and `lon` attributes (in
/// any order and quoting) and a `<time>` child is a fix; a `<hdop>` child
/// gives its accuracy, 5 m × HDOP. Element names may carry a namespace
/// prefix (`<gpx:trkpt>`). A time without an offset is UTC, as GPX
/// requires. A document that ends inside an element is reported as
/// ``IgnoredReason/unreadable`` by ``finish(into:)``.
///
/// ```swift
/// var decoder = GPXDecoder(now: SystemClock.now())
/// var items: [FeedItem] = []
/// chunk.withUnsafeBufferPointer { decoder.consume($0, into: &items) }
/// decoder.finish(into: &items)
/// ```
public struct GPXDecoder: Sendable {
    private var stream = XMLStream()
    private var reader: GPXReader

    public init(now: Instant) {
        reader = GPXReader(now: now)
    }

    /// The document's lines read so far (a last line without a line feed
    /// counts).
    public var linesRead: Int { stream.newlines + (stream.endsWithNewline ? 0 : 1) }

    /// The next bytes of the document.
    public mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>, into items: inout [FeedItem]) {
        var lines: [Int] = []
        consume(chunk, into: &items, lines: &lines)
    }

    /// The next bytes of the document; `lines` gets the line (from 1) each
    /// new item comes from: where its point's start tag is.
    public mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>, into items: inout [FeedItem], lines: inout [Int]) {
        stream.feed(chunk, to: &reader, into: &items, lines: &lines)
    }

    /// End of the document: reports one ending inside an element.
    public mutating func finish(into items: inout [FeedItem]) {
        var lines: [Int] = []
        finish(into: &items, lines: &lines)
    }

    /// End of the document, with the line of what it reports.
    public mutating func finish(into items: inout [FeedItem], lines: inout [Int]) {
        defer { while lines.count < items.count { lines.append(reader.point?.line ?? stream.line) } }
        if stream.state == .failed { return }
        if let point = reader.point {
            items.append(.ignored(.unreadable, message: "the GPX document is truncated: it ends inside a <\(point.element.rawValue)>, whose point is lost"))
        } else if stream.state != .text {
            items.append(.ignored(.unreadable, message: "the GPX document is truncated: it ends inside a tag or comment"))
        } else if reader.depth > 0 {
            items.append(.ignored(.unreadable, message: "the GPX document is truncated: it ends before its elements close"))
        } else if !reader.sawRoot {
            // Blamed on line 1, where the reading went wrong: the end of
            // the input (a CSV file's last line + 1) is no place to look.
            items.append(.ignored(.unreadable, message: "the input is not a GPX document: it has no <gpx> element"))
            lines.append(1)
        }
    }
}

/// What the tags of a GPX document mean: points, their times and HDOPs.
struct GPXReader {
    enum Element: String { case trkpt, rtept, wpt }

    struct Point {
        var element: Element
        /// The line of its start tag.
        var line: Int
        /// How many elements enclose it.
        var depth: Int
        var latitude: Double?
        var longitude: Double?
        var problem: FeedRefusal?
        var time: Int64?
        var hdop: Double?
    }

    private enum Capture { case none, time, hdop }

    let now: Instant
    /// The line of the tag being read (set by ``XMLStream``), and the line
    /// of the items the last tag gave.
    var line = 1
    private(set) var itemLine = 1
    /// Elements open now.
    private(set) var depth = 0
    private(set) var sawRoot = false
    private(set) var point: Point?
    private var capture = Capture.none
    private var captureDepth = 0
    private var captured: [UInt8] = []

    /// A `<time>` or `<hdop>` longer than this is kept only this far.
    private static let longestText = 256

    init(now: Instant) {
        self.now = now
    }

    mutating func text(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        guard capture != .none, captured.count < Self.longestText else { return }
        let stop = min(end, start + Self.longestText - captured.count)
        captured.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<stop]))
    }

    /// Takes back the last bytes given as text (the `]]` ending a CDATA section).
    mutating func dropText(_ count: Int) {
        guard capture != .none else { return }
        captured.removeLast(min(count, captured.count))
    }

    /// A tag's bytes between `<` and `>`.
    mutating func tag(_ p: UnsafeBufferPointer<UInt8>, into items: inout [FeedItem]) {
        guard !p.isEmpty else { return }
        if p[0] == UInt8(ascii: "/") {
            endTag(into: &items)
            return
        }
        let name = Self.name(p, from: 0)
        let selfClosing = p[p.count - 1] == UInt8(ascii: "/")
        let level = depth
        itemLine = line
        if !selfClosing { depth += 1 }
        if !sawRoot {
            sawRoot = true
            if !Self.local(p, name, is: "gpx") {
                items.append(.ignored(.unreadable, message: "the document's root element is <\(ByteNumbers.quoted(p, name.start, name.end))>, not <gpx>"))
            }
        }
        if point == nil, let element = Self.pointElement(p, name) {
            point = Self.point(element, line: line, depth: level, p, attributesFrom: name.end)
            if selfClosing { finishPoint(into: &items) }
            return
        }
        guard let point, level == point.depth + 1 else { return }
        if Self.local(p, name, is: "time") {
            capture = .time
        } else if Self.local(p, name, is: "hdop") {
            capture = .hdop
        } else {
            return
        }
        captureDepth = level
        captured.removeAll(keepingCapacity: true)
        if selfClosing { endCapture() }
    }

    private mutating func endTag(into items: inout [FeedItem]) {
        itemLine = point?.line ?? line
        depth = max(0, depth - 1)
        if capture != .none && depth == captureDepth {
            endCapture()
        } else if let point, depth == point.depth {
            finishPoint(into: &items)
        }
    }

    private mutating func endCapture() {
        defer { capture = .none }
        guard point != nil else { return }
        captured.withUnsafeBufferPointer { p in
            var start = 0
            var end = p.count
            while start < end, Self.isSpace(p[start]) { start += 1 }
            while end > start, Self.isSpace(p[end - 1]) { end -= 1 }
            switch capture {
            case .time:
                if let parsed = ByteNumbers.iso8601(p, start, end) {
                    point!.time = parsed.milliseconds
                } else if point!.problem == nil {
                    point!.problem = FeedRefusal(.noTime, "the <\(point!.element.rawValue)> time \"\(ByteNumbers.quoted(p, start, end))\" is not an ISO 8601 time")
                }
            case .hdop:
                point!.hdop = ByteNumbers.decimal(p, start, end)
            case .none:
                break
            }
        }
    }

    private mutating func finishPoint(into items: inout [FeedItem]) {
        guard let point else { return }
        self.point = nil
        capture = .none
        if let problem = point.problem {
            items.append(problem.item)
            return
        }
        guard let latitude = point.latitude, let longitude = point.longitude else { return }
        guard let time = point.time else {
            items.append(.ignored(.noTime, message: "a <\(point.element.rawValue)> has no <time>"))
            return
        }
        let accuracy = point.hdop.map { $0 * 5 }
        FixCheck.append(Fix(time: FixTime(milliseconds: time), latitude: latitude, longitude: longitude, accuracy: FixCheck.accuracy(accuracy)),
                        now: now, into: &items)
    }

    // MARK: Tags

    @inline(__always)
    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    /// The name at `from`, up to a space, `/` or the end.
    private static func name(_ p: UnsafeBufferPointer<UInt8>, from: Int) -> (start: Int, end: Int) {
        var i = from
        while i < p.count, !isSpace(p[i]), p[i] != UInt8(ascii: "/") { i += 1 }
        return (from, i)
    }

    /// Whether a name, without any namespace prefix, is `word`.
    private static func local(_ p: UnsafeBufferPointer<UInt8>, _ name: (start: Int, end: Int), is word: StaticString) -> Bool {
        var start = name.start
        for i in name.start..<name.end where p[i] == UInt8(ascii: ":") { start = i + 1 }
        let count = word.utf8CodeUnitCount
        guard name.end - start == count else { return false }
        for k in 0..<count where p[start + k] != word.utf8Start[k] { return false }
        return true
    }

    private static func pointElement(_ p: UnsafeBufferPointer<UInt8>, _ name: (start: Int, end: Int)) -> Element? {
        if local(p, name, is: "trkpt") { return .trkpt }
        if local(p, name, is: "rtept") { return .rtept }
        if local(p, name, is: "wpt") { return .wpt }
        return nil
    }

    /// A point with its `lat` and `lon` attributes read.
    private static func point(_ element: Element, line: Int, depth: Int, _ p: UnsafeBufferPointer<UInt8>, attributesFrom: Int) -> Point {
        var point = Point(element: element, line: line, depth: depth)
        var i = attributesFrom
        let end = p.count
        while true {
            while i < end, isSpace(p[i]) || p[i] == UInt8(ascii: "/") { i += 1 }
            guard i < end else { break }
            let nameStart = i
            while i < end, !isSpace(p[i]), p[i] != UInt8(ascii: "=") { i += 1 }
            let attribute = (start: nameStart, end: i)
            while i < end, isSpace(p[i]) { i += 1 }
            guard i < end, p[i] == UInt8(ascii: "=") else { break }
            i += 1
            while i < end, isSpace(p[i]) { i += 1 }
            guard i < end, p[i] == UInt8(ascii: "\"") || p[i] == UInt8(ascii: "'") else { break }
            let quote = p[i]
            i += 1
            let valueStart = i
            while i < end, p[i] != quote { i += 1 }
            let valueEnd = i
            if i < end { i += 1 }
            let isLatitude = local(p, attribute, is: "lat")
            guard isLatitude || local(p, attribute, is: "lon") else { continue }
            guard let value = ByteNumbers.decimal(p, valueStart, valueEnd) else {
                if point.problem == nil {
                    point.problem = FeedRefusal(.unreadable, "the <\(element.rawValue)> \(isLatitude ? "lat" : "lon") \"\(ByteNumbers.quoted(p, valueStart, valueEnd))\" is not a number")
                }
                continue
            }
            if isLatitude { point.latitude = value } else { point.longitude = value }
        }
        if point.problem == nil && (point.latitude == nil || point.longitude == nil) {
            point.problem = FeedRefusal(.unreadable, "a <\(element.rawValue)> has no \(point.latitude == nil ? "lat" : "lon") attribute")
        }
        return point
    }
}
