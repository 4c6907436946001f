import Glibc
import TrackeeCore

/// Where a catch-up of the cube's history starts: the number of the last
/// interval reported and when it began.
public struct FlipCursor: Sendable, Equatable {
    public var event: UInt32
    public var flippedAt: Instant

    public init(event: UInt32, flippedAt: Instant) {
        self.event = event
        self.flippedAt = flippedAt
    }

    /// The later of two cursors: by time, then by number (a reset cube
    /// numbers from 1 again, later).
    static func later(_ a: FlipCursor?, _ b: FlipCursor?) -> FlipCursor? {
        guard let a, let b else { return a ?? b }
        return (b.flippedAt, b.event) > (a.flippedAt, a.event) ? b : a
    }
}

/// A TimeFlip2 cube (`flip` events) through BlueZ on the system bus.
///
/// The cube is the `org.bluez.Device1` whose `Address` is `device`, found
/// with `GetManagedObjects` and followed through `InterfacesAdded` and
/// `InterfacesRemoved`; its characteristics are found by UUID once its
/// services are resolved (TimeFlipProtocol; Tests/Servers/TIMEFLIP.md).
/// At each connection the watch writes the password first (one the cube
/// refused is not written again until `password()` gives other bytes),
/// subscribes, reads the cube's clock (history times are corrected when it
/// is more than 2 s off), sets it when the cube asks (system state
/// `02 01`), and catches up from the cursor, the later of `cursor()` and
/// the last interval this watch reported: the records numbered from
/// `cursor.event + 1` (the cursor's own interval is not asked for again)
/// are reported at their start, then the interval running now, then what
/// came live meanwhile. Without a cursor the history is taken as seen; with
/// history numbers below it (a reset or replaced cube) the intervals that
/// began after its time are reported. Live, a flip or a double tap is
/// reported at `now`, numbered as the cube will number its interval (the
/// last record's number + 1). The battery's charge is reported when it
/// changes, the first reading with no previous one. Values that are not
/// what the protocol says are skipped with a warning, a few a minute of
/// each kind; nothing is reported while the password is not accepted.
///
/// The watch has no timer: a cube that leaves while attached is connected
/// again when BlueZ connects it (its auto-connect), on a signal 30 s after
/// a failed try, or at the next attach; a failed attach is tried again by
/// the bus monitor's backoff.
public struct TimeFlipWatch: DeskWatch {
    public let name = "BlueZ"
    public let bus = DeskBus.system
    public let serviceName = "org.bluez"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let deviceInterface = "org.bluez.Device1"
    static let batteryInterface = "org.bluez.Battery1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"
    /// How long a catch-up waits for the end of the stream, on `now`.
    static let catchUpSeconds: Int64 = 5
    static let mostRecords = 10_000
    /// How long after a failed connect or set-up in `take` it is tried again.
    static let retrySeconds: Int64 = 30
    typealias TF = TimeFlipProtocol

    /// The cube's Bluetooth address, upper case.
    let device: String
    let passwordFile: String
    let password: @Sendable () -> [UInt8]?
    let cursor: @Sendable () -> FlipCursor?
    /// Keeps where a first connection starts the history, so a later one
    /// reads what came after it even if no flip was reported between.
    let remember: @Sendable (FlipCursor) -> Void
    let log: DeskLog

    /// The connection the object manager's match rule was added on.
    private weak var matched: DBusConnection?
    private var followed: Set<String> = []
    private var owner: String?
    private var devicePath: String?
    private var connected = false
    private var resolved = false
    /// BlueZ said the link was ended here (`Disconnect()`, adapter off): not connected again from `take`.
    private var endedLocally = false
    private var link: Link?
    private var retryAt: Instant?
    private var connectFailure: String?
    private var facet: Int?
    private var paused = false
    /// The number the running interval will get.
    private var running: UInt32?
    private var battery: Int?
    /// Set while the password (nil: none could be read) is not to be written again.
    private var withheld: [UInt8]??
    /// The last interval reported.
    private var mark: FlipCursor?
    private var warnings = FlipWarnings()

