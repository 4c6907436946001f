// Over 400 lines on purpose: one recursive-descent parser of systemd's
// calendar grammar, whose productions share the cursor and its errors.
import TrackeeCore

/// Reads a calendar expression with the grammar of systemd's
/// `calendar_spec_from_string()`, so that it accepts and rejects what
/// `systemd-analyze calendar` does, and explains each rejection.
struct CalendarSpecParser {
    private let text: String
    private let bytes: [UInt8]
    private var index = 0
    /// Where the expression ends, before any time zone suffix.
    private var end: Int

    init(_ text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
        self.end = bytes.count
    }

    mutating func parse() throws(CalendarSpecError) -> CalendarSpec {
        let lastSpace = bytes.lastIndex(of: .space)
        let lastWord = lastSpace.map { string($0 + 1..<bytes.count) }
        var suffix: CalendarZone?
        if bytes.count >= 4, String(decoding: bytes.suffix(4), as: UTF8.self).lowercased() == " utc" {
            suffix = .utc
            end = bytes.count - 4
        } else if let lastSpace, let lastWord, let zone = Self.zone(named: lastWord) {
            suffix = zone
            end = lastSpace
        }
        do {
            var spec = try expression()
            if spec.zone == nil { spec.zone = suffix }
            return spec
        } catch {
            // A misspelt zone leaves a word that fails to parse; when the
            // rest parses, the word is what is wrong.
            guard suffix == nil, let lastSpace, let lastWord, Self.looksLikeZone(lastWord) else { throw error }
            var rest = self
            rest.end = lastSpace
            guard (try? rest.expression()) != nil else { throw error }
            throw failure(at: lastSpace + 1, "unknown time zone \"\(lastWord)\"")
        }
    }

    /// A shorthand, or weekdays, a date and a time, each optional.
    private mutating func expression() throws(CalendarSpecError) -> CalendarSpec {
        index = 0
        guard end > 0 else { throw failure(at: 0, "no date or time given") }
        if let spec = Self.shorthand(string(0..<end)) { return spec }
        var spec = CalendarSpec()
        try weekdays(into: &spec)
        if try !date(into: &spec) { try time(into: &spec) }
        return spec
    }

    private static func shorthand(_ name: String) -> CalendarSpec? {
        let zero = CalendarField(values: 0)
        let first = CalendarField(values: 1)
        switch name.lowercased() {
        case "minutely": return CalendarSpec(second: zero)
        case "hourly": return CalendarSpec(minute: zero, second: zero)
        case "daily": return CalendarSpec(hour: zero, minute: zero, second: zero)
        case "weekly": return CalendarSpec(weekdays: 1, hour: zero, minute: zero, second: zero)
        case "monthly": return CalendarSpec(day: first, hour: zero, minute: zero, second: zero)
        case "yearly", "annually", "anually":
            return CalendarSpec(month: first, day: first, hour: zero, minute: zero, second: zero)
        case "quarterly":
            return CalendarSpec(month: CalendarField(values: 1, 4, 7, 10), day: first, hour: zero, minute: zero, second: zero)
        case "semiannually", "semi-annually", "biannually", "bi-annually":
            return CalendarSpec(month: CalendarField(values: 1, 7), day: first, hour: zero, minute: zero, second: zero)
        default: return nil
        }
    }

    // MARK: Weekdays

    private static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// `Mon`, `monday`, in any case: 0 for Monday, or nil.
    private static func weekday(named name: String) -> Int? {
        let lowered = name.lowercased()
        return weekdayNames.firstIndex { $0 == lowered || $0.prefix(3) == lowered }
    }

