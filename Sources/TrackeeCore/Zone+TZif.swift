#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The transitions of a zone: a table of changes read from a TZif file,
/// then a POSIX rule for everything after the last one.
struct ZoneRules: Sendable, Hashable {
    /// UTC seconds at which `types[i]` takes effect, strictly ascending.
    var transitions: [Int64]
    var types: [LocalTimeType]
    /// In effect before the first transition (RFC 8536: time type 0).
    var initial: LocalTimeType
    /// In effect after the last transition, or always when there are none.
    var footer: POSIXRule?

    static let utc = ZoneRules(
        transitions: [], types: [],
        initial: LocalTimeType(offset: 0, isDST: false, abbreviation: "UTC"), footer: nil)

    init(transitions: [Int64], types: [LocalTimeType], initial: LocalTimeType, footer: POSIXRule?) {
        self.transitions = transitions
        self.types = types
        self.initial = initial
        self.footer = footer
    }

    init(rule: POSIXRule) {
        self.init(transitions: [], types: [], initial: rule.standard, footer: rule)
    }

    func type(at t: Int64) -> LocalTimeType {
        guard let last = transitions.last else { return footer?.type(at: t) ?? initial }
        if t >= last, let footer { return footer.type(at: t) }
        let i = lastIndex(atOrBefore: t)
        return i < 0 ? initial : types[i]
    }

    func nextTransition(after t: Int64) -> Int64? {
        if let last = transitions.last, t < last {
            return transitions[lastIndex(atOrBefore: t) + 1]
        }
        return footer?.nextTransition(after: t)
    }

    /// True when every local time this zone can show is UTC itself, so
    /// timestamps may say `Z` instead of `+00:00`.
    var isUTC: Bool {
        let all = [initial] + types + [footer?.standard, footer?.daylight?.type].compactMap { $0 }
        return all.allSatisfy { $0.offset == 0 && !$0.isDST }
    }

    /// The offset of wall time `wall` when the table has no change within
    /// 200,000 s of it (offsets are under 100,000 s, so its instant is
    /// then unambiguous and a day clear of any change), from one search;
    /// nil otherwise, and after the table's last change, where the POSIX
    /// rule decides.
    func plainOffset(atWall wall: Int64) -> Int? {
        guard let last = transitions.last, wall + 200_000 < last else { return footer == nil && transitions.isEmpty ? initial.offset : nil }
        let i = lastIndex(atOrBefore: wall)
        if i >= 0 && transitions[i] > wall - 200_000 { return nil }
        if transitions[i + 1] < wall + 200_000 { return nil }
        return i < 0 ? initial.offset : types[i].offset
    }

    /// Index of the last transition at or before `t`, or -1.
    private func lastIndex(atOrBefore t: Int64) -> Int {
        var low = 0
        var high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= t { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }
}

// MARK: - TZif files (RFC 8536)

extension ZoneRules {
    /// Parses a TZif file: the 64-bit block and footer of version 2 and
    /// later, or the 32-bit block of a version 1 file. Nil when malformed.
    init?(tzif bytes: [UInt8]) {
        var reader = TZifReader(bytes: bytes)
        guard let first = reader.header() else { return nil }
        if first.version == 0 {
            guard let block = reader.block(first, timeSize: 4) else { return nil }
            self.init(block, footer: nil)
            return
        }
        // The version 1 block is there for old readers; its 32-bit times end in 2038.
        guard reader.skip(first.blockSize(timeSize: 4)),
            let second = reader.header(),
            let block = reader.block(second, timeSize: 8)
        else { return nil }
        var footer: POSIXRule?
        if let text = reader.footer(), !text.isEmpty {
            // A rule we cannot read leaves the last stored type in force rather
            // than rejecting the whole file.
            footer = POSIXRule(text)
        }
        self.init(block, footer: footer)
    }

