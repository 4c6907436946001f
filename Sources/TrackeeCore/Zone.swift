#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A time zone: the rules that turn an ``Instant`` into wall-clock time and back.
///
/// Rules come from the system's tzdata (TZif files, RFC 8536) or from a
/// POSIX `TZ` string. trackee reads them itself instead of using
/// Foundation's `TimeZone`, because that loads ICU, and ICU's start-up cost
/// is larger than the rest of a `trackee start`. Two zones are equal when
/// their identifiers are.
///
///     let prague = try Zone(identifier: "Europe/Prague")
///     prague.iso8601(Instant(seconds: 1_795_168_980))  // "2026-11-20T11:03:00+01:00"
///     prague.instants(for: LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30))  // []
public struct Zone: Sendable, Hashable {
    /// `Europe/Prague`, `UTC`, a file path, or a POSIX rule as given.
    public let identifier: String
    let rules: ZoneRules
    private let isUTC: Bool

    init(identifier: String, rules: ZoneRules) {
        self.identifier = identifier
        self.rules = rules
        self.isUTC = rules.isUTC
    }

    public static let utc = Zone(identifier: "UTC", rules: .utc)

    /// Loads a zone by tzdata name, file path, or POSIX rule.
    ///
    /// `UTC`, `Etc/UTC` and `Z` give ``utc``. Other names are read from
    /// `$TZDIR` (default `/usr/share/zoneinfo`); an absolute path is read as
    /// is. When no such file exists, a POSIX rule such as
    /// `EST5EDT,M3.2.0,M11.1.0` is accepted.
    public init(identifier: String) throws(ZoneError) {
        self = try Zone(identifier: identifier, directory: Zone.zoneinfoDirectory())
    }

    init(identifier: String, directory: String) throws(ZoneError) {
        if identifier == "UTC" || identifier == "Etc/UTC" || identifier == "Z" {
            self = .utc
            return
        }
        guard !identifier.isEmpty else { throw ZoneError(identifier, "the name is empty") }
        guard !identifier.utf8.contains(0),
            !identifier.split(separator: "/", omittingEmptySubsequences: false).contains("..")
        else { throw ZoneError(identifier, "names may not contain \"..\" or NUL") }

        let path = identifier.hasPrefix("/") ? identifier : directory + "/" + identifier
        if let bytes = Zone.contentsOfZoneFile(atPath: path) {
            if let rules = ZoneRules(tzif: bytes) {
                self.init(identifier: identifier, rules: rules)
                return
            }
            if let rule = POSIXRule(identifier) {
                self.init(identifier: identifier, rules: ZoneRules(rule: rule))
                return
            }
            throw ZoneError(identifier, "\(path) is not a TZif file and the name is not a POSIX TZ rule")
        }
        guard let rule = POSIXRule(identifier) else {
            throw ZoneError(identifier, "no file \(path) and not a POSIX TZ rule")
        }
        self.init(identifier: identifier, rules: ZoneRules(rule: rule))
    }

    /// The tzdata zone called `name` (`Europe/Prague`, `UTC`), or nil when
    /// no such TZif file exists. Unlike ``init(identifier:)`` it never reads
    /// the name as a POSIX rule or a path: for names that come from files,
    /// such as an iCalendar TZID.
    public static func tzdata(_ name: String) -> Zone? {
        guard !name.hasPrefix("/"), !name.isEmpty else { return nil }
        if name == "UTC" || name == "Etc/UTC" || name == "Z" { return .utc }
        guard !name.utf8.contains(0), !name.split(separator: "/", omittingEmptySubsequences: false).contains(".."),
              let bytes = contentsOfZoneFile(atPath: zoneinfoDirectory() + "/" + name),
              let rules = ZoneRules(tzif: bytes)
        else { return nil }
        return Zone(identifier: name, rules: rules)
    }

    /// The zone of this process: `TZ`, else `/etc/localtime`, else UTC.
    public static func local() -> Zone {
        local(environment: getenv("TZ").map { String(cString: $0) })
    }

    /// ``local()`` with the value of `TZ` passed in (nil when unset).
    ///
    /// Follows glibc: a leading `:` is dropped, a set-but-empty `TZ` means
    /// UTC, and a `TZ` that names no zone falls back to UTC rather than
    /// failing, so a typo never stops a timer from being recorded.
    public static func local(environment tz: String?) -> Zone {
        guard var name = tz else { return systemLocal() }
        if name.hasPrefix(":") { name.removeFirst() }
        if name.isEmpty { return .utc }
        return (try? Zone(identifier: name)) ?? .utc
    }

    /// `/etc/localtime`, named after the tzdata file its symlink points at.
    private static func systemLocal() -> Zone {
        let path = "/etc/localtime"
        guard let bytes = contentsOfZoneFile(atPath: path), let rules = ZoneRules(tzif: bytes) else { return .utc }
        var identifier = "localtime"
        if let target = symbolicLinkTarget(atPath: path), let name = nameAfterZoneinfo(target), !name.isEmpty {
            identifier = name
        }
        return Zone(identifier: identifier, rules: rules)
    }

    private static func nameAfterZoneinfo(_ path: String) -> String? {
        let marker = Array("zoneinfo/".utf8)
        let bytes = Array(path.utf8)
        guard bytes.count >= marker.count else { return nil }
        for start in stride(from: bytes.count - marker.count, through: 0, by: -1)
        where bytes[start..<start + marker.count].elementsEqual(marker) {
            return String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
        }
        return nil
    }