    /// `Mon,Wed..Fri ` (systemd's `parse_weekdays`); `Mon-Fri` is an old
    /// spelling of a range. Ranges cannot wrap past Sunday.
    private mutating func weekdays(into spec: inout CalendarSpec) throws(CalendarSpecError) {
        guard index < end, bytes[index].isLetter else { return }
        var mask: UInt8 = 0
        var range: (first: Int, at: Int)?
        while true {
            let nameStart = index
            while index < end, bytes[index].isLetter { index += 1 }
            let name = string(nameStart..<index)
            guard let day = Self.weekday(named: name) else {
                if name.isEmpty { throw failure(at: index, "expected a weekday after \"\(string(0..<index))\"") }
                let alone = nameStart == 0 && index == end
                throw failure(at: nameStart, "unknown \(alone ? "weekday or shorthand" : "weekday") \"\(name)\"")
            }
            if index < end, ![.space, .comma, .dot, .dash].contains(bytes[index]) {
                throw unexpected(after: "weekday \"\(name)\"")
            }
            mask |= 1 << day
            if let range {
                guard range.first <= day else {
                    throw failure(
                        at: range.at,
                        "weekday range \"\(string(range.at..<index))\" runs backwards; ranges cannot wrap past Sunday")
                }
                for covered in range.first...day { mask |= 1 << covered }
            }
            guard index < end, bytes[index] != .space else { break }
            switch bytes[index] {
            case .dot, .dash:
                if let range { throw unexpected(after: "weekday range \"\(string(range.at..<index))\"") }
                if bytes[index] == .dot {
                    guard index + 1 < end, bytes[index + 1] == .dot else {
                        throw failure(at: index, "write weekday ranges with \"..\", as in \"Mon..Fri\"")
                    }
                    index += 1
                }
                index += 1
                range = (day, nameStart)
            default:
                index += 1
                range = nil
            }
            if index == end || bytes[index] == .space {
                if let range { throw failure(at: range.at, "weekday range \"\(string(range.at..<index))\" has no end") }
                break
            }
        }
        skipSpaces()
        spec.weekdays = mask
    }

    // MARK: Dates

    /// `@seconds`, `MM-DD` or `YYYY-MM-DD` (systemd's `parse_date`), `~` in
    /// place of the last `-` to count days from the month's end. Returns true
    /// for `@seconds`, which includes the time.
    private mutating func date(into spec: inout CalendarSpec) throws(CalendarSpecError) -> Bool {
        guard index < end else { return false }
        if bytes[index] == .at {
            try timestamp(into: &spec)
            return true
        }
        let dateStart = index
        let first = try chain()
        // A number then `:` is an hour.
        if index == end || bytes[index] == .colon {
            index = dateStart
            return false
        }
        if bytes[index] == .space {
            throw failure(at: dateStart, "date \"\(string(dateStart..<index))\" needs a month and a day, as in 12-24")
        }
        let firstSeparator = index
        var fromMonthEnd = try dateSeparator()
        let second = try chain()
        if index == end || bytes[index] == .space {
            spec.month = try field(first, .month)
            try setDay(second, fromMonthEnd: fromMonthEnd, in: &spec)
            skipSpaces()
            return false
        }
        if fromMonthEnd { throw failure(at: firstSeparator, "\"~\" may only stand before the day") }
        fromMonthEnd = try dateSeparator()
        let third = try chain()
        guard index == end || bytes[index] == .space else {
            throw unexpected(after: "the date \"\(string(dateStart..<index))\"")
        }
        spec.year = try field(first, .year)
        spec.month = try field(second, .month)
        try setDay(third, fromMonthEnd: fromMonthEnd, in: &spec)
        skipSpaces()
        return false
    }

    /// `-`, or `~` (returning true) before a day counted from the month's end.
    private mutating func dateSeparator() throws(CalendarSpecError) -> Bool {
        guard bytes[index] == .dash || bytes[index] == .tilde else {
            throw unexpected(after: "\"\(string(0..<index))\"")
        }
        index += 1
        return bytes[index - 1] == .tilde
    }

    /// `~*` is just `*`: systemd drops the `~` when the day is any day.
    private func setDay(_ items: [Item], fromMonthEnd: Bool, in spec: inout CalendarSpec) throws(CalendarSpecError) {
        spec.day = try field(items, .day, fromMonthEnd: fromMonthEnd)
        spec.daysFromMonthEnd = fromMonthEnd && !items.isEmpty
    }

    /// `@1700000000`: that second, in UTC, and nothing after it.
    private mutating func timestamp(into spec: inout CalendarSpec) throws(CalendarSpecError) {
        let start = index
        index += 1
        let seconds = try number(limit: 1_000_000_000_000)
        let time = LocalDateTime(secondsSinceEpoch: Int64(seconds))
        let range = start..<index
        spec.year = try field([Item(CalendarComponent(start: time.date.year), range)], .year)
        spec.month = CalendarField(values: time.date.month)
        spec.day = CalendarField(values: time.date.day)
        spec.hour = CalendarField(values: time.hour)
        spec.minute = CalendarField(values: time.minute)
        spec.second = CalendarField(values: time.second)
        spec.zone = .utc
        guard index == end else { throw unexpected(after: "\"\(string(range))\"") }
    }

    // MARK: Times

