import TrackeeCore
import TrackeeRules
import TrackeeStore

extension Session {
    /// ``RuleSet/missingProjectWarnings(createProjects:existing:)`` against
    /// the store's projects; nothing when the store cannot be read (a
    /// check does not create one).
    func missingProjectWarnings(_ ruleSet: RuleSet) -> [String] {
        ruleSet.missingProjectWarnings(createProjects: settings.createProjects) {
            let store: Store?
            do { store = try existingStore() } catch { return nil }
            guard let store else { return [] }
            return try? store.projects().map(\.name)
        }
    }
}