    private static func zoneinfoDirectory() -> String {
        if let dir = getenv("TZDIR").map({ String(cString: $0) }), !dir.isEmpty { return dir }
        return "/usr/share/zoneinfo"
    }

    public static func == (a: Zone, b: Zone) -> Bool { a.identifier == b.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

// MARK: - Instants to wall time

extension Zone {
    /// Seconds east of UTC in effect at `instant`.
    public func offset(at instant: Instant) -> Int {
        rules.type(at: instant.seconds).offset
    }

    /// The abbreviation shown at `instant`, such as `CET`, `CEST` or `EST`.
    public func abbreviation(at instant: Instant) -> String {
        rules.type(at: instant.seconds).abbreviation
    }

    public func localDateTime(_ instant: Instant) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: instant.seconds + Int64(offset(at: instant)))
    }

    /// Whether times in this zone are written with `Z` rather than `+00:00`.
    var writesZulu: Bool { isUTC }

    /// `2026-11-20T11:03:00+01:00`; the UTC zone writes `2026-11-20T10:03:00Z`.
    public func iso8601(_ instant: Instant) -> String {
        let offset = offset(at: instant)
        let local = LocalDateTime(secondsSinceEpoch: instant.seconds + Int64(offset))
        return local.description + formatOffset(offset, zulu: isUTC)
    }

    /// `2026-11-20T11:03:00.250+01:00`: ``iso8601(_:)-(Instant)`` with the
    /// milliseconds of a fix that has some.
    public func iso8601(_ time: FixTime) -> String {
        guard time.millisecond != 0 else { return iso8601(time.instant) }
        let offset = offset(at: time.instant)
        let local = LocalDateTime(secondsSinceEpoch: time.instant.seconds + Int64(offset))
        return "\(local).\(pad(Int(time.millisecond), 3))" + formatOffset(offset, zulu: isUTC)
    }
}

// MARK: - Wall time to instants

extension Zone {
    /// Every instant whose wall time here is `local`, ascending: none in a
    /// spring-forward gap, two in a fall-back fold, otherwise one.
    public func instants(for local: LocalDateTime) -> [Instant] {
        resolve(local).instants
    }

    /// The instant for `local`, choosing the earlier one in a fall-back fold.
    /// In a spring-forward gap the clock is read as if the change had not
    /// happened yet, which moves it forward by the gap: 02:30 on Prague's
    /// spring-forward day is 03:30 CEST.
    public func instant(for local: LocalDateTime) -> Instant {
        // Most wall times are a day away from any change of offset: one
        // instant, found without searching.
        let wall = local.secondsSinceEpoch
        if let offset = rules.plainOffset(atWall: wall) { return Instant(seconds: wall - Int64(offset)) }
        let guess = rules.type(at: wall - Int64(rules.type(at: wall).offset)).offset
        let candidate = wall - Int64(guess)
        if rules.type(at: candidate).offset == guess,
           rules.nextTransition(after: candidate - 100_000).map({ $0 > candidate + 100_000 }) ?? true
        {
            return Instant(seconds: candidate)
        }
        let resolution = resolve(local)
        if let first = resolution.instants.first { return first }
        if let gap = resolution.gap { return Instant(seconds: wall - Int64(gap.offsetBefore)) }
        return Instant(seconds: wall - Int64(offset(at: Instant(seconds: wall))))
    }

    /// The first instant of `date` here. When midnight falls in a gap the
    /// day begins at the transition itself.
    public func startOfDay(_ date: LocalDate) -> Instant {
        let resolution = resolve(LocalDateTime(date: date))
        if let first = resolution.instants.first { return first }
        if let gap = resolution.gap { return Instant(seconds: gap.transition) }
        return instant(for: LocalDateTime(date: date))
    }

    private struct Resolution {
        var instants: [Instant] = []
        var gap: (transition: Int64, offsetBefore: Int)?
    }

    /// Tries every offset in force within a day and a bit of `local` (no
    /// zone is further than that from UTC) and keeps those that agree.
    private func resolve(_ local: LocalDateTime) -> Resolution {
        let wall = local.secondsSinceEpoch
        let reach: Int64 = 27 * 3600
        var offsets = [rules.type(at: wall - reach).offset]
        var result = Resolution()
        var t = wall - reach
        while let next = rules.nextTransition(after: t), next <= wall + reach {
            let before = rules.type(at: next - 1).offset
            let after = rules.type(at: next).offset
            if !offsets.contains(after) { offsets.append(after) }
            if after > before && next + Int64(before) <= wall && wall < next + Int64(after) {
                result.gap = (next, before)
            }
            t = next
        }
        for offset in offsets {
            let candidate = wall - Int64(offset)
            if rules.type(at: candidate).offset == offset {
                result.instants.append(Instant(seconds: candidate))
            }
        }
        result.instants.sort()
        return result
    }
}

/// A time zone name that is neither a tzdata file nor a POSIX rule.
public struct ZoneError: Error, Equatable, CustomStringConvertible {
    public let identifier: String
    public let description: String

    init(_ identifier: String, _ reason: String) {
        self.identifier = identifier
        self.description = "unknown time zone \"\(identifier)\": \(reason)"
    }
}