    /// `HH:MM` or `HH:MM:SS` (systemd's `parse_calendar_time`); none means 00:00:00.
    private mutating func time(into spec: inout CalendarSpec) throws(CalendarSpecError) {
        let midnight = CalendarField(values: 0)
        guard index < end else {
            (spec.hour, spec.minute, spec.second) = (midnight, midnight, midnight)
            return
        }
        let timeStart = index
        let hour = try chain()
        guard index < end, bytes[index] == .colon else {
            let written = string(timeStart..<index)
            if index == end { throw failure(at: timeStart, "time \"\(written)\" needs minutes, as in \"\(written):00\"") }
            throw unexpected(after: "\"\(string(0..<index))\"")
        }
        index += 1
        let minute = try chain()
        var second = midnight
        if index < end {
            guard bytes[index] == .colon else { throw unexpected(after: "the time \"\(string(timeStart..<index))\"") }
            index += 1
            let items = try chain(seconds: true)
            guard index == end else { throw unexpected(after: "the time \"\(string(timeStart..<index))\"") }
            second = try field(items, .second)
        }
        spec.hour = try field(hour, .hour)
        spec.minute = try field(minute, .minute)
        spec.second = second
    }

    // MARK: Fields

    /// A component with the text it came from, for error messages.
    private struct Item {
        var component: CalendarComponent
        var range: Range<Int>

        init(_ component: CalendarComponent, _ range: Range<Int>) {
            self.component = component
            self.range = range
        }
    }

    /// systemd's `CALENDARSPEC_COMPONENTS_MAX`, plus the first item.
    private static let maxItems = 241

    /// `*`, or a `,` list of components; `*` is an empty list.
    private mutating func chain(seconds: Bool = false) throws(CalendarSpecError) -> [Item] {
        if index < end, bytes[index] == .star {
            index += 1
            if index < end, bytes[index] == .slash {
                throw failure(at: index - 1, "\"*\" cannot repeat; give a start value, as in \"0/15\"")
            }
            if index < end, bytes[index] == .comma {
                throw failure(at: index - 1, "\"*\" cannot be part of a list")
            }
            return []
        }
        var items: [Item] = []
        while true {
            guard items.count < Self.maxItems else {
                throw failure(at: index, "a field may list at most \(Self.maxItems) values")
            }
            items.append(try component(seconds: seconds))
            guard index < end, bytes[index] == .comma else { return items }
            index += 1
        }
    }

    /// `5`, `8..18`, `0/15` or `8..18/2` (systemd's `prepend_component`).
    private mutating func component(seconds: Bool) throws(CalendarSpecError) -> Item {
        // systemd keeps seconds in microseconds in an int.
        let limit = seconds ? Int(Int32.max) / 1_000_000 : Int(Int32.max)
        let start = index
        let first = try number(limit: limit, seconds: seconds)
        var stop: Int?
        var step = 0
        if index + 1 < end, bytes[index] == .dot, bytes[index + 1] == .dot {
            index += 2
            stop = try number(limit: limit, seconds: seconds)
            step = 1
        }
        if index < end, bytes[index] == .slash {
            index += 1
            let stepStart = index
            step = try number(limit: limit, seconds: seconds)
            guard step > 0 else { throw failure(at: stepStart, "repetition \"\(string(start..<index))\" must step by at least 1") }
        } else if seconds, let stop, first >= stop {
            throw failure(at: start, "second range \"\(string(start..<index))\" must end after it starts")
        }
        if index < end, ![.space, .comma, .dash, .tilde, .colon].contains(bytes[index]) {
            throw unexpected(after: "\"\(string(0..<index))\"")
        }
        return Item(CalendarComponent(start: first, stop: stop, step: step), start..<index)
    }

    /// Decimal digits, at most `limit`.
    private mutating func number(limit: Int, seconds: Bool = false) throws(CalendarSpecError) -> Int {
        let start = index
        var value = 0
        while index < end, bytes[index].isDigit {
            value = min(value * 10 + Int(bytes[index] - UInt8(ascii: "0")), limit + 1)
            index += 1
        }
        guard index > start else {
            if start == 0 { throw failure(at: 0, "\"\(badText())\" is not a weekday, date or time") }
            throw failure(at: start, "expected a number after \"\(string(0..<start))\"")
        }
        guard value <= limit else { throw failure(at: start, "number \"\(string(start..<index))\" is too large") }
        if seconds, index < end, bytes[index] == .dot, !(index + 1 < end && bytes[index + 1] == .dot) {
            var fractionEnd = index + 1
            while fractionEnd < end, bytes[fractionEnd].isDigit { fractionEnd += 1 }
            throw failure(at: start, "fractional seconds are not supported: \"\(string(start..<fractionEnd))\"")
        }
        return value
    }

