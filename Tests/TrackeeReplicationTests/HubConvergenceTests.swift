import Foundation
import Testing
import TrackeeTestSupport

extension SeededGenerator: RandomNumberGenerator {}

/// Three device stores working offline at random and syncing in random
/// order, with syncs killed part-way and the hub restarted, end with the
/// same timeline: byte-identical exports, at most one timer, and every
/// entry that nothing deleted still there, once.
@Suite(.serialized) struct HubConvergenceTests {
    static let names = ["laptop", "desktop", "phone"]
    static let projects = ["Docs", "Review", "Mail"]

    @Test func threeDevicesConvergeUnderKillsAndHubRestarts() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let seed = ProcessInfo.processInfo.environment["TRACKEE_HUB_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 1...UInt64.max >> 1)
        let rounds = ProcessInfo.processInfo.environment["TRACKEE_HUB_ROUNDS"].flatMap(Int.init) ?? 100
        var random = SeededGenerator(seed: seed)
        let devices = try ReplicationPassTests.devices(pg, Self.names)
        // The projects exist everywhere before the offline work.
        for project in Self.projects { #expect(try devices[0].run("projects", "add", project).status == 0) }
        // One schedule on every device: each occurrence is to fire once.
        for t in devices {
            _ = try t.write("rules:\n  - id: standup\n    when: {at: \"*:00/20\"}\n    do: [{start: {project: Standup}}]\n",
                            to: "config/trackee/rules.yaml")
        }
        for t in devices + [devices[0]] { _ = try ReplicationPassTests.sync(t) }

        // Entries the commands made, and those nothing could have removed
        // since (no delete named them, no undo ran on their device).
        var made: Set<Int> = []
        var kept: Set<Int> = []
        var addedBy: [[Int]] = Array(repeating: [], count: devices.count)
        var killed = 0, killedAfterPush = 0, restarts = 0
        let base = Date(timeIntervalSince1970: 1_795_158_000)  // 2026-11-20 08:00 +01:00
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "Europe/Prague")
        format.dateFormat = "yyyy-MM-dd HH:mm"
        for round in 0..<rounds {
            let now = format.string(from: base.addingTimeInterval(Double(round) * 420))
            let clock = String(now.suffix(5))
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let d = Int.random(in: 0..<devices.count, using: &random)
                let t = devices[d]
                let project = Self.projects.randomElement(using: &random)!
                let ids = try Self.ids(t)
                var arguments: [String]
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<17: arguments = ["start", "-p", project, "--at", clock, "--json"]
                case 17..<25:
                    // A phone's retry may reach any device: few keys, reused.
                    let key = "k\(Int.random(in: 0..<8, using: &random))"
                    arguments = ["start", "-p", project, "-d", "key \(key)", "--key", key, "--json"]
                case 25..<33: arguments = ["tick"]
                case 33..<40: arguments = ["stop"]
                case 40..<58:
                    let at = base.addingTimeInterval(Double(round) * 420)
                    arguments = [
                        "add", "-p", project, "--from", format.string(from: at.addingTimeInterval(-3600)),
                        "--to", format.string(from: at.addingTimeInterval(-1800)), "--json",
                    ]
                case 58..<75:
                    guard let id = ids.randomElement(using: &random) else { continue }
                    arguments = ["edit", String(id), "-d", "round \(round) on \(Self.names[d])"]
                case 75..<88:
                    guard let id = ids.randomElement(using: &random) else { continue }
                    arguments = ["delete", String(id)]
                    kept.remove(id)
                default:
                    arguments = ["undo"]
                    kept.subtract(addedBy[d])
                }
                let r = try t.run(arguments, now: now)
                if ProcessInfo.processInfo.environment["TRACKEE_HUB_DEBUG"] != nil {
                    print("round \(round) \(Self.names[d]) \(now): \(arguments.joined(separator: " ")) -> \(r.status)")
                }
                // Refusals (nothing to undo, a stop with no timer) are
                // part of the game; a crash is not.
                #expect(r.status < 64 || r.status == 65 || r.status == 1, "seed \(seed) round \(round): \(r)")
                if arguments.last == "--json", r.status == 0, let id = try Self.firstID(r.stdout) {
                    made.insert(id)
                    if arguments[0] == "add" {
                        kept.insert(id)
                        addedBy[d].append(id)
                    }
                }
            }
            let d = Int.random(in: 0..<devices.count, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<20:
                // A sync takes 100 to 150 ms here: the kill lands before,
                // within or after its pushes and pulls.
                let held = try Self.held(pg, Self.names[d])
                let running = try devices[d].launch(["hub", "sync"], now: now)
                usleep(UInt32.random(in: 20_000..<150_000, using: &random))
                running.signal(SIGKILL)
                _ = try running.wait()
                killed += 1
                if try Self.held(pg, Self.names[d]) > held { killedAfterPush += 1 }
            case 20..<25:
                try pg.restart()
                restarts += 1
            default:
                let started = Date()
                let r = try devices[d].run(["hub", "sync"], now: now)
                #expect(r.status == 0, "seed \(seed) round \(round): \(r)")
                if ProcessInfo.processInfo.environment["TRACKEE_HUB_DEBUG"] != nil {
                    print("round \(round) sync \(Self.names[d]) \(Int(Date().timeIntervalSince(started) * 1000)) ms: \(r.stdout)")
                }
            }
        }
        // Until a whole pass moves nothing: the stops a merge makes on one
        // device travel on the next pass.
        let end = format.string(from: base.addingTimeInterval(Double(rounds) * 420))
        for _ in 0..<6 {
            var moved = 0
            for t in devices {
                let r = try t.run(["hub", "sync", "--json"], now: end)
                #expect(r.status == 0, "seed \(seed): \(r)")
                moved += try Self.count("pushed", r.stdout) + Self.count("pulled", r.stdout)
            }
            if moved == 0 { break }
        }
        let exports = try devices.map { try ReplicationPassTests.export($0) }
        if ProcessInfo.processInfo.environment["TRACKEE_HUB_DEBUG"] != nil {
            for (i, t) in devices.enumerated() {
                try? FileManager.default.removeItem(atPath: "/tmp/debug-\(Self.names[i]).db")
                try FileManager.default.copyItem(atPath: t.storePath, toPath: "/tmp/debug-\(Self.names[i]).db")
            }
        }
        #expect(exports[1] == exports[0], "seed \(seed): desktop and laptop differ")
        #expect(exports[2] == exports[0], "seed \(seed): phone and laptop differ")
        let ids = try Self.ids(devices[0])
        // A change taken in twice would show as a row no command made.
        // (Standup rows come from ticks, whose ids are not printed.)
        let fired = Set(exports[0].split(separator: "\n").filter { $0.contains(#""project":"Standup""#) }
            .compactMap { try? Self.firstID(String($0)) })
        let unmade = Set(ids).subtracting(made).subtracting(fired)
        #expect(unmade.isEmpty, "seed \(seed): rows no command made: \(unmade.sorted())")
        #expect(kept.isSubset(of: Set(ids)), "seed \(seed): lost \(kept.subtracting(ids).sorted())")
        let running = try devices.map { try $0.run(["status", "--json"], now: end).stdout }
        #expect(running[1] == running[0] && running[2] == running[0], "seed \(seed): the timers differ: \(running)")
        // Every key applied once, every occurrence fired once.
        let lines = exports[0].split(separator: "\n") + [Substring(running[0])]
        for key in 0..<8 {
            #expect(lines.filter { $0.contains("\"description\":\"key k\(key)\"") }.count <= 1,
                    "seed \(seed): key k\(key) applied more than once")
        }
        let standups = lines.filter { $0.contains(#""project":"Standup""#) }.compactMap { line in
            line.range(of: #""start":"[^"]+""#, options: .regularExpression).map { String(line[$0]) }
        }
        #expect(Set(standups).count == standups.count, "seed \(seed): an occurrence fired twice: \(standups.sorted())")
        print("hub convergence: seed \(seed), \(rounds) rounds, \(ids.count) entries, \(standups.count) standups, \(killed) syncs killed (\(killedAfterPush) after the hub took a push), "
              + "\(restarts) hub restarts")
    }

    /// How many changes the hub holds from a device.
    static func held(_ pg: PostgresCluster, _ device: String) throws -> Int {
        Int(try pg.sql("SELECT count(*) FROM change WHERE device = '\(device)'", database: "trackee")
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The ids of the entries a device has, in export order.
    static func ids(_ t: Sandbox) throws -> [Int] {
        let text = try ReplicationPassTests.export(t)
        return text.split(separator: "\n").compactMap { line in try? firstID(String(line)) ?? nil }
    }

    static func firstID(_ json: String) throws -> Int? {
        guard let range = json.range(of: #""id":[0-9]+"#, options: .regularExpression) else { return nil }
        return Int(json[range].dropFirst(5))
    }

    static func count(_ key: String, _ json: String) throws -> Int {
        guard let range = json.range(of: "\"\(key)\":[0-9]+", options: .regularExpression) else { return -1 }
        return Int(json[range].dropFirst(key.count + 3)) ?? -1
    }
}
