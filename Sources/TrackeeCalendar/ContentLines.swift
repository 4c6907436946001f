// Over 400 lines on purpose: one lexer (unfolding, the parameter grammar,
// UTF-8 checks) whose steps share one cursor and its line bookkeeping.
/// The content lines of an iCalendar text (RFC 5545 section 3.1): folded
/// lines joined, each split into name, parameters and value, and each
/// remembering the physical line it began on.
///
/// libical's parser keeps no positions, so this first layer is ours: it is
/// what lets a warning or an error name the line. What libical would
/// quietly turn into `X-LIC-ERROR` properties (broken folding, text that is
/// not UTF-8) is skipped here with a warning that says where. Values are
/// handed to libical's value parsers afterwards.
///
///     BEGIN:VEVENT
///     SUMMARY:Weekly sync with a long na
///      me that was folded
///     → ContentLine(name: "SUMMARY", value: "Weekly sync with a long name that was folded", line: 2)
struct ContentLine: Sendable {
    /// Upper-cased, as names are case-insensitive.
    var name: String
    var parameters: [Parameter]
    /// The raw value: escapes (`\,`, `\n`) are left for the property's
    /// reader, which knows whether the value is text.
    var value: String
    /// 1-based physical line where the content line begins.
    var line: Int

    struct Parameter: Sendable {
        /// Upper-cased.
        var name: String
        /// Quotes removed; a parameter may list several values.
        var values: [String]
    }

    /// The first value of parameter `name` (upper-case).
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }
}

/// A problem in an iCalendar text, at a line of it.
public struct CalendarError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole (it cannot be read).
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `work/standup.ics:12: DTSTART: "2026-13-01" is not a date or date-time`.
    public var description: String {
        line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }
}

/// A problem found while reading, before the file name is known to the reader.
struct LineError: Error {
    var line: Int
    var message: String
}

enum ContentLineScanner {
    /// Splits `bytes` into content lines. Accepts CRLF and bare LF line
    /// ends, and a space or a tab as the fold marker; blank lines are
    /// skipped, and so are properties trackee never reads (their syntax is
    /// still checked). A large text is split at event boundaries and its
    /// parts scanned side by side.
    ///
    /// Nothing here refuses the text: a line that cannot be read is left
    /// out, bytes that are not UTF-8 become U+FFFD, and each gives a
    /// warning. Whether the components around them hold is for
    /// ``Component/tree(_:warnings:)`` to say.
    static func scan(_ bytes: [UInt8], warnings: inout [LineWarning]) -> [ContentLine] {
        if let bad = firstInvalidUTF8(bytes) { warnings += notUTF8(bytes, from: bad) }
        var start = bytes.startIndex
        // A byte-order mark is allowed before the first line.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        let parts = boundaries(bytes, from: start, parts: bytes.count < 1 << 20 ? 1 : Parallel.processors)
        let results = Parallel.map(count: parts.count, minimum: 1) { range -> (lines: [ContentLine], warnings: [LineWarning]) in
            var all: [ContentLine] = []
            var warnings: [LineWarning] = []
            for part in range {
                all += scan(bytes, parts[part].range, firstLine: parts[part].line, warnings: &warnings)
            }
            return (all, warnings)
        }
        var lines: [ContentLine] = []
        for result in results {
            lines += result.lines
            warnings += result.warnings
        }
        return lines
    }

    /// One warning per line holding bytes that are not UTF-8, from the
    /// first such byte at `first` on.
    private static func notUTF8(_ bytes: [UInt8], from first: Int) -> [LineWarning] {
        var warnings: [LineWarning] = []
        var bad: Int? = first
        var line = lineNumber(at: first, in: bytes)
        var counted = first
        while let offset = bad {
            line += newlines(in: bytes, counted..<offset)
            counted = offset
            if warnings.last?.line != line {
                warnings.append(LineWarning(line: line,
                    "the text is not UTF-8 (byte \(bytes[offset]) at offset \(offset)); read such bytes as U+FFFD"))
            }
            bad = firstInvalidUTF8(bytes, from: offset + 1)
        }
        return warnings
    }

    /// Cuts `bytes` into about `parts` ranges, each beginning at a line
    /// `BEGIN:VEVENT` (so no folded line is cut), with the number of the
    /// physical line each begins on.
    private static func boundaries(_ bytes: [UInt8], from start: Int, parts: Int) -> [(range: Range<Int>, line: Int)] {
        var cuts = [start]
        let marker = Array("\nBEGIN:VEVENT".utf8)
        for k in 1..<max(1, parts) {
            var i = max(cuts.last!, start + (bytes.count - start) * k / parts)
            var found: Int?
            while i + marker.count <= bytes.count {
                if bytes[i] == 0x0A && bytes[i..<i + marker.count].elementsEqual(marker) {
                    found = i + 1
                    break
                }
                i += 1
            }
            guard let found else { break }
            cuts.append(found)
        }
        cuts.append(bytes.count)
        var result: [(Range<Int>, Int)] = []
        var line = 1
        for (a, b) in zip(cuts, cuts.dropFirst()) where b > a {
            result.append((a..<b, line))
            line += newlines(in: bytes, a..<b)
        }
        return result.isEmpty ? [(start..<bytes.count, 1)] : result
    }

