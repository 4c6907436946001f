import TrackeeCore

/// A desk kind's own section of the settings file (`timeflip:`), with the
/// reader of its fields. The settings file takes any key a kind of
/// ``DeskKind/all`` claims here, so a kind with settings adds none to the
/// settings reader.
public struct DeskKindSettings: Sendable {
    /// The top-level key of the settings file.
    public let key: String
    /// Reads the section; throws a ``Refusal`` naming the file, line and
    /// field of what is wrong.
    public let read: @Sendable (DeskSection) throws -> any Sendable

    public init(key: String, read: @escaping @Sendable (DeskSection) throws -> any Sendable) {
        self.key = key
        self.read = read
    }
}

/// One kind's section of the settings file as the settings reader hands it
/// over: a mapping of scalar fields, each with its line.
public struct DeskSection: Sendable {
    public struct Field: Sendable {
        public let name: String
        /// The scalar's text; nil when the value is a mapping or a list.
        public let text: String?
        public let line: Int

        public init(name: String, text: String?, line: Int) {
            self.name = name
            self.text = text
            self.line = line
        }
    }

    /// The section's key (`timeflip`), the settings file and the key's line.
    public let key: String
    public let file: String
    public let line: Int
    public let fields: [Field]
    /// Expands `~` and checks a file that holds a secret (it exists, and
    /// only its owner may read it): the settings reader's own check, with
    /// its sentences. Gives the expanded path.
    public let secretFile: @Sendable (_ path: String, _ field: Field, _ kind: String, _ fill: String) throws -> String

    public init(key: String, file: String, line: Int, fields: [Field],
                secretFile: @escaping @Sendable (String, Field, String, String) throws -> String) {
        self.key = key
        self.file = file
        self.line = line
        self.fields = fields
        self.secretFile = secretFile
    }

    /// `config.yaml:12: timeflip.device is "x"; expected …`: a refusal of
    /// a field's value, in the settings reader's words.
    public func refusal(_ field: Field, _ expected: String) -> Refusal {
        let shown = field.text.map { "\"\($0)\"" } ?? "this value"
        return Refusal("\(file):\(field.line): \(key).\(field.name) is \(shown); expected \(expected)")
    }

    /// A refusal of the whole section, at its key's line.
    public func refusal(_ text: String) -> Refusal { Refusal("\(file):\(line): \(text)") }

    /// A refusal of a field the kind does not know, listing those it does.
    public func unknown(_ field: Field, known: [String]) -> Refusal {
        let list = known.count > 1 ? known.dropLast().joined(separator: ", ") + " and " + known.last! : known.joined()
        return Refusal("\(file):\(field.line): unknown key \(key).\(field.name); known keys are \(list)")
    }
}

/// The desk kinds' sections the settings file gave, read, by kind name.
public struct DeskSettings: Sendable {
    private var sections: [String: any Sendable] = [:]

    public init() {}

    /// The section of `kind`, as its reader gave it; nil when the file has none.
    public subscript<Section: Sendable>(_ kind: String, as type: Section.Type = Section.self) -> Section? {
        sections[kind] as? Section
    }

    public mutating func set(_ kind: String, _ section: any Sendable) { sections[kind] = section }

    /// The kind whose settings key is `key`, if one claims it.
    public static func kind(claiming key: String) -> DeskKind? { DeskKind.all.first { $0.settings?.key == key } }

    /// Every key a desk kind claims, in the registry's order.
    public static var keys: [String] { DeskKind.all.compactMap { $0.settings?.key } }
}
