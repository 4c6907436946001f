import Testing
import TrackeeTestSupport

/// `trackee log` pages: newest first, `--before` continues exactly where
/// the previous page stopped.
@Suite struct LogPagingTests {
    /// Entry `id` starts at 08:00 plus `slot(id) × 10` minutes and lasts 5
    /// minutes. Slots repeat and are out of id order, so paging must break
    /// ties by id and cannot lean on insertion order.
    private static func slot(_ id: Int) -> Int { id * 7 % 13 }

    private static func clock(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// Ids newest first: later start first, then higher id.
    private static let newestFirst: [Int] = (1...25).sorted {
        slot($0) != slot($1) ? slot($0) > slot($1) : $0 > $1
    }

    private func twentyFiveEntries() throws -> Sandbox {
        let t = try Sandbox(now: "2026-11-20 18:00")
        for id in 1...25 {
            let start = 8 * 60 + Self.slot(id) * 10
            let r = try t.run("add", "-p", "P", "--from", Self.clock(start), "--to", Self.clock(start + 5))
            #expect(r.lines.last == "added #\(id) P \(Self.clock(start))–\(Self.clock(start + 5)) (0:05)")
        }
        return t
    }

    private func page(_ json: JSONValue) -> [Int] {
        json["days"].elements.flatMap { $0["entries"].elements.compactMap { $0["id"].int.map(Int.init) } }
    }

    @Test func pagesFollowEachOtherWithoutOverlapOrGap() throws {
        let t = try twentyFiveEntries()

        let first = try t.run("log", "--limit", "10", "--json").json()
        #expect(page(first) == Array(Self.newestFirst[0..<10]))
        #expect(first["next_before"] == .number(Double(Self.newestFirst[9])))
        #expect(first["days"].elements.map(\.["date"]) == ["2026-11-20"])
        #expect(first["days"][0]["total_seconds"] == 7500)

        let second = try t.run("log", "--limit", "10", "--before", "\(Self.newestFirst[9])", "--json").json()
        #expect(page(second) == Array(Self.newestFirst[10..<20]))
        #expect(second["next_before"] == .number(Double(Self.newestFirst[19])))

        let third = try t.run("log", "--limit", "10", "--before", "\(Self.newestFirst[19])", "--json").json()
        #expect(page(third) == Array(Self.newestFirst[20..<25]))
        #expect(third["next_before"] == .absent)

        #expect(page(first) + page(second) + page(third) == Self.newestFirst)
        #expect(Set(Self.newestFirst) == Set(1...25))
    }

    private func line(_ id: Int) -> String {
        let start = 8 * 60 + Self.slot(id) * 10
        let tag = "#\(id)"
        return "  " + tag + String(repeating: " ", count: 6 - tag.count)
            + " \(Self.clock(start))–\(Self.clock(start + 5))    0:05  P"
    }

    @Test func textPagesEndWithTheCommandForTheNextPage() throws {
        let t = try twentyFiveEntries()

        let first = try t.run("log", "--limit", "10")
        #expect(first.status == 0)
        #expect(first.lines == ["Fri 2026-11-20  2:05"] + Self.newestFirst[0..<10].map(line)
            + ["older: trackee log --before \(Self.newestFirst[9])"])

        let last = try t.run("log", "--limit", "10", "--before", "#\(Self.newestFirst[19])")
        #expect(last.lines == ["Fri 2026-11-20  2:05"] + Self.newestFirst[20..<25].map(line))

        let beyond = try t.run("log", "--before", "\(Self.newestFirst[24])")
        #expect(beyond.status == 0)
        #expect(beyond.lines == ["no older entries"])
    }

    @Test func anEmptyStoreSaysHowToBegin() throws {
        let t = try Sandbox()
        let r = try t.run("log")
        #expect(r.status == 0)
        #expect(r.lines == ["no entries yet; `trackee start` begins one"])
        #expect(try t.run("log", "--json").json() == .object(["days": []]))
    }

    @Test func beforeAnUnknownEntryIsRefused() throws {
        let t = try Sandbox()
        #expect(try t.run("add", "-p", "P", "--from", "08:00", "--to", "09:00").status == 0)
        let r = try t.run("log", "--before", "999")
        #expect(r.status == 1)
        #expect(r.stderr == failure("no entry with id 999; `trackee log` lists entry ids"))
    }
}
