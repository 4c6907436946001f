import TrackeeCore

/// Which kind of position feed the input is.
///
/// `auto` decides line by line (see ``FeedDecoder``); GPX is a whole
/// document, read by ``GPXDecoder`` rather than line by line.
public enum FeedFormat: String, CaseIterable, Sendable {
    case auto, nmea, gpsd, owntracks, gpx, csv
}

/// Why input gave no fix; each is counted and reported by the caller.
public enum IgnoredReason: String, CaseIterable, Sendable {
    /// Garbage, binary data, truncated JSON or XML, a line of no known format.
    case unreadable
    /// NMEA checksum missing or wrong.
    case checksum
    /// NMEA RMC status V, GGA fix quality 0, mode indicator N (RMC, or
    /// every letter of GNS), gpsd TPV mode < 2, or a position field left empty.
    case notAFix = "not_a_fix"
    /// A receiver in simulator mode: NMEA GGA fix quality 8, mode indicator
    /// S (RMC, or any letter of GNS), gpsd TPV status 8. Its positions are
    /// made up, so they move nobody.
    case simulator
    /// A position estimated by dead reckoning (from the last fix, speed and
    /// heading) rather than measured: NMEA GGA fix quality 6, mode
    /// indicator E (RMC, or GNS with no letter better), gpsd TPV status 5.
    /// It drifts the longer it lasts, and no accuracy says by how much.
    case deadReckoning = "dead_reckoning"
    /// An NMEA GGA fix before any RMC gave the date.
    case noDate = "no_date"
    /// A fix without a usable timestamp (also: CSV time unreadable, GPX point without `<time>`).
    case noTime = "no_time"
    /// Latitude outside -90…90, longitude outside -180…180, NaN or infinite.
    case impossibleCoordinates = "impossible_coordinates"
    /// A timestamp more than a day after `now`.
    case future
}

/// An OwnTracks `_type: transition` message: the phone's own geofence.
public struct OwnTracksTransition: Sendable, Equatable {
    /// The region's name (`desc`).
    public var place: String
    /// `event`: `enter` is ``PlaceTransition/arrive``, `leave` is ``PlaceTransition/leave``.
    public var transition: PlaceTransition
    /// Where and when: `tst` (or `wtst` when `tst` is missing), `lat`, `lon`, `acc`.
    public var fix: Fix

    public init(place: String, transition: PlaceTransition, fix: Fix) {
        self.place = place
        self.transition = transition
        self.fix = fix
    }
}

/// What one line (or one GPX point) of a feed gives.
public enum FeedItem: Sendable, Equatable {
    case fix(Fix)
    case transition(OwnTracksTransition)
    /// Input that gave no fix, with one sentence naming what was wrong
    /// (the caller adds the line number).
    case ignored(IgnoredReason, message: String)
    /// A JSON line that is another kind of event (it has `"type"` and none
    /// of `"class"` or `"_type"`), such as `{"type":"focus",…}` for `trackee run`.
    case notLocation
}

/// Why a line gives no fix, before it becomes a ``FeedItem/ignored(_:message:)``.
///
/// Thrown (typed) by the format readers, so the message is only built for
/// lines that are refused.
struct FeedRefusal: Error {
    var reason: IgnoredReason
    var message: String

    init(_ reason: IgnoredReason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    var item: FeedItem { .ignored(reason, message: message) }
}

/// The checks every fix passes, whatever its format.
enum FixCheck {
    /// Seconds after `now` beyond which a timestamp is refused: a receiver
    /// with a wrong clock would otherwise fire rules far in the future.
    static let futureLimit: Int64 = 86_400

    /// Appends `.fix` or the reason it is refused.
    @inline(__always)
    static func append(_ fix: Fix, now: Instant, into items: inout [FeedItem]) {
        // The test stays inline on every valid fix; the message is built out of line.
        if isPossible(fix.latitude, fix.longitude) && fix.time.instant.seconds <= now.seconds &+ futureLimit {
            items.append(.fix(fix))
        } else {
            items.append(refusal(fix, now: now)!)
        }
    }

    /// Why a fix cannot be used, or nil when it can.
    static func refusal(_ fix: Fix, now: Instant) -> FeedItem? {
        if !isPossible(fix.latitude, fix.longitude) { return impossible(fix.latitude, fix.longitude) }
        if fix.time.instant.seconds > now.seconds &+ futureLimit {
            return .ignored(.future, message: "the time \(fix.time) is more than a day after now (\(now))")
        }
        return nil
    }

    /// Within -90…90 and -180…180; false for NaN, which fails every comparison.
    @inline(__always)
    static func isPossible(_ latitude: Double, _ longitude: Double) -> Bool {
        latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180
    }

    static func impossible(_ latitude: Double, _ longitude: Double) -> FeedItem {
        if !isPossible(latitude, 0) {
            return .ignored(.impossibleCoordinates, message: "latitude \(number(latitude)) is outside -90…90")
        }
        return .ignored(.impossibleCoordinates, message: "longitude \(number(longitude)) is outside -180…180")
    }

    /// `91`, `50.5`, `infinity`: a number as a person reads it.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-infinity" : "infinity" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// An accuracy as the fix keeps it: a negative or NaN radius means the
    /// source gave none that can be used.
    @inline(__always)
    static func accuracy(_ value: Double?) -> Double? {
        guard let value, value >= 0 else { return nil }
        return value
    }
}
