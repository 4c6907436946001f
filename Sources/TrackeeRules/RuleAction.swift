import TrackeeCore

/// One step of a rule's `do:` list. Text parameters are templates, filled
/// from the event when the rule fires.
///
///     do:
///       - start: {project: Deep work, tags: [focus]}
///       - notify: {title: "Focus {{trigger.mode}}", body: "since {{trigger.time}}"}
///       - run: [notify-send, "{{trigger.mode}}"]
public enum RuleAction: Sendable, Equatable {
    /// `start: {project, client, description, tags}`: ensure such a timer runs.
    case start(TimerTemplate)
    /// `stop:`: ensure no timer runs, saving the running one.
    case stop
    /// `stop: {at: TEMPLATE}`: the same, the entry ending at the time the
    /// template gives (any TIME FORMAT, such as `{{trigger.start + 8h}}`).
    case stopAt(Template)
    /// `cancel:`: ensure no timer runs, discarding the running one.
    case cancel
    /// `notify: {title, body}` or `notify: TITLE`: show a desktop notification.
    case notify(title: Template, body: Template?)
    /// `run: [argv0, arg1, …]`: run a program without a shell, each template
    /// one argument.
    case run([Template])
}

/// The parameters of a `start` action, each a template; all are optional,
/// as on the command line.
public struct TimerTemplate: Sendable, Equatable {
    public var project: Template?
    public var client: Template?
    public var description: Template?
    public var tags: [Template]

    public init(project: Template? = nil, client: Template? = nil, description: Template? = nil, tags: [Template] = [])
    {
        self.project = project
        self.client = client
        self.description = description
        self.tags = tags
    }

    /// The timer parameters with every template filled from `values`.
    func render(_ values: [String: String], zone: Zone = .utc) -> TimerParameters {
        TimerParameters(
            project: project?.render(values, zone: zone), client: client?.render(values, zone: zone),
            description: description?.render(values, zone: zone) ?? "", tags: tags.map { $0.render(values, zone: zone) })
    }
}
