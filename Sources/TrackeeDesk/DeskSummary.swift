/// What the desk attached at start and what it goes on without, as the one
/// line `trackee run` logs:
/// `desk: idle from logind, lock and sleep from logind, power from UPower; absent: NetworkManager (not on the system bus)`.
public struct DeskSummary: Sendable, Equatable, CustomStringConvertible {
    /// A source that attached, and what it gives.
    public struct Attached: Sendable, Equatable {
        public var reports: String
        public var source: String

        public init(reports: String, source: String) {
            self.reports = reports
            self.source = source
        }
    }

    /// In the order attached; the idle source is named first.
    public var attached: [Attached]
    /// Each absent source or bus with why, such as `UPower (not on the system bus)`.
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
    /// idle on its own (which of the three idle sources won matters), the
    /// rest grouped by source.
    static func sentence(_ attached: [Attached]) -> String {
        var groups: [(source: String, reports: [String])] = []
        for item in attached {
            if item.reports != "idle", let index = groups.firstIndex(where: {
                $0.source == item.source && !$0.reports.contains("idle")
            }) {
                groups[index].reports.append(item.reports)
            } else {
                groups.append((item.source, [item.reports]))
            }
        }
        return groups.map { "\(list($0.reports)) from \($0.source)" }.joined(separator: ", ")
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + words.last!
    }
}