    /// One connection to the cube, from its set-up.
    private struct Link {
        var paths: [String: String]
        var uuids: [String: String]
        /// Every object of the device: a value of one that is not the cube's is no warning.
        var known: Set<String>
        var authorized = false
        var offset: Int64 = 0
        var state: [UInt8]?
        var catchUp: CatchUp?
        /// Values read from History whose PropertiesChanged is still to come.
        var echoes: [[UInt8]] = []
    }

    /// Connect() failed; logged once where it is thrown.
    private struct Unreachable: Error, CustomStringConvertible {
        let description: String
    }

    private struct CatchUp {
        var from: UInt32
        var since: Instant
        var after: Instant?
        var records: [TF.Record] = []
        /// The interval running at the connection, reported after the records.
        var running: DeskChange?
        /// Live changes meanwhile, reported after it.
        var held: [DeskChange] = []
    }

    public init(device: String, passwordFile: String, password: @escaping @Sendable () -> [UInt8]?,
                cursor: @escaping @Sendable () -> FlipCursor?, remember: @escaping @Sendable (FlipCursor) -> Void = { _ in },
                log: @escaping DeskLog) {
        self.device = device.uppercased()
        self.passwordFile = passwordFile
        self.password = password
        self.cursor = cursor
        self.remember = remember
        self.log = log
    }

