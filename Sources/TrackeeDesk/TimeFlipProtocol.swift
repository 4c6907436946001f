import TrackeeCore

/// The TimeFlip2 cube's Bluetooth LE protocol (v4.3) as ``TimeFlipWatch``
/// speaks it: its characteristics' UUIDs, the bytes of the commands it
/// writes, and the answers, notifications and history records it reads.
/// No bus here: every function takes bytes and gives values, so each
/// layout is tested byte for byte. Tests/Servers/TIMEFLIP.md describes the
/// protocol and the choices made where its document is unclear (numbers
/// are big-endian; any packet whose bytes 0–16 are zero ends a stream).
enum TimeFlipProtocol {
    static func uuid(_ short: String) -> String { "f1196f\(short)-71a4-11e6-bdf4-0800200c9a66" }
    static let service = uuid("50")
    static let facets = uuid("52")
    static let commandResult = uuid("53")
    static let command = uuid("54")
    static let doubleTap = uuid("55")
    static let systemState = uuid("56")
    static let password = uuid("57")
    static let history = uuid("58")
    /// The characteristics the watch cannot do without, with their names for the log.
    static let needed: [(uuid: String, name: String)] = [
        (facets, "Facets"), (commandResult, "Command result"), (command, "Command"), (doubleTap, "Double tap"),
        (systemState, "System state"), (password, "Password"), (history, "History"),
    ]
    static let batteryService = "0000180f-0000-1000-8000-00805f9b34fb"
    static let batteryLevel = "00002a19-0000-1000-8000-00805f9b34fb"

    // MARK: - BlueZ's objects

    /// `GetManagedObjects`' answer: each object's interfaces and their properties.
    typealias Objects = [String: [String: [String: DBusValue]]]

    /// Reads `a{oa{sa{sv}}}`; nil when it is anything else. An object whose
    /// interfaces are malformed is left out.
    static func objects(_ value: DBusValue) -> Objects? {
        guard case .array("{oa{sa{sv}}}", let entries) = value else { return nil }
        var objects: Objects = [:]
        for case .entry(.objectPath(let path), let value) in entries {
            objects[path] = interfaces(value)
        }
        return objects
    }

    /// Reads `a{sa{sv}}` (an object's interfaces, as InterfacesAdded carries them).
    static func interfaces(_ value: DBusValue) -> [String: [String: DBusValue]]? {
        guard case .array("{sa{sv}}", let entries) = value else { return nil }
        var interfaces: [String: [String: DBusValue]] = [:]
        for entry in entries {
            guard case .entry(.string(let name), let map) = entry, let properties = map.propertyMap else { return nil }
            interfaces[name] = properties
        }
        return interfaces
    }

    /// The bytes of an `ay`.
    static func bytes(_ value: DBusValue) -> [UInt8]? {
        guard case .array("y", let items) = value else { return nil }
        return items.compactMap { item -> UInt8? in
            if case .byte(let byte) = item { return byte }
            return nil
        }
    }

    /// The device whose `Address` is `address` (upper case), the first by
    /// path if two adapters know it.
    static func cube(_ address: String, in objects: Objects) -> (path: String, connected: Bool, resolved: Bool)? {
        let found = objects.compactMap { path, interfaces -> (String, [String: DBusValue])? in
            guard let device = interfaces["org.bluez.Device1"], case .string(let known) = device["Address"],
                  known.uppercased() == address else { return nil }
            return (path, device)
        }
        guard let (path, device) = found.min(by: { $0.0 < $1.0 }) else { return nil }
        return (path, device["Connected"] == .bool(true), device["ServicesResolved"] == .bool(true))
    }

    /// The paths of the TimeFlip and Battery services' characteristics of
    /// the device at `path`, by UUID (lower case).
    static func characteristics(of path: String, in objects: Objects) -> [String: String] {
        let services = Set(objects.compactMap { service, interfaces -> String? in
            guard service.hasPrefix(path + "/"), case .string(let uuid) = interfaces["org.bluez.GattService1"]?["UUID"],
                  [TimeFlipProtocol.service, batteryService].contains(uuid.lowercased()) else { return nil }
            return service
        })
        var paths: [String: String] = [:]
        for (characteristic, interfaces) in objects.sorted(by: { $0.key < $1.key }) {
            guard let properties = interfaces["org.bluez.GattCharacteristic1"],
                  case .objectPath(let service) = properties["Service"], services.contains(service),
                  case .string(let uuid) = properties["UUID"], paths[uuid.lowercased()] == nil else { continue }
            paths[uuid.lowercased()] = characteristic
        }
        return paths
    }

    // MARK: - Commands (to Command, 54) and history requests (to History, 58)

    static let readClock: [UInt8] = [0x07]
    static func setClock(_ time: Instant) -> [UInt8] { [0x08] + bigEndian(UInt64(clamping: time.seconds), bytes: 8) }
    static let status: [UInt8] = [0x10]
    /// `01 NNNNNNNN`: put record `number` in History's value.
    static func record(_ number: UInt32) -> [UInt8] { [0x01] + bigEndian(UInt64(number), bytes: 4) }
    /// `01 FFFFFFFF`: put the last record in History's value.
    static let lastRecord = record(0xFFFF_FFFF)
    /// `02 NNNNNNNN`: notify every record numbered `number` or later, then the end.
    static func records(from number: UInt32) -> [UInt8] { [0x02] + bigEndian(UInt64(number), bytes: 4) }

