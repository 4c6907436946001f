/// What the desk attached at start and what it goes on without, as the one
/// line `trackee run` logs:
/// `desk: idle from logind, lock and sleep from logind, power from UPower; absent: NetworkManager (not on the system bus)`.
public struct DeskSummary: Sendable, Equatable, CustomStringConvertible {
    /// A watch that attached, and what it gives.
    public struct Attached: Sendable, Equatable {
        public var reports: String
        public var watch: String

        public init(reports: String, watch: String) {
            self.reports = reports
            self.watch = watch
        }
    }

    /// In the order attached; the idle watch is named first.
    public var attached: [Attached]
    /// Each absent watch or bus with why, such as `UPower (not on the system bus)`.
    public var absent: [String]

    public init(attached: [Attached], absent: [String]) {
        self.attached = attached
        self.absent = absent
    }

    public var description: String {
        var line = "desk: " + (attached.isEmpty ? "nothing attached" : Self.sentence(attached))
        if !absent.isEmpty { line += "; absent: " + absent.joined(separator: ", ") }
        return line
    }

    /// `idle from logind, lock and sleep from logind, power from UPower`:
    /// idle on its own (which of the three idle watches won matters), the
    /// rest grouped by watch.
    static func sentence(_ attached: [Attached]) -> String {
        var groups: [(watch: String, reports: [String])] = []
        for item in attached {
            if item.reports != "idle", let index = groups.firstIndex(where: {
                $0.watch == item.watch && !$0.reports.contains("idle")
            }) {
                groups[index].reports.append(item.reports)
            } else {
                groups.append((item.watch, [item.reports]))
            }
        }
        return groups.map { "\(list($0.reports)) from \($0.watch)" }.joined(separator: ", ")
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + words.last!
    }
}
