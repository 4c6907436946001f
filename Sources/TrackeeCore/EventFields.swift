/// The fields of one event line (a JSON object, as `trackee run` reads on
/// stdin and the HTTP API takes in a body), as the kinds read them: each
/// desk kind's ``DeskReport/read(_:)`` and the focus line.
///
/// The JSON is read elsewhere (TrackeeAutomation's `EventLine`); here each
/// field is text, a whole number, or something else, which is all a kind
/// tells apart. Every refusal is a ``Failure`` whose sentence names the
/// field.
///
/// ```swift
/// let line = EventFields(["state": .text("locked")], now: now, zone: zone)
/// try line.word("state") as SessionState  // .locked
/// ```
public struct EventFields: Sendable {
    /// A field's value as the kinds tell values apart.
    public enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int)
        /// Any other JSON value: a fraction, a boolean, null, an array, an object.
        case other
    }

    /// Why a line's fields are not an event, in one sentence naming the field.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    public var values: [String: Value]
    /// When the line was read: what relative times (`09:50`, `-5m`) count from.
    public var now: Instant
    /// The zone local times are read in.
    public var zone: Zone
    /// The line's own `time`, or when it was read without one: what
    /// `idle_for` counts back from.
    public var read: Instant

    public init(_ values: [String: Value], now: Instant, zone: Zone, read: Instant? = nil) {
        self.values = values
        self.now = now
        self.zone = zone
        self.read = read ?? now
    }

    public subscript(key: String) -> Value? { values[key] }

    /// The field as text, whatever it holds; nil when absent or not text.
    public func string(_ key: String) -> String? {
        guard case .text(let text)? = values[key] else { return nil }
        return text
    }

    /// The field as a whole number; nil when absent or not one.
    public func integer(_ key: String) -> Int? {
        guard case .integer(let number)? = values[key] else { return nil }
        return number
    }

    /// A text that is not blank; nil when absent.
    public func text(_ key: String) throws(Failure) -> String? {
        guard let value = values[key] else { return nil }
        guard case .text(let text) = value, !text.trimmingWhitespace().isEmpty else {
            throw Failure("\"\(key)\" must be a text that is not blank")
        }
        return text
    }

    /// One of `Word`'s values, such as `locked`; `fallback` when absent.
    public func word<Word: RawRepresentable & CaseIterable>(_ key: String, default fallback: Word? = nil)
        throws(Failure) -> Word where Word.RawValue == String
    {
        let known = Word.allCases.map { "\"\($0.rawValue)\"" }
        let list = known.dropLast().joined(separator: ", ") + " or " + known.last!
        guard let value = values[key] else {
            if let fallback { return fallback }
            throw Failure("\"\(key)\" is missing; it must be \(list)")
        }
        guard case .text(let text) = value, let word = Word(rawValue: text) else {
            throw Failure("\"\(key)\" must be \(list)")
        }
        return word
    }

    /// A time: any text `trackee start --at` takes, or seconds since the
    /// epoch; nil when absent.
    public func time(_ key: String) throws(Failure) -> Instant? {
        switch values[key] {
        case nil: return nil
        case .integer(let seconds)?: return Instant(seconds: Int64(seconds))
        case .text(let text)?:
            do {
                return try TimeExpression.parse(text, now: now, zone: zone)
            } catch {
                throw Failure("\"\(key)\": \(error)")
            }
        case .other?: throw Failure("\"\(key)\" must be a time text or seconds since the epoch")
        }
    }
}
