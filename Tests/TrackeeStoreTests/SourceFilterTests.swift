import Testing
import TrackeeCore
@testable import TrackeeStore

/// `history --source`: one source, or every source of a named kind, read
/// from the intents' stored text.
@Suite struct SourceFilterTests {
    @Test(arguments: [
        ("web:phone", SourceFilter.exactly(.web(device: "phone"))), ("web", .every(.web)),
        ("http:phone", .exactly(.http(device: "phone"))), ("http", .every(.http)), ("rule", .every(.rule)),
        ("import", .every(.imported)), ("cli", .exactly(.cli)), ("stdin", .exactly(.stdin)),
    ])
    func textReadsAsAFilter(text: String, filter: SourceFilter) {
        #expect(SourceFilter(text) == filter)
    }

    @Test(arguments: ["web:", "webs", "phone", ""])
    func textNoSourceHasIsNoFilter(text: String) {
        #expect(SourceFilter(text) == nil)
    }

    /// The same device name over HTTP and on the web page are two sources;
    /// `web` is every token signed in on the page.
    @Test func theWebPagesIntentsFilterByTokenAndByKind() throws {
        let t = try TemporaryStore()
        let sources: [ChangeSource] = [.web(device: "phone"), .http(device: "phone"), .web(device: "tablet"), .cli]
        for (i, source) in sources.enumerated() {
            var intent = start("Docs", at: at(minutes: Int64(i)))
            intent.source = source
            _ = try t.store.apply(intent, now: at(minutes: Int64(i)))
        }
        func ids(_ text: String) throws -> [Int64] {
            let filter: SourceFilter = try #require(SourceFilter(text))
            return try t.store.intentHistory(limit: 10, source: filter).map(\.id)
        }
        #expect(try ids("web:phone") == [1])
        #expect(try ids("web:tablet") == [3])
        #expect(try ids("web") == [3, 1])
        #expect(try ids("http") == [2])
        #expect(try ids("http:phone") == [2])
        #expect(try ids("cli") == [4])
        #expect(try t.store.intentHistory(limit: 10).map(\.source) == sources.reversed())
    }
}
