import TrackeeCore
import TrackeeReport

/// What the PDF and the workbook both write about a report: durations,
/// money, the title block, project colours, the wall time in an ISO 8601
/// string. Pure functions, so both files say the same thing.
enum ReportText {
    /// `27:05`: hours and minutes, truncated, as `trackee summary` writes them.
    static func duration(_ seconds: Int64) -> String { formatDuration(seconds, .clock) }

    /// `1,234.50 EUR`, or `1,234.50` without a currency; `-12.00 EUR` below zero.
    static func money(_ cents: Int64, currency: String?) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        var whole = String(magnitude / 100)
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        let fraction = magnitude % 100
        let text = sign + whole + grouped + "." + (fraction < 10 ? "0" : "") + String(fraction)
        return currency.map { text + " " + $0 } ?? text
    }

    /// The amount, or empty when the group has none (no billable project with a rate).
    static func money(_ cents: Int64?, _ report: Report) -> String {
        cents.map { money($0, currency: report.currency) } ?? ""
    }

    /// `rounded up per entry to 15 min`, or `not rounded`.
    static func rounding(_ report: Report) -> String {
        report.roundingMinutes.map { "rounded up per entry to \($0) min" } ?? "not rounded"
    }

    /// The lines under the title, label and value, in the order both files show them.
    static func titleBlock(_ report: Report) -> [(label: String, value: String)] {
        var lines: [(String, String)] = [
            ("Range", report.from == report.to ? report.from : "\(report.from) – \(report.to)"),
            ("Zone", report.zone),
            ("Grouped by", report.grouping.isEmpty ? "nothing" : report.grouping.map(\.rawValue).joined(separator: ", then ")),
            ("Filters", report.filters.isEmpty ? "none" : report.filters.joined(separator: "; ")),
            ("Rounding", rounding(report)),
        ]
        if let currency = report.currency { lines.append(("Currency", currency)) }
        lines.append(("Generated", report.generatedAt))
        return lines
    }

    /// `Total 27:05 · billable 20:00 · 1,234.50 EUR · 42 entries`.
    static func totalLine(_ report: Report) -> String {
        let t = report.total
        var parts = ["Total \(duration(t.seconds))", "billable \(duration(t.billableSeconds))",
                     "non-billable \(duration(t.nonBillableSeconds))"]
        if let cents = t.amountCents { parts.append(money(cents, currency: report.currency)) }
        parts.append(t.entries == 1 ? "1 entry" : "\(t.entries) entries")
        return parts.joined(separator: " · ")
    }

    /// A project's name as a reader sees it.
    static func projectName(_ name: String?) -> String { name ?? "(no project)" }

    /// Each project's colour, in `Report.projects`' order.
    static func colors(_ report: Report) -> [RGB] {
        report.projects.map { RGB(hex: $0.color) ?? .neutral }
    }
}

/// A colour from `#rrggbb`.
struct RGB: Equatable, Sendable {
    var red: Double, green: Double, blue: Double

    /// Bars of a grouping that is not by project.
    static let neutral = RGB(red: 0.31, green: 0.47, blue: 0.65)
    static let black = RGB(red: 0, green: 0, blue: 0)
    static let grey = RGB(red: 0.45, green: 0.45, blue: 0.45)
    static let rule = RGB(red: 0.75, green: 0.75, blue: 0.75)
    static let shade = RGB(red: 0.93, green: 0.93, blue: 0.93)

    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    init?(hex: String) {
        guard hex.utf8.count == 7, hex.hasPrefix("#"), let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        self.init(red: Double(value >> 16 & 0xFF) / 255, green: Double(value >> 8 & 0xFF) / 255,
                  blue: Double(value & 0xFF) / 255)
    }

    /// `0xRRGGBB`, as libxlsxwriter takes a colour.
    var packed: UInt32 {
        UInt32((red * 255).rounded()) << 16 | UInt32((green * 255).rounded()) << 8 | UInt32((blue * 255).rounded())
    }
}

/// The wall time an ISO 8601 string of the report names (`2026-11-23`,
/// `2026-11-23T09:05:00+01:00`), in the report's zone: the offset is left
/// out, since the report's zone is the reader's.
struct WallTime: Equatable, Sendable {
    var year: Int, month: Int, day: Int
    var hour = 0, minute = 0, second = 0

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard bytes.count >= from + count else { return nil }
            var value = 0
            for b in bytes[from..<from + count] {
                guard b >= 48, b <= 57 else { return nil }
                value = value * 10 + Int(b - 48)
            }
            return value
        }
        guard let y = number(0, 4), bytes.count >= 10, bytes[4] == 45, bytes[7] == 45,
              let m = number(5, 2), let d = number(8, 2), (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        (year, month, day) = (y, m, d)
        if bytes.count > 10 {
            guard bytes[10] == 84 || bytes[10] == 32, let h = number(11, 2), bytes.count >= 16, bytes[13] == 58,
                  let mi = number(14, 2)
            else { return nil }
            (hour, minute) = (h, mi)
            if bytes.count >= 19, bytes[16] == 58, let s = number(17, 2) { second = s }
        }
    }

    /// `2026-11-23`.
    var date: String { "\(year)-\(pad(month))-\(pad(day))" }
    /// `09:05`.
    var time: String { "\(pad(hour)):\(pad(minute))" }

    /// Days since 1970-01-01 (the proleptic Gregorian calendar).
    var epochDay: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `Mon`.
    var weekday: String { ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((epochDay % 7) + 7) % 7] }

    /// An Excel date-time serial: days since 1899-12-30, the time as a fraction.
    var excelSerial: Double {
        Double(epochDay + 25_569) + Double(hour * 3600 + minute * 60 + second) / 86_400
    }

    private func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
