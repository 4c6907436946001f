import TrackeeCore
import TrackeeRules
import TrackeeStore

extension RuleSet {
    /// A warning for each enabled rule that starts a project the store
    /// does not have, at the line that names it: when it fires, the start
    /// is refused unless `create_projects: always` (a rule has no one to
    /// ask), so under `always` there are none. A project written as a
    /// template is only known at firing, and is not among the mentions.
    ///
    /// `existing` gives the store's project names, [] when there is no
    /// store, nil when it cannot be read (then nothing is said); it is
    /// asked only when some enabled rule names a project.
    public func missingProjectWarnings(createProjects: CreateProjects, existing: () -> [String]?) -> [String] {
        guard createProjects != .always else { return [] }
        let enabled = Set(rules.filter(\.enabled).map(\.id))
        let mentions = projectMentions.filter { enabled.contains($0.rule) }
        guard !mentions.isEmpty, let existing = existing() else { return [] }
        return mentions.filter { !existing.contains($0.project) }.map { mention in
            "\(mention.position): rule \"\(mention.rule)\": \(mention.path): no project \"\(mention.project)\""
                + (nearest(to: mention.project, among: existing).map { "; did you mean \"\($0)\"?" } ?? "")
                + "; when the rule fires, its start is refused (create_projects: \(createProjects.rawValue)); "
                + "create the project with `trackee projects add \"\(mention.project)\"`, or set create_projects: always"
        }
    }
}