    static func bigEndian(_ number: UInt64, bytes count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: number >> (8 * UInt64($0))) }
    }

    static func number(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// `0C 61 FF`, as a warning shows bytes.
    static func hex(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "no bytes" }
        let digits = Array("0123456789ABCDEF")
        let shown = bytes.prefix(24).map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined(separator: " ")
        return bytes.count > 24 ? shown + " … (\(bytes.count) bytes)" : shown
    }

    // MARK: - Answers and notifications

    /// Byte 0 of Command result after the password was written: `01`
    /// right, `02` wrong; nil for anything else.
    static func passwordAccepted(_ answer: [UInt8]) -> Bool? {
        guard (1...20).contains(answer.count) else { return nil }
        switch answer[0] {
        case 0x01: return true
        case 0x02: return false
        default: return nil
        }
    }

    /// The cube's clock from the answer to `07`: `07` and a u64 (9 bytes,
    /// or 20 zero-padded).
    static func clock(_ answer: [UInt8]) -> UInt64? {
        guard (9...20).contains(answer.count), answer[0] == 0x07 else { return nil }
        return number(answer[1...8])
    }

    /// Whether the cube is paused, from the answer to `10`: `LL PP AAAA`
    /// with lock and pause each `01` on or `02` off.
    static func paused(status answer: [UInt8]) -> Bool? {
        guard (4...20).contains(answer.count), (1...2).contains(answer[0]), (1...2).contains(answer[1]) else { return nil }
        return answer[1] == 0x01
    }

    /// The facet up from a Facets value: one byte, 1–12.
    static func facet(_ value: [UInt8]) -> Int? {
        guard value.count == 1, (1...12).contains(value[0]) else { return nil }
        return Int(value[0])
    }

    /// A Double tap value: one byte, the facet, plus 128 when it paused.
    static func tap(_ value: [UInt8]) -> FlipEdge.Change? {
        guard value.count == 1, let side = side(value[0]), side != .unknown else { return nil }
        return side.change
    }

    /// The battery's charge from Battery Level (0x2A19): one byte, 0–100.
    static func batteryLevel(_ value: [UInt8]) -> Int? {
        guard value.count == 1, value[0] <= 100 else { return nil }
        return Int(value[0])
    }

    /// System state: 4 bytes, the synchronisation request (`02 01`: the
    /// time must be set) and the hardware's health (`00 00`: fine).
    struct SystemState: Equatable {
        var request: [UInt8]
        var hardware: [UInt8]

        init?(_ value: [UInt8]) {
            guard value.count == 4 else { return nil }
            request = Array(value[0...1])
            hardware = Array(value[2...3])
        }

        var needsTime: Bool { request == [0x02, 0x01] }
        var hardwareFault: String? {
            switch hardware {
            case [0x00, 0x00]: nil
            case [0x02, 0x01]: "its accelerometer failed"
            case [0x02, 0x02]: "its flash memory failed"
            case [0x02, 0x03]: "its accelerometer and flash memory failed"
            default: "its hardware state is \(hex(hardware))"
            }
        }
    }

    // MARK: - History

    /// What a record's side byte says: running on a facet (1–12), paused
    /// on one (facet + 128), or not known (66, the accelerometer failed).
    enum Side: Equatable {
        case running(Int), paused(Int), unknown

        var change: FlipEdge.Change? {
            switch self {
            case .running(let facet): .facet(facet)
            case .paused(let facet): .paused(facet: facet)
            case .unknown: nil
            }
        }
    }

    static func side(_ byte: UInt8) -> Side? {
        switch byte {
        case 1...12: .running(Int(byte))
        case 129...140: .paused(Int(byte) - 128)
        case 66: .unknown
        default: nil
        }
    }

    /// One interval of the cube's history: bytes 0–16 of a record.
    struct Record: Equatable {
        var number: UInt32
        var side: UInt8
        /// When it began (the flip), cube seconds.
        var start: UInt64
        var duration: UInt32

        init(number: UInt32, side: UInt8, start: UInt64, duration: UInt32) {
            self.number = number
            self.side = side
            self.start = start
            self.duration = duration
        }

        init(_ bytes: [UInt8]) {
            number = UInt32(TimeFlipProtocol.number(bytes[0...3]))
            side = bytes[4]
            start = TimeFlipProtocol.number(bytes[5...12])
            duration = UInt32(TimeFlipProtocol.number(bytes[13...16]))
        }

        /// When it ended, cube seconds.
        var end: UInt64 { start.addingReportingOverflow(UInt64(duration)).overflow ? .max : start + UInt64(duration) }
    }

    enum Packet: Equatable {
        case record(Record)
        case end
        case malformed(String)
    }

    /// One notification of a `02` stream: a record (bytes 0–16, then the
    /// 3-byte number of the one sent before, not used) or the end (bytes
    /// 0–16 zero, in either form the document shows).
    static func streamPacket(_ value: [UInt8]) -> Packet {
        guard (17...20).contains(value.count) else {
            return .malformed("\(value.count) byte\(value.count == 1 ? "" : "s") instead of 20")
        }
        if value[0..<17].allSatisfy({ $0 == 0 }) { return .end }
        return .record(Record(value))
    }

    /// History's value after `01 FFFFFFFF`: the last record (17 bytes, or
    /// 20 zero-padded), or zeros when the history is empty; nil when it is
    /// neither.
    static func lastRecord(_ value: [UInt8]) -> Record?? {
        guard (17...20).contains(value.count) else { return nil }
        if value.allSatisfy({ $0 == 0 }) { return .some(nil) }
        return .some(Record(value))
    }

    /// An interval a catch-up reports: its number, what it was, and when
    /// it began on this machine's clock.
    struct Interval: Equatable {
        var number: UInt32
        var change: FlipEdge.Change
        var time: Instant
    }

    /// The intervals that the records of a `02` stream requested `from` a
    /// number report, and a warning for each record left out.
    ///
    /// Times are the cube's less `offset` (how far its clock is ahead).
    /// Left out: numbers below `from` or not above the record before
    /// (out of order), sides that are not a facet (66 included), times
    /// after `now` or before the interval kept before (time running
    /// backwards), and with `after` (a cube reset or replaced) every
    /// interval that began at or before it, silently. A duration that
    /// disagrees with the next record's start keeps both records: a flip's
    /// report is its start, which the record gives whatever its duration
    /// says; the disagreement is warned about.
    static func catchUp(_ records: [Record], from: UInt32, offset: Int64, after: Instant?,
                        now: Instant) -> (intervals: [Interval], warnings: [String]) {
        var intervals: [Interval] = []
        var warnings: [String] = []
        var lastNumber: UInt32?
        var previous: (record: Record, time: Instant)?
        for record in records {
            let number = record.number
            if number < from {
                warnings.append("history record \(number) came in a stream asked to start at \(from)")
                continue
            }
            if let lastNumber, number <= lastNumber {
                warnings.append("history record \(number) came after record \(lastNumber): out of order")
                continue
            }
            lastNumber = number
            guard let side = side(record.side), let change = side.change else {
                let why = record.side == 66 ? "its side is not known (the cube's accelerometer failed)"
                    : "side \(record.side) is not a facet"
                warnings.append("history record \(number) is left out: \(why)")
                continue
            }
            guard let seconds = Int64(exactly: record.start) else {
                warnings.append("history record \(number) is left out: its time \(record.start) is out of range")
                continue
            }
            let time = Instant(seconds: seconds) - offset
            if time > now + 2 {
                warnings.append("history record \(number) is left out: it began at \(time), after now")
                continue
            }
            if let previous {
                if time < previous.time {
                    warnings.append("history record \(number) is left out: it began at \(time), before record "
                                    + "\(previous.record.number) at \(previous.time) (time running backwards)")
                    continue
                }
                let next = previous.record.number.addingReportingOverflow(1).partialValue
                let end = previous.record.end
                if number == next ? end != record.start : end > record.start {
                    warnings.append("history record \(previous.record.number) lasted \(previous.record.duration) s "
                                    + "but record \(number) began \(Int64(clamping: record.start) - Int64(clamping: previous.record.start)) s after it; both kept")
                }
            }
            previous = (record, time)
            if let after, time <= after { continue }
            intervals.append(Interval(number: number, change: change, time: time))
        }
        return (intervals, warnings)
    }
}

