import ArgumentParser
import TrackeeCore
import TrackeeReport
import TrackeeStore

/// `--day`, `--week`, `--month`, `--year` and `--date`: the period `summary`
/// and `report` cover when no `--from`/`--to` is given.
struct PeriodOptions: ParsableArguments {
    @Flag(help: "Today, or the day containing --date (summary's default period).")
    var day = false

    @Flag(help: "The week containing today or --date; weeks start on Monday unless configured.")
    var week = false

    @Flag(help: "The calendar month containing today or --date.")
    var month = false

    @Flag(help: "The calendar year containing today or --date.")
    var year = false

    @Option(parsing: .unconditional, help: "Any time inside the wanted day, week, month or year (default now).")
    var date: String?

    /// The period named, or nil for none.
    var chosen: Period? { week ? .week : (month ? .month : (year ? .year : (day ? .day : nil))) }

    /// One period at most, and not with `--from`/`--to`.
    func validate(with filter: FilterOptions) throws {
        let periods = [day, week, month, year].filter { $0 }.count
        if periods > 1 { throw ValidationError("Choose one of --day, --week, --month and --year.") }
        if periods == 1 && (filter.from != nil || filter.to != nil) {
            throw ValidationError("Give either a period (--day, --week, --month, --year) or --from/--to, not both.")
        }
        if filter.to != nil && filter.from == nil { throw ValidationError("--to needs --from.") }
        if date != nil && filter.from != nil { throw ValidationError("--date picks a period; it does not combine with --from.") }
    }

    /// The span covered and its title: `--from`/`--to` (to now without
    /// `--to`) when the filter has a window, else the period containing
    /// `--date` or now (`fallback` when none is named), cut in the
    /// session's zone.
    func span(_ session: Session, filter: EntryFilter, default fallback: Period = .day) throws
        -> (span: Timespan, title: String, period: Period?)
    {
        let end = filter.to ?? session.now
        if let start = filter.from, end < start { throw CommandFailure(StoreError.endBeforeStart(start: start, end: end)) }
        let anchor = try date.map { try session.time($0, option: "--date") } ?? session.now
        return ReportOptions.span(from: filter.from, to: filter.to, period: chosen, anchor: anchor, fallback: fallback,
                                  now: session.now, zone: session.zone, weekStart: session.settings.weekStart)
    }
}
