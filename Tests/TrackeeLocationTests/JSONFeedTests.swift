import Testing
import TrackeeCore

@testable import TrackeeLocation

@Suite("Feeds: gpsd and OwnTracks JSON")
struct JSONFeedTests {
    let t = Feed.utc(2026, 11, 23, 8, 57, 3)

    // MARK: gpsd

    @Test func aTPVWithAFixGivesItsPositionAndEph() {
        let line = #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-11-23T08:57:03.999Z","ept":0.005,"lat":50.0875,"lon":14.4213,"altHAE":245.3,"epx":9.1,"epy":12.5,"eph":7.25,"speed":0.1}"#
        #expect(Feed.decode(line, .gpsd) == [Feed.fix(t, ms: 999, 50.0875, 14.4213, 7.25)])
    }

    @Test func withoutEphTheAccuracyIsTheLargerOfEpxAndEpy() {
        let both = #"{"class":"TPV","mode":2,"time":"2026-11-23T08:57:03Z","lat":-33.8688,"lon":151.2093,"epx":9.5,"epy":12.5}"#
        let one = #"{"class":"TPV","mode":2,"time":"2026-11-23T08:57:03Z","lat":-33.8688,"lon":151.2093,"epy":3}"#
        let none = #"{"class":"TPV","mode":3,"time":"2026-11-23T08:57:03Z","lat":-33.8688,"lon":-151.2093}"#
        #expect(Feed.decode([both, one, none].joined(separator: "\n")) == [
            Feed.fix(t, -33.8688, 151.2093, 12.5),
            Feed.fix(t, -33.8688, 151.2093, 3),
            Feed.fix(t, -33.8688, -151.2093),
        ])
    }

    @Test func modeOneIsNotAFixAndOtherClassesGiveNothing() {
        let lines = [
            #"{"class":"VERSION","release":"3.25","rev":"3.25","proto_major":3,"proto_minor":15}"#,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","driver":"u-blox","activated":"2026-11-23T08:57:00.000Z"}]}"#,
            #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false}"#,
            #"{"class":"SKY","device":"/dev/ttyACM0","hdop":0.9,"satellites":[{"PRN":1,"el":40.0,"az":83.0,"ss":46.0,"used":true},{"PRN":2,"el":17.0,"az":308.0,"ss":41.0,"used":false}]}"#,
            #"{"class":"TPV","device":"/dev/ttyACM0","mode":1,"time":"2026-11-23T08:57:03.000Z"}"#,
        ]
        #expect(Feed.decode(lines.joined(separator: "\n"), .gpsd) == [
            .ignored(.notAFix, message: "gpsd TPV mode is 1 (no fix)"),
        ])
    }

    @Test func aTPVWithoutTimeOrPositionSaysWhatIsMissing() {
        #expect(Feed.decode(#"{"class":"TPV","mode":3,"lat":50,"lon":14}"#) == [
            .ignored(.noTime, message: "the gpsd TPV report has no time"),
        ])
        #expect(Feed.decode(#"{"class":"TPV","mode":3,"time":"2026-11-23T08:57:03Z","lon":14}"#) == [
            .ignored(.notAFix, message: "the gpsd TPV report has no lat"),
        ])
        #expect(Feed.decode(#"{"class":"TPV","mode":3,"time":"yesterday","lat":50,"lon":14}"#) == [
            .ignored(.noTime, message: "the gpsd time \"yesterday\" is not an ISO 8601 time"),
        ])
        // gpsd before 3.10 gave seconds since 1970.
        #expect(Feed.decode(#"{"class":"TPV","mode":3,"time":1795424223.5,"lat":50,"lon":14}"#) == [Feed.fix(t, ms: 500, 50, 14)])
    }

    @Test func nanIsNotJSONButAnInfiniteNumberIsImpossible() {
        #expect(Feed.decode(#"{"class":"TPV","mode":3,"time":"2026-11-23T08:57:03Z","lat":NaN,"lon":14}"#) == [
            .ignored(.unreadable, message: "the line is not JSON: \"N\" at column 61 is not allowed there"),
        ])
        #expect(Feed.decode(#"{"class":"TPV","mode":3,"time":"2026-11-23T08:57:03Z","lat":1e999,"lon":14}"#) == [
            .ignored(.impossibleCoordinates, message: "latitude infinity is outside -90…90"),
        ])
        #expect(Feed.decode(#"{"class":"TPV","mode":3,"time":"2026-11-23T08:57:03Z","lat":"50.1","lon":14}"#) == [
            .ignored(.unreadable, message: "\"lat\" is not a number"),
        ])
        #expect(Feed.decode(#"{"class":"TPV","mode":3,"time":"2026-11-23T08:57:03Z","lat":5-0,"lon":14}"#) == [
            .ignored(.unreadable, message: "\"lat\" is 5-0, which is not a JSON number"),
        ])
    }

    @Test func truncatedJSONIsUnreadable() {
        let whole = #"{"class":"TPV","mode":3,"time":"2026-11-23T08:57:03Z","lat":50.1,"lon":14.2,"eph":5}"#
        let truncated = FeedItem.ignored(.unreadable, message: "the JSON object is truncated: the line ends before it closes")
        for cut in [1, 10, 30, 60, whole.utf8.count - 1] {
            #expect(Feed.decode(String(whole.prefix(cut))) == [truncated])
        }
        #expect(Feed.decode(whole + "}") == [
            .ignored(.unreadable, message: "the line is not JSON: something follows the object at column 85"),
        ])
    }

    @Test func impossibleAndFutureFixesAreRefused() {
        #expect(Feed.decode(#"{"class":"TPV","mode":3,"time":"2026-11-23T08:57:03Z","lat":91,"lon":14}"#) == [
            .ignored(.impossibleCoordinates, message: "latitude 91 is outside -90…90"),
        ])
        #expect(Feed.decode(#"{"_type":"location","lat":50,"lon":-200.5,"tst":1795424223}"#) == [
            .ignored(.impossibleCoordinates, message: "longitude -200.5 is outside -180…180"),
        ])
        #expect(Feed.decode(#"{"class":"TPV","mode":3,"time":"2026-11-25T08:57:03Z","lat":50,"lon":14}"#) == [
            .ignored(.future, message: "the time 2026-11-25T08:57:03Z is more than a day after now (2026-11-23T12:00:00Z)"),
        ])
    }

    // MARK: OwnTracks

    @Test func anOwnTracksLocationGivesAFix() {
        let line = #"{"_type":"location","BSSID":"b0:f2:8:45:94:33","acc":13,"alt":244,"batt":91,"conn":"w","inregions":["office"],"lat":50.0875,"lon":14.4213,"tid":"an","tst":1795424223,"vac":3,"vel":0}"#
        #expect(Feed.decode(line, .owntracks) == [Feed.fix(t, 50.0875, 14.4213, 13)])
    }

    @Test func theMosquittoFormPutsTheTopicFirst() {
        let line = #"owntracks/ana/phone {"_type":"location","acc":13,"lat":50.0875,"lon":14.4213,"tst":1795424223}"#
        #expect(Feed.decode(line, .owntracks) == [Feed.fix(t, 50.0875, 14.4213, 13)])
        #expect(Feed.decode(line, .auto) == [Feed.fix(t, 50.0875, 14.4213, 13)])
        #expect(Feed.decode("owntracks/ana/phone hello", .owntracks) == [
            .ignored(.unreadable, message: "the line is not OwnTracks JSON, alone or after an MQTT topic"),
        ])
    }

    @Test func aTransitionIsThePhonesOwnArriveOrLeave() {
        let enter = #"{"_type":"transition","acc":10,"desc":"Caf\u00e9 \"Nov\u00fd\"","event":"enter","lat":50.0875,"lon":14.4213,"t":"c","tid":"an","tst":1795424223,"wtst":1700000000}"#
        let leave = #"owntracks/ana/phone {"_type":"transition","desc":"office","event":"leave","lat":50.0875,"lon":14.4213,"wtst":1795424223}"#
        #expect(Feed.decode(enter + "\n" + leave) == [
            .transition(OwnTracksTransition(place: "Café \"Nový\"", transition: .arrive, fix: Fix(time: t, latitude: 50.0875, longitude: 14.4213, accuracy: 10))),
            .transition(OwnTracksTransition(place: "office", transition: .leave, fix: Fix(time: t, latitude: 50.0875, longitude: 14.4213))),
        ])
        #expect(Feed.decode(#"{"_type":"transition","desc":"office","event":"dwell","lat":50,"lon":14,"tst":1795424223}"#) == [
            .ignored(.unreadable, message: "the OwnTracks transition event is \"dwell\", not enter or leave"),
        ])
        #expect(Feed.decode(#"{"_type":"transition","event":"enter","lat":50,"lon":14,"tst":1795424223}"#) == [
            .ignored(.unreadable, message: "the OwnTracks transition has no desc naming its region"),
        ])
    }

    @Test func otherOwnTracksMessagesGiveNothing() {
        let lines = [
            #"{"_type":"lwt","tst":1795424223}"#,
            #"{"_type":"waypoint","desc":"office","lat":50.0875,"lon":14.4213,"rad":100,"tst":1795424223}"#,
            #"{"_type":"card","name":"Ana","face":"iVBORw0KGgo="}"#,
        ]
        #expect(Feed.decode(lines.joined(separator: "\n"), .owntracks) == [])
    }

    @Test func anOwnTracksLocationWithoutTstHasNoTime() {
        #expect(Feed.decode(#"{"_type":"location","lat":50,"lon":14,"acc":5}"#) == [
            .ignored(.noTime, message: "the OwnTracks location has no tst"),
        ])
        #expect(Feed.decode(#"{"_type":"location","lat":50,"lon":14,"tst":"now"}"#) == [
            .ignored(.noTime, message: "the OwnTracks location tst is not seconds since 1970"),
        ])
    }

    @Test func nestedValuesWithBracketsAndEscapesInStringsAreSteppedOver() {
        let line = #"{"_type":"location","x":{"a":[1,{"b":"}]\"{["}],"c":"\\"},"lat":50.5,"lon":14.5,"tst":1795424223, "acc" : 8 }"#
        #expect(Feed.decode(line) == [Feed.fix(t, 50.5, 14.5, 8)])
    }
}
