import Foundation
import Testing
import TrackeeTestSupport

@testable import TrackeeCore

// Expected values come from GNU date and zdump, e.g.
// `TZ=Europe/Prague date -d @1774746000 '+%FT%T%:z %Z'` and
// `zdump -v -c 2100,2101 America/Nuuk`.

private func at(_ seconds: Int64) -> Instant { Instant(seconds: seconds) }

private let prague = try! Zone(identifier: "Europe/Prague")
private let newYork = try! Zone(identifier: "America/New_York")

/// An instant, and what GNU date shows for it in a zone.
struct Shown: Sendable, CustomTestStringConvertible {
    var zone: String
    var seconds: Int64
    var iso: String
    var abbreviation: String
    var offset: Int

    var testDescription: String { "\(zone) @\(seconds)" }
}

@Suite("Zone: offsets and abbreviations")
struct ZoneOffsetTests {
    @Test(arguments: [
        // Prague springs forward 2026-03-29 02:00 → 03:00 (01:00Z).
        Shown(zone: "Europe/Prague", seconds: 1_774_745_999, iso: "2026-03-29T01:59:59+01:00", abbreviation: "CET", offset: 3600),
        Shown(zone: "Europe/Prague", seconds: 1_774_746_000, iso: "2026-03-29T03:00:00+02:00", abbreviation: "CEST", offset: 7200),
        // Prague falls back 2026-10-25 03:00 → 02:00 (01:00Z).
        Shown(zone: "Europe/Prague", seconds: 1_792_889_999, iso: "2026-10-25T02:59:59+02:00", abbreviation: "CEST", offset: 7200),
        Shown(zone: "Europe/Prague", seconds: 1_792_890_000, iso: "2026-10-25T02:00:00+01:00", abbreviation: "CET", offset: 3600),
        // New York springs forward 2026-03-08 02:00 → 03:00 (07:00Z).
        Shown(zone: "America/New_York", seconds: 1_772_953_199, iso: "2026-03-08T01:59:59-05:00", abbreviation: "EST", offset: -18000),
        Shown(zone: "America/New_York", seconds: 1_772_953_200, iso: "2026-03-08T03:00:00-04:00", abbreviation: "EDT", offset: -14400),
        // New York falls back 2026-11-01 02:00 → 01:00 (06:00Z).
        Shown(zone: "America/New_York", seconds: 1_793_512_799, iso: "2026-11-01T01:59:59-04:00", abbreviation: "EDT", offset: -14400),
        Shown(zone: "America/New_York", seconds: 1_793_512_800, iso: "2026-11-01T01:00:00-05:00", abbreviation: "EST", offset: -18000),
        // 1974: year-round DST from January 6, straight from the transition table.
        Shown(zone: "America/New_York", seconds: 126_687_600, iso: "1974-01-06T03:00:00-04:00", abbreviation: "EDT", offset: -14400),
        Shown(zone: "America/New_York", seconds: 152_085_599, iso: "1974-10-27T01:59:59-04:00", abbreviation: "EDT", offset: -14400),
        Shown(zone: "America/New_York", seconds: 152_085_600, iso: "1974-10-27T01:00:00-05:00", abbreviation: "EST", offset: -18000),
        // Far future: only the POSIX footer rule of the file covers these.
        Shown(zone: "Europe/Prague", seconds: 2_531_955_599, iso: "2050-03-27T01:59:59+01:00", abbreviation: "CET", offset: 3600),
        Shown(zone: "Europe/Prague", seconds: 2_531_955_600, iso: "2050-03-27T03:00:00+02:00", abbreviation: "CEST", offset: 7200),
        Shown(zone: "Europe/Prague", seconds: 2_550_704_399, iso: "2050-10-30T02:59:59+02:00", abbreviation: "CEST", offset: 7200),
        Shown(zone: "Europe/Prague", seconds: 2_550_704_400, iso: "2050-10-30T02:00:00+01:00", abbreviation: "CET", offset: 3600),
        Shown(zone: "Europe/Prague", seconds: 4_118_119_200, iso: "2100-07-01T12:00:00+02:00", abbreviation: "CEST", offset: 7200),
        Shown(zone: "America/New_York", seconds: 4_108_690_799, iso: "2100-03-14T01:59:59-05:00", abbreviation: "EST", offset: -18000),
        Shown(zone: "America/New_York", seconds: 4_108_690_800, iso: "2100-03-14T03:00:00-04:00", abbreviation: "EDT", offset: -14400),
        Shown(zone: "America/New_York", seconds: 4_129_250_399, iso: "2100-11-07T01:59:59-04:00", abbreviation: "EDT", offset: -14400),
        Shown(zone: "America/New_York", seconds: 4_129_250_400, iso: "2100-11-07T01:00:00-05:00", abbreviation: "EST", offset: -18000),
        // Southern hemisphere: daylight time spans the new year.
        Shown(zone: "Australia/Sydney", seconds: 4_110_451_199, iso: "2100-04-04T02:59:59+11:00", abbreviation: "AEDT", offset: 39600),
        Shown(zone: "Australia/Sydney", seconds: 4_110_451_200, iso: "2100-04-04T02:00:00+10:00", abbreviation: "AEST", offset: 36000),
        // Footer `<-02>2<-01>,M3.5.0/-1,M10.5.0/0`: a negative transition time.
        Shown(zone: "America/Nuuk", seconds: 4_109_878_799, iso: "2100-03-27T22:59:59-02:00", abbreviation: "-02", offset: -7200),
        Shown(zone: "America/Nuuk", seconds: 4_109_878_800, iso: "2100-03-28T00:00:00-01:00", abbreviation: "-01", offset: -3600),
        Shown(zone: "America/Nuuk", seconds: 4_128_627_599, iso: "2100-10-30T23:59:59-01:00", abbreviation: "-01", offset: -3600),
        Shown(zone: "America/Nuuk", seconds: 4_128_627_600, iso: "2100-10-30T23:00:00-02:00", abbreviation: "-02", offset: -7200),
        // Footer `IST-2IDT,M3.4.4/26,M10.5.0`: a transition time past 24 hours.
        Shown(zone: "Asia/Jerusalem", seconds: 4_109_702_399, iso: "2100-03-26T01:59:59+02:00", abbreviation: "IST", offset: 7200),
        Shown(zone: "Asia/Jerusalem", seconds: 4_109_702_400, iso: "2100-03-26T03:00:00+03:00", abbreviation: "IDT", offset: 10800),
        // Footer `<+03>-3`: a quoted name, no daylight time.
        Shown(zone: "Asia/Riyadh", seconds: 4_118_119_200, iso: "2100-07-01T13:00:00+03:00", abbreviation: "+03", offset: 10800),
    ])
    func matchesGNUDate(_ shown: Shown) throws {
        let zone = try Zone(identifier: shown.zone)
        let instant = at(shown.seconds)
        #expect(zone.iso8601(instant) == shown.iso)
        #expect(zone.abbreviation(at: instant) == shown.abbreviation)
        #expect(zone.offset(at: instant) == shown.offset)
    }

