import Foundation
import GRDB
import Testing
import TrackeeCore
@testable import TrackeeReplication
@testable import TrackeeStore
import TrackeeTestSupport

/// The merge's invariants, on three devices that work offline at random
/// (start, keyed start, stop, add, edit, delete, undo) and sync in random
/// order with random batch sizes (one change a batch among them), through
/// a hub in memory. When every device has everything, each holds exactly
/// what a sequential model of what the devices wrote says (the changes on
/// the hub, replayed one by one in stamp order), and:
///
/// - a device's own writes stand: an entry's end is the newest end a
///   device wrote to it;
/// - a derived end never outranks a written one;
/// - a key applied on two devices is listed once as applied everywhere,
///   the others as voided by the device that applied it first.
///
/// `TRACKEE_MERGE_SEED` runs one seed; otherwise a fixed list runs, 24
/// seeds or `TRACKEE_MERGE_SEEDS` of them. A failure names its seed.
@Suite(.serialized) struct MergePropertyTests {
    static let names = ["laptop", "desktop", "phone"]
    static let projects = ["Docs", "Review", "Mail"]
    /// 2026-11-23 08:00 UTC.
    static let origin: Int64 = 1_795_420_800

    static var seeds: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["TRACKEE_MERGE_SEED"].flatMap(UInt64.init) { return [one] }
        let count = environment["TRACKEE_MERGE_SEEDS"].flatMap(Int.init) ?? 24
        return (1...max(1, count)).map { UInt64($0) * 7_919 }
    }

    @Test(arguments: seeds)
    func threeDevicesEndAsTheModelSays(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let hub = MemoryHub()
        let devices = try Self.names.map { try Device(name: $0, hub: hub) }
        var time = Self.origin
        for device in devices { try device.sync(at: time, batch: 5000) }
        var refused = 0
        for round in 0..<60 {
            time += 420
            hub.now = time * 1000
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let device = devices.randomElement(using: &random)!
                if !(try device.act(&random, at: Instant(seconds: time), round: round)) { refused += 1 }
            }
            // The hub is down now and then, for a few rounds.
            if Int.random(in: 0..<100, using: &random) < 8 { hub.reachable.toggle() }
            if hub.reachable, Int.random(in: 0..<100, using: &random) < 45 {
                let batch = [1, 1, 2, 3, 5000].randomElement(using: &random)!
                try devices.randomElement(using: &random)!.sync(at: time, batch: batch)
            }
        }
        hub.reachable = true
        time += 420
        hub.now = time * 1000
        var passes = 0
        repeat {
            passes += 1
            #expect(passes <= 6, "seed \(seed): still moving after 5 passes")
            guard passes <= 6 else { break }
        } while try devices.map({ try $0.sync(at: time, batch: [1, 4, 5000][passes % 3]) }).contains(true)

        let model = Model(hub.changes)
        let expected = model.entries()
        for device in devices {
            let held = try device.entries()
            #expect(held == expected, "seed \(seed): \(device.name) holds \(held.count) entries, the model \(expected.count)\n\(Self.difference(held, expected))")
        }
        // A device's own writes stand, and outrank what the merge derives.
        for (id, end) in model.writtenEnds() {
            for device in devices {
                let held = try device.entries().first { $0.id == id }
                #expect(held == nil || held?.end == end,
                        "seed \(seed): \(device.name) ends entry \(id) at \(String(describing: held?.end)), a device wrote \(end)")
            }
        }
        // Each key applied once, everywhere; the other applications voided.
        let keys = try devices.map { try $0.applications() }
        for (name, applications) in zip(Self.names, keys) {
            #expect(applications == keys[0], "seed \(seed): \(name) lists keys unlike laptop")
            for (key, list) in Dictionary(grouping: applications, by: \.key) {
                let standing = list.filter { $0.voided == nil }
                #expect(standing.count == 1, "seed \(seed): \(name) lists key \(key) as applied \(standing.count) times")
                #expect(list.allSatisfy { $0.voided == nil || $0.voided == standing.first?.device },
                        "seed \(seed): \(name) lists key \(key): \(list)")
            }
        }
        let contested = model.claims.values.filter { $0.count > 1 }.count
        print("merge model: seed \(seed), \(expected.count) entries, \(model.claims.count) keys (\(contested) applied on "
              + "two devices or more), \(refused) commands refused")
    }

    /// The entries one side has that the other has not, for a failure's message.
    static func difference(_ a: [Device.Held], _ b: [Device.Held]) -> String {
        let only = a.filter { !b.contains($0) }.map { "device \($0)" } + b.filter { !a.contains($0) }.map { "model  \($0)" }
        return only.joined(separator: "\n")
    }
}

