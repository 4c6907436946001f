import Foundation
import Logging

/// Where the API writes its lines, through the daemon's logger: each
/// failed authentication, always, as a warning with the address it came
/// from; and, with the settings' `access_log: true`, one info line per
/// request:
///
/// ```
/// http: authentication failed from 203.0.113.7: a Bearer token that is not a token of this store
/// http: GET /v1/status 200 phone 1.4 ms
/// http: GET - 401 - 0.3 ms
/// ```
///
/// The access line holds the method, the route (the path of the route
/// the request's path is, whatever the method, or `-` for none: never a
/// path no route has, nor a query), the status, the token's name (`-` without one)
/// and the milliseconds from the request's arrival to its answer (for
/// the event stream, to the stream's opening).
public struct APILog: Sendable {
    public var logger: Logger
    public var access: Bool
    /// Nanoseconds on a clock that only goes forward.
    public var ticks: @Sendable () -> UInt64

    public init(logger: Logger, access: Bool = false, ticks: @escaping @Sendable () -> UInt64 = APILog.monotonic) {
        self.logger = logger
        self.access = access
        self.ticks = ticks
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    public static let monotonic: @Sendable () -> UInt64 = {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    func failed(_ failure: Authentication.Failure, from address: ClientAddress) {
        logger.warning("http: authentication failed from \(address.text): \(failure)")
    }

    /// A sign-in on the web page with a token that is none of the store's
    /// (or a revoked one): the address only, never what was typed.
    package func failedSignIn(from address: ClientAddress) {
        logger.warning("http: sign-in failed from \(address.text): a token that is not a token of this store")
    }

    /// Why credentials could not be checked (the store failed), which
    /// the 500 answer refers to.
    package func unchecked(_ error: any Error) {
        logger.error("http: the credentials could not be checked: \(error)")
    }

    /// The access line of a request, when the settings ask for it.
    /// `started` is on ``ticks``.
    /// `route` is the path as the log may show it, for a request the API
    /// did not route (the web page's: `/entries/{id}`); by default, the
    /// API's route with that path, or `-`.
    package func served(method: String, path: String, status: Int, device: String?, started: UInt64, route: String? = nil) {
        guard access else { return }
        let route = route ?? Route.all.first { $0.path == path }?.path ?? "-"
        // The parser lets only methods it knows through; this keeps a
        // caller in the process to one word as well.
        let shown = !method.isEmpty && method.count <= 16 && method.utf8.allSatisfy { (65...90).contains($0) } ? method : "-"
        let elapsed = ticks() &- started
        let tenths = elapsed > 1 << 62 ? 0 : (elapsed + 50_000) / 100_000
        logger.info("http: \(shown) \(route) \(status) \(device ?? "-") \(tenths / 10).\(tenths % 10) ms")
    }
}
