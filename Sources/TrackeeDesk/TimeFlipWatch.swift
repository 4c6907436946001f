import Glibc
import TrackeeCore

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
/// `02 01`), and catches up from the cursor, the later of the store's (``DeskMemory``) and
/// the last interval this watch reported: the records numbered from
/// `cursor.number + 1` (the cursor's own interval is not asked for again)
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
/// A cube that leaves while attached is connected again when BlueZ
/// connects it (its auto-connect for a paired device), or by the watch's
/// own tries (``wakeAt``), 2 s after the link went down and then with a
/// wait that doubles to 60 s; a failed attach is tried again by the bus
/// monitor's backoff.
///
/// A cube reset or replaced numbers its intervals from 1 again. The watch
/// finds that when the history ends below the cursor, and numbers what it
/// reports from then on in the cursor's next series (``DeskCursor/series``),
/// whose firing keys are new: the cube's interval 3 after a reset is not
/// taken for the interval 3 fired before it.
public struct TimeFlipWatch: DeskWatch {
    public let name = "BlueZ"
    public let bus = DeskBus.system
    public let serviceName = BlueZ.service
    /// How long a catch-up waits for the end of the stream, on `now`.
    static let catchUpSeconds: Int64 = 5
    static let mostRecords = 10_000
    /// The first wait after a failed connect or set-up, doubled at each
    /// failure up to `longestRetry` (seconds).
    static let firstRetry: Int64 = 2
    static let longestRetry: Int64 = 60
    /// How often a refused password's file is read again, to be tried once it changes.
    static let passwordCheck: Int64 = 10
    typealias TF = TimeFlipProtocol

