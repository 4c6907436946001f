import TrackeeCore

/// One kind of action: the key that names it in a `do:` item and how to
/// read its value.
struct ActionKind: Sendable {
    let key: String
    let read: @Sendable (YAMLValue, RuleFileReader) -> RuleAction?

    static let all: [ActionKind] = [.start, .stop, .cancel, .notify, .run]

    /// Reads `do:`, a non-empty list of one-key mappings, or of the bare
    /// words `stop` and `cancel`.
    static func readAll(_ value: YAMLValue, _ reader: RuleFileReader) -> [RuleAction] {
        guard let items = reader.list(value) else { return [] }
        if items.isEmpty { reader.fail("expected at least one action, such as - stop: {}", at: value) }
        return items.compactMap { item in
            if case .scalar = item.node, !item.isNull { return readBare(item, reader) }
            guard let entries = reader.entries(item),
                let named = reader.kindEntry(item, entries, kinds: all.map(\.key), noun: "action"),
                let kind = all.first(where: { $0.key == named.key })
            else { return nil }
            _ = reader.fields(item, entries, known: [kind.key])
            return kind.read(named.value, reader)
        }
    }

    /// A bare word in `do:`. `stop` and `cancel` take nothing, so `- stop`
    /// is `- stop: {}`, the way people write it first. Other actions need a
    /// value, and `start` stays explicit: a timer without a project is
    /// written `start: {}`.
    ///
    ///     do[0]: unknown action "stpo"; did you mean "stop"?
    static func readBare(_ value: YAMLValue, _ reader: RuleFileReader) -> RuleAction? {
        guard let word = reader.string(value) else { return nil }
        switch word {
        case "stop": return .stop
        case "cancel": return .cancel
        case "start":
            reader.fail(
                "start needs a mapping, such as start: {project: Office}, or start: {} for a timer without a project",
                at: value)
        case "notify": reader.fail("notify needs a title, such as notify: Lunch break", at: value)
        case "run": reader.fail("run needs a command, such as run: [notify-send, Hello]", at: value)
        default: reader.failUnknown(word, at: value, noun: "action", known: all.map(\.key))
        }
        return nil
    }

    static let start = ActionKind(key: "start") { value, reader in
        if value.isNull { return .start(TimerTemplate()) }
        guard let fields = reader.fields(value, known: ["project", "client", "description", "tags"]) else { return nil }
        if let project = fields["project"], let text = project.node.scalar?.string, let rule = reader.rule,
           !text.contains("{{")
        {
            let mark = project.node.mark
            reader.projectMentions.append(ProjectMention(
                rule: rule, project: text, position: "\(reader.file):\(mark?.line ?? 1):\(mark?.column ?? 1)",
                path: project.path))
        }
        return .start(
            TimerTemplate(
                project: fields["project"].flatMap(reader.template),
                client: fields["client"].flatMap(reader.template),
                description: fields["description"].flatMap(reader.template),
                tags: fields["tags"].flatMap(reader.list)?.compactMap(reader.tag) ?? []))
    }

    static let stop = ActionKind(key: "stop") { value, reader in
        if case .mapping = value.node, reader.entries(value)?.isEmpty == false {
            guard let fields = reader.fields(value, known: ["at"]), let at = reader.required("at", in: fields) else {
                return nil
            }
            return reader.template(at).map(RuleAction.stopAt)
        }
        reader.nothing(value)
        return .stop
    }

    static let cancel = ActionKind(key: "cancel") { value, reader in
        reader.nothing(value)
        return .cancel
    }

    static let notify = ActionKind(key: "notify") { value, reader in
        guard case .mapping = value.node else { return reader.template(value).map { .notify(title: $0, body: nil) } }
        guard let fields = reader.fields(value, known: ["title", "body"]),
            let title = reader.required("title", in: fields).flatMap(reader.template)
        else { return nil }
        return .notify(title: title, body: fields["body"].flatMap(reader.template))
    }

    static let run = ActionKind(key: "run") { value, reader in
        if case .scalar = value.node, !value.isNull {
            reader.fail(
                "give the command as a list of arguments, such as [notify-send, \"Timer started\"]; "
                    + "a single string would need a shell, and rules never use one", at: value)
            return nil
        }
        guard let items = reader.list(value) else { return nil }
        if items.isEmpty {
            reader.fail("expected the program and its arguments, such as [notify-send, Hello]", at: value)
        }
        return .run(items.compactMap(reader.template))
    }
}

extension RuleFileReader {
    /// Checks for the empty value of `stop:` and `cancel:`: nothing, or `{}`.
    fileprivate func nothing(_ value: YAMLValue) {
        if value.isNull { return }
        if case .mapping = value.node {
            _ = fields(value, known: [])
        } else {
            fail("expected nothing or {}, found \(value.found)", at: value)
        }
    }

    /// A tag template; a comma cannot be stored in a tag.
    fileprivate func tag(_ value: YAMLValue) -> Template? {
        guard let tag = template(value) else { return nil }
        if Tags.invalid([tag.source]) != nil {
            fail("a tag cannot contain a comma; make each tag its own list item", at: value)
            return nil
        }
        return tag
    }
}
