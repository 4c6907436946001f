import Foundation
import TrackeeCore
import TrackeeStore

extension Session {
    /// Runs a write that may name a project that does not exist. With
    /// `--new-project` (`allowed`) or `create_projects: always` the write
    /// creates it. Otherwise the write runs refusing; under `ask` on a
    /// terminal the user is asked, and a yes runs the write again allowed.
    /// The question is asked between two transactions, never inside one,
    /// so the store is not held locked while someone reads it; each
    /// transaction checks and writes on its own.
    func creatingProjects<T>(allowed: Bool, _ write: (NewProjects) throws -> T) throws -> T {
        if allowed || settings.createProjects == .always { return try write(.create) }
        do {
            return try write(.refuse)
        } catch let refusal as StoreError {
            guard case .noSuchProject(let name, let client, _) = refusal else { throw refusal }
            if settings.createProjects == .ask, isatty(0) == 1, isatty(2) == 1,
               Self.confirm("Create project \"\(name)\"" + (client.map { " under client \"\($0)\"" } ?? "") + "?")
            {
                return try write(.create)
            }
            throw CommandFailure.refused("\(refusal) (--new-project creates it)")
        }
    }

    /// Asks a yes-or-no question on stderr; only y or yes is a yes.
    private static func confirm(_ question: String) -> Bool {
        writeAll(2, question + " [y/N] ")
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingWhitespace().lowercased())
    }
}
