import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Work split over the processors in contiguous slices, for reading and
/// expanding large calendars: events and series are independent of each
/// other, and a year of a busy calendar is a second of work on one core.
public enum Parallel {
    /// Processors to use, at most eight.
    public static var processors: Int { max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }

    /// `body` over `0..<count` cut into one slice per processor (a single
    /// slice when there are fewer than `minimum` items per processor),
    /// run at the same time; the results in slice order.
    public static func map<T>(count: Int, minimum: Int, _ body: @Sendable (Range<Int>) -> T) -> [T] {
        let parts = max(1, min(processors, count / max(1, minimum)))
        if parts == 1 { return [body(0..<count)] }
        let results = Slots<T>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            results.set(part, body(count * part / parts..<count * (part + 1) / parts))
        }
        return results.values
    }
}

/// One result per slice; each slice writes only its own slot, and the slots
/// are read once every slice is done.
private final class Slots<T>: @unchecked Sendable {
    private var slots: [T?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: T) { slots[index] = value }
    var values: [T] { slots.map { $0! } }
}
