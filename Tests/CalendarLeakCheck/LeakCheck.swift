import Glibc
import TrackeeCalendar
import TrackeeCore

enum LeakCheck {
    /// Loads every `.ics` file and vdir folder below `arguments` `rounds`
    /// times and expands each over a few windows; calendars that are meant
    /// to fail are loaded too (their error paths must not leak either).
    /// Prints what it did; the exit status is 0 unless a folder is missing.
    static func run(_ arguments: [String]) -> Int32 {
        var rounds = 20
        var folders: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--rounds", let value = rest.popFirst().flatMap({ Int($0) }) {
                rounds = value
            } else {
                folders.append(argument)
            }
        }
        var paths: [String] = []
        for folder in folders {
            guard let found = calendars(in: folder) else {
                print("trackee-calendar-leaks: \(folder): no such folder")
                return 2
            }
            paths += found
        }
        let zones = ["Europe/Prague", "America/New_York", "UTC"].compactMap { try? Zone(identifier: $0) }
        var loaded = 0
        var refused = 0
        var occurrences = 0
        for round in 0..<rounds {
            let zone = zones[round % zones.count]
            for path in paths {
                do {
                    let calendar = try EventCalendar.load(name: "leaks", path: path, zone: zone)
                    loaded += 1
                    for (from, to) in [(1_767_225_600, 1_767_236_400), (1_795_420_000, 1_795_430_800), (946_684_800, 946_695_600)] {
                        occurrences += calendar.occurrences(from: Instant(seconds: Int64(from)), to: Instant(seconds: Int64(to))).count
                    }
                } catch {
                    refused += 1
                }
            }
        }
        print("trackee-calendar-leaks: \(paths.count) calendars × \(rounds) rounds: \(loaded) loaded, \(refused) refused, \(occurrences) occurrences")
        return 0
    }

    /// The `.ics` files below `folder`, and the folders that hold `.ics`
    /// files directly (read as vdir calendars too).
    static func calendars(in folder: String) -> [String]? {
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        var found: [String] = []
        var holdsCalendars = false
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        for name in names.sorted() {
            let path = folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                found += calendars(in: path) ?? []
            } else if name.hasSuffix(".ics") {
                found.append(path)
                holdsCalendars = true
            }
        }
        if holdsCalendars { found.append(folder) }
        return found
    }
}
