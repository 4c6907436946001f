import Foundation
import TrackeeCore
import TrackeeRules
import TrackeeStore

extension Session {
    /// Warnings for rules that start a project the store does not have:
    /// when they fire, the start is refused unless `create_projects:
    /// always` (a rule has no one to ask). A project written as a template
    /// is only known at firing, so it is not checked; nor is anything when
    /// the store cannot be read (a check does not create one).
    func missingProjectWarnings(_ rules: [Rule]) -> [String] {
        guard settings.createProjects != .always else { return [] }
        var named: [(rule: String, path: String, project: String)] = []
        for rule in rules where rule.enabled {
            for (index, action) in rule.actions.enumerated() {
                guard case .start(let timer) = action, let project = timer.project, project.fields.isEmpty else { continue }
                named.append((rule.id, "do[\(index)].start.project", project.source))
            }
        }
        guard !named.isEmpty else { return [] }
        let location = StoreLocation.resolve(explicit: common.store, environment: environment)
        var existing: [String] = []
        if FileManager.default.fileExists(atPath: location.path) {
            guard let projects = try? Store(location: location).projects() else { return [] }
            existing = projects.map(\.name)
        }
        return named.filter { !existing.contains($0.project) }.map { rule, path, project in
            "rule \"\(rule)\": \(path): no project \"\(project)\""
                + (nearest(to: project, among: existing).map { "; did you mean \"\($0)\"?" } ?? "")
                + "; when the rule fires, its start is refused (create_projects: \(settings.createProjects.rawValue)); "
                + "create the project with `trackee projects add \"\(project)\"`, or set create_projects: always"
        }
    }
}
