import TrackeeCore

/// Something that must hold when a rule's trigger fires. Conditions look at
/// the event's own time in the snapshot's zone and at the snapshot's focus
/// and timer.
///
///     if:
///       weekdays: mon-fri
///       time: "08:00-18:00"
///       not: {timer: {running: Lunch}}
public indirect enum Condition: Sendable, Equatable {
    /// `weekdays: mon-fri`, `[mon, wed]`, `sat,sun`, `fri-mon`.
    case weekdays(Set<Weekday>)
    /// `time: "22:00-06:00"`: local wall time within the window.
    case time(TimeWindow)
    /// `focus: NAME` (that mode is on, any case) or `focus: none` (nil: no mode is on).
    case focus(String?)
    /// `timer: running`, `timer: stopped`, `timer: {running: PROJECT}`.
    case timer(TimerCondition)
    /// `place: NAME`: the last fixes put that place's state at inside.
    case place(String)
    /// `any: [...]`: at least one holds.
    case any([Condition])
    /// A mapping with several keys inside `any` or `not`: all hold.
    case all([Condition])
    /// `not: {...}`: the mapping's conditions do not all hold.
    case not(Condition)
}

/// What a `timer:` condition asks of the timer.
public enum TimerCondition: Sendable, Equatable {
    case running
    case stopped
    /// Running that project; names compare ignoring ASCII case, as the store does.
    case runningProject(String)
}
