/// Who asked for a change to the store: a command typed by someone, a
/// rule's firing, an event line on the daemon's standard input, a device
/// over HTTP, someone signed in on the web page, an import, or a
/// simulation. Intents, focus changes and the entries they
/// start carry one.
///
/// The store keeps it as text (``storedText``), the form every release
/// has written, so rows written before this type existed read back:
///
///     ChangeSource(storedText: "rule:office-hours")  // .rule("office-hours")
///     ChangeSource.http(device: "phone").storedText  // "http:phone"
///     ChangeSource.web(device: "phone").storedText   // "web:phone"
public enum ChangeSource: Sendable, Hashable {
    /// A `trackee` command.
    case cli
    /// The firing of the rule with this id.
    case rule(String)
    /// An event line read by `trackee run`.
    case stdin
    /// A device of the HTTP API, by its name.
    case http(device: String)
    /// The web page that `trackee run` serves, signed in with the token of
    /// this name.
    case web(device: String)
    /// `trackee simulate`, on its throwaway store.
    case simulate
    /// `trackee import`, from another tracker's data, by the format's
    /// name (`timewarrior`, `watson`, `toggl`, `clockify`, `trackee`).
    case imported(format: String)

    /// The sources without a name of their own, and the prefix of those
    /// with one (`rule`, `http`, `web`, `import`), as `--source` filters
    /// and the store name them.
    public enum Kind: String, Sendable, CaseIterable {
        case cli, rule, stdin, http, web, simulate
        case imported = "import"
    }

    public var kind: Kind {
        switch self {
        case .cli: .cli
        case .rule: .rule
        case .stdin: .stdin
        case .http: .http
        case .web: .web
        case .simulate: .simulate
        case .imported: .imported
        }
    }

    /// Whether text stored for this kind names one of many (a rule, a
    /// device, a format) after `KIND:`, rather than being the kind's name
    /// alone.
    public static func isNamed(_ kind: Kind) -> Bool {
        switch kind {
        case .rule, .http, .web, .imported: true
        case .cli, .stdin, .simulate: false
        }
    }

    /// The text the store keeps for a named kind's sources before the name:
    /// `rule:`.
    public static func storedPrefix(_ kind: Kind) -> String { kind.rawValue + ":" }

    /// `cli`, `rule:ID`, `stdin`, `http:DEVICE`, `web:DEVICE`, `simulate`
    /// or `import:FORMAT`.
    public var storedText: String {
        switch self {
        case .cli, .stdin, .simulate: kind.rawValue
        case .rule(let id): Self.storedPrefix(.rule) + id
        case .http(let device): Self.storedPrefix(.http) + device
        case .web(let device): Self.storedPrefix(.web) + device
        case .imported(let format): Self.storedPrefix(.imported) + format
        }
    }

    /// The source ``storedText`` wrote; nil for any other text (a named
    /// kind without its name, an unknown word).
    public init?(storedText text: String) {
        guard let colon = text.firstIndex(of: ":") else {
            switch Kind(rawValue: text) {
            case .cli: self = .cli
            case .stdin: self = .stdin
            case .simulate: self = .simulate
            case .rule, .http, .web, .imported, nil: return nil
            }
            return
        }
        let name = String(text[text.index(after: colon)...])
        guard !name.isEmpty else { return nil }
        switch Kind(rawValue: String(text[..<colon])) {
        case .rule: self = .rule(name)
        case .http: self = .http(device: name)
        case .web: self = .web(device: name)
        case .imported: self = .imported(format: name)
        case .cli, .stdin, .simulate, nil: return nil
        }
    }

    /// The rule that fired, for a rule's source.
    public var rule: String? {
        if case .rule(let id) = self { id } else { nil }
    }
}

extension ChangeSource: CustomStringConvertible {
    public var description: String { storedText }
}
