/// A named area on the map, for location triggers: a circle or a polygon.
///
///     places:
///       office: {lat: 50.0875, lon: 14.4213, radius: 150}
///       client: {polygon: [[50.1, 14.4], [50.1, 14.41], [50.11, 14.41]], hysteresis: 20}
public struct Place: Sendable, Equatable {
    public var name: String
    public var shape: Shape
    /// Meters: a fix counts as outside only when its whole accuracy circle
    /// lies outside the place grown by this much (30 by default).
    public var hysteresis: Double
    /// Meters: fixes less accurate than this are ignored (200 by default).
    public var maxAccuracy: Double

    public enum Shape: Sendable, Equatable {
        /// Degrees and meters; the radius is more than zero.
        case circle(latitude: Double, longitude: Double, radius: Double)
        /// Three or more corners, in order, as [latitude, longitude].
        case polygon([Coordinate])
    }

    public struct Coordinate: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public static let defaultHysteresis = 30.0
    public static let defaultMaxAccuracy = 200.0

    public init(name: String, shape: Shape, hysteresis: Double = Place.defaultHysteresis,
                maxAccuracy: Double = Place.defaultMaxAccuracy) {
        self.name = name
        self.shape = shape
        self.hysteresis = hysteresis
        self.maxAccuracy = maxAccuracy
    }

    /// A circle; the radius is 100 m when the file leaves it out.
    public init(name: String, latitude: Double, longitude: Double, radius: Double = 100) {
        self.init(name: name, shape: .circle(latitude: latitude, longitude: longitude, radius: radius))
    }
}
