import Testing
import TrackeeCore

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
