/// A hybrid logical clock stamp (Kulkarni et al., 2014): the wall clock in
/// milliseconds, a counter that orders stamps within one millisecond, and
/// the device that made it, which breaks the last tie. Stamps order every
/// change of every device the same way on every device: by `wall`, then
/// `counter`, then `device`.
///
/// A device whose clock runs behind still stamps its changes after every
/// change it has seen (its stamps follow the largest `wall` it has heard
/// of), and a clock that jumps back never makes a stamp smaller than the
/// last one. A stamp more than ``HybridClock/maximumLead`` ahead of the
/// local clock is refused, so one device with a wrong clock cannot push
/// every later change into its future.
public struct HybridStamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970, UTC.
    public var wall: Int64
    public var counter: Int32
    public var device: String

    public init(wall: Int64, counter: Int32, device: String) {
        self.wall = wall
        self.counter = counter
        self.device = device
    }

    public static func < (a: HybridStamp, b: HybridStamp) -> Bool {
        if a.wall != b.wall { return a.wall < b.wall }
        if a.counter != b.counter { return a.counter < b.counter }
        return a.device < b.device
    }

    /// `0001795165200000-00003-laptop`: fixed-width numbers first, so the
    /// text sorts as the stamps do (in SQL too, with a byte collation).
    public var description: String {
        // Written into one buffer: a pull writes one per change.
        guard wall >= 0, wall < 10_000_000_000_000_000, counter >= 0, counter < 100_000 else {
            return Self.padded(wall, 16) + "-" + Self.padded(Int64(counter), 5) + "-" + device
        }
        let name = device.utf8
        return String(unsafeUninitializedCapacity: 23 + name.count) { buffer in
            var value = wall
            for index in stride(from: 15, through: 0, by: -1) {
                buffer[index] = UInt8(0x30 + value % 10)
                value /= 10
            }
            buffer[16] = 0x2D
            var count = Int64(counter)
            for index in stride(from: 21, through: 17, by: -1) {
                buffer[index] = UInt8(0x30 + count % 10)
                count /= 10
            }
            buffer[22] = 0x2D
            _ = buffer[23...].initialize(from: name)
            return 23 + name.count
        }
    }

    /// The stamp `description` wrote; nil for anything else. Read byte by
    /// byte: a pull reads one per change.
    public init?(_ text: String) {
        var wall: Int64 = 0, counter: Int32 = 0
        var index = 0
        var device: Substring.UTF8View?
        let utf8 = text.utf8
        var position = utf8.startIndex
        while position != utf8.endIndex {
            let byte = utf8[position]
            switch index {
            case 0..<16:
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                wall = wall * 10 + Int64(byte - 0x30)
            case 16, 22:
                guard byte == 0x2D else { return nil }
            case 17..<22:
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                counter = counter * 10 + Int32(byte - 0x30)
            default:
                device = text[position...].utf8
            }
            if device != nil { break }
            index += 1
            position = utf8.index(after: position)
        }
        guard let device, HubSettings.isValidDevice(String(Substring(device))) else { return nil }
        self.init(wall: wall, counter: counter, device: String(Substring(device)))
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// One device's hybrid logical clock: stamps its own changes, and takes in
/// the stamps of the changes it receives.
public struct HybridClock: Sendable {
    /// How far ahead of the local clock a received stamp may be: a day.
    public static let maximumLead: Int64 = 86_400_000
    /// The largest counter; past it the clock waits for the wall clock.
    public static let maximumCounter: Int32 = 99_999

    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// A received stamp too far ahead of this device's clock.
        case tooFarAhead(HybridStamp, localWall: Int64)
        /// More than ``HybridClock/maximumCounter`` stamps in one
        /// millisecond of a wall clock that does not move.
        case counterExhausted(wall: Int64)

        public var description: String {
            switch self {
            case .tooFarAhead(let stamp, let local):
                let hours = Double(stamp.wall - local) / 3_600_000
                return "a change from \(stamp.device) is stamped \(String(format1: hours)) hours ahead of this device's "
                    + "clock (more than a day); check the clock of \(stamp.device) or of this device"
            case .counterExhausted(let wall):
                return "more than \(HybridClock.maximumCounter) changes in the millisecond \(wall); the clock is not moving"
            }
        }
    }

    public let device: String
    /// The last stamp made or taken in.
    public private(set) var last: HybridStamp

    /// A clock for `device` that has seen nothing yet, or resumes after
    /// `last` (kept across runs, so a restart never stamps backwards).
    public init(device: String, last: HybridStamp? = nil) {
        self.device = device
        self.last = last ?? HybridStamp(wall: 0, counter: 0, device: device)
    }

    /// The stamp of a change made here now, `physical` being the wall
    /// clock in milliseconds: after every stamp this clock has made or
    /// taken in.
    public mutating func stamp(physical: Int64) throws(Refusal) -> HybridStamp {
        let next: HybridStamp
        if physical > last.wall {
            next = HybridStamp(wall: physical, counter: 0, device: device)
        } else {
            guard last.counter < Self.maximumCounter else { throw .counterExhausted(wall: last.wall) }
            next = HybridStamp(wall: last.wall, counter: last.counter + 1, device: device)
        }
        last = next
        return next
    }

    /// Takes in the stamp of a change received from another device, so
    /// that every later stamp of this clock comes after it; refuses one
    /// more than a day ahead of `physical`, and then changes nothing.
    public mutating func receive(_ remote: HybridStamp, physical: Int64) throws(Refusal) {
        guard remote.wall - physical <= Self.maximumLead else { throw .tooFarAhead(remote, localWall: physical) }
        let wall = max(last.wall, remote.wall, physical)
        var counter: Int32 = 0
        if wall == last.wall && wall == remote.wall {
            counter = max(last.counter, remote.counter) + 1
        } else if wall == last.wall {
            counter = last.counter + 1
        } else if wall == remote.wall {
            counter = remote.counter + 1
        }
        guard counter <= Self.maximumCounter else { throw .counterExhausted(wall: wall) }
        last = HybridStamp(wall: wall, counter: counter, device: device)
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

private extension String {
    /// One decimal place, without Foundation.
    init(format1 value: Double) {
        let tenths = Int64((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        self = sign + String(abs(tenths) / 10) + "." + String(abs(tenths) % 10)
    }
}
