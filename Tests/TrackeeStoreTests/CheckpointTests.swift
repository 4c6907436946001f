import Foundation
import GRDB
import Testing
import TrackeeCore
@testable import TrackeeStore

/// Checkpoints handed from the store's commits to a connection of their
/// own, and given back.
@Suite struct CheckpointTests {
    static func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
    }

    static func autocheckpoint(_ store: Store) throws -> Int? {
        try store.peek { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint") }
    }

    @Test func commitsLeaveTheLogToTheCheckpointerUntilItFinishes() throws {
        let t = try TemporaryStore()
        #expect(try Self.autocheckpoint(t.store) == 1000)
        let checkpointer = try t.store.checkpointingAside()
        #expect(try Self.autocheckpoint(t.store) == 0)
        for minute in 0..<20 {
            let at = nine + Int64(minute * 60)
            _ = try t.store.apply(Intent(.start(TimerParameters(project: minute % 2 == 0 ? "A" : "B")), at: at), now: at)
        }
        // The intents are in the log, not yet in the database file.
        let before = try Self.size(t.path)
        #expect(try Self.size(t.path + "-wal") > 20 * 4096)
        try checkpointer.checkpoint()
        #expect(try Self.size(t.path) > before)
        try checkpointer.finish()
        #expect(try Self.autocheckpoint(t.store) == 1000)
        #expect(try t.store.entryCount() == 20)
    }
}