    @Test func farFutureIsBeyondTheTransitionTableSoTheFooterRuleAnswers() {
        let lastStored = prague.rules.transitions.last ?? .min
        #expect(lastStored < 2_531_955_600)
        #expect(prague.rules.footer == POSIXRule("CET-1CEST,M3.5.0,M10.5.0/3"))
    }

    @Test func localDateTimeShowsTheWallClock() {
        #expect(prague.localDateTime(at(1_774_745_999)) == LocalDateTime(year: 2026, month: 3, day: 29, hour: 1, minute: 59, second: 59))
        #expect(prague.localDateTime(at(1_774_746_000)) == LocalDateTime(year: 2026, month: 3, day: 29, hour: 3))
        #expect(newYork.localDateTime(at(1_793_512_800)) == LocalDateTime(year: 2026, month: 11, day: 1, hour: 1))
    }

    @Test func everyHourOf2026RoundTripsThroughWallTime() {
        for zone in [prague, newYork] {
            var t: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z
            while t < 1_798_761_600 {  // 2027-01-01T00:00:00Z
                let instant = at(t)
                #expect(zone.instants(for: zone.localDateTime(instant)).contains(instant), "\(zone.identifier) @\(t)")
                t += 1800
            }
        }
    }
}

@Suite("Zone: wall time to instants")
struct ZoneWallTimeTests {
    @Test func springForwardGapHasNoInstants() {
        #expect(prague.instants(for: LocalDateTime(year: 2026, month: 3, day: 29, hour: 2)) == [])
        #expect(prague.instants(for: LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30)) == [])
        #expect(prague.instants(for: LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 59, second: 59)) == [])
        #expect(newYork.instants(for: LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30)) == [])
    }

