/// A position report: where a receiver was, when, and how sure it was.
///
/// ```swift
/// Fix(time: FixTime(milliseconds: 1_795_417_020_250), latitude: 50.0875, longitude: 14.4213, accuracy: 8)
/// ```
public struct Fix: Sendable, Equatable {
    /// When the position was measured (the receiver's own time, never the
    /// time it was read), so a replayed track fires at its own times. To
    /// the millisecond, as precise as the source gives it.
    public var time: FixTime
    /// Degrees north, -90…90.
    public var latitude: Double
    /// Degrees east, -180…180.
    public var longitude: Double
    /// The radius, in meters, within which the true position lies; nil when
    /// the source gives none.
    public var accuracy: Double?

    public init(time: FixTime, latitude: Double, longitude: Double, accuracy: Double? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }

    /// A fix measured at the start of a whole second.
    public init(time: Instant, latitude: Double, longitude: Double, accuracy: Double? = nil) {
        self.init(time: FixTime(time), latitude: latitude, longitude: longitude, accuracy: accuracy)
    }
}

/// Entering or leaving a place.
public enum PlaceTransition: String, Sendable, Equatable, CaseIterable {
    case arrive, leave
}

/// A place was entered or left: what `arrive:` and `leave:` triggers fire
/// on. Its time is the first fix of the new state, to the millisecond; the
/// trigger event and its firing key take the whole second it falls in.
public struct PlaceEvent: Sendable, Equatable {
    /// Whose geofence decided the transition (a rule's `source:`).
    public enum Geofence: String, Sendable, Equatable {
        /// trackee's own geofence, from fixes.
        case fixes
        /// The phone's geofence, from an OwnTracks `transition` message.
        case owntracks
    }

    public var place: String
    public var transition: PlaceTransition
    /// Seconds the new state had to hold before it counted (`for:`).
    public var dwell: Int64
    public var geofence: Geofence
    /// The fix that began the new state.
    public var fix: Fix

    public init(place: String, transition: PlaceTransition, dwell: Int64 = 0, geofence: Geofence = .fixes, fix: Fix) {
        self.place = place
        self.transition = transition
        self.dwell = dwell
        self.geofence = geofence
        self.fix = fix
    }
}
