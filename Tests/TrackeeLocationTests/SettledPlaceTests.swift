import Testing
import TrackeeCore
import TrackeeTestSupport

@testable import TrackeeLocation

/// Places settled outside take the fixes near them the short way, and the
/// places still waiting are walked as a list: every tracker ends as
/// checking every place with every fix leaves it.
@Suite struct SettledPlaceTests {
    let office = Place(name: "office", latitude: 50.0875, longitude: 14.4213, radius: 120)
    /// 08:00 on 2026-11-23 UTC.
    let t0 = Instant(seconds: 1_795_420_800)

    func fix(_ second: Int64, north: Double, east: Double = 0, accuracy: Double = 10) -> Fix {
        Fix(time: t0 + second, latitude: 50.0875 + north / Geodesy.metersPerDegree,
            longitude: 14.4213 + east / (Geodesy.metersPerDegree * 0.6421), accuracy: accuracy)
    }

    @Test func aFixNearAPlaceSettledOutsideIsTakenByEveryTrackerAndAFarOneByNone() {
        var fences = Geofences(places: [office], dwells: ["office": [PlaceDwells(arrive: 120, leave: 120)]])
        // 300 m north: outside (300 − 10 ≥ 120 + 30), within the place's cell.
        _ = fences.take(fix(0, north: 300), accuracy: 10)
        // The 0/0 tracker settles at once; the 120/120 one waits for 120 s of outside.
        #expect(fences.allTrackers.map { "\($0.arriveDwell) \($0.state) \($0.candidate?.state.rawValue ?? "-")" }
                == ["0 outside -", "120 unknown outside"])
        _ = fences.take(fix(120, north: 310), accuracy: 10)
        #expect(fences.allTrackers.map { "\($0.arriveDwell) \($0.state) \($0.candidate?.state.rawValue ?? "-")" }
                == ["0 outside -", "120 outside -"])
        // Settled: a fix near it is noted by both trackers.
        let taken = fences.take(fix(130, north: 290), accuracy: 10)
        #expect(taken.events.isEmpty && taken.changed.isEmpty)
        #expect(fences.allTrackers.map(\.lastFix) == [FixTime(t0 + 130), FixTime(t0 + 130)])
        // An older fix near it changes nothing.
        _ = fences.take(fix(125, north: 290), accuracy: 10)
        #expect(fences.allTrackers.map(\.lastFix) == [FixTime(t0 + 130), FixTime(t0 + 130)])
        // 20 km away: not in the place's cells, and nothing waits there.
        _ = fences.take(fix(140, north: 20_000), accuracy: 10)
        #expect(fences.allTrackers.map(\.lastFix) == [FixTime(t0 + 130), FixTime(t0 + 130)])
        // Back inside: both arrive, each after its dwell.
        var arrivals: [String] = []
        for second in Int64(200)...320 {
            for event in fences.take(fix(second, north: 0), accuracy: 10).events {
                arrivals.append("\(event.dwell) \(event.transition.rawValue) \(event.fix.time.instant - t0)")
            }
        }
        #expect(arrivals == ["0 arrive 200", "120 arrive 200"])
    }

    /// Many places waiting at once, leaving the list in any order: each
    /// tracker's state, start and candidate end as with every place
    /// checked against every fix, near the antimeridian too.
    @Test(arguments: [(50.0, 14.3), (-33.9, 179.85)])
    func everyTrackerEndsAsCheckingEveryPlaceLeavesIt(latitude: Double, longitude: Double) {
        var g = SeededGenerator(seed: 7)
        var places: [Place] = []
        for i in 0..<200 {
            var lon = longitude + g.uniform(0...0.3)
            if lon > 180 { lon -= 360 }
            places.append(Place(name: "p\(i)", latitude: latitude + g.uniform(0...0.2), longitude: lon,
                                radius: g.uniform(30...300)))
        }
        var indexed = Geofences(places: places)
        let fences = places.map(Geofence.init)
        var plain = places.map { PlaceTracker(place: $0.name, dwell: 0) }
        var lat = latitude + 0.1
        var lon = longitude + 0.15
        var transitions = 0
        for second in Int64(0)..<6_000 {
            lat = max(latitude - 0.05, min(latitude + 0.25, lat + g.uniform(-0.0004...0.0004)))
            lon = max(longitude - 0.05, min(longitude + 0.35, lon + g.uniform(-0.0006...0.0006)))
            let fixLon = lon > 180 ? lon - 360 : lon
            // Now and then a vague fix that decides nothing near the places it touches.
            let accuracy = second % 50 == 0 ? 150 : g.uniform(3...60)
            let f = Fix(time: t0 + second, latitude: lat, longitude: fixLon, accuracy: accuracy)
            transitions += indexed.take(f, accuracy: accuracy).events.count
            for i in places.indices {
                _ = plain[i].take(f, seen: fences[i].classify(latitude: lat, longitude: fixLon, accuracy: accuracy))
            }
        }
        func summary(_ t: PlaceTracker) -> String {
            "\(t.place) \(t.state) \(t.since.map { "\($0.instant - t0)" } ?? "-") \(t.candidate.map { "\($0.state) \($0.fix.time.instant - t0)" } ?? "-")"
        }
        #expect(transitions == (latitude > 0 ? 22 : 20))
        #expect(indexed.allTrackers.map(summary) == plain.map(summary))
    }
}
