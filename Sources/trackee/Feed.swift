import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeDaemon
import TrackeeLocation
import TrackeeRules
import TrackeeStore

extension FeedFormat: ListedArgument {}

extension Trackee {
    struct Feed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "feed",
            abstract: "Read GPS fixes and fire arrive and leave rules as they come.",
            discussion: """
                Reads fixes from the files, or from standard input when none is given (so \
                gpspipe -w | trackee feed acts live): NMEA 0183, gpsd JSON, OwnTracks JSON (also as \
                mosquitto_sub -v prints it), GPX 1.1 or CSV (time,lat,lon[,accuracy]). Each fix goes \
                through the geofences of the places in the rule files; an arrive or leave fires the \
                rules that wait for it, at the time of the fix that began it. Lines that are not \
                fixes are counted, the first few shown with their line number. Ends with a count of \
                lines read, fixes used, fixes ignored and why, and rules fired.
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        @Option(help: "The input format; auto tells lines apart by their first byte and keys (GPX by file).")
        var format: FeedFormat = .auto

        @Flag(help: "Print each transition and what its rules would do, on a throwaway store; change nothing.")
        var dryRun = false

        @Flag(help: "Exit with status 65 when any line was rejected (not a fix, malformed, impossible).")
        var strict = false

        @Argument(help: "Files to read, in order (default: standard input).")
        var files: [String] = []

        func run() throws {
            try Session.run(common) { session in
                let automation = try session.strictRules(rules, calendars: false)
                // Every file is opened first: one that cannot be read stops
                // the feed before the store is touched.
                var inputs: [(fd: Int32, name: String)] = []
                defer { for input in inputs { Glibc.close(input.fd) } }
                for file in files { inputs.append((try Self.open(file), file)) }
                var run = try FeedRun(session: session, automation: automation, dryRun: dryRun)
                defer { run.close() }
                if files.isEmpty {
                    try run.read(fd: 0, name: "stdin", format: format)
                } else {
                    for input in inputs { try run.read(fd: input.fd, name: input.name, format: format) }
                }
                try run.finish()
                if strict && run.counts.rejected > 0 {
                    throw CommandFailure(message: "\(run.counts.rejected) rejected line\(run.counts.rejected == 1 ? "" : "s") (--strict)", status: 65)
                }
            }
        }

        /// Opens an input file for reading; one that is missing, unreadable
        /// or a folder is EX_NOINPUT with its path.
        private static func open(_ file: String) throws -> Int32 {
            let fd = Glibc.open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw CommandFailure.noInput("\(file): cannot read it (\(String(cString: strerror(errno))))")
            }
            var info = stat()
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                Glibc.close(fd)
                throw CommandFailure.noInput("\(file): cannot read it (it is a directory)")
            }
            return fd
        }
    }
}

/// What a feed counted, for its closing line.
struct FeedCounts: Encodable {
    var lines = 0
    var fixes = 0
    var used = 0
    var ignored: [String: Int] = [:]
    var transitions = 0
    var fired = 0

    /// Lines the input got wrong (not ignored fixes that were merely
    /// inaccurate, repeated or already seen).
    var rejected: Int { IgnoredReason.allCases.reduce(0) { $0 + (ignored[$1.rawValue] ?? 0) } }

    mutating func ignore(_ reason: String) { ignored[reason, default: 0] += 1 }

    /// Reasons the decoder refuses a whole fix, a position with its time,
    /// rather than a line that holds none: these count among `fixes`, as a
    /// stale or inaccurate fix does, so a file of fixes says how many it had
    /// whatever became of them.
    static let refusedFixes: Set<IgnoredReason> = [.future, .simulator, .deadReckoning]
}

/// One run of `trackee feed`: decoders, the place source, the store, the
/// counts and the warnings.
struct FeedRun {
    let session: Session
    let automation: Automation
    let dryRun: Bool
    let store: Store
    let runner: Runner
    var source: PlaceSource
    var counts = FeedCounts()
    /// Places a `place:` condition asks about: rules see their plain state.
    let conditionPlaces: Set<String>
    private var warnings = 0
    private var scratch: Scratch?
    private var shownTransitions: Set<String> = []
    static let shownWarnings = 5

    init(session: Session, automation: Automation, dryRun: Bool) throws {
        self.session = session
        self.automation = automation
        self.dryRun = dryRun
        conditionPlaces = Self.placesInConditions(automation.ruleSet.rules)
        if dryRun {
            // A copy of the real store, if there is one, so transitions and
            // rules are judged as the real run would judge them (place
            // states, the timer, the firing ledger, focus); nothing is
            // written to the real one.
            let location = StoreLocation.resolve(explicit: session.common.store, environment: session.environment)
            let scratch = try Scratch()
            self.scratch = scratch
            let path = scratch.path + "/feed.sqlite3"
            if FileManager.default.fileExists(atPath: location.path) {
                try Store(location: location).copy(to: path)
            }
            store = try Store(path: path)
        } else {
            store = try session.openStore()
        }
        let stored = try store.placeTrackers()
        runner = session.runner(store, performSideEffects: !dryRun, batchTraces: true)
        source = PlaceSource(automation, stored: stored, defaultAccuracy: session.settings.defaultAccuracy)
    }

    func close() { scratch?.remove() }

    /// Reads one input to its end, line by line (GPX by chunks).
    mutating func read(fd: Int32, name: String, format: FeedFormat) throws {
        let session = session
        counts.lines += try FeedInput.read(fd: fd, format: format, now: session.now, clock: session.currentTime) {
            try take($0, line: $1, name: name)
        }
    }

    private mutating func take(_ items: some Collection<FeedItem>, line: Int, name: String) throws {
        for item in items {
            switch item {
            case .fix, .transition:
                counts.fixes += 1
                guard let outcome = source.take(item) else { continue }
                if let ignored = outcome.ignored {
                    counts.ignore(ignored.rawValue)
                    continue
                }
                counts.used += 1
                // Fired before the new states are stored: a crash between
                // the two takes the fix again next time, and the ledger
                // turns its firing away; the other way round it would be lost.
                try fire(outcome.events)
                if !outcome.changed.isEmpty && !dryRun { try store.savePlaceTrackers(outcome.changed) }
            case .ignored(let reason, let message):
                if FeedCounts.refusedFixes.contains(reason) { counts.fixes += 1 }
                counts.ignore(reason.rawValue)
                warn("\(name):\(line): \(message)")
            case .notLocation:
                counts.ignore("not_location")
            }
        }
    }

    private mutating func fire(_ events: [TriggerEvent]) throws {
        for event in events {
            guard case .place(let p) = event.kind else { continue }
            // A crossing no rule sees (a leave shorter than every leave
            // rule's dwell, at a place no place: condition names) only
            // keeps the place's state: it is not shown or counted, so feed,
            // its dry run and simulate --feed report the same transitions.
            // Kept as a trace all the same, so `rules why` can say no rule
            // waited for it.
            guard automation.engine.considers(event, zone: session.zone)
                || (p.dwell == 0 && p.source == .fixes && conditionPlaces.contains(p.place))
            else {
                if let trace = automation.engine.unawaited(event, noticed: max(session.now, event.time)) { runner.record(trace) }
                continue
            }
            // One place crossing is one transition, however many dwells
            // (`for:`) the rules watch it with.
            let shown = "\(p.place)\u{0}\(p.transition.rawValue)\u{0}\(event.time.seconds)\u{0}\(p.source.rawValue)"
            let first = shownTransitions.insert(shown).inserted
            if first { counts.transitions += 1 }
            let accuracy = p.fix.accuracy.map { ", accuracy \(Int($0.rounded())) m" } ?? ""
            if first && !session.out.json {
                // The fix's own time, to the millisecond; the rules fire at its whole second.
                session.out.line("\(session.zone.iso8601(p.fix.time))  \(p.transition.rawValue) \(p.place)"
                                 + (p.source == .owntracks ? " (OwnTracks)" : "") + accuracy)
            }
            let reports = try runner.handle(event, automation: automation, now: max(session.now, event.time),
                                            inside: source.inside)
            for report in reports {
                if case .fired = report.status { counts.fired += 1 }
                guard !session.out.json else { continue }
                if dryRun {
                    for line in session.dryRunLines(report) { session.out.line(line) }
                } else {
                    session.out.line(session.describe(report))
                }
            }
        }
    }

    /// The places named by the `place:` conditions of enabled rules, at any depth.
    static func placesInConditions(_ rules: [Rule]) -> Set<String> {
        func places(_ condition: Condition) -> Set<String> {
            switch condition {
            case .place(let name): [name]
            case .any(let conditions), .all(let conditions): conditions.reduce(into: []) { $0.formUnion(places($1)) }
            case .not(let inner): places(inner)
            case .weekdays, .time, .focus, .timer: []
            }
        }
        return rules.filter(\.enabled).reduce(into: []) { names, rule in
            for condition in rule.conditions { names.formUnion(places(condition)) }
        }
    }

    private mutating func warn(_ text: String) {
        warnings += 1
        if warnings <= Self.shownWarnings { writeAll(2, "trackee: \(text)\n") }
    }

    /// Stores every tracker (with the last fix each took) and prints the
    /// counts.
    mutating func finish() throws {
        runner.flushTraces()
        if !dryRun { try store.savePlaceTrackers(source.trackersToStore) }
        if warnings > Self.shownWarnings {
            writeAll(2, "trackee: … and \(warnings - Self.shownWarnings) more ignored line\(warnings - Self.shownWarnings == 1 ? "" : "s")\n")
        }
        if session.out.json {
            session.out.emit(counts)
            return
        }
        let reasons = counts.ignored.sorted { $0.key < $1.key }.map { "\($0.key.replacingOccurrences(of: "_", with: " ")) \($0.value)" }
        let ignored = counts.ignored.values.reduce(0, +)
        session.out.line("read \(counts.lines) line\(counts.lines == 1 ? "" : "s"), \(counts.used) fix\(counts.used == 1 ? "" : "es") used, "
                         + "\(ignored) ignored" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")
                         + ", \(counts.transitions) transition\(counts.transitions == 1 ? "" : "s"), "
                         + "\(counts.fired) rule\(counts.fired == 1 ? "" : "s") fired" + (dryRun ? " (dry run)" : ""))
    }
}

/// One input's feed items, each with the line it comes from: lines through
/// ``FeedDecoder`` (an NMEA epoch's items with the line that gave them),
/// or a GPX document through ``GPXDecoder`` (a point's items with the line
/// of its start tag). Serves `feed` and `simulate --feed`.
enum FeedInput {
    /// Reads `fd` to its end and returns how many lines it had. `now`
    /// judges fixes from the future; `clock` moves it on now and then, for
    /// a pipe that runs for days. Inlined, so a feed's per-line `body` is
    /// a direct call.
    @inline(__always)
    static func read(fd: Int32, format: FeedFormat, now: Instant, clock: () -> Instant,
                     _ body: (ArraySlice<FeedItem>, Int) throws -> Void) throws -> Int {
        var reader = ChunkReader(fd: fd)
        var items: [FeedItem] = []
        if format == .gpx || (format == .auto && reader.peekFirstNonSpace() == UInt8(ascii: "<")) {
            var decoder = GPXDecoder(now: now)
            var lines: [Int] = []
            var done = false
            while !done {
                if let chunk = reader.nextChunk() {
                    chunk.withUnsafeBufferPointer { decoder.consume($0, into: &items, lines: &lines) }
                } else {
                    decoder.finish(into: &items, lines: &lines)
                    done = true
                }
                for (index, line) in lines.enumerated() { try body(items[index...index], line) }
                items.removeAll(keepingCapacity: true)
                lines.removeAll(keepingCapacity: true)
            }
            return decoder.linesRead
        }
        if FeedReadAhead.worthIt(fd) { return try FeedReadAhead.read(reader, format: format, now: now, body) }
        var decoder = FeedDecoder(format: format, now: now)
        var number = 0
        var atEnd = false
        while !atEnd {
            // Up to the next line that gives items, or to the end.
            reader.forEachLine { line in
                number += 1
                if number & 1023 == 0 { decoder.now = clock() }
                decoder.line(line, number: number, into: &items)
                return items.isEmpty
            }
            if items.isEmpty {
                decoder.finish(into: &items)
                atEnd = true
            }
            // The first `earlier.count` items come from an earlier line (an
            // NMEA epoch this line completed).
            let earlier = decoder.earlier
            if earlier.count > 0 { try body(items[..<earlier.count], earlier.line) }
            if earlier.count < items.count { try body(items[earlier.count...], number) }
            items.removeAll(keepingCapacity: true)
        }
        return number
    }
}

/// Reads a file descriptor in large chunks, handing out whole lines
/// without copying them (a line cut by a chunk's end is carried over).
struct ChunkReader {
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var atEnd = false

    init(fd: Int32) { self.fd = fd }

    /// Fills the buffer from the current position; false at the end.
    private mutating func fill() -> Bool {
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { b in
                _ = memmove(b.baseAddress!, b.baseAddress! + start, end - start)
            }
            end -= start
            start = 0
        }
        if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        while true {
            let n = buffer.withUnsafeMutableBufferPointer { b in Glibc.read(fd, b.baseAddress! + end, b.count - end) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                atEnd = true
                return false
            }
            end += n
            return true
        }
    }

    /// The first byte that is not white space, without consuming input.
    mutating func peekFirstNonSpace() -> UInt8? {
        while true {
            if let b = buffer[start..<end].first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) {
                return b
            }
            if atEnd || !fill() { return nil }
        }
    }

    /// The rest of the input as chunks.
    mutating func nextChunk() -> [UInt8]? {
        if start == end && (atEnd || !fill()) { return nil }
        let chunk = Array(buffer[start..<end])
        start = end
        return chunk
    }

    /// Calls `body` with each line (without its `\n`) until it returns
    /// false or the input ends; a last line without `\n` counts.
    mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        while true {
            var stop = false
            let consumed = buffer.withUnsafeBufferPointer { b -> Int in
                var lineStart = start
                guard let base = b.baseAddress else { return start }
                while lineStart < end {
                    guard let newline = memchr(base + lineStart, 0x0A, end - lineStart) else { break }
                    let at = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                    if !body(UnsafeBufferPointer(start: base + lineStart, count: at - lineStart)) {
                        stop = true
                        return at + 1
                    }
                    lineStart = at + 1
                }
                return lineStart
            }
            start = consumed
            if stop { return }
            if !fill() {
                if start < end {
                    buffer.withUnsafeBufferPointer { b in
                        _ = body(UnsafeBufferPointer(start: b.baseAddress! + start, count: end - start))
                    }
                    start = end
                }
                return
            }
        }
    }
}
