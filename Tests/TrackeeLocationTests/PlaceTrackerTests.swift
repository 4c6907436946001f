import Testing
import TrackeeTestSupport
import TrackeeCore

@testable import TrackeeLocation

/// The geofence state machine: jitter, spikes and dwells cannot make a
/// place flap.
@Suite struct PlaceTrackerTests {
    /// The office of the example: 120 m around Old Town Square.
    let office = Place(name: "office", latitude: 50.0875, longitude: 14.4213, radius: 120)
    /// 08:00 on 2026-11-23 UTC.
    let t0 = Instant(seconds: 1_795_420_800)
    static let metersPerDegree = Geodesy.earthRadius * Double.pi / 180

    /// A point `north` meters north of the office's center.
    func fix(_ second: Int64, north: Double, accuracy: Double?) -> Fix {
        Fix(time: t0 + second, latitude: 50.0875 + north / Self.metersPerDegree, longitude: 14.4213, accuracy: accuracy)
    }


    @Test func aJitteryWalkInAndOutGivesOneArriveAndOneLeaveAtTheRightFixes() {
        var g = SeededGenerator(seed: 42)
        var fences = Geofences(places: [office])
        var events: [(Int64, PlaceTransition)] = []
        // 600 s walking from 400 m north to the center, 600 s inside, 600 s out again;
        // ±20 m jitter, 10 m accuracy, and every 37th fix a spike of 150 m accuracy
        // reported 140 m off.
        for second in Int64(0)..<1800 {
            let truth: Double = second < 600 ? 400 - Double(second) * 400 / 600 : second < 1200 ? 0 : Double(second - 1200) * 400 / 600
            let spike = second % 37 == 0
            let north = truth + (spike ? 140 : g.uniform(-20...20))
            let f = fix(second, north: north, accuracy: spike ? 150 : 10)
            for event in fences.take(f, accuracy: f.accuracy!).events {
                events.append((event.fix.time.instant - t0, event.transition))
            }
        }
        #expect(events.map(\.1) == [.arrive, .leave])
        // In: the true position crosses 110 m (120 − 10 accuracy) at 435 s,
        // and ±20 m of jitter moves the first inside fix by at most 30 s.
        #expect(events.count == 2 && (405...465).contains(events[0].0), "\(events)")
        // Out: 120 + 30 + 10 = 160 m at 1440 s, give or take the jitter.
        #expect(events.count == 2 && (1410...1471).contains(events[1].0), "\(events)")
    }

    @Test func theWalkAboveIsExactWithoutJitter() {
        var fences = Geofences(places: [office])
        var events: [(Int64, PlaceTransition)] = []
        for second in Int64(0)..<1800 {
            let truth: Double = second < 600 ? 400 - Double(second) * 400 / 600 : second < 1200 ? 0 : Double(second - 1200) * 400 / 600
            let f = fix(second, north: truth, accuracy: 10)
            events += fences.take(f, accuracy: 10).events.map { ($0.fix.time.instant - t0, $0.transition) }
        }
        // First fix at or within 110 m: 400 − s·2/3 ≤ 110 → s = 435. First at or beyond 160 m: (s − 1200)·2/3 ≥ 160 → s = 1440.
        #expect(events.map(\.0) == [435, 1440])
        #expect(events.map(\.1) == [.arrive, .leave])
    }

