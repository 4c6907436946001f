import Foundation
import TrackeeCore

/// What does not change at a service, looked up once and kept in the
/// store between runs: who the token is, the workspace's id (and
/// Clockify's user id), the projects and clients. Each run that finds them
/// kept saves the service's user and workspace listings (Toggl's `/me` and
/// `/me/workspaces` count against a quota of 30 an hour on every plan) and
/// the project and client listings.
///
/// Kept ids can go stale (a project deleted in the web app): a request
/// the service refuses while they are in use is tried once more after
/// they are looked up again (``TimeService/forgetKeptIDs()``).
struct KeptIDs: Codable, Equatable {
    var userName: String
    var email: String
    var workspaceID: String
    var workspaceName: String
    /// Clockify's user id; nil for Toggl.
    var userID: String?
    /// Nil when they were not listed (no entry needed a project).
    var projects: [ListedProject]?
    var clients: [ListedName]?

    var identity: ServiceIdentity {
        ServiceIdentity(userName: userName, email: email, workspaceID: workspaceID, workspaceName: workspaceName)
    }

    init(identity: ServiceIdentity, userID: String?, projects: [ListedProject]?, clients: [ListedName]?) {
        userName = identity.userName
        email = identity.email
        workspaceID = identity.workspaceID
        workspaceName = identity.workspaceName
        self.userID = userID
        self.projects = projects
        self.clients = clients
    }

    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Nil for text of another shape (an older trackee's, or damaged):
    /// the ids are then looked up again.
    init?(text: String) {
        guard let kept = try? JSONDecoder().decode(KeptIDs.self, from: Data(text.utf8)) else { return nil }
        self = kept
    }
}
