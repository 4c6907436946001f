import TrackeeCore

#if canImport(Glibc)
import Glibc
#endif

/// A calendar read from an `.ics` file or a vdir folder, ready to expand
/// over any window.
///
/// Events that do not recur are placed once, when the calendar is read,
/// and kept sorted; series are expanded per window, never from their
/// DTSTART onwards, so an endless series costs the same in any year.
///
/// ```swift
/// let work = try EventCalendar.load(name: "work", path: "/home/ana/.calendars/work", zone: .local())
/// for o in work.occurrences(from: monday, to: saturday) { print(o.summary, o.start) }
/// ```
public struct EventCalendar: Sendable {
    public let name: String
    /// The local zone: DATE and floating times are read on its clock.
    public let zone: Zone
    /// Events without recurrence, by start, each with its UID's rank.
    private let singles: [(occurrence: CalendarOccurrence, rank: Int32)]
    private let longestSingle: Int64
    /// Series with their UID's rank.
    private let series: [(series: Series, rank: Int32)]

    /// What reading each file again needs, by path (see ``load(name:path:zone:remember:rereading:)``).
    let memos: [String: FileMemo]
    /// What was read past (a line, an event, a TZID), file by file, in
    /// line order; empty for a calendar written as RFC 5545 asks.
    public let warnings: [CalendarWarning]

    init(name: String, zone: Zone, components: [EventComponent], warnings: [CalendarWarning] = [],
         memos: [String: FileMemo] = [:]) {
        self.name = name
        self.zone = zone
        self.warnings = warnings
        self.memos = memos
        // Components by UID, in the order UIDs first appear.
        var groups: [[EventComponent]] = []
        var groupOf: [String: Int] = [:]
        groupOf.reserveCapacity(components.count)
        for c in components {
            if let index = groupOf[c.uid] {
                groups[index].append(c)
            } else {
                groupOf[c.uid] = groups.count
                groups.append([c])
            }
        }
        // Each UID's place in UID order, so that sorting occurrences that
        // start together compares two integers rather than two strings.
        var ranks = [Int32](repeating: 0, count: groups.count)
        for (rank, group) in groups.indices.sorted(by: { groups[$0][0].uid < groups[$1][0].uid }).enumerated() {
            ranks[group] = Int32(rank)
        }
        let (all, rankOf) = (groups, ranks)
        let parts = Parallel.map(count: all.count, minimum: 1024) {
            slice -> ([(occurrence: CalendarOccurrence, rank: Int32)], [(series: Series, rank: Int32)]) in
            var singles: [(occurrence: CalendarOccurrence, rank: Int32)] = []
            var series: [(series: Series, rank: Int32)] = []
            for index in slice {
                let group = all[index]
                let s = Series(uid: group[0].uid, components: group, calendar: name, local: zone)
                if s.isSingle, let master = s.master {
                    let start = master.start.instant(local: zone)
                    for o in s.occurrences(from: start, to: start + 1, calendar: name, local: zone) {
                        singles.append((o, rankOf[index]))
                    }
                } else {
                    series.append((s, rankOf[index]))
                }
            }
            return (singles, series)
        }
        var singles = parts.flatMap(\.0)
        singles.sort { $0.occurrence.start < $1.occurrence.start }
        self.singles = singles
        longestSingle = singles.map { $0.occurrence.end - $0.occurrence.start }.max() ?? 0
        self.series = parts.flatMap(\.1)
    }

    /// How many VEVENTs with distinct UIDs the calendar holds.
    public var eventCount: Int { singles.count + series.count }

