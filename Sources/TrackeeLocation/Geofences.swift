import TrackeeCore

/// Every place with its trackers, taking fixes one by one.
///
/// Places are found through a grid of cells about 550 m high: a fix only
/// looks at the places whose reach (shape, hysteresis and the worst usable
/// accuracy) covers its cell, and at the few places not settled outside.
/// With a thousand places a fix costs a handful of distance checks.
public struct Geofences: Sendable {
    public let fences: [Geofence]
    /// Each place's reach, in place order: what a fix checks first.
    private let reaches: [Geofence.Reach]
    /// Every tracker's progress, place by place: one per pair of dwells
    /// the rules use, (0, 0) always first (the `place:` condition and `trackee
    /// places` use it). `spans[i]` are place `i`'s.
    private var progress: [PlaceTracker.Progress]
    private let spans: [Range<Int>]
    /// Cells to runs of `cellPlaces`: the places whose reach covers a cell.
    private let grid: [Int64: Range<Int>]
    private let cellPlaces: [Int]
    /// Places that a distant fix can still change: a list to walk (in no
    /// order), and for each place its slot in that list, or -1.
    private var unsettled: [Int]
    private var unsettledSlot: [Int]
    /// The last fix's cell and its run of `cellPlaces`: a track stays in
    /// one cell for minutes, so most fixes skip the hash lookup.
    private var lastCell = Int64.min
    private var lastNear: Range<Int> = 0..<0
    /// For each place, the number of the last fix that found it near.
    private var seenBy: [Int]
    private var fixNumber = 0
    /// About 550 m north–south: a fix meets the few places near it.
    static let cellDegrees = 0.005

    /// `dwells` gives, by place name, the trackers its triggers need
    /// (``PlaceDwells/pairs(arrives:leaves:)``; (0, 0) is always kept);
    /// `stored` the trackers a store kept.
    public init(places: [Place], dwells: [String: [PlaceDwells]] = [:], stored: [PlaceTracker] = []) {
        fences = places.map(Geofence.init)
        reaches = fences.map(\.reach)
        var kept: [String: PlaceTracker.Progress] = [:]
        for tracker in stored { kept["\(tracker.place)\u{0}\(tracker.arriveDwell)\u{0}\(tracker.leaveDwell)"] = tracker.progress }
        var progress: [PlaceTracker.Progress] = []
        var spans: [Range<Int>] = []
        var byCell: [(cell: Int64, place: Int)] = []
        for (index, fence) in fences.enumerated() {
            let name = fence.place.name
            let start = progress.count
            // A tracker the store does not have yet (a rule's new dwell, a
            // store from before dwells were paired) starts from the place's
            // plain state, so it does not arrive again where it already is.
            // Most places have only the plain tracker, and a store keeps none at first.
            let plain = kept.isEmpty ? nil : kept["\(name)\u{0}0\u{0}0"]
            let pairs = dwells[name].map { Set($0).union([PlaceDwells(arrive: 0, leave: 0)]).sorted() }
                ?? [PlaceDwells(arrive: 0, leave: 0)]
            for pair in pairs {
                progress.append((kept.isEmpty ? nil : kept["\(name)\u{0}\(pair.arrive)\u{0}\(pair.leave)"])
                                ?? PlaceTracker.Progress(arriveDwell: pair.arrive, leaveDwell: pair.leave, state: plain?.state ?? .unknown,
                                                         since: plain?.since, lastFix: plain?.lastFix))
            }
            spans.append(start..<progress.count)
            Self.cells(fence.reach.bounds, of: index, into: &byCell)
        }
        // Sorted by cell, then place: each cell's places are one run, in place order.
        byCell.sort { $0.cell != $1.cell ? $0.cell < $1.cell : $0.place < $1.place }
        var grid: [Int64: Range<Int>] = [:]
        grid.reserveCapacity(byCell.count / 4)
        var cellPlaces: [Int] = []
        cellPlaces.reserveCapacity(byCell.count)
        var runStart = 0
        for (k, entry) in byCell.enumerated() {
            // A place's box may list a cell twice (its rows meet at its north edge).
            if k > 0 && byCell[k - 1] == entry { continue }
            if k > 0 && byCell[k - 1].cell != entry.cell {
                grid[byCell[k - 1].cell] = runStart..<cellPlaces.count
                runStart = cellPlaces.count
            }
            cellPlaces.append(entry.place)
        }
        if let last = byCell.last { grid[last.cell] = runStart..<cellPlaces.count }
        let unsettled = fences.indices.filter { spans[$0].contains { progress[$0].caresAboutDistantFixes } }
        self.progress = progress
        self.spans = spans
        self.grid = grid
        self.cellPlaces = cellPlaces
        self.unsettled = unsettled
        var unsettledSlot = Array(repeating: -1, count: fences.count)
        for (slot, index) in unsettled.enumerated() { unsettledSlot[index] = slot }
        self.unsettledSlot = unsettledSlot
        seenBy = Array(repeating: -1, count: fences.count)
    }

