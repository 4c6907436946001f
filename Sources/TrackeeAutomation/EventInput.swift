import Logging
import TrackeeCore
import TrackeeLocation

/// What `trackee run` takes from a line of stdin or an HTTP request's
/// body: an event (focus, a desk change) or, for the places, a fix or an
/// OwnTracks transition. The daemon handles these typed values whichever
/// way they came; no text passes between the API and the daemon.
public enum EventInput: Sendable, Equatable {
    case event(EventLine)
    case place(FeedItem)

    /// What to do with one item a line decoded into.
    public enum Action: Sendable, Equatable {
        case take(EventInput)
        /// Nothing; `message` is logged at `level`.
        case skip(Logger.Level, String)
    }

    /// Fix lines (NMEA, gpsd, OwnTracks, CSV) and event lines (JSON with
    /// "type") mix: the decoder's item and the line's first byte tell them
    /// apart. `origin` names the line in messages ("stdin line 3").
    public static func action(_ item: FeedItem, line: String, number: Int, now: Instant, zone: Zone, origin: String)
        -> Action
    {
        switch item {
        case .notLocation:
            do {
                if let event = try EventLine.parse(line, line: number, now: now, zone: zone) { return .take(.event(event)) }
                return .skip(.debug, "\(origin): not an event")
            } catch {
                return .skip(.warning, "\(error)")
            }
        case .ignored(.unreadable, _) where !line.hasPrefix("{") && !line.hasPrefix("$"):
            return .skip(.warning, "\(origin): neither an event (a JSON object with \"type\") nor a position fix")
        case .ignored(.notAFix, let message), .ignored(.simulator, let message), .ignored(.deadReckoning, let message):
            // A receiver without a fix (indoors), simulating or dead
            // reckoning says so every second.
            return .skip(.debug, "\(origin): \(message)")
        case .ignored(_, let message):
            return .skip(.warning, "\(origin): \(message)")
        case .fix, .transition:
            return .take(.place(item))
        }
    }

    /// One line taken whole (an HTTP request's body), as stdin's would be:
    /// what it gives, and the first warning it would log, which is why it
    /// is refused. A receiver's "no fix" line gives nothing and is no
    /// refusal.
    public static func decode(line: String, now: Instant, zone: Zone) -> (inputs: [EventInput], refusal: String?) {
        var decoder = FeedDecoder(format: .auto, now: now)
        var items: [FeedItem] = []
        Array(line.utf8).withUnsafeBufferPointer { decoder.line($0, number: 1, into: &items) }
        decoder.finish(into: &items)
        var inputs: [EventInput] = []
        var refusal: String?
        for item in items {
            switch action(item, line: line, number: 1, now: now, zone: zone, origin: "the body") {
            case .take(let input): inputs.append(input)
            case .skip(let level, let message):
                if level >= .warning { refusal = refusal ?? message }
            }
        }
        return (inputs, refusal)
    }
}
