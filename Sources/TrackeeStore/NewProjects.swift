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

/// The `create_projects` setting: what a project name that does not exist
/// does, so that a typo ("Dcos") does not become a new project unseen.
public enum CreateProjects: String, Sendable, CaseIterable {
    /// On a terminal, ask; elsewhere (scripts, rules) refuse.
    case ask
    /// Create it, as trackee always did.
    case always
    /// Refuse; `--new-project` creates one.
    case never

    /// Whether a rule may create a project it names: only under `always`,
    /// since no one is there to answer `ask`.
    public var forRules: NewProjects { self == .always ? .create : .refuse }
}