    /// The content lines of `bytes[range]`, whose first physical line is
    /// `firstLine`.
    private static func scan(_ bytes: [UInt8], _ range: Range<Int>, firstLine: Int, warnings: inout [LineWarning])
        -> [ContentLine]
    {
        var lines: [ContentLine] = []
        lines.reserveCapacity(range.count / 60)
        var logical: [UInt8] = []
        var logicalLine = 0
        var physical = firstLine - 1
        var index = range.lowerBound
        let endIndex = range.upperBound
        while index < endIndex {
            physical += 1
            var end = index
            while end < endIndex && bytes[end] != 0x0A { end += 1 }
            var contentEnd = end
            if contentEnd > index && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            let first = index < contentEnd ? bytes[index] : nil
            if first == 0x20 || first == 0x09 {
                if logicalLine > 0 {
                    logical.append(contentsOf: bytes[(index + 1)..<contentEnd])
                } else {
                    warnings.append(LineWarning(line: physical, "a folded continuation line with no line before it; skipped the line"))
                }
            } else {
                if logicalLine > 0, let line = split(logical, line: logicalLine, warnings: &warnings) { lines.append(line) }
                logical.removeAll(keepingCapacity: true)
                if contentEnd > index {
                    logical.append(contentsOf: bytes[index..<contentEnd])
                    logicalLine = physical
                } else {
                    logicalLine = 0
                }
            }
            index = end < endIndex ? end + 1 : end
        }
        if logicalLine > 0, let line = split(logical, line: logicalLine, warnings: &warnings) { lines.append(line) }
        return lines
    }

    /// The properties trackee reads; others are checked and dropped.
    static let wanted: Set<String> = [
        "BEGIN", "END", "UID", "DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID",
        "SEQUENCE", "STATUS", "SUMMARY", "DESCRIPTION", "LOCATION", "CATEGORIES", "TZID", "TZOFFSETFROM",
        "TZOFFSETTO", "TZNAME", "X-WR-TIMEZONE",
    ]