/// One device: its store, syncing with the hub in memory.
final class Device {
    let name: String
    let scratch: TemporaryStore
    let hub: MemoryHub
    var store: Store { scratch.store }

    init(name: String, hub: MemoryHub) throws {
        self.name = name
        self.hub = hub
        scratch = try TemporaryStore()
    }

    /// Syncs; true when anything moved either way.
    @discardableResult
    func sync(at time: Int64, batch: Int) throws -> Bool {
        var sync = ReplicationPass(
            store: store, settings: HubSettings(url: "postgresql:///memory", device: name, origin: "memory"),
            session: hub.session())
        sync.batch = batch
        let report = try sync.run(now: { Instant(seconds: time) })
        return report.pushed + report.pulled > 0
    }

    /// One random command at `now`; false when the store refused it (a
    /// stop with nothing running, an undo with nothing to undo).
    func act(_ random: inout SeededGenerator, at now: Instant, round: Int) throws -> Bool {
        let project = MergePropertyTests.projects.randomElement(using: &random)!
        let ids = try store.peek { db in try Int64.fetchAll(db, sql: "SELECT id FROM entry ORDER BY id") }
        let stopped = try store.peek { db in try Int64.fetchAll(db, sql: #"SELECT id FROM entry WHERE "end" IS NOT NULL ORDER BY id"#) }
        do {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<18:
                _ = try store.apply(Intent(.start(TimerParameters(project: project)), at: now, source: .cli), now: now)
            case 18..<28:
                let key = "k\(Int.random(in: 0..<6, using: &random))"
                _ = try store.apply(
                    Intent(.start(TimerParameters(project: project, description: "key \(key)")), at: now, source: .cli, key: key),
                    now: now)
            case 28..<38:
                _ = try store.apply(Intent(.stop, at: now, source: .cli), now: now)
            case 38..<53:
                _ = try store.add(TimerParameters(project: project, description: "added in round \(round)"),
                                  start: now - 3600, end: now - 1800, now: now)
            case 53..<65:
                guard let id = ids.randomElement(using: &random) else { return false }
                let changes = Bool.random(using: &random)
                    ? EntryChanges(description: "round \(round) on \(name)") : EntryChanges(project: .some(project))
                _ = try store.edit(id, changes, now: now)
            case 65..<75:
                guard let id = stopped.randomElement(using: &random) else { return false }
                let entry = try store.entry(id: id)
                let end = entry.start + Int64.random(in: 1...90, using: &random) * 60
                _ = try store.edit(id, EntryChanges(end: min(end, now)), now: now)
            case 75..<88:
                guard let id = ids.randomElement(using: &random) else { return false }
                _ = try store.deleteEntries([id], now: now)
            default:
                _ = try store.undo(now: now)
            }
        } catch is StoreError {
            return false
        }
        return true
    }

    /// What an entry is, as a person sees it.
    struct Held: Equatable, CustomStringConvertible {
        var id: Int64
        var start: Int64
        var end: Int64?
        var project: String?
        var text: String

        var description: String { "#\(id) \(start)–\(end.map(String.init) ?? "running") \(project ?? "-") \"\(text)\"" }
    }

    func entries() throws -> [Held] {
        try store.peek { db in
            try Row.fetchAll(db, sql: """
                SELECT e.id, e.start, e."end", p.name, e.description FROM entry e LEFT JOIN project p ON p.id = e.project_id
                ORDER BY e.id
                """).map { Held(id: $0[0], start: $0[1], end: $0[2], project: $0[3], text: $0[4]) }
        }
    }

    /// Every application of a key this device lists: the key, the device
    /// that applied it, and who voided it.
    struct Application: Hashable, Comparable {
        var key: String
        var device: String
        var voided: String?

        static func < (a: Application, b: Application) -> Bool {
            (a.key, a.device, a.voided ?? "") < (b.key, b.device, b.voided ?? "")
        }
    }

    func applications() throws -> [Application] {
        try store.peek { db in
            try Row.fetchAll(db, sql: "SELECT key, device, voided FROM intent_log WHERE key IS NOT NULL AND replay_of IS NULL")
                .map { Application(key: $0[0], device: $0[1] ?? name, voided: $0[2]) }.sorted()
        }
    }
}

/// What the devices wrote, as the hub holds it, replayed one write at a
/// time in stamp order: the result every device must hold. Written apart
/// from the merge, and as plainly as it can be.
struct Model {
    struct Key: Hashable {
        var kind: String
        var id: Int64
    }

