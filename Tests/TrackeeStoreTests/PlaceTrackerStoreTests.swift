import Foundation
import GRDB
import Testing
import TrackeeCore
@testable import TrackeeStore

@Suite("Store: place trackers keep fix times to the millisecond")
struct PlaceTrackerStoreTests {
    /// 2026-11-23T08:03:00Z.
    let second = Instant(seconds: 1_795_420_980)

    @Test func sinceCandidateAndLastFixComeBackWithTheirMilliseconds() throws {
        let t = try TemporaryStore()
        let candidate = PlaceTracker.Candidate(
            state: .outside, fix: Fix(time: FixTime(second + 5, millisecond: 50), latitude: 50.01, longitude: 14, accuracy: 10))
        let tracker = PlaceTracker(place: "home", arriveDwell: 2, leaveDwell: 2, state: .inside,
                                   since: FixTime(second, millisecond: 350), candidate: candidate,
                                   lastFix: FixTime(second + 5, millisecond: 950))
        try t.store.savePlaceTrackers([tracker])
        #expect(try t.store.placeTrackers() == [tracker])
    }

    /// A store from before the milliseconds were kept: its trackers read
    /// as at the start of their seconds, and the store opens as it did.
    @Test func trackersKeptBeforeMillisecondsReadAsWholeSeconds() throws {
        let old = try OlderStore(upTo: "v7-add-keys") { db in
            try db.execute(sql: """
                INSERT INTO place_tracker (place, arrive_dwell, leave_dwell, state, since, candidate, candidate_time,
                                           candidate_latitude, candidate_longitude, candidate_accuracy, last_fix)
                VALUES ('home', 0, 0, 'inside', 1795420980, 'outside', 1795420985, 50.01, 14.0, NULL, 1795420986)
                """)
        }
        defer { withExtendedLifetime(old) {} }
        let store = try Store(path: old.path)
        let candidate = PlaceTracker.Candidate(
            state: .outside, fix: Fix(time: FixTime(second + 5), latitude: 50.01, longitude: 14, accuracy: nil))
        #expect(try store.placeTrackers() == [
            PlaceTracker(place: "home", arriveDwell: 0, leaveDwell: 0, state: .inside, since: FixTime(second),
                         candidate: candidate, lastFix: FixTime(second + 6)),
        ])
    }
}
