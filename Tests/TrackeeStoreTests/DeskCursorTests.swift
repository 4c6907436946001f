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
        // A later series moves it whatever its time and number; an older one never does.
        let reset = DeskCursor(subject: subject, number: 1, at: Instant(seconds: 1_500), series: 1)
        try t.store.takeDeskCursor(reset)
        #expect(try t.store.deskCursor(subject) == reset)
        try t.store.takeDeskCursor(DeskCursor(subject: subject, number: 99, at: Instant(seconds: 9_000)))
        #expect(try t.store.deskCursor(subject) == reset)
        #expect(DeskCursor.later(reset, DeskCursor(subject: subject, number: 99, at: Instant(seconds: 9_000))) == reset)
        let reopened = try Store(path: t.path)
        #expect(try reopened.deskCursor(subject) == reset)
    }

    @Test func aFlipCarriesItsCursorAndOtherKindsNone() {
        let flip = FlipEdge(device: "0c:61:cf:c7:77:71", .facet(3), event: 7, flippedAt: Instant(seconds: 5))
        #expect(flip.cursor == DeskCursor(subject: subject, number: 7, at: Instant(seconds: 5)))
        let reset = FlipEdge(device: "0C:61:CF:C7:77:71", .facet(3), event: 7, flippedAt: Instant(seconds: 5), series: 2)
        #expect(reset.cursor == DeskCursor(subject: subject, number: 7, at: Instant(seconds: 5), series: 2))
        // Its firing key is not the first series' interval 7.
        #expect(flip.occurrence(at: Instant(seconds: 5)) == "flip:0c%3A61%3Acf%3Ac7%3A77%3A71:7")
        #expect(reset.occurrence(at: Instant(seconds: 5)) == "flip:0C%3A61%3ACF%3AC7%3A77%3A71:s2:7")
        #expect(FlipEdge(device: "0C:61:CF:C7:77:71", .facet(3)).cursor == nil)
        #expect(FlipEdge(device: "0C:61:CF:C7:77:71", .battery(percent: 10, previous: 30)).cursor == nil)
        #expect(SessionEdge(.locked).cursor == nil)
    }
}
