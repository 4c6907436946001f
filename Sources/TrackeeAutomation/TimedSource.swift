import TrackeeCore

/// A trigger kind whose occurrences can be listed ahead for any window:
/// schedules (`at:`) and calendar edges (`calendar:`). Each kind is one
/// file (`ScheduleSource`, `CalendarSource`); ``Automation`` merges them, so
/// the window, catch-up, watermark, `tick`, `simulate`, `rules next` and
/// the daemon's deadline are written once for all of them.
protocol TimedSource: Sendable {
    /// Every occurrence in `(after, through]`, each once, in any order.
    func occurrences(after: Instant, through: Instant, zone: Zone) -> [TimedOccurrence]
    /// The earliest occurrence after `instant`, if the source can see one.
    func next(after instant: Instant, zone: Zone) -> Instant?
}

/// An occurrence of a timed trigger, with the position of its rule in the
/// rule set so ties sort in rule order.
struct TimedOccurrence: Sendable {
    var ruleIndex: Int
    var event: TriggerEvent
}
