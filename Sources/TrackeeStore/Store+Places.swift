import GRDB
import TrackeeCore

extension Store {
    /// Every place tracker the store keeps, its fix times to the millisecond
    /// (a whole-second column and the milliseconds past it).
    public func placeTrackers() throws -> [PlaceTracker] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT place, arrive_dwell, leave_dwell, state, since, candidate, candidate_time, candidate_latitude,
                       candidate_longitude, candidate_accuracy, last_fix, since_ms, candidate_ms, last_fix_ms
                FROM place_tracker ORDER BY place, arrive_dwell, leave_dwell
                """).map { row in
                var candidate: PlaceTracker.Candidate?
                if let state = (row[5] as String?).flatMap(PlaceState.init(rawValue:)), let time: Int64 = row[6],
                   let latitude: Double = row[7], let longitude: Double = row[8]
                {
                    candidate = PlaceTracker.Candidate(
                        state: state, fix: Fix(time: FixTime(Instant(seconds: time), millisecond: row[12]), latitude: latitude,
                                               longitude: longitude, accuracy: row[9]))
                }
                return PlaceTracker(
                    place: row[0], arriveDwell: row[1], leaveDwell: row[2], state: PlaceState(rawValue: row[3]) ?? .unknown,
                    since: (row[4] as Int64?).map { FixTime(Instant(seconds: $0), millisecond: row[11]) }, candidate: candidate,
                    lastFix: (row[10] as Int64?).map { FixTime(Instant(seconds: $0), millisecond: row[13]) })
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
                                           candidate_latitude, candidate_longitude, candidate_accuracy, last_fix, since_ms,
                                           candidate_ms, last_fix_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (place, arrive_dwell, leave_dwell) DO UPDATE SET
                    state = excluded.state, since = excluded.since, candidate = excluded.candidate,
                    candidate_time = excluded.candidate_time, candidate_latitude = excluded.candidate_latitude,
                    candidate_longitude = excluded.candidate_longitude, candidate_accuracy = excluded.candidate_accuracy,
                    last_fix = excluded.last_fix, since_ms = excluded.since_ms, candidate_ms = excluded.candidate_ms,
                    last_fix_ms = excluded.last_fix_ms
                """)
            for t in trackers {
                try statement.execute(arguments: [
                    t.place, t.arriveDwell, t.leaveDwell, t.state.rawValue, t.since?.instant.seconds, t.candidate?.state.rawValue,
                    t.candidate?.fix.time.instant.seconds, t.candidate?.fix.latitude, t.candidate?.fix.longitude,
                    t.candidate?.fix.accuracy, t.lastFix?.instant.seconds, t.since?.millisecond ?? 0,
                    t.candidate?.fix.time.millisecond ?? 0, t.lastFix?.millisecond ?? 0,
                ])
            }
        }
    }
}
