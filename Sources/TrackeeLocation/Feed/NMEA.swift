// Over 400 lines on purpose: one decoder whose sentence readers (RMC, GGA,
// GNS, GST) fill the same epoch and share its state.
import TrackeeCore

/// NMEA 0183 sentences grouped into epochs, one fix per epoch.
///
/// A receiver sends several sentences for each moment it measures (RMC,
/// GGA, GNS, GST, …), all stamped with the same UTC time of day: an epoch.
/// The epoch's fix takes its time to the millisecond from that time of
/// day, its position from the GGA or GNS (or else the RMC), its date from
/// its own RMC or else the last dated epoch, and its accuracy from the GST
/// (the root of the sum of the latitude and longitude variances), or else
/// 5 m × the GGA's or GNS's HDOP. An epoch is complete when a sentence with
/// another time arrives, or at the end of the input, so a live feed's fix
/// comes one epoch late.
///
/// A receiver that says it is simulating (GGA quality 8, mode indicator S)
/// or dead reckoning (GGA quality 6, mode indicator E) in any sentence of
/// an epoch gives no fix for it, whatever the other sentences say.
///
/// Only RMC, GGA, GNS and GST are read, from any talker; their checksum
/// must be present and right. Other sentences are not even checked.
struct NMEAEpochs {
    /// What went wrong with an epoch's position; kept as a small value and
    /// written out only if no sentence of the epoch gives a position, or
    /// if one said the receiver simulates or dead reckons.
    enum Problem {
        case rmcVoid
        case rmcStatus(UInt8)
        case ggaNoFix
        case modeNotValid(Sentence)
        case emptyField(Sentence, Field)
        case badField(Sentence, Field)
        /// These two refuse the epoch even when another sentence gives a position.
        case simulator(Sentence)
        case deadReckoning(Sentence)
    }

    enum Sentence: String { case RMC, GGA, GNS }
    enum Field: String { case latitude, longitude, hemisphere = "N/S or E/W", quality = "fix quality" }

    struct Epoch {
        /// Milliseconds since midnight UTC.
        var timeOfDay: Int
        /// Days since 1970, from an RMC of this epoch.
        var day: Int64?
        var latitude = 0.0
        var longitude = 0.0
        var hasPosition = false
        /// From a GGA or GNS: one with an HDOP, which wins over the RMC's.
        var positionWithHDOP = false
        var positionSentence = Sentence.RMC
        /// A sentence said the receiver simulates or dead reckons (the problem says which).
        var refused = false
        var hdop: Double?
        var gstAccuracy: Double?
        var problem: Problem?
        var sawGGA = false
        /// The lines that gave its problem and its position: where what
        /// the epoch gives is reported.
        var problemLine = 0
        var positionLine = 0
        var line: Int { hasPosition && !refused ? positionLine : problemLine }
    }

    /// The epoch being read, when `hasPending`: kept in place rather than
    /// as an optional, so a sentence changes it without copying it.
    private var pending = Epoch(timeOfDay: 0)
    private var hasPending = false
    /// How many of the items the last call appended come from an epoch
    /// it completed, and that epoch's line (a fix appears one epoch late).
    private(set) var completed: (count: Int, line: Int) = (0, 0)
    /// The last epoch that had a date, for the epochs that have none.
    private var reference: (day: Int64, timeOfDay: Int)?

