/// A day of the week, numbered as ISO 8601 does (Monday is 1), which is how
/// ``LocalDate/weekday`` counts too.
public enum Weekday: Int, Sendable, CaseIterable, Codable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// Reads a name as people type it: `mon`, `Monday`, `TUES`; any prefix of
    /// the English name that is at least three letters long, in any case.
    public init?(name: String) {
        let typed = name.lowercased()
        guard typed.count >= 3,
            let match = Weekday.allCases.first(where: { $0.fullName.hasPrefix(typed) })
        else { return nil }
        self = match
    }

    /// `Mon`, `Tue`, …
    public var shortName: String {
        fullName.prefix(1).uppercased() + fullName.dropFirst().prefix(2)
    }

    /// `monday`, `tuesday`, …, as typed in times and rules.
    var fullName: String {
        switch self {
        case .monday: "monday"
        case .tuesday: "tuesday"
        case .wednesday: "wednesday"
        case .thursday: "thursday"
        case .friday: "friday"
        case .saturday: "saturday"
        case .sunday: "sunday"
        }
    }
}
