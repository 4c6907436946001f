import TrackeeCore

/// The six fields of a calendar event, largest first.
enum CalendarUnit: Int, CaseIterable, Sendable {
    case year, month, day, hour, minute, second

    var name: String {
        switch self {
        case .year: "year"
        case .month: "month"
        case .day: "day"
        case .hour: "hour"
        case .minute: "minute"
        case .second: "second"
        }
    }

    /// The values systemd accepts (`calendar_spec_valid`); years end at its
    /// `MAX_YEAR`, after which nothing ever elapses.
    var bounds: ClosedRange<Int> {
        switch self {
        case .year: 1970...2199
        case .month: 1...12
        case .day: 1...31
        case .hour: 0...23
        case .minute, .second: 0...59
        }
    }

    /// The value a field takes when a larger one moves on.
    var first: Int { self == .month || self == .day ? 1 : 0 }

    /// Digits in the normalized form: `2026-03-09 08:05:00`.
    var width: Int { self == .year ? 4 : 2 }

    var smaller: CalendarUnit? { CalendarUnit(rawValue: rawValue + 1) }
    var larger: CalendarUnit? { CalendarUnit(rawValue: rawValue - 1) }
}

/// One item of a field's list: `5`, `8..18`, `0/15` or `8..18/2`.
struct CalendarComponent: Hashable, Sendable {
    var start: Int
    /// The last value of a `start..stop` range.
    var stop: Int?
    /// Repeat every `step` from `start` (up to `stop`, if any); 0 means
    /// `start` alone. A range without `/` steps by 1.
    var step: Int = 0

    /// systemd's `fix_year`: `26` is 2026 and `99` is 1999.
    mutating func expandTwoDigitYear() {
        func expand(_ year: Int) -> Int { year < 70 ? year + 2000 : year < 100 ? year + 1900 : year }
        start = expand(start)
        stop = stop.map(expand)
    }

    /// systemd's `normalize_chain` for one item: a range ends on the last
    /// value its step reaches, and an item that can fire only once becomes
    /// a plain value, so `8..9/5` and `5..5` both read as a single hour.
    mutating func normalize() {
        guard var end = stop else { return }
        if end > start, step > 0 { end -= (end - start) % step }
        if end == start || (end > start && step > 0 && start + step > end) {
            stop = nil
            step = 0
        } else {
            stop = end
        }
    }

    /// The sort order of `normalize_chain`: a missing stop counts as -1.
    static func precedes(_ a: CalendarComponent, _ b: CalendarComponent) -> Bool {
        (a.start, a.stop ?? -1, a.step) < (b.start, b.stop ?? -1, b.step)
    }
}

/// A field of a calendar event: `*` when it has no components, else the
/// values its components allow.
struct CalendarField: Hashable, Sendable {
    private(set) var components: [CalendarComponent]

    /// `*`: every value.
    static let any = CalendarField([])

    /// Sorted and without duplicates, as systemd keeps its chains.
    init(_ components: [CalendarComponent]) {
        var unique: [CalendarComponent] = []
        for component in components.sorted(by: CalendarComponent.precedes) where unique.last != component {
            unique.append(component)
        }
        self.components = unique
    }

    init(values: Int...) {
        self.init(values.map { CalendarComponent(start: $0) })
    }

    /// The least value at or above `value` that the field allows, or nil:
    /// systemd's `find_matching_component`. An empty field allows anything.
    ///
    /// `bounds` gives the actual start and stop of a component; the search
    /// uses it for days counted from the month's end. A repetition without a
    /// stop is unbounded here: the search moves on when it runs past the end
    /// of the unit.
    func firstMatch(
        atLeast value: Int,
        bounds: (CalendarComponent) -> (start: Int, stop: Int?) = { ($0.start, $0.stop) }
    ) -> Int? {
        guard !components.isEmpty else { return value }
        var best: Int?
        for component in components {
            let (start, stop) = bounds(component)
            var candidate: Int?
            if start >= value {
                candidate = start
            } else if component.step > 0 {
                let steps = (value - start + component.step - 1) / component.step
                let next = start + steps * component.step
                if stop.map({ next <= $0 }) ?? true { candidate = next }
            }
            if let candidate, best.map({ candidate < $0 }) ?? true { best = candidate }
        }
        return best
    }

    /// `*`, or the components as systemd writes them: `01,04`, `08..18/2`.
    /// A seconds field that includes every second (`0/1`) reads as `*`.
    func formatted(_ unit: CalendarUnit) -> String {
        let everySecond = CalendarComponent(start: 0, step: 1)
        if components.isEmpty || (unit == .second && components.contains(everySecond)) { return "*" }
        return components.map { component in
            var text = pad(component.start, unit.width)
            if let stop = component.stop { text += ".." + pad(stop, unit.width) }
            if component.step > 0 && !(component.stop != nil && component.step == 1) { text += "/\(component.step)" }
            return text
        }.joined(separator: ",")
    }
}