    /// The password in `path`: its bytes without a final line break; nil
    /// when it cannot be read. The watch checks that they are 6 ASCII
    /// characters, and reads the file again at each attach, so an edited
    /// file is tried at the next one.
    public static func password(in path: String) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 64) }
        guard count >= 0 else { return nil }
        var bytes = Array(buffer.prefix(count))
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        return bytes
    }

    public static func plan(device: String, passwordFile: String, password: @escaping @Sendable () -> [UInt8]?,
                            cursor: @escaping @Sendable () -> FlipCursor?,
                            remember: @escaping @Sendable (FlipCursor) -> Void = { _ in },
                            log: @escaping DeskLog) -> DeskWatchPlan {
        DeskWatchPlan(reports: "flips", bus: .system, serviceName: "org.bluez") {
            TimeFlipWatch(device: device, passwordFile: passwordFile, password: password, cursor: cursor,
                          remember: remember, log: log)
        }
    }

    // MARK: - DeskWatch

    public mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
        flushWarnings(now)
        var changes = dropLink(now, "BlueZ was attached again")
        (owner, devicePath, connected, resolved, endedLocally, retryAt) = (nil, nil, false, false, false, nil)
        if matched !== connection {
            try connection.addMatch("type='signal',sender='\(serviceName)',path='/',interface='\(Self.objectManager)'")
            (matched, followed) = (connection, [])
        }
        owner = try connection.uniqueNameOwning(serviceName)
        guard try find(try managedObjects(connection), connection) else {
            log(.warning, "flip: BlueZ knows no device \(device); the cube is used once it is paired")
            return changes
        }
        changes += try settle(connection, now)
        return changes
    }

    public mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange] {
        flushWarnings(now)
        guard owner != nil, signal.sender == owner else { return [] }
        var changes = expire(now)
        if signal.interface == Self.objectManager {
            changes += objectsChanged(signal, connection, now)
        } else if signal.path == devicePath {
            deviceChanged(signal, now: now, &changes)
        } else if let path = devicePath, signal.path.hasPrefix(path + "/"), let change = PropertiesChange(signal, path: signal.path),
                  change.interface == Self.characteristicInterface, let value = change.changed["Value"] {
            changes += valueChanged(signal.path, value, connection, now)
        }
        if retryAt.map({ now >= $0 }) ?? true {
            do {
                retryAt = nil
                changes += try settle(connection, now)
            } catch {
                retryAt = now + Self.retrySeconds
                if link?.authorized == true { link = nil }
                if !(error is Unreachable) {
                    warn("BlueZ", "flip: \(BusMonitor.reason(error)); trying again in \(Self.retrySeconds) s", now)
                }
            }
        }
        return changes
    }

    // MARK: - The device and its link

    /// Connects the cube if it is not, and sets the link up once its
    /// services are resolved (again when the password the cube refused
    /// has changed).
    private mutating func settle(_ connection: DBusConnection, _ now: Instant) throws -> [DeskChange] {
        guard let path = devicePath else { return [] }
        if !connected {
            guard !endedLocally else { return [] }
            do {
                _ = try connection.call(destination: serviceName, path: path, interface: Self.deviceInterface,
                                        member: "Connect", timeoutMilliseconds: 4000)
            } catch let failure as DBusFailure where failure.errorName != "org.bluez.Error.AlreadyConnected" {
                let reason = BusMonitor.reason(failure)
                if connectFailure != reason {
                    log(.warning, "flip: could not connect to the cube \(device) (\(reason)); trying again later")
                }
                connectFailure = reason
                throw Unreachable(description: "the cube \(device) is not connected: \(reason)")
            }
            connectFailure = nil
            guard try find(try managedObjects(connection), connection) else { return [] }
        }
        guard connected, resolved else { return [] }
        if let link, link.authorized || !passwordChanged() { return [] }
        return try setUp(connection, now)
    }

    private func passwordChanged() -> Bool {
        guard let withheld else { return true }
        return password() != withheld
    }

    /// Finds the cube in BlueZ's objects; false when it is not there.
    private mutating func find(_ objects: TF.Objects, _ connection: DBusConnection) throws -> Bool {
        guard let cube = TF.cube(device, in: objects) else { return false }
        try follow(cube.path, connection)
        (connected, resolved) = (cube.connected, cube.connected && cube.resolved)
        return true
    }

    private mutating func follow(_ path: String, _ connection: DBusConnection) throws {
        devicePath = path
        guard !followed.contains(path) else { return }
        try connection.addMatch("type='signal',sender='\(serviceName)',path_namespace='\(path)'")
        followed.insert(path)
    }

    /// Password, subscriptions, clock, state, and the catch-up's request.
    private mutating func setUp(_ connection: DBusConnection, _ now: Instant) throws -> [DeskChange] {
        let objects = try managedObjects(connection)
        guard let path = devicePath else { return [] }
        let paths = TF.characteristics(of: path, in: objects)
        if let missing = TF.needed.first(where: { paths[$0.uuid] == nil }) {
            throw DBusFailure("the cube \(device) shows no \(missing.name) characteristic (\(missing.uuid)).")
        }
        link = Link(paths: paths, uuids: Dictionary(paths.map { ($1, $0) }, uniquingKeysWith: { a, _ in a }),
                    known: Set(objects.keys.filter { $0.hasPrefix(path + "/") }))
        let given = password()
        if let withheld, given == withheld { return [] }
        withheld = nil
        guard let secret = given, secret.count == 6, secret.allSatisfy({ $0 < 0x80 }) else {
            withheld = .some(given)
            log(.warning, "flip: the password for the cube \(device) in \(passwordFile) "
                + (given == nil ? "cannot be read" : "is not 6 ASCII characters") + "; the cube is not used until it is fixed")
            return []
        }
        try write(TF.password, secret, connection)
        let answer = try read(TF.commandResult, connection)
        guard let accepted = TF.passwordAccepted(answer) else {
            throw DBusFailure("the cube \(device) answered its password with \(TF.hex(answer)).")
        }
        guard accepted else {
            withheld = .some(secret)
            log(.warning, "flip: the cube \(device) refused the password in \(passwordFile); "
                + "it is not tried again until that file changes")
            return []
        }
        link?.authorized = true
        for uuid in [TF.facets, TF.doubleTap, TF.systemState, TF.history] { try startNotify(uuid, connection) }
        var changes: [DeskChange] = []
        if case .byte(let percent)? = objects[path]?[Self.batteryInterface]?["Percentage"] {
            changes += batteryRead(Int(percent), now)
        } else if link?.paths[TF.batteryLevel] != nil {
            do {
                try startNotify(TF.batteryLevel, connection)
                changes += batteryValue(try read(TF.batteryLevel, connection), now)
            } catch {
                warn("BlueZ", "flip: the cube \(device)'s battery level cannot be read: \(BusMonitor.reason(error))", now)
            }
        }
        readClock(connection, now)
        stateChanged(try read(TF.systemState, connection), connection, now)
        let up = try read(TF.facets, connection)
        facet = TF.facet(up)
        if facet == nil { warn("Facets", "flip: the cube \(device) says facet \(TF.hex(up)) is up; no facet 1–12", now) }
        try write(TF.command, TF.status, connection)
        let status = try read(TF.commandResult, connection)
        paused = TF.paused(status: status) ?? false
        let last = try record(TF.lastRecord, connection)
        guard case .some(let last) = last else { throw DBusFailure("the cube \(device)'s last history record is malformed.") }
        return try changes + catchUp(after: last, connection, now)
    }

    /// Asks for the records after the cursor; with none, takes the history as seen.
    private mutating func catchUp(after last: TF.Record?, _ connection: DBusConnection, _ now: Instant) throws
        -> [DeskChange] {
        let number = (last?.number ?? 0) &+ 1
        running = number
        let began = last.flatMap { Int64(exactly: $0.end) }.map { Instant(seconds: $0) - (link?.offset ?? 0) }
        log(.info, "flip: connected to the cube \(device)" + (facet.map { ", facet \($0) up" } ?? "")
            + (paused ? ", paused" : ""))
        guard let cursor = FlipCursor.later(cursor(), mark) else {
            log(.info, "flip: first connection to the cube \(device): interval \(number) and those before it are "
                + "taken as seen, and flips are reported from now on")
            mark = FlipCursor(event: number, flippedAt: began ?? now)
            if let mark { remember(mark) }
            return []
        }
        var catchUp = CatchUp(from: cursor.event &+ 1, since: now)
        if number < cursor.event {
            log(.info, "flip: the cube \(device)'s history ends at interval \(number), before interval \(cursor.event) "
                + "seen last: it was reset or replaced; the intervals that began after \(cursor.flippedAt) are reported")
            (catchUp.from, catchUp.after) = (0, cursor.flippedAt)
        }
        if let facet, let began, began <= now + 2, catchUp.after.map({ began > $0 }) ?? (number > cursor.event) {
            catchUp.running = report(paused ? .paused(facet: facet) : .facet(facet), number, began)
        }
        try write(TF.history, TF.records(from: catchUp.from), connection)
        link?.catchUp = catchUp
        return []
    }

    /// Ends the link: a catch-up under way reports what it collected.
    private mutating func dropLink(_ now: Instant, _ why: String) -> [DeskChange] {
        defer { link = nil }
        guard link?.catchUp != nil else { return [] }
        warn("History", "flip: the catch-up of the cube \(device) ended early: \(why)", now)
        return finish(now)
    }

    private mutating func expire(_ now: Instant) -> [DeskChange] {
        guard let since = link?.catchUp?.since, now - since >= Self.catchUpSeconds else { return [] }
        warn("History", "flip: the cube \(device) sent no end of its history in \(Self.catchUpSeconds) s", now)
        return finish(now)
    }

    /// Reports what the catch-up collected. At the end of its stream, the
    /// numbers the stream left out up to the interval running at the
    /// connection are read one by one (`01 N`): intervals shorter than 5 s,
    /// which a stream leaves out, and records lost when the packets of an
    /// earlier stream (a run killed during its catch-up leaves the cube
    /// streaming) came first and ended this one. Records are taken in
    /// number order, one of each number.
    private mutating func finish(_ now: Instant, filling connection: DBusConnection? = nil) -> [DeskChange] {
        guard let catchUp = link?.catchUp else { return [] }
        link?.catchUp = nil
        var byNumber: [UInt32: TF.Record] = [:]
        for record in catchUp.records where byNumber[record.number] == nil { byNumber[record.number] = record }
        if let connection, catchUp.after == nil, let running, running > catchUp.from {
            let missing = (catchUp.from..<running).filter { byNumber[$0] == nil }
            for number in missing.prefix(Self.mostRecords) {
                guard case .some(.some(let record)) = try? self.record(TF.record(number), connection, keepingEchoes: missing.count),
                    record.number == number
                else { continue }
                byNumber[number] = record
            }
        }
        let records = byNumber.values.sorted { $0.number < $1.number }
        let (intervals, warnings) = TF.catchUp(records, from: catchUp.from, offset: link?.offset ?? 0,
                                               after: catchUp.after, now: now)
        for line in warnings { warn("History", "flip: the cube \(device)'s " + line, now) }
        var seen: Set<UInt32> = []
        var changes: [DeskChange] = []
        for change in intervals.map({ report($0.change, $0.number, $0.time) }) + [catchUp.running].compactMap({ $0 })
            + catchUp.held {
            guard let edge = change.event.report as? FlipEdge, let event = edge.event, seen.insert(event).inserted
            else { continue }
            mark = FlipCursor.later(mark, FlipCursor(event: event, flippedAt: change.time))
            changes.append(change)
        }
        if !intervals.isEmpty {
            log(.info, "flip: caught up with the cube \(device): \(intervals.count) interval\(intervals.count == 1 ? "" : "s")")
        }
        return changes
    }

    // MARK: - Signals

    private mutating func objectsChanged(_ signal: DBusSignal, _ connection: DBusConnection, _ now: Instant)
        -> [DeskChange] {
        guard signal.arguments.count == 2, case .objectPath(let path) = signal.arguments[0] else { return [] }
        if signal.member == "InterfacesAdded", let interfaces = TF.interfaces(signal.arguments[1]) {
            if path != devicePath, TF.cube(device, in: [path: interfaces]) != nil {
                let changes = dropLink(now, "BlueZ added the cube again")
                _ = try? find([path: interfaces], connection)
                log(.info, "flip: BlueZ added the cube \(device) as \(path)")
                return changes
            } else if path == devicePath, case .byte(let percent)? = interfaces[Self.batteryInterface]?["Percentage"] {
                return batteryRead(Int(percent), now)
            }
        } else if signal.member == "InterfacesRemoved", path == devicePath, case .array("s", let names) = signal.arguments[1],
                  names.contains(.string(Self.deviceInterface)) {
            log(.warning, "flip: BlueZ removed the cube \(device) (unpaired?); it is used again once it is back")
            (devicePath, connected, resolved) = (nil, false, false)
            return dropLink(now, "the cube was removed")
        }
        return []
    }

    private mutating func deviceChanged(_ signal: DBusSignal, now: Instant, _ changes: inout [DeskChange]) {
        if signal.interface == Self.deviceInterface, signal.member == "Disconnected", signal.arguments.count == 2,
           case .string(let reason) = signal.arguments[0] {
            endedLocally = reason == "org.bluez.Reason.Local"
            return
        }
        guard let change = PropertiesChange(signal, path: signal.path) else { return }
        if change.interface == Self.batteryInterface, case .byte(let percent)? = change.changed["Percentage"] {
            changes += batteryRead(Int(percent), now)
        }
        guard change.interface == Self.deviceInterface else { return }
        let before = (connected, resolved)
        if case .bool(let up)? = change.changed["Connected"] {
            connected = up
            if up { endedLocally = false } else { resolved = false }
        }
        if case .bool(let up)? = change.changed["ServicesResolved"] { resolved = up && connected }
        // A new connection is set up at once, whatever failed before; so is
        // a connection after one lost (a set-up that failed as the link went
        // down must not hold the next one back).
        if connected != before.0 || (resolved && !before.1) { retryAt = nil }
        if !resolved, link != nil {
            log(.info, "flip: the cube \(device) disconnected")
            changes += dropLink(now, "the cube disconnected")
        }
    }

    private mutating func valueChanged(_ path: String, _ value: DBusValue, _ connection: DBusConnection,
                                       _ now: Instant) -> [DeskChange] {
        guard let link, link.authorized else { return [] }
        guard let uuid = link.uuids[path] else {
            if link.known.contains(path) { return [] }
            warn("objects", "flip: skipped a value of \(path), not one of the cube's characteristics", now)
            return []
        }
        guard let bytes = TF.bytes(value) else {
            warn("values", "flip: skipped a value of type \(value.signature) from the cube \(device)", now)
            return []
        }
        switch uuid {
        case TF.facets:
            guard let up = TF.facet(bytes) else {
                warn("Facets", "flip: skipped Facets value \(TF.hex(bytes)) from the cube \(device): not a facet 1–12", now)
                return []
            }
            // bluetoothd repeats a value it read: the same facet is no flip.
            guard up != facet else { return [] }
            facet = up
            return began(paused ? .paused(facet: up) : .facet(up), connection, now)
        case TF.doubleTap:
            guard let change = TF.tap(bytes) else {
                warn("Double tap", "flip: skipped Double tap value \(TF.hex(bytes)) from the cube \(device)", now)
                return []
            }
            if case .paused(let on) = change { (facet, paused) = (on, true) }
            if case .facet(let on) = change { (facet, paused) = (on, false) }
            return began(change, connection, now)
        case TF.systemState:
            stateChanged(bytes, connection, now)
        case TF.history:
            return history(bytes, connection, now)
        case TF.batteryLevel:
            return batteryValue(bytes, now)
        default:
            break
        }
        return []
    }

    /// A flip or a tap began an interval: the one after the running one,
    /// which is the last record's number + 1 unless more intervals ended
    /// since, whose notifications are still to come (the record after the
    /// running one then says it began with this change).
    private mutating func began(_ change: FlipEdge.Change, _ connection: DBusConnection, _ now: Instant) -> [DeskChange] {
        let expected = running.map { $0 &+ 1 }
        var number = expected
        do {
            switch try record(TF.lastRecord, connection) {
            case .some(.some(let last)):
                let latest = last.number &+ 1
                number = latest
                if let expected, latest > expected, case .some(.some(let next)) = try record(TF.record(expected), connection),
                   next.number == expected, TF.side(next.side)?.change == change {
                    number = expected
                }
            case .some(.none):
                break
            case .none:
                warn("History", "flip: the cube \(device)'s last record is malformed (\(TF.hex(link?.echoes.last ?? []))); "
                     + "the flip is numbered by those seen", now)
            }
        } catch {
            warn("BlueZ", "flip: the cube \(device)'s last record cannot be read (\(BusMonitor.reason(error)))", now)
        }
        guard let number else { return [] }
        running = number
        guard mark?.event != number else { return [] }
        let change = report(change, number, now)
        if link?.catchUp != nil {
            link?.catchUp?.held.append(change)
            return []
        }
        mark = FlipCursor.later(mark, FlipCursor(event: number, flippedAt: now))
        return [change]
    }

    /// A packet of the catch-up's stream, or bluetoothd repeating a value read.
    private mutating func history(_ value: [UInt8], _ connection: DBusConnection, _ now: Instant) -> [DeskChange] {
        if let index = link?.echoes.firstIndex(of: value) {
            link?.echoes.removeFirst(index + 1)
            return []
        }
        guard let records = link?.catchUp?.records.count else {
            warn("History", "flip: skipped a history packet the cube \(device) sent unasked: \(TF.hex(value))", now)
            return []
        }
        switch TF.streamPacket(value) {
        case .end:
            break
        case .record(let record) where records < Self.mostRecords:
            link?.catchUp?.records.append(record)
            return []
        case .record:
            warn("History", "flip: the cube \(device) sent more than \(Self.mostRecords) history records", now)
        case .malformed(let why):
            warn("History", "flip: skipped a history packet from the cube \(device) of \(why): \(TF.hex(value))", now)
            return []
        }
        return finish(now, filling: connection)
    }

    // MARK: - Calls

    private func managedObjects(_ connection: DBusConnection) throws -> TF.Objects {
        let reply = try connection.call(destination: serviceName, path: "/", interface: Self.objectManager,
                                        member: "GetManagedObjects")
        guard reply.count == 1, let objects = TF.objects(reply[0]) else {
            throw DBusFailure("BlueZ answered GetManagedObjects with \(reply.map(\.signature).joined()).")
        }
        return objects
    }

    private func characteristic(_ uuid: String, _ member: String, _ arguments: [DBusValue],
                                _ connection: DBusConnection) throws -> [DBusValue] {
        guard let path = link?.paths[uuid] else { throw DBusFailure("the cube \(device) has no characteristic \(uuid).") }
        return try connection.call(destination: serviceName, path: path, interface: Self.characteristicInterface,
                                   member: member, arguments: arguments, timeoutMilliseconds: 3000)
    }

    private static let noOptions = DBusValue.array(elementSignature: "{sv}", [])

    private func read(_ uuid: String, _ connection: DBusConnection) throws -> [UInt8] {
        let reply = try characteristic(uuid, "ReadValue", [Self.noOptions], connection)
        guard reply.count == 1, let bytes = TF.bytes(reply[0]) else {
            throw DBusFailure("BlueZ answered ReadValue of \(uuid) with \(reply.map(\.signature).joined()).")
        }
        return bytes
    }

    private func write(_ uuid: String, _ bytes: [UInt8], _ connection: DBusConnection) throws {
        _ = try characteristic(uuid, "WriteValue", [.array(elementSignature: "y", bytes.map(DBusValue.byte)), Self.noOptions],
                               connection)
    }

    private func startNotify(_ uuid: String, _ connection: DBusConnection) throws {
        do {
            _ = try characteristic(uuid, "StartNotify", [], connection)
        } catch let failure as DBusFailure where failure.errorName == "org.bluez.Error.InProgress" {
            // Our session is being set up already.
        }
    }

    /// A record of the history asked for with `request` (nil inside:
    /// none), or nil when it is malformed.
    /// One record asked for with `request` and read; bluetoothd repeats
    /// the value read as a signal, kept among the last `keepingEchoes`
    /// (at least 8) to be passed over.
    private mutating func record(_ request: [UInt8], _ connection: DBusConnection, keepingEchoes: Int = 0) throws
        -> TF.Record?? {
        try write(TF.history, request, connection)
        let value = try read(TF.history, connection)
        let echoes = (link?.echoes ?? []).suffix(max(7, keepingEchoes)) + [value]
        link?.echoes = echoes
        return TF.lastRecord(value)
    }

    /// How far the cube's clock is ahead, when by more than 2 s: history times are corrected by it.
    private mutating func readClock(_ connection: DBusConnection, _ now: Instant) {
        let answer: [UInt8]
        do {
            try write(TF.command, TF.readClock, connection)
            answer = try read(TF.commandResult, connection)
        } catch {
            warn("BlueZ", "flip: the cube \(device)'s clock cannot be read (\(BusMonitor.reason(error)))", now)
            return
        }
        guard let clock = TF.clock(answer).flatMap({ Int64(exactly: $0) }) else {
            warn("clock", "flip: the cube \(device) answered the clock's reading with \(TF.hex(answer))", now)
            return
        }
        let offset = clock - now.seconds
        guard abs(offset) > 2 else { return }
        link?.offset = offset
        log(.info, "flip: the cube \(device)'s clock is \(abs(offset)) s \(offset > 0 ? "ahead" : "behind"); "
            + "its history times are corrected by that")
    }

    /// System state read or notified: the cube asking for the time is given it.
    private mutating func stateChanged(_ value: [UInt8], _ connection: DBusConnection, _ now: Instant) {
        guard let state = TF.SystemState(value) else {
            warn("System state", "flip: skipped System state value \(TF.hex(value)) from the cube \(device)", now)
            return
        }
        // bluetoothd repeats a value read: the same state asks nothing new.
        guard value != link?.state else { return }
        let before = link?.state.flatMap(TF.SystemState.init)
        link?.state = value
        if let fault = state.hardwareFault, before?.hardware != state.hardware {
            log(.warning, "flip: the cube \(device) says \(fault)")
        }
        guard state.needsTime else { return }
        do {
            try write(TF.command, TF.setClock(now), connection)
            log(.info, "flip: set the clock of the cube \(device), which asked for it")
        } catch {
            warn("BlueZ", "flip: the clock of the cube \(device) cannot be set (\(BusMonitor.reason(error)))", now)
        }
    }

    private mutating func batteryValue(_ value: [UInt8], _ now: Instant) -> [DeskChange] {
        guard let percent = TF.batteryLevel(value) else {
            warn("battery", "flip: skipped Battery Level value \(TF.hex(value)) from the cube \(device)", now)
            return []
        }
        return batteryRead(percent, now)
    }

    /// A battery reading: a change from the last one (nil before the first) is reported.
    private mutating func batteryRead(_ percent: Int, _ now: Instant) -> [DeskChange] {
        guard link?.authorized == true else { return [] }
        guard percent <= 100 else {
            warn("battery", "flip: skipped battery percentage \(percent) of the cube \(device)", now)
            return []
        }
        guard percent != battery else { return [] }
        defer { battery = percent }
        return [DeskChange(.flip(device: device, .battery(percent: percent, previous: battery)), time: now)]
    }

    private func report(_ change: FlipEdge.Change, _ number: UInt32, _ time: Instant) -> DeskChange {
        DeskChange(.flip(device: device, change, event: number, flippedAt: time), time: time)
    }

    private mutating func warn(_ kind: String, _ text: String, _ now: Instant) {
        for line in warnings.lines(kind, text, now: now) { log(.warning, line) }
    }

    private mutating func flushWarnings(_ now: Instant) {
        for line in warnings.flush(now: now) { log(.warning, line) }
    }
}
