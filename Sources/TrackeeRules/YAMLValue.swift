import Yams

/// A YAML node and the key path that leads to it, such as `do[0].start`.
struct YAMLValue {
    let node: Node
    let path: String

    /// The path of `key` in this mapping.
    func path(of key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    /// The value under `key` of this mapping.
    func child(_ key: String, _ node: Node) -> YAMLValue {
        YAMLValue(node: node, path: path(of: key))
    }

    /// Element `index` of this sequence.
    func element(_ index: Int, _ node: Node) -> YAMLValue {
        YAMLValue(node: node, path: path + "[\(index)]")
    }

    /// An empty value (`key:`, `~`, `null`), as opposed to a quoted empty string.
    var isNull: Bool {
        guard case .scalar(let scalar) = node else { return false }
        return scalar.style == .plain && node.tag.rawValue == Tag.Name.null.rawValue
    }

    /// How error messages name what was found: `a mapping`, `a list`,
    /// `nothing`, or the text itself in quotes.
    var found: String {
        switch node {
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .scalar(let scalar): isNull ? "nothing" : "\"\(scalar.string)\""
        case .alias: "an alias"
        }
    }
}

/// One key of a mapping and its value.
struct YAMLEntry {
    let key: String
    let keyNode: Node
    let value: YAMLValue
}

/// The known keys of a mapping, in file order, after unknown ones were
/// reported.
struct YAMLFields {
    let owner: YAMLValue
    let entries: [YAMLEntry]

    subscript(key: String) -> YAMLValue? {
        entries.first { $0.key == key }?.value
    }
}
