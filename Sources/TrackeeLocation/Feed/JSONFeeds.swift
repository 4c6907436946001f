import TrackeeCore

/// gpsd and OwnTracks lines, and telling them from other JSON events.
///
/// One scan of the line finds every key either format needs; the keys
/// present then say which one it is: `class` is gpsd, `_type` is
/// OwnTracks, `type` alone is another kind of event.
enum JSONFeeds {
    /// Reads one JSON object, `{` at `start`; `format` says whether gpsd,
    /// OwnTracks or (with `auto`) both are accepted.
    static func line(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, format: FeedFormat, now: Instant,
        into items: inout [FeedItem]
    ) {
        let fields: JSONFields
        do {
            fields = try JSONLine.fields(p, start, end)
        } catch {
            items.append(.ignored(.unreadable, message: describe(error, p, start)))
            return
        }
        do throws(FeedRefusal) {
            if !fields.reportClass.isAbsent {
                guard format != .owntracks else {
                    throw FeedRefusal(.unreadable, "the line is a gpsd report (it has \"class\"), but the feed is read as OwnTracks")
                }
                try gpsd(fields, p, now: now, into: &items)
            } else if !fields.messageType.isAbsent {
                guard format != .gpsd else {
                    throw FeedRefusal(.unreadable, "the line is an OwnTracks message (it has \"_type\"), but the feed is read as gpsd")
                }
                try ownTracks(fields, p, now: now, into: &items)
            } else if !fields.eventType.isAbsent {
                items.append(.notLocation)
            } else {
                throw FeedRefusal(
                    .unreadable, "the JSON object has none of \"class\" (gpsd), \"_type\" (OwnTracks) or \"type\" (an event)")
            }
        } catch {
            items.append(error.item)
        }
    }

    private static func describe(_ error: JSONSyntaxError, _ p: UnsafeBufferPointer<UInt8>, _ start: Int) -> String {
        let column = error.offset - start + 1
        switch error.problem {
        case .truncated:
            return "the JSON object is truncated: the line ends before it closes"
        case .controlInString:
            return "the line is not JSON: a string holds a control byte at column \(column) (binary data?)"
        case .trailing:
            return "the line is not JSON: something follows the object at column \(column)"
        case .unexpected:
            return "the line is not JSON: \"\(ByteNumbers.quoted(p, error.offset, min(error.offset + 1, p.count)))\" at column \(column) is not allowed there"
        }
    }

    // MARK: gpsd

    /// A `TPV` report with mode 2 or 3 and a status other than simulated
    /// (8) or dead reckoning (5), its time to the millisecond; other
    /// classes (SKY, VERSION, DEVICES, WATCH, …) give nothing.
    private static func gpsd(_ f: JSONFields, _ p: UnsafeBufferPointer<UInt8>, now: Instant, into items: inout [FeedItem]) throws(FeedRefusal) {
        guard JSONLine.equals(p, f.reportClass, "TPV") else { return }
        guard let mode = try number(f.mode, "mode", p) else {
            throw FeedRefusal(.notAFix, "the gpsd TPV report has no mode")
        }
        guard mode >= 2 else {
            throw FeedRefusal(.notAFix, "gpsd TPV mode is \(FixCheck.number(mode)) (no fix)")
        }
        switch try number(f.status, "status", p) {
        case 8: throw FeedRefusal(.simulator, "gpsd TPV status is 8: the receiver is in simulator mode")
        case 5: throw FeedRefusal(.deadReckoning, "gpsd TPV status is 5: the position is dead reckoned, not measured")
        default: break
        }
        let latitude = try position(f.lat, "lat", p, owner: "the gpsd TPV report")
        let longitude = try position(f.lon, "lon", p, owner: "the gpsd TPV report")
        let time: Int64
        switch f.time.kind {
        case .absent:
            throw FeedRefusal(.noTime, "the gpsd TPV report has no time")
        case .number:
            // gpsd before 3.10 wrote seconds since 1970.
            guard let milliseconds = ByteNumbers.unixMilliseconds(p, f.time.start, f.time.end) else {
                throw FeedRefusal(.noTime, "the gpsd time \(ByteNumbers.quoted(p, f.time.start, f.time.end)) is not a time")
            }
            time = milliseconds
        case .string:
            // gpsd writes UTC and always says so; a time without Z is read as UTC too.
            guard let parsed = ByteNumbers.iso8601(p, f.time.start, f.time.end) else {
                throw FeedRefusal(.noTime, "the gpsd time \"\(ByteNumbers.quoted(p, f.time.start, f.time.end))\" is not an ISO 8601 time")
            }
            time = parsed.milliseconds
        default:
            throw FeedRefusal(.noTime, "the gpsd time is not a string")
        }
        var accuracy = try number(f.eph, "eph", p)
        if accuracy == nil {
            let x = try number(f.epx, "epx", p)
            let y = try number(f.epy, "epy", p)
            if let x, let y { accuracy = max(x, y) } else { accuracy = x ?? y }
        }
        FixCheck.append(
            Fix(time: FixTime(milliseconds: time), latitude: latitude, longitude: longitude, accuracy: FixCheck.accuracy(accuracy)),
            now: now, into: &items)
    }

