import Testing
import TrackeeCore

@testable import TrackeeLocation

@Suite("Feeds: CSV")
struct CSVFeedTests {
    let t = Feed.utc(2026, 11, 23, 8, 57, 3)

    @Test func withAndWithoutAHeader() {
        let body = "2026-11-23T08:57:03Z,50.0875,14.4213,8\n2026-11-23T08:57:04Z,50.0876,14.4214"
        let fixes = [Feed.fix(t, 50.0875, 14.4213, 8), Feed.fix(t + 1, 50.0876, 14.4214)]
        #expect(Feed.decode(body, .csv) == fixes)
        #expect(Feed.decode("time,lat,lon,accuracy\n" + body, .csv) == fixes)
        #expect(Feed.decode("\"time\", \"latitude\", \"longitude\"\n" + body, .csv) == fixes)
    }

    @Test func timesWithOffsetsFractionsOrSecondsSince1970() {
        let lines = [
            "2026-11-23T09:57:03+01:00,50,14",
            "2026-11-23T03:57:03.999-0500,50,14",
            "2026-11-23 08:57:03.5z,50,14",
            "2026-11-23T08:57Z,50,14",
            "2026-11-23T14:27:03+05:30,50,14",
            "1795424223,50,14",
            "1795424223.75,50,14",
            "\"1795424223\",\"50\",\"14\",\"\"",
        ]
        let fixes = Feed.decode(lines.joined(separator: "\n"), .csv)
        #expect(fixes == [
            Feed.fix(t, 50, 14), Feed.fix(t, ms: 999, 50, 14), Feed.fix(t, ms: 500, 50, 14), Feed.fix(t - 3, 50, 14),
            Feed.fix(t, 50, 14), Feed.fix(t, 50, 14), Feed.fix(t, ms: 750, 50, 14), Feed.fix(t, 50, 14),
        ])
    }

    @Test func anUnreadableOrZonelessTimeIsNoTime() {
        #expect(Feed.decode("2026-11-23T08:57:03,50,14", .csv) == [
            .ignored(.noTime, message: "the time \"2026-11-23T08:57:03\" has no UTC offset; add Z or one such as +01:00"),
        ])
        #expect(Feed.decode("2026-11-31T08:57:03Z,50,14", .csv) == [
            .ignored(.noTime, message: "the time \"2026-11-31T08:57:03Z\" is not an ISO 8601 time such as 2026-11-23T08:57:03Z"),
        ])
        #expect(Feed.decode("soon,50,14", .csv) == [
            .ignored(.noTime, message: "the time \"soon\" is neither ISO 8601 nor seconds since 1970"),
        ])
        #expect(Feed.decode(",50,14", .csv) == [
            .ignored(.noTime, message: "the time \"\" is neither ISO 8601 nor seconds since 1970"),
        ])
    }

    @Test func badNumbersAndMissingFieldsAreUnreadable() {
        #expect(Feed.decode("1795424223,50,14\n1795424223,north,14", .csv) == [
            Feed.fix(t, 50, 14),
            .ignored(.unreadable, message: "the latitude \"north\" is not a number"),
        ])
        #expect(Feed.decode("1795424223,50", .csv) == [
            .ignored(.unreadable, message: "a CSV line needs time,lat,lon[,accuracy], and this one has 2 fields"),
        ])
        #expect(Feed.decode("1795424223,50,14,good", .csv) == [
            .ignored(.unreadable, message: "the accuracy \"good\" is not a number"),
        ])
        #expect(Feed.decode("1795424223,50,1e999", .csv) == [
            .ignored(.impossibleCoordinates, message: "longitude infinity is outside -180…180"),
        ])
    }

    @Test func impossibleCoordinatesAndFutureTimes() {
        #expect(Feed.decode("1795424223,91,14\n1795424223,-91,14\n1795424223,50,200\n1795424223,50,-180.5", .csv) == [
            .ignored(.impossibleCoordinates, message: "latitude 91 is outside -90…90"),
            .ignored(.impossibleCoordinates, message: "latitude -91 is outside -90…90"),
            .ignored(.impossibleCoordinates, message: "longitude 200 is outside -180…180"),
            .ignored(.impossibleCoordinates, message: "longitude -180.5 is outside -180…180"),
        ])
        #expect(Feed.decode("2026-11-25T00:00:01Z,50,14", .csv) == [
            .ignored(.future, message: "the time 2026-11-25T00:00:01Z is more than a day after now (2026-11-23T12:00:00Z)"),
        ])
    }

    @Test func extraColumnsAreIgnored() {
        #expect(Feed.decode("1795424223,-0.5,-0.25,4.5,245.3,walking", .csv) == [Feed.fix(t, -0.5, -0.25, 4.5)])
    }
}