    private init(_ block: TZifReader.Block, footer: POSIXRule?) {
        self.init(
            transitions: block.transitions,
            types: block.typeIndices.map { block.types[Int($0)] },
            initial: block.types[0],
            footer: footer)
    }
}

private struct TZifReader {
    struct Header {
        var version: UInt8
        var isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

        func blockSize(timeSize: Int) -> Int {
            timecnt * (timeSize + 1) + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
        }
    }

    struct Block {
        var transitions: [Int64]
        var typeIndices: [UInt8]
        var types: [LocalTimeType]
    }

    let bytes: [UInt8]
    var index = 0

    mutating func header() -> Header? {
        guard index + 44 <= bytes.count,
            bytes[index..<index + 4].elementsEqual("TZif".utf8)
        else { return nil }
        let version = bytes[index + 4]
        index += 20
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let n = u32(), n <= 1 << 20 else { return nil }
            counts.append(Int(n))
        }
        let header = Header(
            version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2],
            timecnt: counts[3], typecnt: counts[4], charcnt: counts[5])
        guard header.typecnt >= 1, header.charcnt >= 1,
            header.isutcnt == 0 || header.isutcnt == header.typecnt,
            header.isstdcnt == 0 || header.isstdcnt == header.typecnt
        else { return nil }
        return header
    }

    mutating func block(_ h: Header, timeSize: Int) -> Block? {
        guard index + h.blockSize(timeSize: timeSize) <= bytes.count else { return nil }
        var transitions: [Int64] = []
        transitions.reserveCapacity(h.timecnt)
        for _ in 0..<h.timecnt {
            let t = timeSize == 4 ? Int64(Int32(bitPattern: u32()!)) : Int64(bitPattern: u64()!)
            if let previous = transitions.last, t <= previous { return nil }
            transitions.append(t)
        }
        let typeIndices = Array(bytes[index..<index + h.timecnt])
        index += h.timecnt
        guard typeIndices.allSatisfy({ Int($0) < h.typecnt }) else { return nil }
        var raw: [(offset: Int32, isDST: Bool, abbreviationIndex: Int)] = []
        for _ in 0..<h.typecnt {
            let offset = Int32(bitPattern: u32()!)
            let isDST = bytes[index] != 0
            let abbreviationIndex = Int(bytes[index + 1])
            index += 2
            guard abbreviationIndex < h.charcnt else { return nil }
            raw.append((offset, isDST, abbreviationIndex))
        }
        let chars = bytes[index..<index + h.charcnt]
        index += h.blockSize(timeSize: timeSize) - h.timecnt * (timeSize + 1) - h.typecnt * 6
        let types = raw.map { type in
            let start = chars.startIndex + type.abbreviationIndex
            let end = chars[start...].firstIndex(of: 0) ?? chars.endIndex
            return LocalTimeType(
                offset: Int(type.offset), isDST: type.isDST,
                abbreviation: String(decoding: chars[start..<end], as: UTF8.self))
        }
        return Block(transitions: transitions, typeIndices: typeIndices, types: types)
    }

    /// The text between the newlines that follow a version 2+ block.
    mutating func footer() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else { return nil }
        let start = index + 1
        guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    mutating func skip(_ n: Int) -> Bool {
        guard index + n <= bytes.count else { return false }
        index += n
        return true
    }

    private mutating func u32() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        defer { index += 4 }
        return bytes[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private mutating func u64() -> UInt64? {
        guard index + 8 <= bytes.count else { return nil }
        defer { index += 8 }
        return bytes[index..<index + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
}

// MARK: - Files

extension Zone {
    /// The contents of a regular file, or nil. TZif files are a few kilobytes;
    /// the cap keeps a wrong path (a device, a huge log) from being slurped.
    static func contentsOfZoneFile(atPath path: String, limit: Int = 1 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            if bytes.count > limit { return nil }
        }
    }

    /// The target of a symbolic link, or nil when `path` is not one.
    static func symbolicLinkTarget(atPath path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