    // MARK: OwnTracks

    /// `location` and `transition` messages; other types (lwt, waypoint,
    /// card, cmd, …) give nothing.
    private static func ownTracks(_ f: JSONFields, _ p: UnsafeBufferPointer<UInt8>, now: Instant, into items: inout [FeedItem]) throws(FeedRefusal) {
        if JSONLine.equals(p, f.messageType, "location") {
            let fix = try ownTracksFix(f, p, owner: "the OwnTracks location")
            FixCheck.append(fix, now: now, into: &items)
        } else if JSONLine.equals(p, f.messageType, "transition") {
            let transition: PlaceTransition
            if JSONLine.equals(p, f.event, "enter") {
                transition = .arrive
            } else if JSONLine.equals(p, f.event, "leave") {
                transition = .leave
            } else if f.event.isString {
                throw FeedRefusal(
                    .unreadable, "the OwnTracks transition event is \"\(JSONLine.text(p, f.event))\", not enter or leave")
            } else {
                throw FeedRefusal(.unreadable, "the OwnTracks transition has no event (enter or leave)")
            }
            guard f.desc.isString else {
                throw FeedRefusal(.unreadable, "the OwnTracks transition has no desc naming its region")
            }
            let fix = try ownTracksFix(f, p, owner: "the OwnTracks transition")
            if let refusal = FixCheck.refusal(fix, now: now) {
                items.append(refusal)
            } else {
                items.append(.transition(OwnTracksTransition(place: JSONLine.text(p, f.desc), transition: transition, fix: fix)))
            }
        }
    }

    private static func ownTracksFix(_ f: JSONFields, _ p: UnsafeBufferPointer<UInt8>, owner: String) throws(FeedRefusal) -> Fix {
        let latitude = try position(f.lat, "lat", p, owner: owner)
        let longitude = try position(f.lon, "lon", p, owner: owner)
        // wtst is when the region was defined, a last resort for a time.
        let stamp = f.tst.isAbsent ? f.wtst : f.tst
        guard !stamp.isAbsent else { throw FeedRefusal(.noTime, "\(owner) has no tst") }
        guard stamp.kind == .number, let seconds = ByteNumbers.unixSeconds(p, stamp.start, stamp.end) else {
            throw FeedRefusal(.noTime, "\(owner) tst is not seconds since 1970")
        }
        let accuracy = try number(f.acc, "acc", p)
        return Fix(time: Instant(seconds: seconds), latitude: latitude, longitude: longitude, accuracy: FixCheck.accuracy(accuracy))
    }

    // MARK: Values

    /// A number, nil when the key is absent or null.
    @inline(__always)
    private static func number(_ value: JSONValue, _ key: StaticString, _ p: UnsafeBufferPointer<UInt8>) throws(FeedRefusal) -> Double? {
        switch value.kind {
        case .absent, .null:
            return nil
        case .number:
            guard let number = ByteNumbers.decimal(p, value.start, value.end) else {
                throw FeedRefusal(.unreadable, "\"\(key)\" is \(ByteNumbers.quoted(p, value.start, value.end)), which is not a JSON number")
            }
            return number
        default:
            throw FeedRefusal(.unreadable, "\"\(key)\" is not a number")
        }
    }

    @inline(__always)
    private static func position(_ value: JSONValue, _ key: StaticString, _ p: UnsafeBufferPointer<UInt8>, owner: @autoclosure () -> String) throws(FeedRefusal) -> Double {
        guard let number = try number(value, key, p) else {
            throw FeedRefusal(.notAFix, "\(owner()) has no \(key)")
        }
        return number
    }
}
