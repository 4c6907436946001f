import TrackeeCore

/// One place's shape, ready to tell where a fix lies.
///
/// A fix is **inside** when its whole accuracy circle lies inside the
/// place, **outside** when its whole accuracy circle lies outside the place
/// grown by the hysteresis margin, and neither otherwise (`nil`): a fix on
/// the edge, or too vague to tell, changes nothing.
public struct Geofence: Sendable {
    public let place: Place
    /// What most fixes need: plain numbers, cheap to copy.
    let reach: Reach
    private let plane: LocalPlane?
    private let corners: [(x: Double, y: Double)]

    /// The bounding box, the circle if the place is one, and the margins.
    struct Reach: Sendable {
        /// Degrees: the box beyond which every usable fix is outside.
        let bounds: (south: Double, west: Double, north: Double, east: Double)
        /// A circle's center, radius and the cosine of its latitude.
        let circle: (latitude: Double, longitude: Double, radius: Double, cosine: Double)?
        let hysteresis: Double
        let maxAccuracy: Double

        /// What a fix is for the box or the circle; `.polygon` when only
        /// the polygon can tell.
        enum Verdict { case seen(PlaceState?), polygon }

        @inline(__always)
        func classify(latitude: Double, longitude: Double, accuracy: Double) -> Verdict {
            // Beyond the box every usable fix is outside; no trigonometry needed.
            if latitude < bounds.south || latitude > bounds.north
                || ((longitude < bounds.west || longitude > bounds.east) && bounds.east - bounds.west < 360
                    && (longitude + 360 < bounds.west || longitude + 360 > bounds.east)
                    && (longitude - 360 < bounds.west || longitude - 360 > bounds.east))
            {
                return .seen(.outside)
            }
            guard let circle else { return .polygon }
            // Most fixes are plainly inside or plainly outside: a flat
            // distance, with a margin wider than its error, decides them
            // without trigonometry; the rest get the haversine distance.
            let dLon = longitude - circle.longitude
            if abs(dLon) < 1 && abs(circle.latitude) < 80 {
                let dy = (latitude - circle.latitude) * Geodesy.metersPerDegree
                let dx = dLon * Geodesy.metersPerDegree * circle.cosine
                let flat = (dx * dx + dy * dy).squareRoot()
                if flat < 10_000 {
                    let slack = flat * Self.flatError + 1
                    if flat + slack + accuracy <= circle.radius { return .seen(.inside) }
                    if flat - slack - accuracy >= circle.radius + hysteresis { return .seen(.outside) }
                }
            }
            let d = Geodesy.distance(circle.latitude, circle.longitude, circle.cosine, latitude, longitude)
            return Self.verdict(d, accuracy: accuracy, radius: circle.radius, hysteresis: hysteresis)
        }

        /// Inside, outside or neither, at `d` meters from the center.
        @inline(__always)
        static func verdict(_ d: Double, accuracy: Double, radius: Double, hysteresis: Double) -> Verdict {
            if d + accuracy <= radius { return .seen(.inside) }
            if d - accuracy >= radius + hysteresis { return .seen(.outside) }
            return .seen(nil)
        }

        /// How far the flat distance may be off, relative to itself, below
        /// 80° of latitude and 10 km from the center: about half of
        /// Δlatitude × tan(latitude), under 0.5 %; twice that is allowed.
        static let flatError = 0.01
    }

    public init(_ place: Place) {
        self.place = place
        // How far from the shape a fix can still be anything but outside.
        let reach = place.hysteresis + place.maxAccuracy + 1
        switch place.shape {
        case .circle(let lat, let lon, let radius):
            self.reach = Reach(bounds: Self.box(lat, lat, lon, lon, grownBy: radius + reach),
                               circle: (lat, lon, radius, cos(lat * Geodesy.radians)),
                               hysteresis: place.hysteresis, maxAccuracy: place.maxAccuracy)
            plane = nil
            corners = []
        case .polygon(let points):
            let lat = points.map(\.latitude).reduce(0, +) / Double(points.count)
            let lon = points.map(\.longitude).reduce(0, +) / Double(points.count)
            let plane = LocalPlane(latitude: lat, longitude: lon)
            self.plane = plane
            corners = points.map { plane.point($0.latitude, $0.longitude) }
            self.reach = Reach(bounds: Self.box(points.map(\.latitude).min()!, points.map(\.latitude).max()!,
                                                points.map(\.longitude).min()!, points.map(\.longitude).max()!,
                                                grownBy: reach),
                               circle: nil, hysteresis: place.hysteresis, maxAccuracy: place.maxAccuracy)
        }
    }

    /// Inside, outside, or nil when the fix cannot tell.
    public func classify(latitude: Double, longitude: Double, accuracy: Double) -> PlaceState? {
        if case .seen(let state) = reach.classify(latitude: latitude, longitude: longitude, accuracy: accuracy) {
            return state
        }
        let p = plane!.point(latitude, longitude)
        let edge = distanceToEdge(p)
        if contains(p) {
            return edge >= accuracy ? .inside : nil
        }
        return edge >= accuracy + place.hysteresis ? .outside : nil
    }

    /// Meters from the center (a circle) or the nearest edge (a polygon,
    /// negative inside): for `trackee places` and tests.
    public func distance(latitude: Double, longitude: Double) -> Double {
        if let circle = reach.circle { return Geodesy.distance(circle.latitude, circle.longitude, latitude, longitude) }
        let p = plane!.point(latitude, longitude)
        return contains(p) ? -distanceToEdge(p) : distanceToEdge(p)
    }

    /// Even–odd rule on the flat map.
    private func contains(_ p: (x: Double, y: Double)) -> Bool {
        var inside = false
        var j = corners.count - 1
        for i in corners.indices {
            let a = corners[i]
            let b = corners[j]
            if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    private func distanceToEdge(_ p: (x: Double, y: Double)) -> Double {
        var best = Double.infinity
        var j = corners.count - 1
        for i in corners.indices {
            let a = corners[j]
            let b = corners[i]
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = dx * dx + dy * dy
            let t = length == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
            let ex = a.x + t * dx - p.x
            let ey = a.y + t * dy - p.y
            best = min(best, (ex * ex + ey * ey).squareRoot())
            j = i
        }
        return best
    }

    private static func box(_ south: Double, _ north: Double, _ west: Double, _ east: Double, grownBy meters: Double)
        -> (south: Double, west: Double, north: Double, east: Double)
    {
        let dLat = meters / (Geodesy.earthRadius * Geodesy.radians)
        let widest = max(abs(south), abs(north)) + dLat
        let cosine = widest >= 89 ? 0 : cos(widest * Geodesy.radians)
        let dLon = cosine == 0 ? 360 : meters / (Geodesy.earthRadius * Geodesy.radians * cosine)
        return (max(-90, south - dLat), west - dLon, min(90, north + dLat), east + dLon)
    }
}

#if canImport(Glibc)
import Glibc
#endif
