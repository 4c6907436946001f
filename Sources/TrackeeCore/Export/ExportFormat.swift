/// The file layouts `trackee export` can write.
///
/// `clockify` and `toggl` match those services' CSV import templates;
/// `csv` and `json` are trackee's own, lossless layouts.
public enum ExportFormat: String, Sendable, CaseIterable {
    case clockify, toggl, csv, json
}

/// How the Clockify importer should read the Start Date column. It must match
/// the date format set in the user's Clockify profile. Raw values are what
/// users type on the command line.
public enum ClockifyDateFormat: String, Sendable, CaseIterable {
    case mdy = "MM/DD/YYYY"
    case dmy = "DD/MM/YYYY"
    case ymd = "YYYY-MM-DD"
    case dmyDots = "DD.MM.YYYY"
    case ymdSlash = "YYYY/MM/DD"
}

/// How the Clockify importer should read the Start Time column: `9:05 PM`
/// or `21:05`.
public enum ClockifyTimeFormat: String, Sendable, CaseIterable {
    case twelveHour = "12h"
    case twentyFourHour = "24h"
}

/// How the Clockify importer should read the Duration (h) column.
public enum ClockifyDurationFormat: String, Sendable, CaseIterable {
    /// `27:05`: whole hours, then whole minutes; leftover seconds are dropped.
    case clock = "h:mm"
    /// `27:05:09`.
    case clockSeconds = "hh:mm:ss"
    /// `27.09`: hours rounded half up to the hundredth.
    case decimal = "decimal"
}

/// Settings that only some formats use; the others ignore them.
///
/// ```swift
/// let options = ExportOptions(email: "ana@example.com", dateFormat: .dmyDots, timeFormat: .twentyFourHour)
/// ```
public struct ExportOptions: Sendable, Equatable {
    /// Written into every row's Email column (Clockify and Toggl); both
    /// services assign a row to the workspace member with this address.
    public var email: String
    public var dateFormat: ClockifyDateFormat
    public var timeFormat: ClockifyTimeFormat
    public var durationFormat: ClockifyDurationFormat

    public init(
        email: String = "",
        dateFormat: ClockifyDateFormat = .mdy,
        timeFormat: ClockifyTimeFormat = .twelveHour,
        durationFormat: ClockifyDurationFormat = .clock
    ) {
        self.email = email
        self.dateFormat = dateFormat
        self.timeFormat = timeFormat
        self.durationFormat = durationFormat
    }
}