    /// Takes one fix, `accuracy` meters (the fix's own, or the default for
    /// fixes that give none). Returns the transitions it completes, and the
    /// trackers whose state or waiting state changed (worth storing).
    public mutating func take(_ fix: Fix, accuracy: Double) -> (events: [PlaceEvent], changed: [PlaceTracker]) {
        var events: [PlaceEvent] = []
        var changed: [PlaceTracker] = []
        fixNumber += 1
        let cell = Self.cell(fix.latitude, fix.longitude)
        if cell != lastCell {
            lastCell = cell
            lastNear = grid[cell] ?? 0..<0
        }
        for slot in lastNear {
            let index = cellPlaces[slot]
            seenBy[index] = fixNumber
            let reach = reaches[index]
            guard accuracy <= reach.maxAccuracy else { continue }
            let seen: PlaceState?
            switch reach.classify(latitude: fix.latitude, longitude: fix.longitude, accuracy: accuracy) {
            case .seen(let state): seen = state
            case .polygon: seen = fences[index].classify(latitude: fix.latitude, longitude: fix.longitude, accuracy: accuracy)
            }
            if seen == .outside && unsettledSlot[index] < 0 {
                staysOutside(index, fix)
            } else {
                advance(index, fix, seen, &events, &changed)
            }
        }
        if !unsettled.isEmpty {
            // Places away from this fix that are not settled outside: the
            // fix is certainly outside them. Walked by position, as
            // `advance` may take places off the list.
            var slot = 0
            while slot < unsettled.count {
                let index = unsettled[slot]
                if seenBy[index] != fixNumber && accuracy <= reaches[index].maxAccuracy {
                    advance(index, fix, .outside, &events, &changed)
                    // Taken off: the last place moved into this slot.
                    if unsettledSlot[index] < 0 { continue }
                }
                slot += 1
            }
        }
        if events.count > 1 { events.sort { ($0.fix.time, $0.place, $0.dwell) < ($1.fix.time, $1.place, $1.dwell) } }
        return (events, changed)
    }

    /// Moves every tracker of place `index` on, noting its transitions and
    /// the trackers whose state or waiting state changed.
    private mutating func advance(_ index: Int, _ fix: Fix, _ seen: PlaceState?, _ events: inout [PlaceEvent],
                                  _ changed: inout [PlaceTracker]) {
        var cares = false
        for t in spans[index] {
            let before = progress[t]
            if let done = progress[t].take(fix, seen: seen) {
                events.append(PlaceEvent(place: fences[index].place.name, transition: done.transition,
                                         dwell: done.transition == .arrive ? before.arriveDwell : before.leaveDwell,
                                         fix: done.fix))
            }
            let after = progress[t]
            if after.state != before.state || after.candidate?.state != before.candidate?.state {
                changed.append(PlaceTracker(place: fences[index].place.name, progress: after))
            }
            if after.caresAboutDistantFixes { cares = true }
        }
        let slot = unsettledSlot[index]
        if cares && slot < 0 {
            unsettledSlot[index] = unsettled.count
            unsettled.append(index)
        } else if !cares && slot >= 0 {
            let last = unsettled.removeLast()
            if last != index {
                unsettled[slot] = last
                unsettledSlot[last] = slot
            }
            unsettledSlot[index] = -1
        }
    }

    /// What ``advance(_:_:_:_:_:)`` does for a fix outside a place settled
    /// outside (every tracker outside, none waiting): each tracker notes the
    /// fix as taken, and nothing else changes.
    @inline(__always)
    private mutating func staysOutside(_ index: Int, _ fix: Fix) {
        for t in spans[index] where progress[t].lastFix.map({ fix.time > $0 }) ?? true {
            progress[t].lastFix = fix.time
        }
    }

    /// Place `index`'s tracker for dwell 0.
    private func tracker(_ index: Int) -> PlaceTracker {
        PlaceTracker(place: fences[index].place.name, progress: progress[spans[index].lowerBound])
    }

    /// The names of the places whose dwell-0 state is inside.
    public var inside: Set<String> {
        Set(fences.indices.lazy.filter { progress[spans[$0].lowerBound].state == .inside }.map { fences[$0].place.name })
    }

    /// The dwell-0 tracker of each place, in place order.
    public var states: [(place: Place, tracker: PlaceTracker)] {
        fences.indices.map { (fences[$0].place, tracker($0)) }
    }

    /// Every tracker, in place order.
    public var allTrackers: [PlaceTracker] {
        fences.indices.flatMap { index in
            spans[index].map { PlaceTracker(place: fences[index].place.name, progress: progress[$0]) }
        }
    }

    static func cell(_ latitude: Double, _ longitude: Double) -> Int64 {
        let row = Int64((latitude + 90) / cellDegrees)
        // The remainder only for longitudes it changes: it is a libm call,
        // and every fix lies within -180…180.
        var lon = longitude
        if !(lon >= 0 && lon < 360) {
            lon = lon > -360 && lon < 0 ? lon : lon.truncatingRemainder(dividingBy: 360)
            if lon < 0 { lon += 360 }
        }
        let column = Int64(lon / cellDegrees)
        return row * 100_000 + column
    }

    /// Notes place `index` in every cell its box touches (a cell may come twice).
    static func cells(_ bounds: (south: Double, west: Double, north: Double, east: Double), of index: Int,
                      into list: inout [(cell: Int64, place: Int)]) {
        let columns = Int((bounds.east - bounds.west) / cellDegrees) + 2
        var lat = bounds.south
        while true {
            for c in 0..<min(columns, Int(360 / cellDegrees) + 1) {
                list.append((cell(lat, bounds.west + Double(c) * cellDegrees), index))
            }
            if lat >= bounds.north { break }
            lat = min(bounds.north, lat + cellDegrees)
        }
    }
}
