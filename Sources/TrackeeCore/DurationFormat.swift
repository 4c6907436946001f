/// How a length of time is written in reports.
///
/// Every style truncates to its smallest unit except ``decimal``, which
/// rounds, because invoicing works in hundredths of an hour.
public enum DurationStyle: String, Sendable, CaseIterable {
    /// Hours and minutes: `1:05`, `27:00`.
    case clock
    /// Hours, minutes and seconds: `01:05:09`, `100:00:00`.
    case clockSeconds
    /// Hours to two decimals, rounded half up on the hundredth: `1.08`.
    case decimal
    /// `1h 05m`, `45m`; `<1m` for a few seconds and `0m` for none.
    case human
}

/// Writes `seconds` in `style`; negative lengths are written as zero.
///
///     formatDuration(3_909, .clock)         // "1:05"
///     formatDuration(3_909, .clockSeconds)  // "01:05:09"
///     formatDuration(3_909, .decimal)       // "1.09"
///     formatDuration(3_909, .human)         // "1h 05m"
public func formatDuration(_ seconds: Int64, _ style: DurationStyle) -> String {
    let s = max(0, seconds)
    let hours = s / 3600
    let minutes = Int(s / 60 % 60)
    switch style {
    case .clock:
        return "\(hours):\(pad(minutes, 2))"
    case .clockSeconds:
        return "\(hours < 10 ? "0" : "")\(hours):\(pad(minutes, 2)):\(pad(Int(s % 60), 2))"
    case .decimal:
        // Integers only: a Double would turn 0.125 h into 0.12 and start
        // losing whole seconds on large totals.
        var wholeHours = hours
        var hundredths = (s % 3600 * 100 + 1800) / 3600
        if hundredths == 100 {
            wholeHours += 1
            hundredths = 0
        }
        return "\(wholeHours).\(pad(Int(hundredths), 2))"
    case .human:
        if s == 0 { return "0m" }
        if s < 60 { return "<1m" }
        if hours == 0 { return "\(minutes)m" }
        return "\(hours)h \(pad(minutes, 2))m"
    }
}
