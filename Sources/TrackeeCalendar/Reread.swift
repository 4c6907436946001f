#if canImport(Glibc)
import Glibc
#endif

/// What reading one calendar file left behind, so that reading it again
/// after a change parses only the VEVENTs whose text changed.
///
/// A file is cut into its `BEGIN:VEVENT` … `END:VEVENT` blocks and the
/// rest (the VCALENDAR's own lines and its VTIMEZONEs), each summed up by
/// a digest. When the rest is unchanged, an unchanged block is the same
/// event, read in the same zones: its component is taken over as it was.
/// A changed or new block is parsed on its own. Anything unusual (an error
/// anywhere, an event without a UID, several VCALENDARs, a block the
/// cutter and the parser see differently) reads the whole file as the
/// first time, so errors are always reported as a whole read reports them.
/// So does anything read past: a file with warnings is not remembered,
/// and a changed block that gives one sends the file to a whole read, so
/// a read again gives the same warnings as a first read.
struct FileMemo: Sendable {
    var rest: Digest
    /// The zones and clocks the file's events were read with.
    var reader: EventReader
    var events: [Digest: EventComponent]

    /// The text's length and its hash (seeded per process, as `Hasher` is).
    struct Digest: Hashable, Sendable {
        var count: Int
        var hash: Int
    }

    /// The memo of a whole read of `bytes` that gave `components`, or nil
    /// when the file is not one a later read can take apart (see above).
    static func remembering(_ bytes: [UInt8], roots: [Component], reader: EventReader, components: [EventComponent])
        -> FileMemo?
    {
        guard roots.count == 1, roots[0].children.allSatisfy({ $0.name != "VEVENT" || $0.hasUID }) else { return nil }
        let cut = EventBlocks(bytes)
        guard cut.blocks.count == components.count else { return nil }
        var events: [Digest: EventComponent] = [:]
        events.reserveCapacity(components.count)
        for (block, component) in zip(cut.blocks, components) { events[block.digest] = component }
        return FileMemo(rest: cut.rest, reader: reader, events: events)
    }

    /// The components of `bytes`, a later version of the file this memo
    /// was made from, with the memo of this read; nil when the file must be
    /// read whole.
    func reread(_ bytes: [UInt8]) -> (components: [EventComponent], memo: FileMemo)? {
        let cut = EventBlocks(bytes)
        guard cut.rest == rest else { return nil }
        var components: [EventComponent] = []
        components.reserveCapacity(cut.blocks.count)
        var events: [Digest: EventComponent] = [:]
        events.reserveCapacity(cut.blocks.count)
        var reader = reader
        var counted = (offset: 0, lines: 0)
        for block in cut.blocks {
            var component = self.events[block.digest]
            if component == nil {
                counted.lines += ContentLineScanner.newlines(in: bytes, counted.offset..<block.range.lowerBound)
                counted.offset = block.range.lowerBound
                component = Self.read(Array(bytes[block.range]), firstLine: counted.lines + 1, reader: &reader)
            }
            guard let component else { return nil }
            components.append(component)
            events[block.digest] = component
        }
        return (components, FileMemo(rest: rest, reader: reader, events: events))
    }

    /// One VEVENT block read on its own, its lines numbered from
    /// `firstLine`; nil on any problem (the whole read reports it).
    private static func read(_ block: [UInt8], firstLine: Int, reader: inout EventReader) -> EventComponent? {
        var warnings: [LineWarning] = []
        var lines = ContentLineScanner.scan(block, warnings: &warnings)
        for i in lines.indices { lines[i].line += firstLine - 1 }
        lines.insert(ContentLine(name: "BEGIN", parameters: [], value: "VCALENDAR", line: firstLine), at: 0)
        lines.append(ContentLine(name: "END", parameters: [], value: "VCALENDAR", line: firstLine))
        guard let roots = try? Component.tree(lines, warnings: &warnings), warnings.isEmpty, roots.count == 1,
            roots[0].properties.isEmpty, roots[0].children.count == 1, roots[0].children[0].name == "VEVENT",
            roots[0].children[0].hasUID,
            let component = try? reader.read(roots[0].children[0], anonymousUID: nil), reader.warnings.isEmpty
        else { return nil }
        return component
    }
}

/// A file cut into its VEVENT blocks (from a line `BEGIN:VEVENT` to the
/// line `END:VEVENT`, line ends included) and the rest.
struct EventBlocks {
    var rest: FileMemo.Digest
    var blocks: [(range: Range<Int>, digest: FileMemo.Digest)] = []

    init(_ bytes: [UInt8]) {
        var restHasher = Hasher()
        var restCount = 0
        var blocks: [(range: Range<Int>, digest: FileMemo.Digest)] = []
        bytes.withUnsafeBytes { all in
            let n = all.count
            var lineStart = 0
            var blockStart: Int?
            while lineStart < n {
                var lineEnd = n
                if let found = memchr(all.baseAddress! + lineStart, 0x0A, n - lineStart) {
                    lineEnd = all.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
                }
                var contentEnd = lineEnd
                while contentEnd > lineStart, all[contentEnd - 1] == 0x0A || all[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                let line = UnsafeRawBufferPointer(rebasing: all[lineStart..<contentEnd])
                if let start = blockStart {
                    if line.elementsEqual("END:VEVENT".utf8) {
                        let range = start..<lineEnd
                        var hasher = Hasher()
                        hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all[range]))
                        blocks.append((range, FileMemo.Digest(count: range.count, hash: hasher.finalize())))
                        blockStart = nil
                    }
                } else if line.elementsEqual("BEGIN:VEVENT".utf8) {
                    blockStart = lineStart
                } else {
                    restHasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all[lineStart..<lineEnd]))
                    restCount += lineEnd - lineStart
                }
                lineStart = lineEnd
            }
            // A block left open is part of the rest: the whole read says what is wrong with it.
            if let start = blockStart {
                restHasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all[start..<n]))
                restCount += n - start
            }
        }
        rest = FileMemo.Digest(count: restCount, hash: restHasher.finalize())
        self.blocks = blocks
    }
}

extension Component {
    /// Whether the component has a UID that is not empty.
    var hasUID: Bool { !(property("UID")?.value.isEmpty ?? true) }
}
