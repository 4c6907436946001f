import Testing
import TrackeeCore
@testable import TrackeeStore

/// How far a cube's history was taken: kept per subject, moved only to a
/// later change, kept across a reopen.
@Suite struct DeskCursorTests {
    let subject = "flip:0C:61:CF:C7:77:71"

    @Test func theCursorMovesOnlyToALaterChange() throws {
        let t = try TemporaryStore()
        #expect(try t.store.deskCursor(subject) == nil)
        try t.store.takeDeskCursor(DeskCursor(subject: subject, number: 12, at: Instant(seconds: 1_000)))
        #expect(try t.store.deskCursor(subject) == DeskCursor(subject: subject, number: 12, at: Instant(seconds: 1_000)))
        // Taken again, or an older one: no move.
        try t.store.takeDeskCursor(DeskCursor(subject: subject, number: 12, at: Instant(seconds: 1_000)))
        try t.store.takeDeskCursor(DeskCursor(subject: subject, number: 11, at: Instant(seconds: 900)))
        #expect(try t.store.deskCursor(subject) == DeskCursor(subject: subject, number: 12, at: Instant(seconds: 1_000)))
        // A reset cube numbers from 1 again, later: it moves.
        try t.store.takeDeskCursor(DeskCursor(subject: subject, number: 1, at: Instant(seconds: 2_000)))
        #expect(try t.store.deskCursor(subject) == DeskCursor(subject: subject, number: 1, at: Instant(seconds: 2_000)))
        // The same instant: the higher number.
        try t.store.takeDeskCursor(DeskCursor(subject: subject, number: 2, at: Instant(seconds: 2_000)))
        #expect(try t.store.deskCursor(subject)?.number == 2)
        #expect(try t.store.deskCursor("flip:00:00:00:00:00:01") == nil)
        let reopened = try Store(path: t.path)
        #expect(try reopened.deskCursor(subject) == DeskCursor(subject: subject, number: 2, at: Instant(seconds: 2_000)))
    }

    @Test func aFlipCarriesItsCursorAndOtherKindsNone() {
        let flip = FlipEdge(device: "0c:61:cf:c7:77:71", .facet(3), event: 7, flippedAt: Instant(seconds: 5))
        #expect(flip.cursor == DeskCursor(subject: subject, number: 7, at: Instant(seconds: 5)))
        #expect(FlipEdge(device: "0C:61:CF:C7:77:71", .facet(3)).cursor == nil)
        #expect(FlipEdge(device: "0C:61:CF:C7:77:71", .battery(percent: 10, previous: 30)).cursor == nil)
        #expect(SessionEdge(.locked).cursor == nil)
    }
}
