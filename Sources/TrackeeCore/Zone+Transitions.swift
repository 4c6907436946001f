extension Zone {
    /// One change of a zone's offset from UTC.
    public struct Transition: Sendable, Equatable {
        /// When the new offset takes effect.
        public var at: Instant
        /// Seconds east of UTC from `at` on.
        public var offset: Int
        public var isDaylight: Bool
        public var abbreviation: String

        public init(at: Instant, offset: Int, isDaylight: Bool, abbreviation: String) {
            self.at = at
            self.offset = offset
            self.isDaylight = isDaylight
            self.abbreviation = abbreviation
        }
    }

    /// A zone given as a list of transitions, as an iCalendar `VTIMEZONE`
    /// defines one. `initialOffset` holds before the first transition; the
    /// last one holds forever after. Transitions may come in any order; of
    /// two at the same instant the later in the list wins, and one that
    /// changes nothing is dropped.
    ///
    ///     let zone = Zone(identifier: "Custom", initialOffset: 3600, transitions: [
    ///         .init(at: Instant(seconds: 1_774_746_000), offset: 7200, isDaylight: true, abbreviation: "CEST")])
    public init(identifier: String, initialOffset: Int, transitions: [Transition]) {
        var sorted: [Transition] = []
        for t in transitions.enumerated().sorted(by: { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }).map(\.element) {
            if let last = sorted.last, last.at == t.at { sorted.removeLast() }
            sorted.append(t)
        }
        let initial = LocalTimeType(offset: initialOffset, isDST: false, abbreviation: "")
        var times: [Int64] = []
        var types: [LocalTimeType] = []
        var current = initial
        for t in sorted {
            let type = LocalTimeType(offset: t.offset, isDST: t.isDaylight, abbreviation: t.abbreviation)
            if type.offset == current.offset && type.isDST == current.isDST { continue }
            times.append(t.at.seconds)
            types.append(type)
            current = type
        }
        self.init(identifier: identifier, rules: ZoneRules(transitions: times, types: types, initial: initial, footer: nil))
    }
}