    /// `NAME;PARAM=a,"b;c":value` → name, parameters, value; nil for a
    /// property trackee does not read, and for a line that cannot be read
    /// even with the spaces that some exporters put around names and
    /// `=` taken out (a warning says which).
    private static func split(_ bytes: [UInt8], line: Int, warnings: inout [LineWarning]) -> ContentLine? {
        do throws(LineError) {
            return try strictSplit(bytes, line: line)
        } catch {
            if let tidy = withoutSpacesAroundNames(bytes) {
                do throws(LineError) {
                    let read = try strictSplit(tidy, line: line)
                    let name = upper(tidy.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ":") })
                    warnings.append(LineWarning(line: line, "\(name): spaces around the name or a parameter; read without them"))
                    return read
                } catch {}
            }
            warnings.append(LineWarning(line: line, error.message))
            return nil
        }
    }

    private static func strictSplit(_ bytes: [UInt8], line: Int) throws(LineError) -> ContentLine? {
        var i = 0
        while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
        guard i > 0 else {
            throw LineError(line: line, message: "expected NAME:VALUE, found \(preview(bytes)); skipped the line")
        }
        let name = upper(bytes[0..<i])
        let keep = wanted.contains(name)
        var parameters: [ContentLine.Parameter] = []
        while i < bytes.count, bytes[i] == UInt8(ascii: ";") {
            i += 1
            let start = i
            while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
            guard i > start, i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw LineError(line: line, message: "\(name): a parameter must be NAME=VALUE, found \(preview(Array(bytes[start...]))); skipped the property")
            }
            let parameterName = keep ? upper(bytes[start..<i]) : ""
            i += 1
            var values: [String] = []
            while true {
                if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                    let open = i + 1
                    i = open
                    while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += 1 }
                    guard i < bytes.count else {
                        throw LineError(line: line, message: "\(name): parameter \(parameterName) has an unclosed quote; skipped the property")
                    }
                    if keep { values.append(String(decoding: bytes[open..<i], as: UTF8.self)) }
                    i += 1
                } else {
                    let start = i
                    while i < bytes.count, bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: ";"),
                        bytes[i] != UInt8(ascii: ":")
                    {
                        i += 1
                    }
                    if keep { values.append(String(decoding: bytes[start..<i], as: UTF8.self)) }
                }
                guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
                i += 1
            }
            if keep { parameters.append(ContentLine.Parameter(name: parameterName, values: values)) }
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
            throw LineError(line: line, message: "\(name): expected \":\" before the value; skipped the property")
        }
        guard keep else { return nil }
        return ContentLine(
            name: name, parameters: parameters, value: String(decoding: bytes[(i + 1)...], as: UTF8.self), line: line)
    }

    /// The line with the spaces and tabs taken out that stand around a
    /// name's `-`, at the ends of the property's or a parameter's name, or
    /// around a parameter's value (`REFRESH - INTERVAL; VALUE = DURATION:PT48H`);
    /// nil when there are none. Spaces between two letters of a name are
    /// kept: such a line is more likely a lost fold than a spaced name.
    static func withoutSpacesAroundNames(_ bytes: [UInt8]) -> [UInt8]? {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        var removed = false
        /// A name up to `=`, `;` or `:`, spaces dropped where they touch its ends or a `-`.
        func name() {
            while i < bytes.count, ![UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: ":")].contains(bytes[i]) {
                if isSpace(bytes[i]) {
                    var j = i
                    while j < bytes.count, isSpace(bytes[j]) { j += 1 }
                    let before = out.last
                    let after = j < bytes.count ? bytes[j] : nil
                    let inner = before.map(isNameByte) == true && after.map(isNameByte) == true
                        && before != UInt8(ascii: "-") && after != UInt8(ascii: "-")
                    if inner {
                        out.append(contentsOf: bytes[i..<j])
                    } else {
                        removed = true
                    }
                    i = j
                    continue
                }
                out.append(bytes[i])
                i += 1
            }
        }
        name()
        while i < bytes.count, bytes[i] == UInt8(ascii: ";") {
            out.append(bytes[i])
            i += 1
            name()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { break }
            out.append(bytes[i])
            i += 1
            while true {
                while i < bytes.count, isSpace(bytes[i]) { i += 1; removed = true }
                if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                    let open = i
                    i += 1
                    while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += 1 }
                    if i < bytes.count { i += 1 }
                    out.append(contentsOf: bytes[open..<i])
                    while i < bytes.count, isSpace(bytes[i]) { i += 1; removed = true }
                } else {
                    let start = out.count
                    while i < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":")].contains(bytes[i]) {
                        out.append(bytes[i])
                        i += 1
                    }
                    while out.count > start, isSpace(out.last!) { out.removeLast(); removed = true }
                }
                guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
                out.append(bytes[i])
                i += 1
            }
        }
        guard removed else { return nil }
        out.append(contentsOf: bytes[i...])
        return out
    }

    /// A name (ASCII letters, digits, `-`) in upper case.
    private static func upper(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(decoding: bytes.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }, as: UTF8.self)
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
    }

    private static func preview(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return "\"\(text)\(bytes.count > 40 ? "…" : "")\""
    }

    /// How many line feeds `bytes[range]` holds, eight bytes at a time.
    static func newlines(in bytes: [UInt8], _ range: Range<Int>) -> Int {
        bytes.withUnsafeBytes { all in
            var count = 0
            var i = range.lowerBound
            while i + 8 <= range.upperBound {
                // A zero byte in `word ^ 0x0A…` marks a line feed (the
                // classic "has zero byte" test, exact per byte).
                let x = all.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
                let zero = ~(((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | x | 0x7F7F_7F7F_7F7F_7F7F)
                count += zero.nonzeroBitCount
                i += 8
            }
            while i < range.upperBound {
                if all[i] == 0x0A { count += 1 }
                i += 1
            }
            return count
        }
    }

    /// The offset of the first byte that breaks UTF-8, if any. Runs of
    /// ASCII are skipped eight bytes at a time.
    static func firstInvalidUTF8(_ bytes: [UInt8], from start: Int = 0) -> Int? {
        bytes.withUnsafeBytes { all -> Int? in
            var i = start
            let n = all.count
            while i < n {
                if i + 8 <= n, all.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
                let b = all[i]
                if b < 0x80 {
                    i += 1
                    continue
                }
                let length: Int
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                switch b {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; low = 0xA0
                case 0xE1...0xEC, 0xEE, 0xEF: length = 3
                case 0xED: length = 3; high = 0x9F
                case 0xF0: length = 4; low = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; high = 0x8F
                default: return i
                }
                guard i + length <= n else { return i }
                if all[i + 1] < low || all[i + 1] > high { return i }
                for k in 2..<length where all[i + k] < 0x80 || all[i + k] > 0xBF { return i }
                i += length
            }
            return nil
        }
    }

    static func lineNumber(at offset: Int, in bytes: [UInt8]) -> Int {
        1 + newlines(in: bytes, 0..<offset)
    }
}