    /// Every occurrence that overlaps `[from, to)` (a zero-length one at
    /// `from` counts), cancelled ones included, ordered by start, then
    /// UID, then recurrence id.
    /// `sorted: false` leaves them in no particular order, for callers that
    /// only look for the earliest or test each.
    public func occurrences(from: Instant, to: Instant, sorted: Bool = true) -> [CalendarOccurrence] {
        guard from < to else { return [] }
        // The singles in the window, then each slice of series: sorted, the
        // occurrences are copied once, from these parts to the result.
        var window: [(occurrence: CalendarOccurrence, rank: Int32)] = []
        var i = firstSingle(startingAtOrAfter: from - longestSingle)
        while i < singles.count, singles[i].occurrence.start < to {
            if Series.overlaps(singles[i].occurrence, from: from, to: to) { window.append(singles[i]) }
            i += 1
        }
        let parts = [window] + expandSeries(from: from, to: to)

        guard sorted else { return parts.flatMap { $0.map(\.occurrence) } }
        // By start, then UID, through plain keys (moving occurrences costs
        // a retain each); ties of one UID, which are few, by recurrence id.
        var keys: [(start: Int64, rank: Int32, part: Int32, index: Int32)] = []
        keys.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for (p, part) in parts.enumerated() {
            for (index, o) in part.enumerated() {
                keys.append((o.occurrence.start.seconds, o.rank, Int32(p), Int32(index)))
            }
        }
        let zone = zone
        return Self.withBuffers(parts) { parts in
            keys.sort { a, b in
                if a.start != b.start { return a.start < b.start }
                if a.rank != b.rank { return a.rank < b.rank }
                let x = parts[Int(a.part)][Int(a.index)].occurrence
                let y = parts[Int(b.part)][Int(b.index)].occurrence
                let (u, v) = (x.recurrenceID?.instant(in: zone) ?? x.start, y.recurrenceID?.instant(in: zone) ?? y.start)
                return u != v ? u < v : (a.part, a.index) < (b.part, b.index)
            }
            return keys.map { parts[Int($0.part)][Int($0.index)].occurrence }
        }
    }

    /// `body` given the elements of every array in `arrays` in place,
    /// so reading one does not retain the array it is in.
    private static func withBuffers<T, R>(_ arrays: [[T]], _ taken: [UnsafeBufferPointer<T>] = [],
                                          _ body: ([UnsafeBufferPointer<T>]) -> R) -> R {
        guard taken.count < arrays.count else { return body(taken) }
        return arrays[taken.count].withUnsafeBufferPointer { withBuffers(arrays, taken + [$0], body) }
    }

    /// Every series' occurrences in the window, with their UID's rank, one
    /// part per slice of series, the slices spread over the processors.
    private func expandSeries(from: Instant, to: Instant) -> [[(occurrence: CalendarOccurrence, rank: Int32)]] {
        let (all, calendarName, local) = (series, name, zone)
        // Room for a few occurrences a week per series, so a year of a busy
        // calendar is not copied again and again as the arrays grow.
        let perSeries = max(4, min(400, Int((to - from) / (86_400 * 3))))
        return Parallel.map(count: all.count, minimum: 256) { slice in
            var found: [(occurrence: CalendarOccurrence, rank: Int32)] = []
            found.reserveCapacity(slice.count * perSeries)
            for (series, rank) in all[slice] {
                series.forEachOccurrence(from: from, to: to, calendar: calendarName, local: local) { found.append(($0, rank)) }
            }
            return found
        }
    }

