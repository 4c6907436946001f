/// The pieces of text the commands write for people: an entry's label, a
/// time as a clock shows it, money, counts, columns and quoted words.

extension Entry {
    /// `"Docs" (Acme) · writing docs · #a #b`: the project in bold with its
    /// client, the description and the tags, or `(no project)` dimmed.
    public func label(_ style: TextStyle) -> String {
        var parts: [String] = []
        if let project {
            parts.append(style.bold(project) + (client.map { " (\($0))" } ?? ""))
        } else {
            parts.append(style.dim("(no project)"))
        }
        if !description.isEmpty { parts.append(description) }
        if !tags.isEmpty { parts.append(tags.map { "#" + $0 }.joined(separator: " ")) }
        return parts.joined(separator: " · ")
    }
}

extension Zone {
    /// `11:03` on the day of `now`, `Thu 11:03` within the six days before
    /// it, else `2026-11-20 11:03` (later days too).
    public func clock(_ instant: Instant, now: Instant) -> String {
        let local = localDateTime(instant)
        let hm = pad(local.hour, 2) + ":" + pad(local.minute, 2)
        let today = localDate(now)
        if local.date == today { return hm }
        let days = today.daysSinceEpoch - local.date.daysSinceEpoch
        if days > 0 && days < 7 {
            return (Weekday(rawValue: local.date.weekday)?.shortName ?? "") + " " + hm
        }
        return "\(local.date) \(hm)"
    }
}

/// Cents as `1234.50`, `-0.05`.
public func formatMoney(_ cents: Int64) -> String {
    let sign = cents < 0 ? "-" : ""
    let a = abs(cents)
    return "\(sign)\(a / 100).\(pad(Int(a % 100), 2))"
}

/// `80`, `80.5`, `80.50` as cents (8000, 8050, 8050); nil when it is not
/// an amount: negative, more than two decimals, anything but digits.
public func parseMoney(_ text: String) -> Int64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = Int64(parts[0]), whole >= 0 else { return nil }
    var cents = whole * 100
    if parts.count == 2 {
        let frac = parts[1]
        guard (1...2).contains(frac.count), frac.allSatisfy(\.isNumber), let f = Int64(frac) else { return nil }
        cents += frac.count == 1 ? f * 10 : f
    }
    return cents
}

/// `1 entry`, `2 entries`, `0 entries`.
public func counted(_ n: Int, _ singular: String, _ plural: String) -> String {
    "\(n) \(n == 1 ? singular : plural)"
}

extension String {
    /// Spaces before the text up to `width` characters; a longer text as it is.
    public func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// Spaces after the text up to `width` characters; a longer text as it is.
    public func rightPadded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

/// A word as a person would type it to a POSIX shell, for display: as it
/// is when it holds only letters, digits and `-_./=:@%+,`, else in single
/// quotes (a quote inside as `'\''`; the empty word as `''`).
public func shellQuoted(_ word: String) -> String {
    word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0) } && !word.isEmpty
        ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}
