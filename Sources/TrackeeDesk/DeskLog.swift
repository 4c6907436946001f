/// How much a desk log line matters: routine (a signal), lifecycle (a
/// watch attached again), or something the user may want to fix.
public enum DeskLogLevel: String, Sendable, Equatable {
    case debug, info, warning
}

/// Where the desk watches write their log lines; `trackee run` hands in
/// its logger, tests a recorder.
public typealias DeskLog = @Sendable (DeskLogLevel, String) -> Void
