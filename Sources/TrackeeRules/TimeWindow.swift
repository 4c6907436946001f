import TrackeeCore

/// A daily window of local wall time: `09:00-17:00`, or one that wraps past
/// midnight, `22:00-06:00`. The start is inside, the end is not.
///
///     let night = TimeWindow(start: 22 * 60, end: 6 * 60)  // "22:00-06:00"
///     night.contains(minuteOfDay: 23 * 60)  // true
///     night.contains(minuteOfDay: 6 * 60)   // false
public struct TimeWindow: Sendable, Equatable, CustomStringConvertible {
    /// Minutes after midnight, 0…1439.
    public let start: Int
    /// Minutes after midnight, 0…1440 (`24:00`); never equal to `start`.
    public let end: Int

    /// A window from `start` to `end` minutes after midnight.
    public init(start: Int, end: Int) {
        precondition((0..<1440).contains(start) && (0...1440).contains(end) && start != end, "invalid time window")
        self.start = start
        self.end = end
    }

    /// Reads `HH:MM-HH:MM` (hours may be one digit; `24:00` only as the end).
    init(parsing text: String) throws(InvalidValue) {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let start = TimeWindow.minute(String(ends[0]).trimmingWhitespace()), start < 1440,
            let end = TimeWindow.minute(String(ends[1]).trimmingWhitespace())
        else {
            throw InvalidValue("expected a window such as \"09:00-17:00\" or \"22:00-06:00\", found \"\(text)\"")
        }
        guard start != end else {
            throw InvalidValue("the window \"\(text)\" starts where it ends; write a window that ends later")
        }
        self.init(start: start, end: end)
    }

    /// `H:MM` or `HH:MM` as minutes after midnight, up to `24:00`.
    private static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour >= 0, minute >= 0, minute < 60
        else { return nil }
        let total = hour * 60 + minute
        return total <= 1440 ? total : nil
    }

    /// Whether a local time, in minutes after midnight, falls in the window.
    @inlinable
    public func contains(minuteOfDay minute: Int) -> Bool {
        start < end ? (start <= minute && minute < end) : (minute >= start || minute < end)
    }

    /// `22:00-06:00`.
    public var description: String {
        "\(pad(start / 60, 2)):\(pad(start % 60, 2))-\(pad(end / 60, 2)):\(pad(end % 60, 2))"
    }
}
