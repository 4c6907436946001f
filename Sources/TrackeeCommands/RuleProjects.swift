import Foundation
import TrackeeCore
import TrackeeRules
import TrackeeStore

extension Session {
    /// Warnings for rules that start a project the store does not have,
    /// at the line that names it: when they fire, the start is refused
    /// unless `create_projects: always` (a rule has no one to ask). A
    /// project written as a template is only known at firing, so it is not
    /// checked; nor is anything when the store cannot be read (a check
    /// does not create one).
    func missingProjectWarnings(_ ruleSet: RuleSet) -> [String] {
        guard settings.createProjects != .always else { return [] }
        let enabled = Set(ruleSet.rules.filter(\.enabled).map(\.id))
        let mentions = ruleSet.projectMentions.filter { enabled.contains($0.rule) }
        guard !mentions.isEmpty else { return [] }
        var existing: [String] = []
        let store: Store?
        do { store = try existingStore() } catch { return [] }
        if let store {
            guard let projects = try? store.projects() else { return [] }
            existing = projects.map(\.name)
        }
        return mentions.filter { !existing.contains($0.project) }.map { mention in
            "\(mention.position): rule \"\(mention.rule)\": \(mention.path): no project \"\(mention.project)\""
                + (nearest(to: mention.project, among: existing).map { "; did you mean \"\($0)\"?" } ?? "")
                + "; when the rule fires, its start is refused (create_projects: \(settings.createProjects.rawValue)); "
                + "create the project with `trackee projects add \"\(mention.project)\"`, or set create_projects: always"
        }
    }
}