    /// Reads one sentence, `$` at `start`, without its line end.
    mutating func sentence(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, number: Int, now: Instant,
                           into items: inout [FeedItem])
    {
        completed = (0, 0)
        // Proprietary sentences ($P…) are not read.
        if end - start >= 2 && p[start + 1] == UInt8(ascii: "P") { return }
        // "$GPRMC," at least: a talker and a type of letters or digits, then a comma.
        var wellFormed = end - start >= 7 && p[start + 6] == UInt8(ascii: ",")
        for k in 1...5 where wellFormed && !isUpperOrDigit(p[start + k]) { wellFormed = false }
        guard wellFormed else {
            items.append(.ignored(.unreadable, message: "\"\(ByteNumbers.quoted(p, start, end))\" is not an NMEA sentence"))
            return
        }
        let type = UInt32(p[start + 3]) << 16 | UInt32(p[start + 4]) << 8 | UInt32(p[start + 5])
        let kind: Kind
        switch type {
        case 0x524D43: kind = .rmc  // RMC
        case 0x474741: kind = .gga  // GGA
        case 0x475354: kind = .gst  // GST
        case 0x474E53: kind = .gns  // GNS
        default: return
        }
        guard let star = checksum(p, start, end, into: &items) else { return }
        var fields = NMEAFields(p: p, index: start + 7, end: star)
        let time = fields.next()
        guard time.start < time.end else {
            items.append(.ignored(.noTime, message: "the \(kind.name) sentence has no time"))
            return
        }
        guard let timeOfDay = Self.timeOfDay(p, time.start, time.end) else {
            items.append(.ignored(.unreadable, message: "the \(kind.name) time \"\(ByteNumbers.quoted(p, time.start, time.end))\" is not hhmmss"))
            return
        }
        if hasPending && pending.timeOfDay != timeOfDay {
            let before = items.count
            let epoch = pending
            flush(epoch, now: now, into: &items)
            completed = (items.count - before, epoch.line)
            hasPending = false
        }
        if !hasPending {
            pending = Epoch(timeOfDay: timeOfDay)
            hasPending = true
        }
        let hadProblem = pending.problem != nil
        let wasRefused = pending.refused
        let hadPosition = pending.hasPosition
        let hadHDOPPosition = pending.positionWithHDOP
        switch kind {
        case .rmc: Self.rmc(&fields, &pending, p, into: &items)
        case .gga: Self.gga(&fields, &pending, p)
        case .gns: Self.gns(&fields, &pending, p)
        case .gst: Self.gst(&fields, &pending, p)
        }
        if (!hadProblem && pending.problem != nil) || (!wasRefused && pending.refused) { pending.problemLine = number }
        if pending.hasPosition && (!hadPosition || (!hadHDOPPosition && pending.positionWithHDOP)) { pending.positionLine = number }
    }

    /// Clears ``completed`` for a line that is no sentence.
    @inline(__always)
    mutating func forget() { if completed.count != 0 { completed = (0, 0) } }

    /// Flushes the last epoch.
    mutating func finish(now: Instant, into items: inout [FeedItem]) {
        completed = (0, 0)
        if hasPending {
            let epoch = pending
            flush(epoch, now: now, into: &items)
            completed = (items.count, epoch.line)
            hasPending = false
        }
    }

    private enum Kind {
        case rmc, gga, gns, gst
        var name: String {
            switch self {
            case .rmc: "RMC"
            case .gga: "GGA"
            case .gns: "GNS"
            case .gst: "GST"
            }
        }
    }

    @inline(__always)
    private func isUpperOrDigit(_ b: UInt8) -> Bool { b &- 0x41 < 26 || b &- 0x30 < 10 }

    /// Checks `*hh` at the end; returns the index of `*`, or nil after
    /// reporting why the sentence is refused.
    @inline(__always)
    private func checksum(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into items: inout [FeedItem]) -> Int? {
        let star = end - 3
        guard star > start, p[star] == UInt8(ascii: "*") else {
            var hasStar = false
            for i in start..<end where p[i] == UInt8(ascii: "*") { hasStar = true }
            items.append(.ignored(.checksum, message: hasStar
                ? "the NMEA checksum is not two hex digits at the end of the sentence"
                : "the NMEA sentence has no checksum (*hh at its end)"))
            return nil
        }
        guard let high = JSONLine.hexDigit(p[end - 2]), let low = JSONLine.hexDigit(p[end - 1]) else {
            items.append(.ignored(.checksum, message: "the NMEA checksum \"\(ByteNumbers.quoted(p, star + 1, end))\" is not two hex digits"))
            return nil
        }
        let said = high << 4 | low
        let computed = Self.xor(p, start + 1, star)
        guard said == computed else {
            items.append(.ignored(.checksum, message: "NMEA checksum is \(Self.hex(computed)), the sentence says \(Self.hex(said))"))
            return nil
        }
        return star
    }