    @Test func edgesOfTheGapExistOnce() {
        #expect(prague.instants(for: LocalDateTime(year: 2026, month: 3, day: 29, hour: 1, minute: 59, second: 59)) == [at(1_774_745_999)])
        #expect(prague.instants(for: LocalDateTime(year: 2026, month: 3, day: 29, hour: 3)) == [at(1_774_746_000)])
    }

    @Test func fallBackFoldHasTwoInstantsInOrder() {
        // 02:30 CEST (00:30Z) and 02:30 CET (01:30Z).
        #expect(prague.instants(for: LocalDateTime(year: 2026, month: 10, day: 25, hour: 2, minute: 30)) == [at(1_792_888_200), at(1_792_891_800)])
        // 01:30 EDT (05:30Z) and 01:30 EST (06:30Z).
        #expect(newYork.instants(for: LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30)) == [at(1_793_511_000), at(1_793_514_600)])
        // 02:00 CET is the first second after the fold's CEST copy of 02:59:59.
        #expect(prague.instants(for: LocalDateTime(year: 2026, month: 10, day: 25, hour: 3)) == [at(1_792_893_600)])
    }

    @Test func instantInAFoldIsTheEarlierOne() {
        #expect(prague.instant(for: LocalDateTime(year: 2026, month: 10, day: 25, hour: 2, minute: 30)) == at(1_792_888_200))
        #expect(newYork.instant(for: LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30)) == at(1_793_511_000))
    }

    @Test func instantInAGapMovesForwardByTheGap() {
        // 02:30 → 03:30 CEST = 01:30Z.
        let prague0230 = prague.instant(for: LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30))
        #expect(prague0230 == at(1_774_747_800))
        #expect(prague.iso8601(prague0230) == "2026-03-29T03:30:00+02:00")
        // 02:30 → 03:30 EDT = 07:30Z.
        let newYork0230 = newYork.instant(for: LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30))
        #expect(newYork0230 == at(1_772_955_000))
        #expect(newYork.iso8601(newYork0230) == "2026-03-08T03:30:00-04:00")
    }

    @Test func startOfDayIsLocalMidnight() {
        #expect(prague.startOfDay(LocalDate(year: 2026, month: 3, day: 29)) == at(1_774_738_800))
        #expect(prague.startOfDay(LocalDate(year: 2026, month: 10, day: 25)) == at(1_792_879_200))
        #expect(newYork.startOfDay(LocalDate(year: 2026, month: 11, day: 20)) == at(1_795_150_800))
    }

    @Test func startOfDayWhenMidnightIsSkippedIsTheTransition() throws {
        // Nuuk's 2100 rule springs from 23:00 (-02) straight to 00:00 (-01):
        // 2100-03-28 begins at 01:00Z.
        let nuuk = try Zone(identifier: "America/Nuuk")
        #expect(nuuk.instants(for: LocalDateTime(year: 2100, month: 3, day: 27, hour: 23, minute: 30)) == [])
        #expect(nuuk.startOfDay(LocalDate(year: 2100, month: 3, day: 28)) == at(4_109_878_800))
        // Samoa skipped 2011-12-30 entirely; that day has no length.
        let apia = try Zone(identifier: "Pacific/Apia")
        let skipped = apia.startOfDay(LocalDate(year: 2011, month: 12, day: 30))
        #expect(skipped == apia.startOfDay(LocalDate(year: 2011, month: 12, day: 31)))
        #expect(apia.iso8601(skipped) == "2011-12-31T00:00:00+14:00")
    }
}