    private func firstSingle(startingAtOrAfter t: Instant) -> Int {
        var low = 0
        var high = singles.count
        while low < high {
            let mid = (low + high) / 2
            if singles[mid].occurrence.start < t { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

// MARK: - Loading

extension EventCalendar {
    /// Reads a calendar: one `.ics` file, or a vdir folder of them (hidden
    /// files and files not ending in `.ics` are skipped). A line, an event
    /// or a TZID that cannot be read is skipped or read as floating time,
    /// each with a warning in ``warnings``; the rest loads. An error, naming
    /// the file and line, is left for a file that cannot be read at all or
    /// ends inside an event (it is being written).
    ///
    /// `remember` keeps what is needed to read the calendar again quickly;
    /// `rereading` is the same calendar as read before with it (the
    /// daemon's last good copy): only the events whose text changed since
    /// are parsed again. The result is the same as a first read's.
    public static func load(name: String, path: String, zone: Zone, remember: Bool = false,
                            rereading previous: EventCalendar? = nil) throws(CalendarError) -> EventCalendar {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CalendarError(file: path, line: 0, message: "no such calendar file or folder")
        }
        var files: [String] = []
        if (info.st_mode & S_IFMT) == S_IFDIR {
            files = try vdirFiles(path)
        } else {
            files = [path]
        }
        let before = previous?.zone == zone ? previous?.memos ?? [:] : [:]
        var components: [EventComponent] = []
        var warnings: [CalendarWarning] = []
        var memos: [String: FileMemo] = [:]
        for file in files {
            guard let bytes = FileBytes.read(file) else {
                throw CalendarError(file: file, line: 0, message: "cannot read the file (\(String(cString: strerror(errno))))")
            }
            if let again = before[file]?.reread(bytes) {
                components += again.components
                memos[file] = again.memo
                continue
            }
            let read = try Self.components(bytes, file: file, zone: zone, remember: remember)
            components += read.components
            warnings += read.warnings
            memos[file] = read.memo
        }
        return EventCalendar(name: name, zone: zone, components: components, warnings: warnings, memos: memos)
    }

    /// Parses one iCalendar text; `file` names it in errors and warnings.
    public static func parse(_ bytes: [UInt8], file: String, name: String, zone: Zone) throws(CalendarError) -> EventCalendar {
        let read = try components(bytes, file: file, zone: zone)
        return EventCalendar(name: name, zone: zone, components: read.components, warnings: read.warnings)
    }

    /// The events of one file, in file order, what was read past in it,
    /// and with `remember` what reading it again needs.
    static func components(_ bytes: [UInt8], file: String, zone: Zone, remember: Bool = false) throws(CalendarError)
        -> (components: [EventComponent], warnings: [CalendarWarning], memo: FileMemo?)
    {
        do throws(LineError) {
            var warnings: [LineWarning] = []
            let lines = ContentLineScanner.scan(bytes, warnings: &warnings)
            let roots = try Component.tree(lines, warnings: &warnings)
            var events: [EventComponent] = []
            var memo: FileMemo?
            let base = file.split(separator: "/").last.map(String.init) ?? file
            var anonymous = 0
            for root in roots {
                let calendarZone = root.property("X-WR-TIMEZONE").flatMap { ZoneResolver.named($0.value) }
                let reader = EventReader(
                    zones: ZoneResolver(timezones: root.children.filter { $0.name == "VTIMEZONE" }), local: zone,
                    calendarZone: calendarZone)
                // Events without a UID are named after the file and their place in it.
                var vevents: [(component: Component, anonymous: String?)] = []
                for child in root.events {
                    let hasUID = child.hasUID
                    if !hasUID { anonymous += 1 }
                    vevents.append((child, hasUID ? nil : "\(base)#\(anonymous)"))
                }
                let found = vevents
                let parts = Parallel.map(count: found.count, minimum: 512) { slice -> ([EventComponent], [LineWarning]) in
                    var reader = reader
                    var read: [EventComponent] = []
                    read.reserveCapacity(slice.count)
                    for (component, name) in found[slice] {
                        do throws(LineError) {
                            read.append(try reader.read(component, anonymousUID: name))
                        } catch {
                            reader.warnings.append(LineWarning(line: error.line, error.message + "; skipped the event"))
                        }
                    }
                    return (read, reader.warnings)
                }
                for (read, skipped) in parts {
                    events += read
                    warnings += skipped
                }
                // A file read past anywhere is read whole each time, so
                // each read gives its warnings (see FileMemo).
                if remember && warnings.isEmpty {
                    memo = FileMemo.remembering(bytes, roots: roots, reader: reader, components: events)
                }
            }
            return (events, LineWarning.positioned(warnings, file: file), memo)
        } catch {
            throw CalendarError(file: file, line: error.line, message: error.message)
        }
    }

    private static func vdirFiles(_ path: String) throws(CalendarError) -> [String] {
        guard let dir = opendir(path) else {
            throw CalendarError(file: path, line: 0, message: "cannot read the folder (\(String(cString: strerror(errno))))")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard !name.hasPrefix("."), name.lowercased().hasSuffix(".ics") else { continue }
            var info = stat()
            let full = path.hasSuffix("/") ? path + name : path + "/" + name
            if stat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { names.append(full) }
        }
        return names.sorted()
    }
}

/// Whole files read with read(2): calendars are small, and Foundation
/// stays off this module.
enum FileBytes {
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0))
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: 65_536)) }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}