    /// XOR of the bytes, eight at a time.
    @inline(__always)
    static func xor(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt8 {
        guard let base = p.baseAddress else { return 0 }
        var word: UInt64 = 0
        var i = start
        let raw = UnsafeRawPointer(base)
        while i + 8 <= end {
            word ^= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        word ^= word >> 32
        word ^= word >> 16
        word ^= word >> 8
        var sum = UInt8(truncatingIfNeeded: word)
        while i < end {
            sum ^= p[i]
            i += 1
        }
        return sum
    }

    static func hex(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4)], digits[Int(value & 15)]])
    }

    // MARK: Sentences

    /// `$xxRMC,time,status,lat,N,lon,E,speed,course,ddmmyy,variation,E/W,mode,…`
    /// (the mode indicator since NMEA 2.3).
    private static func rmc(_ fields: inout NMEAFields, _ epoch: inout Epoch, _ p: UnsafeBufferPointer<UInt8>, into items: inout [FeedItem]) {
        let status = fields.next()
        let position = (fields.next(), fields.next(), fields.next(), fields.next())
        _ = fields.next()  // speed
        _ = fields.next()  // course
        let date = fields.next()
        _ = fields.next()  // magnetic variation
        _ = fields.next()  // its direction
        let mode = fields.next()
        if date.start < date.end {
            if let day = Self.date(p, date.start, date.end) {
                epoch.day = day
            } else {
                items.append(.ignored(.unreadable, message: "the RMC date \"\(ByteNumbers.quoted(p, date.start, date.end))\" is not ddmmyy"))
            }
        }
        let modeLetter = mode.end - mode.start == 1 ? p[mode.start] : 0
        if modeLetter == UInt8(ascii: "S") { return refuse(.simulator(.RMC), &epoch) }
        if modeLetter == UInt8(ascii: "E") { return refuse(.deadReckoning(.RMC), &epoch) }
        guard status.end - status.start == 1, p[status.start] == UInt8(ascii: "A") else {
            let problem: Problem = status.end - status.start == 1 && p[status.start] == UInt8(ascii: "V")
                ? .rmcVoid : .rmcStatus(status.start < status.end ? p[status.start] : 0)
            if epoch.problem == nil { epoch.problem = problem }
            return
        }
        if modeLetter == UInt8(ascii: "N") {
            if epoch.problem == nil { epoch.problem = .modeNotValid(.RMC) }
            return
        }
        // GGA's or GNS's position wins when an epoch has both: it is the one with an HDOP.
        guard !epoch.positionWithHDOP else { return }
        take(position, from: .RMC, p, &epoch)
    }

    /// `$xxGGA,time,lat,N,lon,E,quality,satellites,hdop,…`
    private static func gga(_ fields: inout NMEAFields, _ epoch: inout Epoch, _ p: UnsafeBufferPointer<UInt8>) {
        epoch.sawGGA = true
        let position = (fields.next(), fields.next(), fields.next(), fields.next())
        let quality = fields.next()
        _ = fields.next()  // satellites
        let hdop = fields.next()
        guard quality.start < quality.end else {
            if epoch.problem == nil { epoch.problem = .emptyField(.GGA, .quality) }
            return
        }
        if quality.end - quality.start == 1 {
            switch p[quality.start] {
            case UInt8(ascii: "0"):
                if epoch.problem == nil { epoch.problem = .ggaNoFix }
                return
            case UInt8(ascii: "6"): return refuse(.deadReckoning(.GGA), &epoch)
            case UInt8(ascii: "8"): return refuse(.simulator(.GGA), &epoch)
            default: break
            }
        }
        takeWithHDOP(position, hdop, from: .GGA, p, &epoch)
    }

    /// `$xxGNS,time,lat,N,lon,E,mode,satellites,hdop,…`, where the mode has
    /// a letter per satellite system (GPS, GLONASS, Galileo, BeiDou, …).
    /// One S makes it a simulator; otherwise one letter of a measured fix
    /// (A, D, P, R, F, M, …) makes it a fix; otherwise one E makes it dead
    /// reckoning; all N (or none) is no fix.
    private static func gns(_ fields: inout NMEAFields, _ epoch: inout Epoch, _ p: UnsafeBufferPointer<UInt8>) {
        let position = (fields.next(), fields.next(), fields.next(), fields.next())
        let mode = fields.next()
        _ = fields.next()  // satellites
        let hdop = fields.next()
        var simulated = false
        var measured = false
        var estimated = false
        for i in mode.start..<mode.end {
            switch p[i] {
            case UInt8(ascii: "S"): simulated = true
            case UInt8(ascii: "E"): estimated = true
            case UInt8(ascii: "N"): break
            default: measured = true
            }
        }
        if simulated { return refuse(.simulator(.GNS), &epoch) }
        if !measured {
            if estimated { return refuse(.deadReckoning(.GNS), &epoch) }
            if epoch.problem == nil { epoch.problem = .modeNotValid(.GNS) }
            return
        }
        takeWithHDOP(position, hdop, from: .GNS, p, &epoch)
    }

    /// A GGA's or GNS's position, unless the epoch already has one of them.
    @inline(__always)
    private static func takeWithHDOP(
        _ position: (NMEAField, NMEAField, NMEAField, NMEAField), _ hdop: NMEAField, from sentence: Sentence,
        _ p: UnsafeBufferPointer<UInt8>, _ epoch: inout Epoch
    ) {
        guard !epoch.positionWithHDOP else { return }
        if take(position, from: sentence, p, &epoch) {
            epoch.positionWithHDOP = true
            epoch.positionSentence = sentence
            epoch.hdop = ByteNumbers.decimal(p, hdop.start, hdop.end)
        }
    }

    /// Marks the epoch as giving no fix whatever its other sentences say.
    /// The first sentence that said so is the one reported, unless a later
    /// one says simulator where it said dead reckoning.
    private static func refuse(_ problem: Problem, _ epoch: inout Epoch) {
        if epoch.refused {
            guard case .simulator = problem, case .deadReckoning = epoch.problem else { return }
        }
        epoch.problem = problem
        epoch.refused = true
    }

    /// `$xxGST,time,rms,major,minor,orientation,σlat,σlon,σalt`
    private static func gst(_ fields: inout NMEAFields, _ epoch: inout Epoch, _ p: UnsafeBufferPointer<UInt8>) {
        for _ in 0..<4 { _ = fields.next() }
        let sigmaLat = fields.next()
        let sigmaLon = fields.next()
        if let a = ByteNumbers.decimal(p, sigmaLat.start, sigmaLat.end), let b = ByteNumbers.decimal(p, sigmaLon.start, sigmaLon.end) {
            epoch.gstAccuracy = (a * a + b * b).squareRoot()
        }
    }

    /// Sets the epoch's position from `lat,N,lon,E`; false (with the
    /// epoch's problem set) when a field is empty or unreadable.
    @inline(__always) @discardableResult
    private static func take(
        _ f: (NMEAField, NMEAField, NMEAField, NMEAField), from sentence: Sentence, _ p: UnsafeBufferPointer<UInt8>,
        _ epoch: inout Epoch
    ) -> Bool {
        func fail(_ problem: Problem) -> Bool {
            if epoch.problem == nil { epoch.problem = problem }
            return false
        }
        if f.0.start == f.0.end { return fail(.emptyField(sentence, .latitude)) }
        if f.2.start == f.2.end { return fail(.emptyField(sentence, .longitude)) }
        guard var latitude = Self.degrees(p, f.0.start, f.0.end) else { return fail(.badField(sentence, .latitude)) }
        guard var longitude = Self.degrees(p, f.2.start, f.2.end) else { return fail(.badField(sentence, .longitude)) }
        guard f.1.end - f.1.start == 1, f.3.end - f.3.start == 1 else {
            return fail(f.1.start == f.1.end || f.3.start == f.3.end ? .emptyField(sentence, .hemisphere) : .badField(sentence, .hemisphere))
        }
        switch p[f.1.start] {
        case UInt8(ascii: "N"): break
        case UInt8(ascii: "S"): latitude = -latitude
        default: return fail(.badField(sentence, .hemisphere))
        }
        switch p[f.3.start] {
        case UInt8(ascii: "E"): break
        case UInt8(ascii: "W"): longitude = -longitude
        default: return fail(.badField(sentence, .hemisphere))
        }
        epoch.latitude = latitude
        epoch.longitude = longitude
        epoch.hasPosition = true
        return true
    }

    // MARK: Epochs

    private mutating func flush(_ epoch: Epoch, now: Instant, into items: inout [FeedItem]) {
        var day = epoch.day
        if day == nil, let reference {
            // A time of day far below the reference's is after midnight;
            // far above it, a late sentence from before midnight.
            let half = 43_200_000
            day = reference.day + (epoch.timeOfDay + half < reference.timeOfDay ? 1 : epoch.timeOfDay > reference.timeOfDay + half ? -1 : 0)
        }
        if let day { reference = (day, epoch.timeOfDay) }
        guard epoch.hasPosition && !epoch.refused else {
            if let problem = epoch.problem { items.append(Self.describe(problem)) }
            return
        }
        guard let day else {
            let s = epoch.timeOfDay / 1000
            let clock = "\(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2))"
            items.append(.ignored(.noDate, message: "the \(epoch.positionSentence.rawValue) fix at \(clock) UTC came before any RMC gave the date"))
            return
        }
        let accuracy = epoch.gstAccuracy ?? epoch.hdop.map { $0 * 5 }
        let time = FixTime(milliseconds: day * 86_400_000 + Int64(epoch.timeOfDay))
        FixCheck.append(
            Fix(time: time, latitude: epoch.latitude, longitude: epoch.longitude, accuracy: FixCheck.accuracy(accuracy)),
            now: now, into: &items)
    }

    private static func describe(_ problem: Problem) -> FeedItem {
        switch problem {
        case .rmcVoid: return .ignored(.notAFix, message: "RMC status is V (no fix)")
        case .rmcStatus(let b):
            return .ignored(.notAFix, message: b == 0 ? "the RMC status is empty" : "RMC status is \(Character(Unicode.Scalar(b))), not A")
        case .ggaNoFix: return .ignored(.notAFix, message: "GGA fix quality is 0 (no fix)")
        case .modeNotValid(let sentence):
            return .ignored(.notAFix, message: "the \(sentence.rawValue) mode indicator says N (not valid)")
        case .simulator(.GGA): return .ignored(.simulator, message: "GGA fix quality is 8: the receiver is in simulator mode")
        case .simulator(let sentence):
            return .ignored(.simulator, message: "the \(sentence.rawValue) mode indicator says S: the receiver is in simulator mode")
        case .deadReckoning(.GGA):
            return .ignored(.deadReckoning, message: "GGA fix quality is 6: the position is dead reckoned, not measured")
        case .deadReckoning(let sentence):
            return .ignored(.deadReckoning, message: "the \(sentence.rawValue) mode indicator says E: the position is dead reckoned, not measured")
        case .emptyField(let sentence, let field): return .ignored(.notAFix, message: "the \(sentence.rawValue) \(field.rawValue) field is empty")
        case .badField(let sentence, let field): return .ignored(.unreadable, message: "the \(sentence.rawValue) \(field.rawValue) field is unreadable")
        }
    }

    // MARK: Fields

    /// `hhmmss` with an optional fraction (receivers write hundredths or
    /// thousandths), as milliseconds since midnight; digits past the third
    /// are dropped.
    static func timeOfDay(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard end - start >= 6 else { return nil }
        // Every sentence has one: six digits read at once.
        let h1 = p[start] &- 0x30, h2 = p[start + 1] &- 0x30, m1 = p[start + 2] &- 0x30
        let m2 = p[start + 3] &- 0x30, s1 = p[start + 4] &- 0x30, s2 = p[start + 5] &- 0x30
        guard h1 < 10, h2 < 10, m1 < 10, m2 < 10, s1 < 10, s2 < 10 else { return nil }
        let h = Int(h1) * 10 + Int(h2)
        let m = Int(m1) * 10 + Int(m2)
        let s = Int(s1) * 10 + Int(s2)
        guard h < 24, m < 60, s <= 60 else { return nil }
        var milliseconds = 0
        var i = start + 6
        if i < end {
            guard p[i] == UInt8(ascii: ".") else { return nil }
            i += 1
            var scale = 100
            while i < end {
                let d = p[i] &- 0x30
                guard d < 10 else { return nil }
                milliseconds += Int(d) * scale
                scale /= 10
                i += 1
            }
        }
        return (h * 3600 + m * 60 + s) * 1000 + milliseconds
    }

    /// `ddmmyy` as days since 1970; two-digit years 80–99 are 1980–1999.
    static func date(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
        guard end - start == 6, let d = ByteNumbers.digits(p, start, 2), let m = ByteNumbers.digits(p, start + 2, 2),
            let y = ByteNumbers.digits(p, start + 4, 2)
        else { return nil }
        let date = LocalDate(year: y >= 80 ? 1900 + y : 2000 + y, month: m, day: d)
        return date.isValid ? date.daysSinceEpoch : nil
    }

    /// `ddmm.mmmm` or `dddmm.mmmm` as degrees. The minutes are summed as an
    /// integer count of their last digit, so `4807.500` is exactly 48.125.
    static func degrees(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        // Wrapping arithmetic: six digits, twelve digits of fraction and
        // their scale are far from overflowing.
        var i = start
        var whole: UInt64 = 0
        let wholeEnd = min(end, start + 6)
        while i < wholeEnd {
            let d = p[i] &- 0x30
            guard d < 10 else { break }
            whole = whole &* 10 &+ UInt64(d)
            i &+= 1
        }
        guard i - start >= 3 else { return nil }
        var fraction: UInt64 = 0
        var fractionDigits = 0
        var scale: UInt64 = 1
        if i < end, p[i] == UInt8(ascii: ".") {
            i &+= 1
            while i < end {
                let d = p[i] &- 0x30
                guard d < 10 else { break }
                // Twelve digits keep the sum below 2^53, so it is exact.
                if fractionDigits < 12 {
                    fraction = fraction &* 10 &+ UInt64(d)
                    scale = scale &* 10
                    fractionDigits &+= 1
                }
                i &+= 1
            }
        }
        guard i == end else { return nil }
        let minutes = whole % 100
        guard minutes < 60 else { return nil }
        let units = Double(minutes &* scale &+ fraction)
        return Double(whole / 100) + units / (60 * Double(scale))
    }
}

/// A field's byte range.
typealias NMEAField = (start: Int, end: Int)

/// Walks a sentence's comma-separated fields; past the last one, every
/// field reads as empty.
struct NMEAFields {
    let p: UnsafeBufferPointer<UInt8>
    var index: Int
    let end: Int

    @inline(__always)
    mutating func next() -> NMEAField {
        let start = index
        // Eight bytes at a time while eight remain: most fields are shorter,
        // so one word usually finds the comma. A byte that is a comma becomes
        // zero after the XOR; the lowest flagged byte is the first zero.
        if let base = p.baseAddress {
            while index + 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let x = word ^ 0x2C2C_2C2C_2C2C_2C2C
                let zero = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                if zero != 0 {
                    index += zero.trailingZeroBitCount >> 3
                    let fieldEnd = index
                    index += 1
                    return (start, fieldEnd)
                }
                index += 8
            }
        }
        while index < end, p[index] != UInt8(ascii: ",") { index += 1 }
        let fieldEnd = index
        if index < end { index += 1 }
        return (start, fieldEnd)
    }
}