@Suite("Zone: loading")
struct ZoneLoadingTests {
    @Test func utcIsFixedAndWritesZ() throws {
        #expect(Zone.utc.identifier == "UTC")
        #expect(Zone.utc.offset(at: at(1_795_168_980)) == 0)
        #expect(Zone.utc.abbreviation(at: at(1_795_168_980)) == "UTC")
        #expect(Zone.utc.iso8601(at(1_795_168_980)) == "2026-11-20T10:03:00Z")
        #expect(at(1_795_168_980).description == "2026-11-20T10:03:00Z")
        #expect(try Zone(identifier: "UTC") == .utc)
        #expect(try Zone(identifier: "Etc/UTC") == .utc)
        #expect(try Zone(identifier: "Z") == .utc)
    }

    @Test func zoneWithAZeroOffsetButRealRulesWritesTheOffset() throws {
        let london = try Zone(identifier: "Europe/London")
        #expect(london.iso8601(at(1_795_168_980)) == "2026-11-20T10:03:00+00:00")
    }

    @Test func posixRuleGivenDirectlyActsLikeTheZone() throws {
        let rule = try Zone(identifier: "EST5EDT,M3.2.0,M11.1.0")
        #expect(rule.identifier == "EST5EDT,M3.2.0,M11.1.0")
        #expect(rule.iso8601(at(1_772_953_199)) == "2026-03-08T01:59:59-05:00")
        #expect(rule.iso8601(at(1_772_953_200)) == "2026-03-08T03:00:00-04:00")
        #expect(rule.abbreviation(at: at(1_793_512_800)) == "EST")
        #expect(rule.instants(for: LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30)) == [at(1_793_511_000), at(1_793_514_600)])
    }

    @Test func posixRuleWithoutDatesUsesTheUSRule() throws {
        let rule = try Zone(identifier: "XST3XDT")
        // Second Sunday of March 2026 is the 8th; 02:00 XST is 05:00Z.
        #expect(rule.offset(at: at(1_772_946_000 - 1)) == -10800)
        #expect(rule.offset(at: at(1_772_946_000)) == -7200)
    }

    @Test func posixRuleWithoutDaylightTime() throws {
        let riyadh = try Zone(identifier: "<+03>-3")
        #expect(riyadh.iso8601(at(1_795_168_980)) == "2026-11-20T13:03:00+03:00")
        #expect(riyadh.abbreviation(at: at(1_795_168_980)) == "+03")
        let utc0 = try Zone(identifier: "UTC0")
        #expect(utc0.iso8601(at(1_795_168_980)) == "2026-11-20T10:03:00Z")
        #expect(utc0.abbreviation(at: at(1_795_168_980)) == "UTC")
    }

    @Test func julianDaysSkipFebruary29ButZeroBasedDaysCountIt() throws {
        let julian = try Zone(identifier: "XST3XDT,J60/2,J300/2")
        let zeroBased = try Zone(identifier: "XST3XDT,59/2,299/2")
        // 2026: both mean March 1 (05:00Z) and October 27 (04:00Z).
        for zone in [julian, zeroBased] {
            #expect(zone.offset(at: at(1_772_341_200 - 1)) == -10800)
            #expect(zone.offset(at: at(1_772_341_200)) == -7200)
        }
        // 2028 is a leap year: J60 is still March 1, but day 59 is February 29.
        #expect(julian.offset(at: at(1_835_499_600 - 1)) == -10800)
        #expect(julian.offset(at: at(1_835_499_600)) == -7200)
        #expect(zeroBased.offset(at: at(1_835_413_200 - 1)) == -10800)
        #expect(zeroBased.offset(at: at(1_835_413_200)) == -7200)
    }