    /// The cube's Bluetooth address, upper case.
    let device: String
    let passwordFile: String
    let password: @Sendable () -> [UInt8]?
    /// The store's cursor of the cube; `keep` stores where a first
    /// connection starts the history, so a later one reads what came after
    /// it even if no flip was reported between.
    let memory: DeskMemory
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
    private var mark: DeskCursor?
    /// The series the cube's numbers are in: one more than the cursor's
    /// once its history is found to number from the start again.
    private var series: UInt32 = 0
    /// How long the next wait before connecting again is.
    private var backoff = Self.firstRetry
    private var warnings = LimitedWarnings(prefix: "flip:")

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
                memory: DeskMemory = .none, log: @escaping DeskLog) {
        self.device = device.uppercased()
        self.passwordFile = passwordFile
        self.password = password
        self.memory = memory
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

    /// The watch of the cube `settings` name, which reads its password
    /// file at each set-up.
    public static func plan(_ settings: TimeFlipSettings, memory: DeskMemory, log: @escaping DeskLog) -> DeskWatchPlan {
        let file = settings.passwordFile
        return DeskWatchPlan(reports: "flips", bus: .system, serviceName: BlueZ.service) {
            TimeFlipWatch(device: settings.device, passwordFile: file, password: { password(in: file) }, memory: memory,
                          log: log)
        }
    }

    /// What the store keeps the cube's cursor under.
    var subject: String { FlipEdge.cursorSubject(device: device) }

    /// The store's cursor, as a first set-up leaves it when none was stored.
    private var stored: DeskCursor? { memory.cursor(subject) }

    // MARK: - DeskWatch

    public mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
        flushWarnings(now)
        var changes = dropLink(now, "BlueZ was attached again")
        (owner, devicePath, connected, resolved, endedLocally, retryAt) = (nil, nil, false, false, false, nil)
        if matched !== connection {
            try connection.addMatch("type='signal',sender='\(serviceName)',path='/',interface='\(BlueZ.objectManager)'")
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
        if signal.interface == BlueZ.objectManager {
            changes += objectsChanged(signal, connection, now)
        } else if signal.path == devicePath {
            deviceChanged(signal, now: now, &changes)
        } else if let path = devicePath, signal.path.hasPrefix(path + "/"), let change = PropertiesChange(signal, path: signal.path),
                  change.interface == BlueZ.characteristicInterface, let value = change.changed["Value"] {
            changes += valueChanged(signal.path, value, connection, now)
        }
        if retryAt.map({ now >= $0 }) ?? true { changes += retry(connection, now) }
        return changes
    }

    /// A connect or set-up to try again, or a catch-up whose stream ends late.
    public var wakeAt: Instant? {
        let late = link?.catchUp.map { $0.since + Self.catchUpSeconds }
        guard let retryAt, let late else { return retryAt ?? late }
        return min(retryAt, late)
    }

    public mutating func wake(_ connection: DBusConnection, now: Instant) -> [DeskChange] {
        flushWarnings(now)
        var changes = expire(now)
        if let retryAt, now >= retryAt { changes += retry(connection, now) }
        return changes
    }

    /// Connects the cube or sets its link up, if either is still to do;
    /// a failure is tried again after a wait that doubles each time (2 s
    /// to 60 s), and a refused password's file is read again every 10 s.
    private mutating func retry(_ connection: DBusConnection, _ now: Instant) -> [DeskChange] {
        retryAt = nil
        do {
            let changes = try settle(connection, now)
            if link?.authorized == true { backoff = Self.firstRetry }
            if connected, withheld != nil { retryAt = now + Self.passwordCheck }
            return changes
        } catch {
            retryAt = now + backoff
            if link?.authorized == true { link = nil }
            if !(error is Unreachable) {
                warn("BlueZ", "flip: \(BusMonitor.reason(error)); trying again in \(backoff) s", now)
            }
            backoff = min(backoff * 2, Self.longestRetry)
            return []
        }
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
                _ = try connection.call(destination: serviceName, path: path, interface: BlueZ.deviceInterface,
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
    private mutating func find(_ objects: BlueZ.Objects, _ connection: DBusConnection) throws -> Bool {
        guard let cube = BlueZ.device(device, in: objects) else { return false }
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
        let paths = BlueZ.characteristics(of: path, services: [TF.service, TF.batteryService], in: objects)
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
        if case .byte(let percent)? = objects[path]?[BlueZ.batteryInterface]?["Percentage"] {
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
        guard let cursor = DeskCursor.later(stored, mark) else {
            log(.info, "flip: first connection to the cube \(device): interval \(number) and those before it are "
                + "taken as seen, and flips are reported from now on")
            mark = DeskCursor(subject: subject, number: number, at: began ?? now)
            if let mark { memory.keep(mark) }
            return []
        }
        series = cursor.series
        var catchUp = CatchUp(from: cursor.number &+ 1, since: now)
        if number < cursor.number {
            series = cursor.series &+ 1
            log(.info, "flip: the cube \(device)'s history ends at interval \(number), before interval \(cursor.number) "
                + "seen last: it was reset or replaced; the intervals that began after \(cursor.at) are reported")
            (catchUp.from, catchUp.after) = (0, cursor.at)
        }
        if let facet, let began, began <= now + 2, catchUp.after.map({ began > $0 }) ?? (number > cursor.number) {
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
            mark = DeskCursor.later(mark, edge.cursor)
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
        if signal.member == "InterfacesAdded", let interfaces = BlueZ.interfaces(signal.arguments[1]) {
            if path != devicePath, BlueZ.device(device, in: [path: interfaces]) != nil {
                let changes = dropLink(now, "BlueZ added the cube again")
                _ = try? find([path: interfaces], connection)
                log(.info, "flip: BlueZ added the cube \(device) as \(path)")
                return changes
            } else if path == devicePath, case .byte(let percent)? = interfaces[BlueZ.batteryInterface]?["Percentage"] {
                return batteryRead(Int(percent), now)
            }
        } else if signal.member == "InterfacesRemoved", path == devicePath, case .array("s", let names) = signal.arguments[1],
                  names.contains(.string(BlueZ.deviceInterface)) {
            log(.warning, "flip: BlueZ removed the cube \(device) (unpaired?); it is used again once it is back")
            (devicePath, connected, resolved) = (nil, false, false)
            return dropLink(now, "the cube was removed")
        }
        return []
    }

    private mutating func deviceChanged(_ signal: DBusSignal, now: Instant, _ changes: inout [DeskChange]) {
        if signal.interface == BlueZ.deviceInterface, signal.member == "Disconnected", signal.arguments.count == 2,
           case .string(let reason) = signal.arguments[0] {
            endedLocally = reason == "org.bluez.Reason.Local"
            return
        }
        guard let change = PropertiesChange(signal, path: signal.path) else { return }
        if change.interface == BlueZ.batteryInterface, case .byte(let percent)? = change.changed["Percentage"] {
            changes += batteryRead(Int(percent), now)
        }
        guard change.interface == BlueZ.deviceInterface else { return }
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
        guard let bytes = BlueZ.bytes(value) else {
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
        guard mark.map({ ($0.series, $0.number) != (series, number) }) ?? true else { return [] }
        let change = report(change, number, now)
        if link?.catchUp != nil {
            link?.catchUp?.held.append(change)
            return []
        }
        mark = DeskCursor.later(mark, (change.event.report as? FlipEdge)?.cursor)
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

    private func managedObjects(_ connection: DBusConnection) throws -> BlueZ.Objects {
        let reply = try connection.call(destination: serviceName, path: "/", interface: BlueZ.objectManager,
                                        member: "GetManagedObjects")
        guard reply.count == 1, let objects = BlueZ.objects(reply[0]) else {
            throw DBusFailure("BlueZ answered GetManagedObjects with \(reply.map(\.signature).joined()).")
        }
        return objects
    }

    private func characteristic(_ uuid: String, _ member: String, _ arguments: [DBusValue],
                                _ connection: DBusConnection) throws -> [DBusValue] {
        guard let path = link?.paths[uuid] else { throw DBusFailure("the cube \(device) has no characteristic \(uuid).") }
        return try connection.call(destination: serviceName, path: path, interface: BlueZ.characteristicInterface,
                                   member: member, arguments: arguments, timeoutMilliseconds: 3000)
    }

    private static let noOptions = DBusValue.array(elementSignature: "{sv}", [])

    private func read(_ uuid: String, _ connection: DBusConnection) throws -> [UInt8] {
        let reply = try characteristic(uuid, "ReadValue", [Self.noOptions], connection)
        guard reply.count == 1, let bytes = BlueZ.bytes(reply[0]) else {
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
        DeskChange(.flip(device: device, change, event: number, flippedAt: time, series: series), time: time)
    }

    private mutating func warn(_ kind: String, _ text: String, _ now: Instant) {
        for line in warnings.lines(kind, text, now: now) { log(.warning, line) }
    }

    private mutating func flushWarnings(_ now: Instant) {
        for line in warnings.flush(now: now) { log(.warning, line) }
    }
}

// MARK: - Settings

/// The settings' `timeflip:` section: the cube `trackee run` connects to,
/// and the file its password is read from (6 ASCII characters, mode 0600).
public struct TimeFlipSettings: Sendable {
    /// The cube's Bluetooth address, upper case: `0C:61:CF:C7:77:71`.
    public var device: String
    public var passwordFile: String

    public init(device: String, passwordFile: String) {
        self.device = device.uppercased()
        self.passwordFile = passwordFile
    }

    /// Whether `text` is a Bluetooth address: six pairs of hex digits
    /// joined by colons.
    public static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.utf8.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}

extension TimeFlipSettings {
    /// The `timeflip:` section of the settings file: the desk registry's
    /// entry hands it here.
    static let section = DeskKindSettings(key: "timeflip") { section in try read(section) }

    /// `timeflip: {device: "0C:61:CF:C7:77:71", password_file: PATH}`: the
    /// password file must exist and be readable by its owner only.
    static func read(_ section: DeskSection) throws -> TimeFlipSettings {
        var device: String?
        var passwordFile: String?
        for field in section.fields {
            switch field.name {
            case "device":
                guard let text = field.text, isAddress(text) else {
                    throw section.refusal(field, "the cube's Bluetooth address, such as 0C:61:CF:C7:77:71")
                }
                device = text
            case "password_file":
                guard let text = field.text, !text.isEmpty else { throw section.refusal(field, "a file path") }
                passwordFile = try section.secretFile(
                    text, field, "password", "put the cube's 6-character password in it (000000 unless it was changed)")
            default:
                throw section.unknown(field, known: ["device", "password_file"])
            }
        }
        guard let device else { throw section.refusal("timeflip.device is missing; give the cube's Bluetooth address") }
        guard let passwordFile else {
            throw section.refusal("timeflip.password_file is missing; name the file that holds the cube's password")
        }
        return TimeFlipSettings(device: device, passwordFile: passwordFile)
    }
}

// MARK: - The protocol

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
