/// Whether a write may create a project that a name does not find.
///
/// A timer or entry names its project by text, so a typo ("Dcos") would
/// otherwise become a new project without a word. The caller decides
/// from the user's `create_projects` setting; the store checks inside the
/// write's own transaction, so nothing can create or remove the project
/// between the check and the write.
public enum NewProjects: Sendable, Equatable {
    /// Create the project (and its client), listing them in `created`.
    case create
    /// Refuse with ``StoreError/noSuchProject(name:client:nearest:)``,
    /// which names the closest existing project.
    case refuse
}
