import TrackeeCore

/// Every place with its trackers, taking fixes one by one.
///
/// Places are found through a grid of cells about 5 km high: a fix only
/// looks at the places whose reach (shape, hysteresis and the worst usable
/// accuracy) covers its cell, and at the few places not settled outside.
/// With a thousand places a fix costs a handful of distance checks.
public struct Geofences: Sendable {
    public let fences: [Geofence]
    /// Trackers by place index: one per dwell the rules use, dwell 0 always
    /// (the `place:` condition and `trackee places` use it).
    public private(set) var trackers: [[PlaceTracker]]
    private let grid: [Int64: [Int]]
    /// Places that a distant fix can still change.
    private var unsettled: Set<Int>
    static let cellDegrees = 0.05

    /// `dwells` gives, by place name, the dwells its triggers ask for;
    /// `stored` the trackers a store kept.
    public init(places: [Place], dwells: [String: Set<Int64>] = [:], stored: [PlaceTracker] = []) {
        fences = places.map(Geofence.init)
        var trackers: [[PlaceTracker]] = []
        var grid: [Int64: [Int]] = [:]
        var unsettled: Set<Int> = []
        for (index, fence) in fences.enumerated() {
            let name = fence.place.name
            let wanted = (dwells[name] ?? []).union([0]).sorted()
            trackers.append(wanted.map { dwell in
                stored.first { $0.place == name && $0.dwell == dwell } ?? PlaceTracker(place: name, dwell: dwell)
            })
            if trackers[index].contains(where: \.caresAboutDistantFixes) { unsettled.insert(index) }
            for cell in Self.cells(fence.bounds) { grid[cell, default: []].append(index) }
        }
        self.trackers = trackers
        self.grid = grid
        self.unsettled = unsettled
    }

    /// Takes one fix, `accuracy` meters (the fix's own, or the default for
    /// fixes that give none). Returns the transitions it completes, and
    /// whether any tracker's state or candidate changed (worth storing).
    public mutating func take(_ fix: Fix, accuracy: Double) -> (events: [PlaceEvent], changed: Bool) {
        var events: [PlaceEvent] = []
        var changed = false
        let near = grid[Self.cell(fix.latitude, fix.longitude)] ?? []
        var visit = unsettled
        visit.formUnion(near)
        for index in visit {
            let fence = fences[index]
            guard accuracy <= fence.place.maxAccuracy else { continue }
            let seen: PlaceState? =
                near.contains(index) ? fence.classify(latitude: fix.latitude, longitude: fix.longitude, accuracy: accuracy)
                : .outside
            for t in trackers[index].indices {
                let before = trackers[index][t]
                if let event = trackers[index][t].take(fix, seen: seen) { events.append(event) }
                let after = trackers[index][t]
                if after.state != before.state || after.candidate != before.candidate { changed = true }
            }
            if trackers[index].contains(where: \.caresAboutDistantFixes) {
                unsettled.insert(index)
            } else {
                unsettled.remove(index)
            }
        }
        return (events.sorted { ($0.fix.time, $0.place, $0.dwell) < ($1.fix.time, $1.place, $1.dwell) }, changed)
    }

    /// The names of the places whose dwell-0 state is inside.
    public var inside: Set<String> {
        Set(trackers.compactMap { $0.first { $0.dwell == 0 && $0.state == .inside }?.place })
    }

    /// The dwell-0 tracker of each place, in place order.
    public var states: [(place: Place, tracker: PlaceTracker)] {
        fences.indices.map { (fences[$0].place, trackers[$0].first { $0.dwell == 0 }!) }
    }

    /// Every tracker, for storing.
    public var allTrackers: [PlaceTracker] { trackers.flatMap { $0 } }

    static func cell(_ latitude: Double, _ longitude: Double) -> Int64 {
        let row = Int64((latitude + 90) / cellDegrees)
        var lon = longitude.truncatingRemainder(dividingBy: 360)
        if lon < 0 { lon += 360 }
        let column = Int64(lon / cellDegrees)
        return row * 100_000 + column
    }

    static func cells(_ bounds: (south: Double, west: Double, north: Double, east: Double)) -> [Int64] {
        var cells: [Int64] = []
        let columns = Int((bounds.east - bounds.west) / cellDegrees) + 2
        var lat = bounds.south
        while true {
            for c in 0..<min(columns, Int(360 / cellDegrees) + 1) {
                cells.append(cell(lat, bounds.west + Double(c) * cellDegrees))
            }
            if lat >= bounds.north { break }
            lat = min(bounds.north, lat + cellDegrees)
        }
        return Array(Set(cells))
    }
}
