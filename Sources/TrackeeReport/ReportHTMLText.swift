import TrackeeCore

/// The small pieces of text the HTML report is written with: escaping,
/// numbers for SVG coordinates, dates and times read from the report's
/// ISO 8601 strings.
package enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as character
    /// references: safe as element text and inside a quoted attribute, in
    /// HTML and in inline SVG alike. Everything a person or another device
    /// named (projects, clients, tags, descriptions, filters) goes through it.
    package static func escaped(_ text: some StringProtocol) -> String {
        var needs = false
        for byte in text.utf8 where byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 {
            needs = true
            break
        }
        if !needs { return String(text) }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `x` with at most `digits` decimals (0 to 3), without Foundation:
    /// `12.5`, `3`, `0.333`. SVG coordinates need no more.
    package static func fixed(_ x: Double, _ digits: Int = 2) -> String {
        let scale: Int64 = digits <= 0 ? 1 : digits == 1 ? 10 : digits == 2 ? 100 : 1000
        let scaled = Int64((x * Double(scale)).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = abs(scaled)
        var text = sign + String(magnitude / scale)
        var fraction = magnitude % scale
        guard fraction != 0 else { return text }
        var width = digits
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        text += "." + pad(Int(fraction), width)
        return text
    }

    /// A share of a width as an SVG length: `12.5%`.
    package static func percent(_ x: Double) -> String { fixed(x, 3) + "%" }

    /// `2026-11-23` as a date; nil when it is not one.
    static func date(_ text: some StringProtocol) -> LocalDate? {
        let parts = text.prefix(10).split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        let date = LocalDate(year: y, month: m, day: d)
        return date.isValid ? date : nil
    }

    /// `Mon 2026-11-23` for `2026-11-23` (the text itself when it is no date).
    static func day(_ text: String) -> String {
        guard let date = date(text) else { return text }
        return weekday(date) + " " + text.prefix(10)
    }

    /// `Mon`.
    package static func weekday(_ date: LocalDate) -> String { Weekday(rawValue: date.weekday)?.shortName ?? "" }

    /// `Jan` … `Dec`.
    package static func month(_ date: LocalDate) -> String {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return names[max(0, min(11, date.month - 1))]
    }

    /// `09:30` from `2026-11-23T09:30:00+01:00`; nil when the text has no
    /// time there.
    static func clock(_ iso: String) -> String? {
        let chars = Array(iso.utf8)
        guard chars.count >= 16, chars[10] == UInt8(ascii: "T"), chars[13] == UInt8(ascii: ":") else { return nil }
        return String(decoding: chars[11..<16], as: UTF8.self)
    }

    /// `Fri 2026-11-27 15:42:10 +01:00` for `2026-11-27T15:42:10+01:00`
    /// (the text itself when it is not such a time).
    static func moment(_ iso: String) -> String {
        let chars = Array(iso.utf8)
        guard chars.count >= 19, chars[10] == UInt8(ascii: "T"), date(iso) != nil else { return iso }
        let offset = String(decoding: chars[19...], as: UTF8.self)
        return day(String(iso.prefix(10))) + " " + String(decoding: chars[11..<19], as: UTF8.self)
            + (offset.isEmpty ? "" : " " + offset)
    }

    /// `h:mm`, as every duration on the report is written.
    package static func duration(_ seconds: Int64) -> String { formatDuration(seconds, .clock) }

    /// `1234.50 EUR`, or `1234.50` without a currency.
    static func money(_ cents: Int64, _ currency: String?) -> String {
        formatMoney(cents) + (currency.map { " " + escaped($0) } ?? "")
    }

    /// A colour from the report when it is `#` and six hex digits; grey
    /// otherwise, so no other text reaches a `style` or `fill`.
    package static func color(_ text: String) -> String {
        let hex = text.utf8.dropFirst()
        let valid = text.utf8.first == UInt8(ascii: "#") && hex.count == 6
            && hex.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
        return valid ? text : "#808080"
    }

    /// A colour's swatch: a square of SVG whose colour is an attribute,
    /// not a `style`, so a page whose policy allows no inline style
    /// shows it.
    package static func swatch(_ color: String) -> String {
        "<svg class=\"sw\" viewBox=\"0 0 1 1\" aria-hidden=\"true\"><rect width=\"1\" height=\"1\" fill=\"\(HTMLText.color(color))\"/></svg>"
    }

    /// `name` cut to `limit` characters with `…`, for a chart's label (its
    /// `<title>` has the whole name).
    static func shortened(_ name: String, _ limit: Int) -> String {
        name.count <= limit ? name : String(name.prefix(limit - 1)) + "…"
    }
}
