import GRDB
import TrackeeCore

extension Store {
    /// Every place tracker the store keeps.
    public func placeTrackers() throws -> [PlaceTracker] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT place, arrive_dwell, leave_dwell, state, since, candidate, candidate_time, candidate_latitude,
                       candidate_longitude, candidate_accuracy, last_fix
                FROM place_tracker ORDER BY place, arrive_dwell, leave_dwell
                """).map { row in
                var candidate: PlaceTracker.Candidate?
                if let state = (row[5] as String?).flatMap(PlaceState.init(rawValue:)), let time: Int64 = row[6],
                   let latitude: Double = row[7], let longitude: Double = row[8]
                {
                    candidate = PlaceTracker.Candidate(
                        state: state, fix: Fix(time: Instant(seconds: time), latitude: latitude, longitude: longitude,
                                               accuracy: row[9]))
                }
                return PlaceTracker(
                    place: row[0], arriveDwell: row[1], leaveDwell: row[2], state: PlaceState(rawValue: row[3]) ?? .unknown,
                    since: (row[4] as Int64?).map { Instant(seconds: $0) }, candidate: candidate,
                    lastFix: (row[10] as Int64?).map { Instant(seconds: $0) })
            }
        }
    }

    /// The places the last fixes put inside (their state without a dwell):
    /// what `place:` conditions look at.
    public func placesInside() throws -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db, sql: "SELECT place FROM place_tracker WHERE arrive_dwell = 0 AND leave_dwell = 0 AND state = 'inside'"))
        }
    }

    /// Stores trackers, replacing what was kept for the same place and
    /// dwells, in one transaction.
    public func savePlaceTrackers(_ trackers: [PlaceTracker]) throws {
        guard !trackers.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO place_tracker (place, arrive_dwell, leave_dwell, state, since, candidate, candidate_time,
                                           candidate_latitude, candidate_longitude, candidate_accuracy, last_fix)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (place, arrive_dwell, leave_dwell) DO UPDATE SET
                    state = excluded.state, since = excluded.since, candidate = excluded.candidate,
                    candidate_time = excluded.candidate_time, candidate_latitude = excluded.candidate_latitude,
                    candidate_longitude = excluded.candidate_longitude, candidate_accuracy = excluded.candidate_accuracy,
                    last_fix = excluded.last_fix
                """)
            for t in trackers {
                try statement.execute(arguments: [
                    t.place, t.arriveDwell, t.leaveDwell, t.state.rawValue, t.since?.seconds, t.candidate?.state.rawValue,
                    t.candidate?.fix.time.seconds, t.candidate?.fix.latitude, t.candidate?.fix.longitude,
                    t.candidate?.fix.accuracy, t.lastFix?.seconds,
                ])
            }
        }
    }
}