    @Test func aDwellFiresLaterButKeepsTheTimeOfTheFirstFix() {
        var tracker = PlaceTracker(place: "office", dwell: 120)
        // Unknown, then outside for a while: waiting out the dwell, and nobody left anyway.
        #expect(tracker.take(fix(0, north: 500, accuracy: 5), seen: .outside) == nil)
        #expect(tracker.state == .unknown)
        #expect(tracker.candidate?.state == .outside)
        #expect(tracker.take(fix(60, north: 0, accuracy: 5), seen: .inside) == nil)  // 08:01 arrives…
        #expect(tracker.take(fix(120, north: 80, accuracy: 50), seen: nil) == nil)  // …a vague fix changes nothing…
        #expect(tracker.take(fix(179, north: 0, accuracy: 5), seen: .inside) == nil)  // …119 s is not yet 2 min
        let arrive = tracker.take(fix(180, north: 0, accuracy: 5), seen: .inside)
        #expect(arrive?.transition == .arrive)
        #expect(arrive?.fix.time == FixTime(t0 + 60))
        #expect(arrive?.dwell == 120)
        #expect(tracker.state == .inside)
        #expect(tracker.since == FixTime(t0 + 60))
        // Out for 100 s, back in: the leave never counted.
        #expect(tracker.take(fix(200, north: 500, accuracy: 5), seen: .outside) == nil)
        #expect(tracker.take(fix(300, north: 500, accuracy: 5), seen: .outside) == nil)
        #expect(tracker.take(fix(310, north: 0, accuracy: 5), seen: .inside) == nil)
        #expect(tracker.candidate == nil)
        #expect(tracker.state == .inside)
        // An old fix changes nothing.
        #expect(tracker.take(fix(100, north: 500, accuracy: 5), seen: .outside) == nil)
        #expect(tracker.lastFix == FixTime(t0 + 310))
    }

    @Test func arrivingFromUnknownCountsAndLeavingFromUnknownDoesNot() {
        var a = PlaceTracker(place: "office", dwell: 0)
        #expect(a.take(fix(0, north: 0, accuracy: 5), seen: .inside)?.transition == .arrive)
        var b = PlaceTracker(place: "office", dwell: 0)
        #expect(b.take(fix(0, north: 900, accuracy: 5), seen: .outside) == nil)
        #expect(b.state == .outside)
    }

    /// Thousands of random traces that hover around the boundary: the
    /// transitions of every pair of dwells alternate, a leave comes at
    /// least the arrive dwell after its arrive, and an arrive at least the
    /// leave dwell after its leave.
    @Test(arguments: [(Int64(0), Int64(0)), (30, 30), (120, 120), (300, 300), (120, 300), (300, 60), (0, 120)])
    func randomTracesAroundTheBoundaryNeverFlap(arriveDwell: Int64, leaveDwell: Int64) {
        var g = SeededGenerator(seed: 7 &+ UInt64(arriveDwell) &* 1000 &+ UInt64(leaveDwell))
        var transitions = 0
        for _ in 0..<2500 {
            var tracker = PlaceTracker(place: "office", arriveDwell: arriveDwell, leaveDwell: leaveDwell)
            let fence = Geofence(office)
            var last: (time: Instant, transition: PlaceTransition)?
            var second: Int64 = 0
            var center = g.uniform(60...220)
            for _ in 0..<240 {
                second += Int64(g.uniform(1...20))
                center = max(0, min(400, center + g.uniform(-25...25)))
                let accuracy = g.uniform(0...1) < 0.1 ? g.uniform(80...250) : g.uniform(3...40)
                let f = fix(second, north: center + g.uniform(-30...30), accuracy: accuracy)
                let seen = accuracy > office.maxAccuracy ? nil : fence.classify(latitude: f.latitude, longitude: f.longitude, accuracy: accuracy)
                guard let event = tracker.take(f, seen: seen) else { continue }
                transitions += 1
                #expect(event.dwell == (event.transition == .arrive ? arriveDwell : leaveDwell))
                if let last {
                    // The state before this transition held at least its own dwell.
                    let held = last.transition == .arrive ? arriveDwell : leaveDwell
                    #expect(event.fix.time.instant - last.time >= held, "dwells \(arriveDwell)/\(leaveDwell): \(last) then \(event)")
                    #expect(event.transition != last.transition, "two \(event.transition)s in a row")
                }
                last = (event.fix.time.instant, event.transition)
            }
        }
        // The traces do cross the boundary: many transitions were checked.
        #expect(transitions > 1000)
    }

    /// A place's arrive and leave dwells pair up so that every arrive
    /// trigger's tracker also has a leave, and the other way round.
    @Test func arriveAndLeaveDwellsPairUp() {
        func pairs(_ a: Set<Int64>, _ l: Set<Int64>) -> [String] {
            PlaceDwells.pairs(arrives: a, leaves: l).map { "\($0.arrive)/\($0.leave)" }
        }
        #expect(pairs([], []) == ["0/0"])
        #expect(pairs([120], [300]) == ["0/0", "120/300"])
        #expect(pairs([120], []) == ["0/0", "120/120"])
        #expect(pairs([], [300]) == ["0/0", "300/300"])
        #expect(pairs([60, 600], [300]) == ["0/0", "60/300", "600/300"])
        #expect(pairs([120], [60, 300]) == ["0/0", "120/60", "120/300"])
        #expect(pairs([0], [0]) == ["0/0"])
    }

