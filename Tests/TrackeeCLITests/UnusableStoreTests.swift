import Foundation
import GRDB
import Testing
import TrackeeTestSupport

/// Stores trackee cannot use: missing or unwritable directories, files
/// that are not SQLite, damaged databases. Each fails with status 2, one
/// sentence on stderr, and leaves the file and its directory exactly as
/// they were.
@Suite struct UnusableStoreTests {
    /// Bytes that look random but are the same on every run.
    static func garbage(_ count: Int, seed: UInt32 = 12345) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }

    /// Runs `arguments` against `path` and checks the failure, that the
    /// file kept every byte, and that no file appeared beside it.
    private func expectUntouched(
        _ t: Sandbox, store path: String, _ arguments: [String], status: Int32, stderr: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = t.storeFiles(path)
        let r = try t.run(arguments + ["--store", path], environment: ["TRACKEE_STORE": nil])
        #expect(r.status == status, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stdout == "", sourceLocation: sourceLocation)
        #expect(r.stderr == stderr, sourceLocation: sourceLocation)
        let after = t.storeFiles(path)
        #expect(after.database == before.database, "\(arguments) changed the file", sourceLocation: sourceLocation)
        #expect(after.names == before.names, "\(arguments) left files beside the store", sourceLocation: sourceLocation)
    }

    static let commands: [[String]] = [
        ["status"],
        ["log"],
        ["start", "-p", "Z"],
        ["add", "-p", "Z", "--from", "10:00", "--to", "10:05"],
        ["stop"],
    ]

    @Test(arguments: [["status"], ["start", "-p", "A"]])
    func aMissingDirectoryIsNotCreated(arguments: [String]) throws {
        let t = try Sandbox()
        try #require(!FileManager.default.fileExists(atPath: "/nonexistent-dir"))
        let r = try t.run(arguments + ["--store", "/nonexistent-dir/x.sqlite3"], environment: ["TRACKEE_STORE": nil])
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == failure(
            "cannot open store /nonexistent-dir/x.sqlite3: directory /nonexistent-dir does not exist; create it or choose another --store"))
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-dir"))

        // TRACKEE_STORE is an explicit path too.
        let missing = t.path("missing/x.sqlite3")
        let env = try t.run(arguments, environment: ["TRACKEE_STORE": missing])
        #expect(env.status == 2)
        #expect(env.stderr == failure(
            "cannot open store \(missing): directory \(t.path("missing")) does not exist; create it or choose another --store"))
        #expect(!FileManager.default.fileExists(atPath: t.path("missing")))
    }

    /// /proc exists but takes no new files, even from root; the kernel
    /// answers ENOENT, which must not be reported as a missing directory.
    @Test func aDirectoryThatTakesNoFilesIsReportedAsUnwritable() throws {
        let t = try Sandbox()
        for arguments in [["status"], ["start", "-p", "A"]] {
            let r = try t.run(arguments + ["--store", "/proc/trackee-test.sqlite3"], environment: ["TRACKEE_STORE": nil])
            #expect(r.status == 2)
            #expect(r.stdout == "")
            #expect(r.stderr == failure("cannot write store /proc/trackee-test.sqlite3: /proc does not accept new files"))
            #expect(!FileManager.default.fileExists(atPath: "/proc/trackee-test.sqlite3"))
        }
    }

    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "needs root and setpriv to run as another user"))
    func anotherUsersDirectoryIsReportedAsPermissionDenied() throws {
        let t = try Sandbox()
        let directory = t.path("locked")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        let path = directory + "/s.sqlite3"
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        for arguments in [["status"], ["start", "-p", "A"]] {
            let r = try t.run(arguments + ["--store", path], environment: ["TRACKEE_STORE": nil], via: nobody)
            #expect(r.status == 2)
            #expect(r.stdout == "")
            #expect(r.stderr == failure("cannot write store \(path): permission denied in \(directory)"))
            #expect(t.listing(directory) == [])
        }
    }

    @Test(arguments: commands)
    func aPlainTextFileIsLeftUntouched(arguments: [String]) throws {
        let t = try Sandbox()
        let path = t.path("store/notes.sqlite3")
        try Data("Groceries: milk, eggs\nCall Ana at 10:00\n".utf8).write(to: URL(fileURLWithPath: path))
        try expectUntouched(t, store: path, arguments, status: 2, stderr: failure(
            "\(path) is not a trackee store (not an SQLite database); it was left untouched — choose another --store"))
    }

    @Test(arguments: commands)
    func aFileOfRandomBytesIsLeftUntouched(arguments: [String]) throws {
        let t = try Sandbox()
        let path = t.path("store/random.sqlite3")
        try Data(Self.garbage(8192)).write(to: URL(fileURLWithPath: path))
        try expectUntouched(t, store: path, arguments, status: 2, stderr: failure(
            "\(path) is not a trackee store (not an SQLite database); it was left untouched — choose another --store"))
    }

    /// Ways to damage a real store while keeping its 100-byte header, so
    /// SQLite still recognises the file.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        /// The last 256 bytes of every page after the first, where SQLite
        /// keeps the cells of each b-tree page.
        case pageTails
        /// Garbage over the whole of the entry table's root page, which
        /// with five entries is the only page of the table.
        case entryTable

        var testDescription: String { rawValue }

        func apply(to data: inout Data) throws {
            let pageSize = Int(data[16]) << 8 | Int(data[17])
            switch self {
            case .pageTails:
                var page = 1
                while (page + 1) * pageSize <= data.count {
                    let end = (page + 1) * pageSize
                    data.replaceSubrange(end - 256..<end, with: UnusableStoreTests.garbage(256, seed: UInt32(page)))
                    page += 1
                }
            case .entryTable:
                let page = try UnusableStoreTests.rootPage(of: "entry", in: data)
                let start = (page - 1) * pageSize
                data.replaceSubrange(start..<start + pageSize, with: UnusableStoreTests.garbage(pageSize))
            }
        }
    }

    /// A store trackee made, with five entries, copied without its -wal
    /// and -shm files (the last command checkpointed everything into the
    /// database file).
    private func realStore(_ t: Sandbox) throws -> Data {
        try FileManager.default.createDirectory(atPath: t.path("source"), withIntermediateDirectories: false)
        let source = t.path("source/trackee.sqlite3")
        for i in 1...5 {
            let r = try t.run("add", "-p", "Project \(i)", "-c", "Client \(i)", "--from", "1\(i):00", "--to", "1\(i):30",
                              "entry \(i)", environment: ["TRACKEE_STORE": source])
            #expect(r.status == 0)
        }
        return try t.bytes(source)
    }

    @Test func theUndamagedCopyIsAWorkingStore() throws {
        let t = try Sandbox(now: "2026-11-20 18:00")
        try realStore(t).write(to: URL(fileURLWithPath: t.storePath))
        let log = try t.run("log", "--json").json()
        #expect(log["days"][0]["entries"].elements.map(\.["description"])
            == ["entry 5", "entry 4", "entry 3", "entry 2", "entry 1"])
    }

    /// Damage in every page: every command reads some of it and refuses.
    @Test(arguments: [Damage.pageTails], commands)
    func aDamagedStoreIsLeftUntouched(damage: Damage, arguments: [String]) throws {
        try expectRefusedOnDamage(damage, arguments)
    }

    /// Where a table's b-tree starts, read from an undamaged copy with SQLite.
    static func rootPage(of table: String, in data: Data) throws -> Int {
        let path = FileManager.default.temporaryDirectory.path + "/trackee-rootpage-\(UUID().uuidString).sqlite3"
        try data.write(to: URL(fileURLWithPath: path))
        // A WAL store opened read-only still leaves its -wal and -shm files.
        defer { for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) } }
        var config = Configuration()
        config.readonly = true
        let page = try DatabaseQueue(path: path, configuration: config).read { db in
            try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table])
        }
        return try #require(page)
    }

    /// Damage in the page of the entry table: the commands that read the
    /// entries refuse. SQLite finds damage only in pages it reads, and a
    /// full check costs ~34 ms at 100,000 entries, so `add` and `stop`,
    /// which never read those pages, are not expected to notice, nor
    /// `status` with no timer running and `summary` (their figures come
    /// from the end index alone).
    @Test(arguments: [Damage.entryTable], [["export", "--format", "json"], ["log"], ["start", "-p", "Z"]])
    func damageInTheEntriesIsFoundByWhatReadsThem(damage: Damage, arguments: [String]) throws {
        try expectRefusedOnDamage(damage, arguments)
    }

    private func expectRefusedOnDamage(_ damage: Damage, _ arguments: [String]) throws {
        let t = try Sandbox(now: "2026-11-20 18:00")
        var data = try realStore(t)
        let header = data.prefix(100)
        try #require(header.starts(with: Data("SQLite format 3\0".utf8)))
        try damage.apply(to: &data)
        try #require(data.prefix(100) == header)
        try data.write(to: URL(fileURLWithPath: t.storePath))

        try expectUntouched(t, store: t.storePath, arguments, status: 2, stderr: failure(
            "store \(t.storePath) is damaged (database disk image is malformed); it was left untouched — restore it from a backup or choose another --store"))
    }
}
