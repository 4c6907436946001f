import TrackeeCore

/// Occurrences as the JSON array `trackee calendar list --json` prints:
/// one object each, keys in order (`all_day`, `calendar`, `end`,
/// `recurrence_id`, `start`, `status`, `summary`, `uid`), times in the
/// zone with their offset.
public enum OccurrenceJSON {
    /// One array of objects with the keys trackee(1) lists, written
    /// by hand straight into memory, in slices formatted side by
    /// side: a year of a busy calendar is 200,000 objects.
    public static func write(_ occurrences: [CalendarOccurrence], zone: Zone, to fd: Int32) {
        writeAll(fd, "[")
        // Blocks of 40,000, each formatted in slices side by side,
        // so memory stays flat however long the list.
        var first = 0
        while first < occurrences.count {
            let block = first..<min(first + 40_000, occurrences.count)
            let slices = Parallel.map(count: block.count, minimum: 10_000) { slice -> [UInt8] in
                occurrences.withUnsafeBufferPointer { all in
                    write(UnsafeBufferPointer(rebasing: all[block]), slice, zone: zone,
                          comma: block.lowerBound + slice.lowerBound > 0)
                }
            }
            for bytes in slices { bytes.withUnsafeBufferPointer { writeAll(fd, $0) } }
            first = block.upperBound
        }
        writeAll(fd, "]\n")
    }

    /// The objects of `block[slice]`, each after a comma but the
    /// very first.
    private static func write(_ block: UnsafeBufferPointer<CalendarOccurrence>, _ slice: Range<Int>, zone: Zone,
                              comma: Bool) -> [UInt8] {
        // Each event's text once, then room for everything.
        var texts = TextFragments()
        var room = 0
        for index in slice {
            let place = texts.place(of: block[index].text)
            room += perObject + place.end - place.start
        }
        var times = ISO8601Writer(zone: zone)
        return [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
            var out = buffer.baseAddress!
            func put(_ text: StaticString) {
                out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
                out += text.utf8CodeUnitCount
            }
            func put(_ instant: Instant) {
                let written = times.write(instant, to: out)
                if written.fits {
                    out += written.count
                } else {
                    for byte in zone.iso8601(instant).utf8 {
                        out.pointee = byte
                        out += 1
                    }
                }
            }
            for index in slice {
                let o = block[index]
                if comma || index > slice.lowerBound { put(",") }
                let place = texts.place(of: o.text)
                put(o.allDay ? "{\"all_day\":true,\"calendar\":" : "{\"all_day\":false,\"calendar\":")
                out = texts.copy(place.start..<place.calendar, to: out)
                put(",\"end\":\"")
                put(o.end)
                put("\",\"recurrence_id\":")
                if let id = o.recurrenceID {
                    put("\"")
                    put(id.instant(in: zone))
                    put("\"")
                } else {
                    put("null")
                }
                put(",\"start\":\"")
                put(o.start)
                put("\",\"status\":\"")
                switch o.status {
                case .confirmed: put("confirmed")
                case .tentative: put("tentative")
                case .cancelled: put("cancelled")
                }
                out = texts.copy(place.calendar..<place.end, to: out)
            }
            count = buffer.baseAddress!.distance(to: out)
        }
    }

    /// The most bytes an object takes besides its event's text: the
    /// keys, three times (a year outside 0…9999 takes up to 40
    /// bytes), a status and a comma.
    static let perObject = 160 + 3 * 40

    /// The JSON of an event's text, written once per event rather
    /// than once per occurrence, into one buffer: the calendar's
    /// name, then the rest of the object from the summary on.
    struct TextFragments {
        private var known: [ObjectIdentifier: (start: Int, calendar: Int, end: Int)] = [:]
        private var buffer = ExportBuffer(capacity: 1 << 16)

        /// Where `text`'s calendar name (`start..<calendar`) and the
        /// rest of its object (`calendar..<end`) are in the buffer.
        mutating func place(of text: CalendarOccurrence.EventText) -> (start: Int, calendar: Int, end: Int) {
            if let known = known[ObjectIdentifier(text)] { return known }
            let start = buffer.bytes.count
            buffer.writeJSONString(text.calendar)
            let middle = buffer.bytes.count
            buffer.write(literal: "\",\"summary\":")
            buffer.writeJSONString(text.summary)
            buffer.write(literal: ",\"uid\":")
            buffer.writeJSONString(text.uid)
            buffer.write(byte: UInt8(ascii: "}"))
            known[ObjectIdentifier(text)] = (start, middle, buffer.bytes.count)
            return (start, middle, buffer.bytes.count)
        }

        /// Copies `range` of the buffer to `out`; returns the end.
        func copy(_ range: Range<Int>, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            buffer.bytes.withUnsafeBufferPointer { (out).update(from: $0.baseAddress! + range.lowerBound, count: range.count) }
            return out + range.count
        }
    }
}
