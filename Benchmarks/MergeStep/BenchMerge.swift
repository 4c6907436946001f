// The pure merge alone (Merge.run), without SQLite or PostgreSQL: what a
// new device's pull of 100,000 changes spends deciding its writes, in 20
// batches of 5,000 new entries of 20 projects; and 100,000 edits, each of
// an entry the input holds with its history of writes. Prints the seconds
// each took (median of 5 rounds), for BENCHMARKS.md, beside the pull of
// bench/hub/run.sh.
import Glibc
import TrackeeCore
import TrackeeReplication
import TrackeeStore

@main
enum BenchMerge {
    static let batches = 20, perBatch = 5_000, projects = 20
    static let origin: Int64 = 1_790_000_000

    static func stamp(_ n: Int, _ device: String) -> HybridStamp {
        HybridStamp(wall: (origin + Int64(n)) * 1000, counter: 0, device: device)
    }

    /// Every project, as a store that pulled them holds them.
    static func catalog() -> [HubRowKey: HubRowState] {
        var rows: [HubRowKey: HubRowState] = [:]
        for p in 0..<projects {
            let key = HubRowKey(.project, Int64(1000 + p + 1))
            let values: [HubValue] = [.integer(1), .null, .text("P\(p)"), .null, .integer(0), .null, .integer(0)]
            var state = HubRowState(key: key, current: [.integer(key.id)] + values.dropFirst())
            for (field, value) in values.enumerated() { state.writes[field] = [HubWrite(stamp: stamp(p, "d\(p + 1)"), value: value)] }
            rows[key] = state
        }
        return rows
    }

    static func entry(_ n: Int) -> [HubValue?] {
        let start = origin + Int64(n) * 600
        return [.integer(1), .integer(Int64(1000 + n % projects + 1)), .text("entry \(n)"), .text(""), .integer(start),
                .integer(start + 300), .text("cli"), .integer(0), .integer(0)]
    }

    /// Batch `b` of new entries, made whole by one change each.
    static func newEntries(_ b: Int) -> HubMergeInput {
        var changes: [HubChange] = []
        for i in 0..<perBatch {
            let n = b * perBatch + i
            let row = HubRowKey(.entry, Int64(n * 1000 + 1))
            changes.append(HubChange(
                id: Int64(n + 1), device: "d1", stamp: stamp(100 + n, "d1"),
                body: .row(HubRowChange(row: row, values: entry(n), bases: Array(repeating: nil, count: 9), text: "{}"))))
        }
        var input = HubMergeInput(
            device: "fresh", changes: changes, clock: HybridClock(device: "fresh"), physical: origin * 1000,
            now: Instant(seconds: origin))
        input.rows = catalog()
        input.timerBornFrom = .max
        return input
    }

    /// Batch `b` of edits to entries the store holds, each with its
    /// making write and one edit before.
    static func edits(_ b: Int) -> HubMergeInput {
        var changes: [HubChange] = []
        var rows = catalog()
        for i in 0..<perBatch {
            let n = b * perBatch + i
            let row = HubRowKey(.entry, Int64(n * 1000 + 1))
            let made = entry(n).map { $0! }
            var state = HubRowState(key: row, current: [.integer(row.id)] + made.dropFirst())
            for (field, value) in made.enumerated() { state.writes[field] = [HubWrite(stamp: stamp(n, "d1"), value: value)] }
            state.writes[2].append(HubWrite(stamp: stamp(n + 1, "d2"), value: .text("edited once"), base: stamp(n, "d1")))
            rows[row] = state
            var values = [HubValue?](repeating: nil, count: 9)
            values[2] = .text("edited twice")
            var bases = [HybridStamp?](repeating: nil, count: 9)
            bases[2] = stamp(n + 1, "d2")
            changes.append(HubChange(
                id: Int64(n + 1), device: "d1", stamp: stamp(200_000 + n, "d1"),
                body: .row(HubRowChange(row: row, values: values, bases: bases, text: "{}"))))
        }
        var input = HubMergeInput(
            device: "fresh", changes: changes, clock: HybridClock(device: "fresh"), physical: origin * 1000,
            now: Instant(seconds: origin))
        input.rows = rows
        input.timerBornFrom = .max
        return input
    }

    static func nanoseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }

    /// The median of 5 rounds of merging every batch, in seconds.
    static func time(_ inputs: [HubMergeInput], expecting rows: Int) -> Double {
        var rounds: [Double] = []
        for _ in 0..<5 {
            var planned = 0
            let start = nanoseconds()
            for input in inputs {
                guard case .plan(let plan) = Merge.run(input) else { fatalError("the merge asked for more") }
                planned += plan.rows.count
            }
            rounds.append(Double(nanoseconds() - start) / 1e9)
            precondition(planned == rows, "planned \(planned) row changes, not \(rows)")
        }
        return rounds.sorted()[2]
    }

    static func main() {
        let total = batches * perBatch
        let made = time((0..<batches).map(newEntries), expecting: total)
        let edited = time((0..<batches).map(edits), expecting: total)
        print("the pure merge, \(batches) batches of \(perBatch), median of 5 rounds:")
        print("  \(total) new entries: \(String(format3: made)) s (\(Int(Double(total) / made)) changes/s)")
        print("  \(total) edits of held entries: \(String(format3: edited)) s (\(Int(Double(total) / edited)) changes/s)")
    }
}

extension String {
    /// Three decimal places, without Foundation.
    init(format3 value: Double) {
        let thousandths = Int64((value * 1000).rounded())
        let rest = String(thousandths % 1000)
        self = String(thousandths / 1000) + "." + String(repeating: "0", count: 3 - rest.count) + rest
    }
}