/// Warnings about what the cube or BlueZ sent, so that a flood of bad
/// values is a few lines: at most ``perWindow`` of each kind a minute
/// (measured on the watch's `now`), and then one line counting the ones
/// left out.
struct FlipWarnings {
    static let perWindow = 3
    static let window: Int64 = 60
    private var kinds: [String: (since: Instant, logged: Int, left: Int)] = [:]

    /// The lines to log for a warning of `kind`: `text`, or none when its
    /// kind had its lines this minute; before it, the count of those left
    /// out in a minute that has ended.
    mutating func lines(_ kind: String, _ text: String, now: Instant) -> [String] {
        var lines = ended(now, only: kind)
        var entry = kinds[kind] ?? (now, 0, 0)
        if entry.logged < Self.perWindow {
            entry.logged += 1
            lines.append(text)
        } else {
            entry.left += 1
        }
        kinds[kind] = entry
        return lines
    }

    /// The counts of the minutes that have ended by `now`.
    mutating func flush(now: Instant) -> [String] { ended(now, only: nil) }

    private mutating func ended(_ now: Instant, only: String?) -> [String] {
        var lines: [String] = []
        for (kind, entry) in kinds.sorted(by: { $0.key < $1.key }) where only == nil || only == kind {
            guard now - entry.since >= Self.window else { continue }
            if entry.left > 0 {
                lines.append("flip: left out \(entry.left) more warning\(entry.left == 1 ? "" : "s") about \(kind) "
                             + "in \(Self.window) s")
            }
            kinds[kind] = nil
        }
        return lines
    }
}
