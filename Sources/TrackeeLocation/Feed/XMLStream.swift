/// The markup of an XML document that arrives in chunks, cut anywhere.
///
/// It finds tags, text, comments, CDATA sections, processing instructions
/// (the `<?xml …?>` prolog) and declarations (`<!DOCTYPE …>`), and hands
/// tags and text to a ``GPXReader``. A tag within one chunk is passed as
/// it lies there; only a tag cut by a chunk boundary is copied, so memory
/// stays at one tag however long the document. Entities are not expanded:
/// GPX positions and times never need them.
struct XMLStream {
    enum State: UInt8 {
        /// Between tags.
        case text
        /// Just after `<`.
        case open
        /// In a start or end tag.
        case tag
        /// After `<!`, until it is clear whether a comment, CDATA or a declaration follows.
        case bang
        case comment, cdata, instruction, declaration
        /// After a tag too long to be real; the rest is not read.
        case failed
    }

    private(set) var state = State.text
    /// The start of a tag read in earlier chunks.
    private var carried: [UInt8] = []
    /// The quote a tag or declaration is inside, or 0.
    private var quote: UInt8 = 0
    /// Bytes after `<` in the `bang` state, and which forms are still possible.
    private var bangLength = 0
    private var maybeComment = false
    private var maybeCDATA = false
    /// The two bytes before the current one, to find `-->`, `]]>` and `?>`.
    private var last: UInt8 = 0
    private var beforeLast: UInt8 = 0
    private var declarationDepth = 0
    /// Line feeds before `counted` in the current chunk, and whether the
    /// last byte read was one: where the document's lines are.
    private(set) var newlines = 0
    private(set) var endsWithNewline = true
    private var counted = 0

    /// The line (from 1) of the byte reached so far.
    var line: Int { newlines + 1 }

    /// Beyond this a "tag" is binary data or a broken document.
    static let longestTag = 1 << 16

    /// Reads a chunk; `lines` gets the line of each item put in `items`.
    mutating func feed(_ p: UnsafeBufferPointer<UInt8>, to reader: inout GPXReader, into items: inout [FeedItem],
                       lines: inout [Int])
    {
        let n = p.count
        var i = 0
        var tagStart = 0
        counted = 0
        defer {
            countLines(p, upTo: n)
            if n > 0 { endsWithNewline = p[n - 1] == 0x0A }
        }
        while i < n {
            switch state {
            case .text:
                let start = i
                while i < n, p[i] != UInt8(ascii: "<") { i += 1 }
                if i > start { reader.text(p, start, i) }
                if i < n {
                    state = .open
                    i += 1
                }
            case .open:
                switch p[i] {
                case UInt8(ascii: "!"):
                    state = .bang
                    bangLength = 1
                    maybeComment = true
                    maybeCDATA = true
                    i += 1
                case UInt8(ascii: "?"):
                    state = .instruction
                    last = 0
                    beforeLast = 0
                    i += 1
                default:
                    state = .tag
                    quote = 0
                    tagStart = i
                    carried.removeAll(keepingCapacity: true)
                }
            case .tag:
                while i < n {
                    let b = p[i]
                    if quote != 0 {
                        if b == quote { quote = 0 }
                    } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                        quote = b
                    } else if b == UInt8(ascii: ">") {
                        break
                    }
                    i += 1
                }
                if i < n {
                    countLines(p, upTo: tagStart)
                    reader.line = line
                    if carried.isEmpty {
                        reader.tag(UnsafeBufferPointer(rebasing: p[tagStart..<i]), into: &items)
                    } else {
                        carried.append(contentsOf: UnsafeBufferPointer(rebasing: p[tagStart..<i]))
                        carried.withUnsafeBufferPointer { reader.tag($0, into: &items) }
                    }
                    while lines.count < items.count { lines.append(reader.itemLine) }
                    state = .text
                    i += 1
                } else {
                    carried.append(contentsOf: UnsafeBufferPointer(rebasing: p[tagStart..<n]))
                    if carried.count > Self.longestTag {
                        countLines(p, upTo: tagStart)
                        items.append(.ignored(.unreadable, message: "the GPX document has a tag longer than 64 KiB; it is binary data or broken, and the rest is not read"))
                        lines.append(line)
                        state = .failed
                        carried = []
                    }
                }
            case .bang:
                let b = p[i]
                maybeComment = maybeComment && bangLength < 3 && b == Self.commentOpening[bangLength]
                maybeCDATA = maybeCDATA && bangLength < 8 && b == Self.cdataOpening[bangLength]
                if maybeComment && bangLength == 2 {
                    state = .comment
                } else if maybeCDATA && bangLength == 7 {
                    state = .cdata
                } else if !maybeComment && !maybeCDATA {
                    // `<!DOCTYPE …>` and the like; this byte is its first.
                    state = .declaration
                    declarationDepth = 0
                    quote = 0
                    continue
                }
                last = 0
                beforeLast = 0
                bangLength += 1
                i += 1
            case .comment, .cdata, .instruction:
                let start = i
                var end = -1
                while i < n {
                    let b = p[i]
                    i += 1
                    if b == UInt8(ascii: ">") {
                        let closes = switch state {
                        case .comment: last == UInt8(ascii: "-") && beforeLast == UInt8(ascii: "-")
                        case .cdata: last == UInt8(ascii: "]") && beforeLast == UInt8(ascii: "]")
                        default: last == UInt8(ascii: "?")
                        }
                        if closes {
                            end = i
                            break
                        }
                    }
                    beforeLast = last
                    last = b
                }
                if state == .cdata {
                    // The content goes out as text; the `]]` of the end, already out, is taken back.
                    reader.text(p, start, end < 0 ? i : end - 1)
                    if end >= 0 { reader.dropText(2) }
                }
                if end >= 0 { state = .text }
            case .declaration:
                while i < n {
                    let b = p[i]
                    i += 1
                    if quote != 0 {
                        if b == quote { quote = 0 }
                    } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                        quote = b
                    } else if b == UInt8(ascii: "[") {
                        declarationDepth += 1
                    } else if b == UInt8(ascii: "]") {
                        declarationDepth -= 1
                    } else if b == UInt8(ascii: ">") && declarationDepth <= 0 {
                        state = .text
                        break
                    }
                }
            case .failed:
                return
            }
        }
    }

    private mutating func countLines(_ p: UnsafeBufferPointer<UInt8>, upTo end: Int) {
        guard end > counted else { return }
        var k = counted
        while k < end {
            if p[k] == 0x0A { newlines += 1 }
            k += 1
        }
        counted = end
    }

    private static let commentOpening: [UInt8] = Array("!--".utf8)
    private static let cdataOpening: [UInt8] = Array("![CDATA[".utf8)
}
