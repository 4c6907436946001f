import Testing
@testable import TrackeeStore

/// A long write (a new device's first pull) may take a larger page cache.
@Suite struct PageCacheTests {
    @Test func thePageCacheGrowsForALongWriteAndShrinksBack() throws {
        let t = try TemporaryStore()
        func size() throws -> Int? { try t.store.peek { try Int.fetchOne($0, sql: "PRAGMA cache_size") } }
        #expect(try size() == -2000)
        try t.store.setPageCache(mebibytes: 128)
        #expect(try size() == -131_072)
        try t.store.setPageCache(mebibytes: nil)
        #expect(try size() == -2000)
    }
}
