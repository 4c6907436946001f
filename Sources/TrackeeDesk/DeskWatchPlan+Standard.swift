import Glibc

extension DeskWatchPlan {
    /// The idle sources in the order they are tried: the first whose
    /// service is on its bus at start is used. GNOME Mutter's IdleMonitor
    /// and `org.freedesktop.ScreenSaver` go before logind, whose hint is
    /// coarser (it moves only when the desktop or logind's own timer sets it).
    public static func standardIdle(environment: [String: String], intervalMilliseconds: Int) -> [DeskWatchPlan] {
        let sessionID = environment["XDG_SESSION_ID"]
        let uid = getuid()
        return [
            DeskWatchPlan(reports: "idle", bus: .session, serviceName: "org.gnome.Mutter.IdleMonitor") {
                MutterIdleWatch(intervalMilliseconds: UInt64(max(1, intervalMilliseconds)))
            },
            DeskWatchPlan(reports: "idle", bus: .session, serviceName: "org.freedesktop.ScreenSaver") {
                ScreenSaverIdleWatch()
            },
            DeskWatchPlan(reports: "idle", bus: .system, serviceName: LoginSession.service) {
                LoginIdleWatch(sessionID: sessionID, uid: uid)
            },
        ]
    }

    /// The other D-Bus watches, each run when its service is on its bus,
    /// in the order the start line lists them.
    public static func standard(environment: [String: String]) -> [DeskWatchPlan] {
        let sessionID = environment["XDG_SESSION_ID"]
        let uid = getuid()
        return [
            DeskWatchPlan(reports: "lock", bus: .system, serviceName: LoginSession.service) {
                SessionLockWatch(sessionID: sessionID, uid: uid)
            },
            DeskWatchPlan(reports: "sleep", bus: .system, serviceName: LoginSession.service) { SleepWatch() },
            DeskWatchPlan(reports: "network", bus: .system, serviceName: "org.freedesktop.NetworkManager") { NetworkWatch() },
            DeskWatchPlan(reports: "power", bus: .system, serviceName: "org.freedesktop.UPower") { PowerWatch() },
        ]
    }
}
