import Glibc

/// How a `notify` action reaches the user: a desktop notification through
/// org.freedesktop.Notifications when a session bus exists (by running
/// `notify-send`), otherwise a log line.
public enum NotificationRoute: Sendable, Equatable {
    /// Run this argv (`notify-send …`).
    case desktop([String])
    /// Log the notification, saying why it was not shown.
    case log(reason: String)

    /// Picks the route for a notification from the environment.
    ///
    /// A session bus exists when `DBUS_SESSION_BUS_ADDRESS` is set or
    /// `$XDG_RUNTIME_DIR/bus` is a socket, as under a systemd user session.
    public static func choose(title: String, body: String, environment: [String: String]) -> NotificationRoute {
        guard hasSessionBus(environment) else { return .log(reason: "no session bus") }
        guard let program = Spawn.find("notify-send", in: environment["PATH"] ?? "/usr/bin:/bin") else {
            return .log(reason: "notify-send is not installed (Debian: libnotify-bin)")
        }
        var argv = [program, "--app-name=trackee", "--", title]
        if !body.isEmpty { argv.append(body) }
        return .desktop(argv)
    }

    static func hasSessionBus(_ environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        var info = stat()
        return stat(runtime + "/bus", &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }
}
