import Foundation
import GRDB
import TrackeeCore
@testable import TrackeeStore

/// A store in a fresh temporary directory, removed when the test ends.
final class TemporaryStore {
    let directory: URL
    let store: Store

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackee-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try Store(path: directory.appendingPathComponent("t.sqlite3").path)
    }

    var path: String { store.path }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

/// A store file as an older release left it: migrated only up to
/// `migration`, with `fill` run on it, in a fresh temporary directory
/// removed when it is released (keep it alive while the store is open).
/// Open it with `Store(path:)` to upgrade it.
final class OlderStore {
    let directory: URL
    let path: String

    init(upTo migration: String, _ fill: (Database) throws -> Void) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackee-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("old.sqlite3").path
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue, upTo: migration)
        try queue.write(fill)
        try queue.close()
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

/// 2026-11-20T09:00:00Z, a Friday.
let nine = Instant(seconds: 1_795_165_200)

func at(minutes: Int64) -> Instant { nine + minutes * 60 }

func start(_ project: String?, client: String? = nil, _ description: String = "", tags: [String] = [],
           at: Instant, key: String? = nil) -> Intent {
    Intent(.start(TimerParameters(project: project, client: client, description: description, tags: tags)),
           at: at, source: .cli, key: key)
}