    /// The items as a field of `unit`, checked the way systemd's
    /// `calendar_spec_valid()` checks them once normalized and sorted.
    private func field(_ items: [Item], _ unit: CalendarUnit, fromMonthEnd: Bool = false) throws(CalendarSpecError)
        -> CalendarField
    {
        let normalized = items.map { item in
            var component = item.component
            if unit == .year { component.expandTwoDigitYear() }
            component.normalize()
            return Item(component, item.range)
        }
        let field = CalendarField(normalized.map(\.component))
        for (position, component) in field.components.enumerated() {
            let written = normalized.first { $0.component == component }!.range
            try check(component, unit, fromMonthEnd: fromMonthEnd, position: position, writtenAt: written)
        }
        return field
    }

    /// systemd's `chain_valid()` for the component at `position` of its
    /// sorted field. Days counted from the month's end go up to 28 only, and
    /// systemd lowers that by 3 more for each later item of the list (it
    /// passes the lowered limit on as it walks the list), so `~25,27` fails.
    private func check(
        _ component: CalendarComponent, _ unit: CalendarUnit, fromMonthEnd: Bool, position: Int,
        writtenAt range: Range<Int>
    ) throws(CalendarSpecError) {
        let lowest = unit.bounds.lowerBound
        let highest = fromMonthEnd ? unit.bounds.upperBound - 3 * (position + 1) : unit.bounds.upperBound
        let tilde = fromMonthEnd ? "~" : ""
        let written = tilde + string(range)
        let allowed = "\(tilde)\(lowest)..\(tilde)\(highest)" + (fromMonthEnd && position > 0 ? " as item \(position + 1) of the list" : "")
        func outOfRange(_ value: Int) -> CalendarSpecError {
            failure(at: range.lowerBound, "\(unit.name) \(tilde)\(value) is out of range \(allowed)")
        }
        let neverRepeats = failure(at: range.lowerBound, "\(unit.name) repetition \"\(written)\" never repeats within \(allowed)")
        guard (lowest...highest).contains(component.start) else { throw outOfRange(component.start) }
        guard component.step <= highest - lowest else { throw neverRepeats }
        if let stop = component.stop {
            guard (lowest...highest).contains(stop) else { throw outOfRange(stop) }
            // Normalizing leaves only backward ranges failing this.
            guard component.start + component.step <= stop else {
                throw failure(at: range.lowerBound, "\(unit.name) range \"\(written)\" must end after it starts")
            }
        } else if fromMonthEnd ? component.start - component.step < lowest : component.start + component.step > highest {
            throw neverRepeats
        }
    }

    // MARK: Time zones

    /// The zone a trailing word names, by systemd's own test
    /// (`verify_timezone`): tzdata's characters, and a TZif file under
    /// /usr/share/zoneinfo, whatever `TZDIR` says.
    private static func zone(named name: String) -> CalendarZone? {
        guard isZoneName(name), let zone = try? Zone(identifier: "/usr/share/zoneinfo/" + name) else { return nil }
        return .named(name, zone)
    }

    /// Letters, digits, `-_+`, and single `/` between them.
    private static func isZoneName(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: .slash, omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isDigit || $0 == .dash || $0 == .underscore || $0 == .plus }
        }
    }

    private static func looksLikeZone(_ word: String) -> Bool {
        isZoneName(word) && word.utf8.first!.isLetter
    }

    // MARK: Errors and text

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private func failure(at byteOffset: Int, _ reason: String) -> CalendarSpecError {
        let utf8 = text.utf8
        let position = utf8.index(utf8.startIndex, offsetBy: byteOffset)
        return CalendarSpecError(input: text, offset: text.distance(from: text.startIndex, to: position), reason: reason)
    }

    /// The text at `index` is wrong.
    private func unexpected(after context: String) -> CalendarSpecError {
        failure(at: index, "unexpected \"\(badText())\" after \(context)")
    }

    /// The rest of the word at `index`, or everything left when it starts
    /// with a space.
    private func badText() -> String {
        guard index < end else { return "" }
        var stop = index + 1
        if bytes[index] == .space {
            stop = end
        } else {
            while stop < end, bytes[stop] != .space { stop += 1 }
        }
        return string(index..<stop)
    }

    private mutating func skipSpaces() {
        while index < end, bytes[index] == .space { index += 1 }
    }
}

extension UInt8 {
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let dot = UInt8(ascii: ".")
    fileprivate static let dash = UInt8(ascii: "-")
    fileprivate static let tilde = UInt8(ascii: "~")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let star = UInt8(ascii: "*")
    fileprivate static let at = UInt8(ascii: "@")
    fileprivate static let underscore = UInt8(ascii: "_")
    fileprivate static let plus = UInt8(ascii: "+")

    fileprivate var isDigit: Bool { (0x30...0x39).contains(self) }
    fileprivate var isLetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
}
