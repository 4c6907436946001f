/// What should happen to the timer. Every path into the store — a command,
/// a rule firing, a replayed feed — is expressed as one of these and applied
/// by `Store.apply(_:)`.
///
/// Intents are idempotent: applying the same intent twice leaves the store
/// as the first application left it.
public struct Intent: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Ensure a timer with these parameters runs.
        case start(TimerParameters)
        /// Ensure no timer runs, saving the running one.
        case stop
        /// Ensure no timer runs, discarding the running one.
        case cancel
    }

    public var action: Action
    /// When the intent takes effect: the start or stop time it writes. For
    /// a rule this is the trigger occurrence's own instant, not "now".
    public var at: Instant
    /// Who asked: a command, a rule, an event line, …
    public var source: ChangeSource
    /// An idempotency key. A second intent with a key already in the firing
    /// ledger changes nothing and reports the first one's outcome.
    public var key: String?

    public init(_ action: Action, at: Instant, source: ChangeSource = .cli, key: String? = nil) {
        self.action = action
        self.at = at
        self.source = source
        self.key = key
    }

    /// `start`, `stop` or `cancel`.
    public var verb: String {
        switch action {
        case .start: return "start"
        case .stop: return "stop"
        case .cancel: return "cancel"
        }
    }
}

/// What a timer is tracking. Two timers are "the same" when these are equal,
/// which is what makes a repeated `start` a no-op rather than a switch.
public struct TimerParameters: Sendable, Equatable, Codable {
    public var project: String?
    public var client: String?
    public var description: String
    /// Kept sorted and without duplicates, so order on the command line does
    /// not turn a repeated start into a switch.
    public private(set) var tags: [String]

    public init(project: String? = nil, client: String? = nil, description: String = "", tags: [String] = []) {
        self.project = project.flatMap { $0.isEmpty ? nil : $0 }
        self.client = client.flatMap { $0.isEmpty ? nil : $0 }
        self.description = description
        self.tags = Tags.normalize(tags)
    }
}

/// What applying an intent did. The words are the ones the command prints.
public enum Outcome: String, Sendable, Codable, CaseIterable {
    case started, switched, stopped, cancelled, unchanged
}

/// Tag lists are stored as one comma-separated column, so a tag cannot hold
/// a comma; the list is sorted and deduplicated.
public enum Tags {
    public static func normalize(_ tags: [String]) -> [String] {
        Array(Set(tags.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty })).sorted()
    }

    public static func encode(_ tags: [String]) -> String { tags.joined(separator: ",") }

    public static func decode(_ text: String) -> [String] {
        // Split on the comma's byte: a tag list is read for every entry of
        // a report, and splitting by Character cost more than the rest.
        var tags: [String] = []
        let bytes = text.utf8
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: ",") {
                if start < index { tags.append(String(text[start..<index])) }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        if start < bytes.endIndex { tags.append(String(text[start...])) }
        return tags
    }

    /// Returns the first tag that cannot be stored, if any.
    public static func invalid(_ tags: [String]) -> String? {
        tags.first { $0.contains(",") }
    }
}

extension String {
    /// The string without leading and trailing white space, without
    /// Foundation's CharacterSet.
    public func trimmingWhitespace() -> String {
        var sub = Substring(self)
        while let f = sub.first, f.isWhitespace { sub.removeFirst() }
        while let l = sub.last, l.isWhitespace { sub.removeLast() }
        return String(sub)
    }
}

extension Intent {
    /// The intent's parameters as the compact JSON object the intent log
    /// keeps, keys sorted and absent values left out:
    /// `{"at":1763636580,"description":"","project":"Docs","tags":["x"]}`.
    public var loggedParameters: String {
        var out = ExportBuffer(capacity: 96)
        out.write("{\"at\":")
        out.write(at.seconds)
        if case .start(let p) = action {
            if let client = p.client {
                out.write(",\"client\":")
                out.writeJSONString(client)
            }
            out.write(",\"description\":")
            out.writeJSONString(p.description)
            if let project = p.project {
                out.write(",\"project\":")
                out.writeJSONString(project)
            }
            out.write(",\"tags\":[")
            for (i, tag) in p.tags.enumerated() {
                if i > 0 { out.write(byte: UInt8(ascii: ",")) }
                out.writeJSONString(tag)
            }
            out.write(byte: UInt8(ascii: "]"))
        }
        out.write(byte: UInt8(ascii: "}"))
        return out.string
    }
}

extension TimerParameters {
    /// A start's parameters read back from the text ``Intent/loggedParameters``
    /// wrote; nil when `text` is not a JSON object. A member that is
    /// missing or of another type reads as none (`tags` as none unless
    /// every element is a string).
    public init?(loggedParameters text: String) {
        guard let node = try? JSONReader.read(text), case .object = node else { return nil }
        func string(_ key: String) -> String? {
            if case .string(let value)? = node[key] { return value }
            return nil
        }
        var tags: [String] = []
        if case .array(let items)? = node["tags"] {
            let strings = items.compactMap { item -> String? in
                if case .string(let value) = item { return value }
                return nil
            }
            if strings.count == items.count { tags = strings }
        }
        self.init(project: string("project"), client: string("client"), description: string("description") ?? "", tags: tags)
    }
}
