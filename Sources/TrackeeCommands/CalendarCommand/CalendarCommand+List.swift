import ArgumentParser
import Glibc
import TrackeeAutomation
import TrackeeCalendar
import TrackeeCore

extension Trackee.CalendarCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Print the occurrences of a calendar that overlap a window, in start order.",
            discussion: """
                CALENDAR is a name from the calendars: section of the rule files, or the path \
                of an .ics file or a vdir folder. Recurring events are expanded: exclusions \
                removed, moved and changed instances in their new place, cancelled ones \
                marked (they never fire a trigger). Times are in the local zone with their \
                offset; an all-day event runs from one local midnight to another. \
                What the calendar's files get wrong is skipped (a line, an event) or read as \
                floating time (an unknown TZID), each with a warning on stderr naming the \
                file and line; --strict makes any warning an error (exit 65).
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        @Argument(help: "A calendar name from the rule files, or an .ics file or vdir folder.")
        var calendar: String

        @OptionGroup var window: RangeOptions

        @Flag(help: "Exit with status 65, listing nothing, when anything in the calendar had to be skipped or read as floating time.")
        var strict = false

        func run() throws {
            try Session.run(common) { session in
                let (start, end) = try window.range(session)
                Self.keepFreedMemory()
                let loaded = try load(session)
                for line in CalendarWarning.shown(loaded.warnings, first: CalendarFiles.shownWarnings) {
                    writeAll(2, "trackee: \(line)\n")
                }
                if strict && !loaded.warnings.isEmpty {
                    let count = loaded.warnings.count
                    throw CommandFailure(message: "\(count) calendar warning\(count == 1 ? "" : "s") (--strict)", status: 65)
                }
                let occurrences = loaded.occurrences(from: start, to: end)
                if session.out.json {
                    Self.writeJSON(occurrences, zone: session.zone, to: 1)
                } else {
                    if occurrences.isEmpty {
                        session.out.line("no events from \(session.zone.iso8601(start)) to \(session.zone.iso8601(end))")
                    }
                    for o in occurrences { session.out.line(Self.text(o, session)) }
                }
                // Everything is written (unbuffered); freeing a busy
                // year's occurrences and the calendar one by one would
                // cost about a tenth of the run, for a process that ends.
                Glibc.exit(0)
            }
        }

        /// A year of a busy calendar allocates and frees tens of
        /// megabytes in large blocks; malloc keeps what is freed for the
        /// next block instead of handing it back and faulting it in
        /// again (about a tenth of a listing's time). The process ends
        /// soon after.
        private static func keepFreedMemory() {
            // M_MMAP_THRESHOLD, M_TRIM_THRESHOLD and M_TOP_PAD from <malloc.h>.
            _ = mallopt(-3, 1 << 30)
            _ = mallopt(-1, 1 << 30)
            _ = mallopt(-2, 64 << 20)
        }

        /// A calendar named in the rules, else a path.
        private func load(_ session: Session) throws -> EventCalendar {
            let defined = session.loadRules(rules.paths, calendars: false).automation.ruleSet.calendars
            let source = defined.first { $0.name == calendar }
            let path = source.map { XDGDirectories.expandingHome($0.path, environment: session.environment) } ?? calendar
            do {
                return try EventCalendar.load(name: source?.name ?? calendar, path: path, zone: session.zone)
            } catch {
                if source == nil && error.line == 0 && !calendar.contains("/") {
                    let names = defined.map { "\"\($0.name)\"" }.joined(separator: ", ")
                    throw CommandFailure.config(
                        "\(calendar): no such calendar file or folder, and no calendar of that name in the rules"
                            + (names.isEmpty ? "" : " (calendars: \(names))"))
                }
                throw CommandFailure.config("\(error)")
            }
        }

        /// `START  END  SUMMARY (all day) [cancelled]  uid UID  recurrence RID`.
        static func text(_ o: CalendarOccurrence, _ session: Session) -> String {
            let zone = session.zone
            var line = "\(zone.iso8601(o.start))  \(zone.iso8601(o.end))  \(o.summary.isEmpty ? "(no summary)" : o.summary)"
            if o.allDay { line += " (all day)" }
            if o.status != .confirmed { line += " [\(o.status.rawValue)]" }
            line += session.out.dim("  uid \(o.uid)")
            if let id = o.recurrenceID { line += session.out.dim("  recurrence \(zone.iso8601(id.instant(in: zone)))") }
            return line
        }

        /// One array of objects with the keys trackee(1) lists, written
        /// by hand straight into memory, in slices formatted side by
        /// side: a year of a busy calendar is 200,000 objects.
        static func writeJSON(_ occurrences: [CalendarOccurrence], zone: Zone, to fd: Int32) {
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
}

/// glibc's mallopt(3), which Swift's Glibc module leaves out (it lives in
/// <malloc.h>).
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