    /// Each row's fields, each the newest write that counts.
    var fields: [Key: [String: Any]] = [:]
    /// Entries with a write that left them running.
    var timers: Set<Key> = []
    /// Rows an application that lost made.
    var void: Set<Key> = []
    /// Every application of each key (kind/key): stamp, device, writes, made.
    var claims: [String: [(stamp: String, writes: [String], made: [Key])]] = [:]
    /// Each entry's newest written end, where a device wrote one.
    var ends: [Int64: (stamp: String, end: Int64)] = [:]

    init(_ changes: [MemoryHub.Change]) {
        for change in changes where change.kind == "key" {
            let body = Self.object(change.body)
            guard body["kind"] as? String != "log" else { continue }
            let writes = (body["writes"] as? [[Any]] ?? []).filter { $0[1] as? String == "entry" }.map { $0[0] as! String }
            let made = (body["made"] as? [[Any]] ?? []).map { Key(kind: $0[0] as! String, id: ($0[1] as! NSNumber).int64Value) }
                .filter { $0.kind == "entry" }
            claims["\(body["kind"]!)/\(body["key"]!)", default: []].append((change.clock, writes, made))
        }
        var voided: Set<String> = []
        for list in claims.values {
            for loser in list.sorted(by: { $0.stamp < $1.stamp }).dropFirst() {
                voided.formUnion(loser.writes)
                void.formUnion(loser.made)
            }
        }
        for change in changes.filter({ $0.kind != "key" }).sorted(by: { $0.clock < $1.clock })
        where !voided.contains(change.clock) {
            let body = Self.object(change.body)
            let key = Key(kind: change.kind, id: (body["id"] as! NSNumber).int64Value)
            for (field, value) in body["fields"] as! [String: Any] {
                fields[key, default: [:]][field] = value
                if key.kind == "entry", field == "end" {
                    if value is NSNull { timers.insert(key) } else { ends[key.id] = (change.clock, (value as! NSNumber).int64Value) }
                }
            }
        }
    }

    static func object(_ text: String) -> [String: Any] {
        try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    func exists(_ key: Key) -> Bool {
        guard let row = fields[key], !void.contains(key) else { return false }
        return (row["_exists"] as? NSNumber)?.int64Value == 1 && row["created"] != nil
    }

    func integer(_ key: Key, _ field: String) -> Int64? { (fields[key]?[field] as? NSNumber)?.int64Value }

    /// Which project each project id means: among the projects of one
    /// client and one name (ASCII letters folded), the smallest id.
    func projects() -> [Int64: (id: Int64, name: String)] {
        var groups: [String: [Int64]] = [:]
        for key in fields.keys where key.kind == "project" && exists(key) {
            let name = String((fields[key]!["name"] as? String ?? "").map { $0.isASCII ? Character($0.lowercased()) : $0 })
            groups["\(integer(key, "client_id").map(String.init) ?? "-")/\(name)", default: []].append(key.id)
        }
        var meaning: [Int64: (Int64, String)] = [:]
        for ids in groups.values {
            let canonical = ids.min()!
            for id in ids { meaning[id] = (canonical, fields[Key(kind: "project", id: canonical)]!["name"] as! String) }
        }
        return meaning
    }

    /// Every entry, with a timer no device stopped ending where the next
    /// entry begun as a timer begins.
    func entries() -> [Device.Held] {
        let meaning = projects()
        let live = fields.keys.filter { $0.kind == "entry" && exists($0) }
        let timers = live.filter { self.timers.contains($0) }.map { (integer($0, "start")!, $0.id) }.sorted { $0 < $1 }
        return live.map { key in
            let start = integer(key, "start")!
            var end = integer(key, "end")
            if end == nil { end = timers.first { $0 > (start, key.id) }?.0 }
            return Device.Held(
                id: key.id, start: start, end: end, project: integer(key, "project_id").flatMap { meaning[$0]?.name },
                text: fields[key]!["description"] as? String ?? "")
        }.sorted { $0.id < $1.id }
    }

    /// The newest end a device wrote to each entry that exists.
    func writtenEnds() -> [Int64: Int64] {
        var written: [Int64: Int64] = [:]
        for (id, end) in ends where exists(Key(kind: "entry", id: id)) && integer(Key(kind: "entry", id: id), "end") != nil {
            written[id] = end.end
        }
        return written
    }
}
