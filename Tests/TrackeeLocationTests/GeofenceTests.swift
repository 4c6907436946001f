import Testing
import TrackeeCore
import TrackeeTestSupport

#if canImport(Glibc)
import Glibc
#endif

@testable import TrackeeLocation

@Suite struct GeofenceTests {
    let office = Place(name: "office", latitude: 50.0875, longitude: 14.4213, radius: 120)

    @Test func aCircleIsInsideOnlyWhenTheWholeAccuracyCircleIs() {
        let fence = Geofence(office)
        // 1e-4 degrees of latitude is 11.1 m.
        #expect(fence.classify(latitude: 50.0875, longitude: 14.4213, accuracy: 10) == .inside)
        #expect(fence.classify(latitude: 50.0875 + 0.0009, longitude: 14.4213, accuracy: 10) == .inside)  // 100 m + 10 ≤ 120
        #expect(fence.classify(latitude: 50.0875 + 0.0010, longitude: 14.4213, accuracy: 10) == nil)  // 111 m + 10 > 120
        #expect(fence.classify(latitude: 50.0875 + 0.0014, longitude: 14.4213, accuracy: 10) == nil)  // 155.7 − 10 < 120 + 30
        #expect(fence.classify(latitude: 50.0875 + 0.0014, longitude: 14.4213, accuracy: 5) == .outside)  // 155.7 − 5 ≥ 150
    }

    /// The flat shortcut never decides otherwise than the haversine
    /// distance would: circles from the equator to 89°, near the
    /// antimeridian, of 10 m to 5 km, and fixes from the center to 15 km
    /// away, most of them close to one of the two edges.
    @Test(arguments: [UInt64(1), 2, 3])
    func theFlatShortcutAgreesWithHaversineEverywhere(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let latitude = random.uniform(-89...89)
            let longitude = random.pick([random.uniform(-180...180), random.uniform(179.9...180), random.uniform(-180 ... -179.9)])
            let radius = random.pick([10, 50, 120, 500, 5_000.0])
            let hysteresis = random.pick([0, 30, 100.0])
            let accuracy = random.uniform(0...200)
            let reach = Geofence(Place(name: "p", shape: .circle(latitude: latitude, longitude: longitude, radius: radius),
                                       hysteresis: hysteresis, maxAccuracy: 200)).reach
            // A distance near an edge (within a meter or so), or anywhere.
            let target = random.pick([radius - accuracy, radius + hysteresis + accuracy, random.uniform(0...15_000)])
                + random.uniform(-1.5...1.5)
            let bearing = random.uniform(0...(2 * Double.pi))
            let dLat = max(0, target) * cos(bearing) / Geodesy.metersPerDegree
            let dLon = max(0, target) * sin(bearing) / (Geodesy.metersPerDegree * max(cos(latitude * Geodesy.radians), 1e-6))
            let fixLat = min(90, max(-90, latitude + dLat))
            var fixLon = longitude + dLon
            if fixLon > 180 { fixLon -= 360 } else if fixLon < -180 { fixLon += 360 }
            let exact = Geodesy.distance(latitude, longitude, fixLat, fixLon)
            let expected: PlaceState? = exact + accuracy <= radius ? .inside : exact - accuracy >= radius + hysteresis ? .outside : nil
            guard case .seen(let got) = reach.classify(latitude: fixLat, longitude: fixLon, accuracy: accuracy) else {
                disagreements.append("circle at \(latitude), \(longitude): no verdict")
                continue
            }
            if got != expected {
                disagreements.append("circle \(radius) m at \(latitude), \(longitude), fix \(fixLat), \(fixLon) ± \(accuracy): "
                                     + "\(String(describing: got)), haversine says \(String(describing: expected))")
            }
        }
        #expect(disagreements == [])
    }

    @Test func haversineAgreesWithKnownDistances() {
        // Prague (Old Town Square) to Vienna (Stephansplatz): 252.58 km on the sphere.
        #expect((Geodesy.distance(50.0875, 14.4213, 48.2085, 16.3731) / 10).rounded() == 25_258)
        // Across the antimeridian: 0.0002° of longitude at the equator.
        #expect((Geodesy.distance(0, 179.9999, 0, -179.9999) * 100).rounded() == 2224)
    }

    @Test func aPolygonMeasuresItsEdges() {
        let square = Place(name: "client", shape: .polygon([
            .init(latitude: 50.100, longitude: 14.400), .init(latitude: 50.100, longitude: 14.410),
            .init(latitude: 50.110, longitude: 14.410), .init(latitude: 50.110, longitude: 14.400),
        ]))
        let fence = Geofence(square)
        #expect(fence.classify(latitude: 50.105, longitude: 14.405, accuracy: 50) == .inside)
        #expect(fence.classify(latitude: 50.1001, longitude: 14.405, accuracy: 50) == nil)
        #expect(fence.classify(latitude: 50.095, longitude: 14.405, accuracy: 50) == .outside)
    }
}
