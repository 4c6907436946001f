/// Clockify's CSV import template.
///
/// Clockify reads Start Date, Start Time and Duration (h) in whatever format
/// is chosen in the import dialog, so those follow ``ExportOptions``. Start
/// Time has minute precision; the seconds of the start are dropped.
extension ExportBuffer {
    static let clockifyHeader =
        "Project,Client,Description,Task,Email,Tags,Billable,Start Date,Start Time,Duration (h)"

    mutating func writeClockifyRow(_ r: ExportRecord, options: ExportOptions) {
        writeCSVField(r.project)
        bytes.append(ASCII.comma)
        writeCSVField(r.client)
        bytes.append(ASCII.comma)
        writeCSVField(r.description)
        bytes.append(ASCII.comma)
        // Task stays empty: trackee has no tasks, and Clockify would create one.
        bytes.append(ASCII.comma)
        writeCSVField(options.email)
        bytes.append(ASCII.comma)
        writeCSVField(joining: r.tags, separator: ", ")
        bytes.append(ASCII.comma)
        writeYesNo(r.billable)
        bytes.append(ASCII.comma)
        writeClockifyDate(r.start.date, options.dateFormat)
        bytes.append(ASCII.comma)
        writeClockifyTime(r.start, options.timeFormat)
        bytes.append(ASCII.comma)
        writeClockifyDuration(r.durationSeconds, options.durationFormat)
        writeCRLF()
    }

    private mutating func writeClockifyDate(_ d: LocalDate, _ format: ClockifyDateFormat) {
        switch format {
        case .ymd: writeDate(d, separator: ASCII.hyphen)
        case .ymdSlash: writeDate(d, separator: ASCII.slash)
        case .mdy: writeDayMonthYear(first: d.month, second: d.day, year: d.year, separator: ASCII.slash)
        case .dmy: writeDayMonthYear(first: d.day, second: d.month, year: d.year, separator: ASCII.slash)
        case .dmyDots: writeDayMonthYear(first: d.day, second: d.month, year: d.year, separator: ASCII.period)
        }
    }

    private mutating func writeDayMonthYear(first: Int, second: Int, year: Int, separator: UInt8) {
        write(pad(first, 2))
        bytes.append(separator)
        write(pad(second, 2))
        bytes.append(separator)
        write(pad(year, 4))
    }

    /// `9:05 AM`, `12:00 PM` for noon, `12:30 AM` for half past midnight;
    /// or `09:05` in 24-hour form.
    private mutating func writeClockifyTime(_ t: LocalDateTime, _ format: ClockifyTimeFormat) {
        switch format {
        case .twentyFourHour:
            writeTime(t, seconds: false)
        case .twelveHour:
            let hour = t.hour % 12 == 0 ? 12 : t.hour % 12
            write(String(hour))
            bytes.append(ASCII.colon)
            write(pad(t.minute, 2))
            write(t.hour < 12 ? " AM" : " PM")
        }
    }

    private mutating func writeClockifyDuration(_ seconds: Int64, _ format: ClockifyDurationFormat) {
        switch format {
        case .clockSeconds:
            writeHoursMinutesSeconds(seconds)
        case .clock:
            // Minutes are truncated, not rounded (59 s is 0:00), so a row
            // never claims time that was not tracked.
            writeSign(seconds)
            let s = seconds.magnitude
            write(String(s / 3600))
            bytes.append(ASCII.colon)
            write(pad(Int(s / 60 % 60), 2))
        case .decimal:
            // Half up on the hundredth in integers, so an exact half such as
            // 4050 s (1.125 h) reliably becomes 1.13.
            let hundredths = Int64((seconds.magnitude * 100 + 1800) / 3600)
            writeHundredths(seconds < 0 ? -hundredths : hundredths)
        }
    }
}