    @Test func extendedTransitionTimesInAPosixRule() throws {
        let nuuk = try Zone(identifier: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(nuuk.iso8601(at(1_774_746_000 - 1)) == "2026-03-28T22:59:59-02:00")
        #expect(nuuk.iso8601(at(1_774_746_000)) == "2026-03-29T00:00:00-01:00")
        let jerusalem = try Zone(identifier: "IST-2IDT,M3.4.4/26,M10.5.0")
        #expect(jerusalem.iso8601(at(1_774_569_600 - 1)) == "2026-03-27T01:59:59+02:00")
        #expect(jerusalem.iso8601(at(1_774_569_600)) == "2026-03-27T03:00:00+03:00")
    }

    @Test func daylightTimeAllYearRule() throws {
        // RFC 8536 §3.3.1: starting January 1 00:00 and ending December 31
        // at 25:00 means daylight time the whole year.
        let zone = try Zone(identifier: "EST5EDT,0/0,J365/25")
        for t: Int64 in [1_767_225_600, 1_782_864_000, 1_798_761_599, 1_798_761_600] {
            #expect(zone.abbreviation(at: at(t)) == "EDT")
        }
    }

    @Test func unknownZoneNamesTheFileItLookedFor() {
        #expect(throws: ZoneError.self) { try Zone(identifier: "Mars/Olympus_Mons") }
        let error = #expect(throws: ZoneError.self) {
            try Zone(identifier: "Mars/Olympus_Mons", directory: "/usr/share/zoneinfo")
        }
        #expect(error?.description == "unknown time zone \"Mars/Olympus_Mons\": no file /usr/share/zoneinfo/Mars/Olympus_Mons and not a POSIX TZ rule")
    }

    @Test func parentDirectoryNamesAreRefused() {
        let error = #expect(throws: ZoneError.self) { try Zone(identifier: "../../etc/passwd") }
        #expect(error?.description == "unknown time zone \"../../etc/passwd\": names may not contain \"..\" or NUL")
        #expect(throws: ZoneError.self) { try Zone(identifier: "Europe/../Europe/Prague") }
        #expect(throws: ZoneError.self) { try Zone(identifier: "") }
    }

    @Test func absolutePathIsReadAsAFile() throws {
        let zone = try Zone(identifier: "/usr/share/zoneinfo/Europe/Prague")
        #expect(zone.identifier == "/usr/share/zoneinfo/Europe/Prague")
        #expect(zone.iso8601(at(1_774_746_000)) == "2026-03-29T03:00:00+02:00")
    }

    @Test func namesAreLookedUpInTheGivenDirectory() throws {
        let dir = try TemporaryDirectory("trackee-zone-")
        try dir.write("Custom/Prague", FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Prague")!)
        try dir.write("Bogus", Data("not a zone".utf8))
        let custom = try Zone(identifier: "Custom/Prague", directory: dir.path)
        #expect(custom.identifier == "Custom/Prague")
        #expect(custom.abbreviation(at: at(1_774_746_000)) == "CEST")
        let error = #expect(throws: ZoneError.self) { try Zone(identifier: "Bogus", directory: dir.path) }
        #expect(error?.description == "unknown time zone \"Bogus\": \(dir.path)/Bogus is not a TZif file and the name is not a POSIX TZ rule")
    }

    @Test func zonesAreEqualByIdentifier() throws {
        #expect(try Zone(identifier: "Europe/Prague") == Zone.local(environment: ":Europe/Prague"))
        #expect(Set([prague, newYork, try Zone(identifier: "Europe/Prague")]).count == 2)
        #expect(prague != newYork)
    }
}

@Suite("Zone.local")
struct ZoneLocalTests {
    @Test func tzWithColonNamesAFile() {
        let zone = Zone.local(environment: ":Europe/Prague")
        #expect(zone.identifier == "Europe/Prague")
        #expect(zone.offset(at: at(1_774_746_000)) == 7200)
    }

