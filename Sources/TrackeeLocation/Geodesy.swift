import TrackeeCore

#if canImport(Glibc)
import Glibc
#endif

/// Distances on the Earth's surface, in meters.
///
/// Between two points: the haversine formula on a sphere of the Earth's
/// mean radius, within 0.5 % of the ellipsoid's answer everywhere and far
/// closer at the scale of a place. For a polygon's edges: a flat projection
/// centred on the polygon, exact to well under a meter across a few
/// kilometers.
public enum Geodesy {
    /// IUGG mean radius.
    public static let earthRadius = 6_371_008.8

    static let radians = Double.pi / 180
    /// Meters along a meridian per degree of latitude, on the sphere.
    static let metersPerDegree = earthRadius * radians

    /// Meters between two points.
    public static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        distance(lat1, lon1, cos(lat1 * radians), lat2, lon2)
    }

    /// ``distance(_:_:_:_:)`` with the first point's cosine of latitude
    /// worked out once (a place's center).
    static func distance(_ lat1: Double, _ lon1: Double, _ cosLat1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let sLat = sin((lat2 - lat1) * radians / 2)
        let sLon = sin((lon2 - lon1) * radians / 2)
        let a = sLat * sLat + cosLat1 * cos(lat2 * radians) * sLon * sLon
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }
}

/// A flat map around a point: x east and y north, in meters.
struct LocalPlane: Sendable {
    let latitude: Double
    let longitude: Double
    let metersPerDegreeLatitude: Double
    let metersPerDegreeLongitude: Double

    init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
        metersPerDegreeLatitude = Geodesy.earthRadius * Geodesy.radians
        metersPerDegreeLongitude = metersPerDegreeLatitude * cos(latitude * Geodesy.radians)
    }

    func point(_ lat: Double, _ lon: Double) -> (x: Double, y: Double) {
        var dLon = lon - longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * metersPerDegreeLongitude, (lat - latitude) * metersPerDegreeLatitude)
    }
}