    /// Arrive for 2m and leave for 5m: a three-minute visit arrives, and
    /// five minutes out it leaves; a three-minute trip out changes nothing.
    @Test func aShortVisitWithALongerLeaveDwellStillLeaves() {
        var tracker = PlaceTracker(place: "office", arriveDwell: 120, leaveDwell: 300)
        let fence = Geofence(office)
        var events: [String] = []
        // Inside from 0 to 180 s, outside to 600, inside 600–1200, out 1200–1380, in to 1500, out from 1500.
        for second in stride(from: Int64(0), through: 2200, by: 10) {
            let inside = second < 180 || (600..<1200).contains(second) || (1380..<1500).contains(second)
            let f = fix(second, north: inside ? 0 : 400, accuracy: 5)
            if let e = tracker.take(f, seen: fence.classify(latitude: f.latitude, longitude: f.longitude, accuracy: 5)) {
                events.append("\(e.transition) \(e.fix.time.instant - t0) dwell \(e.dwell)")
            }
        }
        #expect(events == ["arrive 0 dwell 120", "leave 180 dwell 300", "arrive 600 dwell 120", "leave 1500 dwell 300"])
    }

    /// A tracker the store did not keep (a new dwell, or a store from
    /// before dwells were paired) starts from the place's plain state, so
    /// someone already inside does not arrive again.
    @Test func aNewPairOfDwellsStartsFromThePlainState() {
        var plain = PlaceTracker(place: "office", dwell: 0, state: .inside)
        plain.since = FixTime(t0)
        plain.lastFix = FixTime(t0 + 60)
        let fences = Geofences(places: [office], dwells: ["office": [PlaceDwells(arrive: 120, leave: 300)]], stored: [plain])
        #expect(fences.allTrackers.map { "\($0.arriveDwell)/\($0.leaveDwell) \($0.state) \($0.since == FixTime(t0)) \($0.lastFix == FixTime(t0 + 60))" }
                == ["0/0 inside true true", "120/300 inside true true"])
    }

    /// The grid index looks only at nearby places: it gives exactly what
    /// classifying every place for every fix gives.
    @Test func theIndexChangesNothingAgainstCheckingEveryPlace() {
        var g = SeededGenerator(seed: 99)
        var places: [Place] = []
        for i in 0..<300 {
            places.append(Place(name: "p\(i)", latitude: 50.0 + g.uniform(0...0.2), longitude: 14.3 + g.uniform(0...0.3),
                                radius: g.uniform(30...300)))
        }
        var indexed = Geofences(places: places, dwells: [
            "p1": [PlaceDwells(arrive: 60, leave: 60)],
            "p2": [PlaceDwells(arrive: 0, leave: 0), PlaceDwells(arrive: 120, leave: 120)],
        ])
        let fences = places.map(Geofence.init)
        var plain = places.map { PlaceTracker(place: $0.name, dwell: 0) }
        var indexedEvents: [PlaceEvent] = []
        var plainEvents: [PlaceEvent] = []
        var lat = 50.1
        var lon = 14.45
        for second in Int64(0)..<20_000 {
            lat = max(49.95, min(50.25, lat + g.uniform(-0.0004...0.0004)))
            lon = max(14.25, min(14.65, lon + g.uniform(-0.0006...0.0006)))
            let accuracy = g.uniform(3...60)
            let f = Fix(time: t0 + second, latitude: lat, longitude: lon, accuracy: accuracy)
            indexedEvents += indexed.take(f, accuracy: accuracy).events.filter { $0.dwell == 0 }
            for i in places.indices {
                if let e = plain[i].take(f, seen: fences[i].classify(latitude: lat, longitude: lon, accuracy: accuracy)) {
                    plainEvents.append(e)
                }
            }
        }
        plainEvents.sort { ($0.fix.time, $0.place) < ($1.fix.time, $1.place) }
        #expect(indexedEvents.count == 62)
        #expect(indexedEvents == plainEvents)
    }
}