    @Test func tzWithoutColon() {
        #expect(Zone.local(environment: "America/New_York").identifier == "America/New_York")
        #expect(Zone.local(environment: "EST5EDT,M3.2.0,M11.1.0").offset(at: at(1_772_953_200)) == -14400)
    }

    @Test func emptyTZIsUTC() {
        #expect(Zone.local(environment: "") == .utc)
        #expect(Zone.local(environment: ":") == .utc)
    }

    @Test func unknownTZFallsBackToUTC() {
        #expect(Zone.local(environment: "garbage") == .utc)
        #expect(Zone.local(environment: "Mars/Olympus_Mons") == .utc)
        #expect(Zone.local(environment: "../../etc/passwd") == .utc)
    }

    @Test func unsetTZReadsEtcLocaltime() throws {
        let expected: String
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime") {
            if let range = target.range(of: "zoneinfo/", options: .backwards) {
                expected = String(target[range.upperBound...])
            } else {
                expected = "localtime"
            }
        } else if FileManager.default.fileExists(atPath: "/etc/localtime") {
            expected = "localtime"
        } else {
            expected = "UTC"
        }
        #expect(Zone.local(environment: nil).identifier == expected)
    }
}

@Suite("TZif parsing")
struct TZifTests {
    /// A version 1 file: one transition at 1000 s from type 0 (+01:00 "AAA")
    /// to type 1 (+02:00 "BBB", DST).
    static let version1: [UInt8] = {
        var b: [UInt8] = Array("TZif".utf8) + [0] + Array(repeating: 0, count: 15)
        // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
        for n: UInt32 in [0, 0, 0, 1, 2, 8] { b += bigEndian(n) }
        b += bigEndian(UInt32(1000))
        b += [1]
        b += bigEndian(UInt32(3600)) + [0, 0]
        b += bigEndian(UInt32(7200)) + [1, 4]
        b += Array("AAA\0BBB\0".utf8)
        return b
    }()

    static func bigEndian(_ n: UInt32) -> [UInt8] {
        [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
    }

    @Test func version1FileUsesItsThirtyTwoBitTable() throws {
        let rules = try #require(ZoneRules(tzif: Self.version1))
        #expect(rules.type(at: 999) == LocalTimeType(offset: 3600, isDST: false, abbreviation: "AAA"))
        #expect(rules.type(at: 1000) == LocalTimeType(offset: 7200, isDST: true, abbreviation: "BBB"))
        #expect(rules.type(at: 4_000_000_000) == LocalTimeType(offset: 7200, isDST: true, abbreviation: "BBB"))
        #expect(rules.footer == nil)
    }

    @Test func truncatedOrCorruptFilesAreRejectedWithoutCrashing() throws {
        let prague = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Prague"))
        let bytes = [UInt8](prague)
        #expect(ZoneRules(tzif: bytes) != nil)
        // Cutting into the footer only loses the rule; any shorter cut must fail.
        let footerStart = bytes.count - "\nCET-1CEST,M3.5.0,M10.5.0/3\n".utf8.count
        for length in 0..<bytes.count {
            let rules = ZoneRules(tzif: Array(bytes[0..<length]))
            #expect((rules != nil) == (length >= footerStart), "length \(length)")
        }
        var badIndex = Self.version1
        badIndex[20 + 24 + 4] = 7  // transition type index beyond typecnt
        #expect(ZoneRules(tzif: badIndex) == nil)
        #expect(ZoneRules(tzif: Array("TZif".utf8)) == nil)
        #expect(ZoneRules(tzif: []) == nil)
    }
}
