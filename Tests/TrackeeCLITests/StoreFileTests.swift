import Foundation
import Testing
import TrackeeTestSupport

/// Where the store file goes, who may read it, and what trackee leaves
/// beside it.
@Suite struct StoreFileTests {
    @Test func anExplicitStoreIsCreatedReadableOnlyByItsOwner() throws {
        let t = try Sandbox()
        let path = t.path("store/explicit.sqlite3")
        let r = try t.run("start", "-p", "P", "--store", path, environment: ["TRACKEE_STORE": nil])
        #expect(r.status == 0)
        #expect(try t.mode(path) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: t.storePath))
    }

    @Test func theDefaultStoreDirectoryIsPrivate() throws {
        let t = try Sandbox()
        let data = t.path("data/nested/share")
        let r = try t.run("start", "-p", "P", environment: ["TRACKEE_STORE": nil, "XDG_DATA_HOME": data])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(try t.mode(data + "/trackee") == 0o700)
        #expect(try t.mode(data + "/trackee/trackee.sqlite3") == 0o600)
        #expect(t.listing(data + "/trackee").contains("trackee.sqlite3"))
        #expect(!FileManager.default.fileExists(atPath: t.storePath))

        // The same store is found again without being named.
        let status = try t.run("status", "--json", environment: ["TRACKEE_STORE": nil, "XDG_DATA_HOME": data])
        #expect(try status.json()["running"]["project"] == "P")
    }

    @Test func withoutXDGDataHomeTheStoreLivesUnderHome() throws {
        let t = try Sandbox()
        let r = try t.run("start", "-p", "P", environment: ["TRACKEE_STORE": nil, "XDG_DATA_HOME": nil])
        #expect(r.status == 0)
        let directory = t.path("home/.local/share/trackee")
        #expect(try t.mode(directory) == 0o700)
        #expect(try t.mode(directory + "/trackee.sqlite3") == 0o600)
    }

    /// A one-shot command must not leave a write-ahead log that grows with
    /// every run: forty small writes stay well under one SQLite
    /// auto-checkpoint's worth (1000 pages).
    @Test func theWriteAheadLogDoesNotGrowWithEveryRun() throws {
        let t = try Sandbox(now: "2026-11-20 23:00")
        for i in 0..<40 {
            let minute = (i % 60 < 10 ? "0" : "") + "\(i % 60)"
            let r = try t.run("add", "-p", "P", "--from", "10:\(minute)", "--to", "11:00")
            #expect(r.status == 0)
        }
        let wal = t.storeFiles().wal?.count ?? 0
        #expect(wal < 256 * 1024, "the -wal file is \(wal) bytes after 40 commands")
    }
}
