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
    /// Events without recurrence, by start.
    private let singles: [CalendarOccurrence]
    private let longestSingle: Int64
    private let series: [Series]

    init(name: String, zone: Zone, components: [EventComponent]) {
        self.name = name
        self.zone = zone
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
        let all = groups
        let parts = Parallel.map(count: all.count, minimum: 1024) { slice -> ([CalendarOccurrence], [Series]) in
            var singles: [CalendarOccurrence] = []
            var series: [Series] = []
            for group in all[slice] {
                let s = Series(uid: group[0].uid, components: group, calendar: name, local: zone)
                if s.isSingle, let master = s.master {
                    let start = master.start.instant(local: zone)
                    singles += s.occurrences(from: start, to: start + 1, calendar: name, local: zone)
                } else {
                    series.append(s)
                }
            }
            return (singles, series)
        }
        var singles = parts.flatMap(\.0)
        let series = parts.flatMap(\.1)
        singles.sort { $0.start < $1.start }
        self.singles = singles
        longestSingle = singles.map { $0.end - $0.start }.max() ?? 0
        self.series = series
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
        var result: [CalendarOccurrence] = []
        var i = firstSingle(startingAtOrAfter: from - longestSingle)
        while i < singles.count, singles[i].start < to {
            if Series.overlaps(singles[i], from: from, to: to) { result.append(singles[i]) }
            i += 1
        }
        result += expandSeries(from: from, to: to)
        guard sorted else { return result }
        // By start, through plain keys (moving occurrences costs a retain
        // each); ties, which are few, by UID and then recurrence id.
        var keys = result.indices.map { (start: result[$0].start.seconds, index: Int32($0)) }
        keys.sort { $0.start != $1.start ? $0.start < $1.start : $0.index < $1.index }
        var first = 0
        while first < keys.count {
            var end = first + 1
            while end < keys.count && keys[end].start == keys[first].start { end += 1 }
            if end > first + 1 {
                keys[first..<end].sort { (a: (start: Int64, index: Int32), b: (start: Int64, index: Int32)) -> Bool in
                    let x = result[Int(a.index)]
                    let y = result[Int(b.index)]
                    if x.uid != y.uid { return x.uid < y.uid }
                    return (x.recurrenceID?.instant(in: zone) ?? x.start) < (y.recurrenceID?.instant(in: zone) ?? y.start)
                }
            }
            first = end
        }
        return keys.map { result[Int($0.index)] }
    }

    /// Every series' occurrences in the window, the series of a large
    /// calendar spread over the processors.
    private func expandSeries(from: Instant, to: Instant) -> [CalendarOccurrence] {
        let (all, calendarName, local) = (series, name, zone)
        return Parallel.map(count: all.count, minimum: 256) { slice in
            all[slice].flatMap { $0.occurrences(from: from, to: to, calendar: calendarName, local: local) }
        }.flatMap { $0 }
    }

    private func firstSingle(startingAtOrAfter t: Instant) -> Int {
        var low = 0
        var high = singles.count
        while low < high {
            let mid = (low + high) / 2
            if singles[mid].start < t { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

// MARK: - Loading

extension EventCalendar {
    /// Reads a calendar: one `.ics` file, or a vdir folder of them (hidden
    /// files and files not ending in `.ics` are skipped). Any problem in
    /// any file is an error naming the file and line; nothing partial is
    /// returned.
    public static func load(name: String, path: String, zone: Zone) throws(CalendarError) -> EventCalendar {
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
        var components: [EventComponent] = []
        for file in files {
            components += try read(file: file, zone: zone)
        }
        return EventCalendar(name: name, zone: zone, components: components)
    }

    /// Parses one iCalendar text; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String, name: String, zone: Zone) throws(CalendarError) -> EventCalendar {
        EventCalendar(name: name, zone: zone, components: try components(bytes, file: file, zone: zone))
    }

    private static func read(file: String, zone: Zone) throws(CalendarError) -> [EventComponent] {
        guard let bytes = FileBytes.read(file) else {
            throw CalendarError(file: file, line: 0, message: "cannot read the file (\(String(cString: strerror(errno))))")
        }
        return try components(bytes, file: file, zone: zone)
    }

    static func components(_ bytes: [UInt8], file: String, zone: Zone) throws(CalendarError) -> [EventComponent] {
        do throws(LineError) {
            let roots = try Component.tree(try ContentLineScanner.scan(bytes))
            var events: [EventComponent] = []
            let base = file.split(separator: "/").last.map(String.init) ?? file
            var anonymous = 0
            for root in roots {
                let calendarZone = root.property("X-WR-TIMEZONE").flatMap { ZoneResolver.named($0.value) }
                let reader = EventReader(
                    zones: ZoneResolver(timezones: root.children.filter { $0.name == "VTIMEZONE" }), local: zone,
                    calendarZone: calendarZone)
                // Events without a UID are named after the file and their place in it.
                var vevents: [(component: Component, anonymous: String?)] = []
                for child in root.children where child.name == "VEVENT" {
                    let hasUID = !(child.property("UID")?.value.isEmpty ?? true)
                    if !hasUID { anonymous += 1 }
                    vevents.append((child, hasUID ? nil : "\(base)#\(anonymous)"))
                }
                let found = vevents
                let parts = Parallel.map(count: found.count, minimum: 512) { slice -> Result<[EventComponent], LineError> in
                    var reader = reader
                    var read: [EventComponent] = []
                    read.reserveCapacity(slice.count)
                    for (component, name) in found[slice] {
                        do throws(LineError) {
                            read.append(try reader.read(component, anonymousUID: name))
                        } catch {
                            return .failure(error)
                        }
                    }
                    return .success(read)
                }
                for part in parts {
                    switch part {
                    case .success(let read): events += read
                    case .failure(let error): throw error
                    }
                }
            }
            return events
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
