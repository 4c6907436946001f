import TrackeeStore
import TrackeeTestSupport

/// A store in a sandbox's folder, removed with it when the test ends.
final class TemporaryStore {
    let sandbox: Sandbox
    let store: Store

    init() throws {
        sandbox = try Sandbox()
        store = try Store(path: sandbox.storePath)
    }
}
