import CXlsxWriter

/// A workbook being written with libxlsxwriter: the one type that holds
/// its pointers. Sheets are numbered in the order they were added; rows
/// and columns count from 0, as the library's do.
final class XLSXBook {
    /// How a cell is shown. Durations are days (Excel's time values) shown
    /// `[h]:mm`; money is in the currency's units.
    enum Style: Hashable {
        case text, bold, header, headerDate, note
        case duration, durationBold
        case money, moneyBold
        case integer, integerBold
        case date, dateTime
        /// A header cell filled with a project's colour.
        case headerFill(UInt32)
    }

    private var workbook: UnsafeMutablePointer<lxw_workbook>?
    private var sheets: [UnsafeMutablePointer<lxw_worksheet>] = []
    private var formats: [Style: UnsafeMutablePointer<lxw_format>] = [:]
    private let currency: String?
    private let path: String
    /// The first call that failed, reported by ``close()``.
    private var failure: String?

    init(path: String, currency: String?) throws(ToolError) {
        self.path = path
        self.currency = currency
        guard let workbook = workbook_new(path) else {
            throw ToolError("cannot start the workbook \(path)", status: ReportFileTool.cannotCreate)
        }
        self.workbook = workbook
    }

    deinit {
        if let workbook { lxw_workbook_free(workbook) }
    }

    /// Adds a sheet named `name`, printed on A4 as wide as one page;
    /// returns its number.
    func sheet(_ name: String) -> Int {
        guard let workbook, let sheet = workbook_add_worksheet(workbook, name) else {
            failure = failure ?? "cannot add the sheet \(name)"
            return -1
        }
        worksheet_set_paper(sheet, 9)
        worksheet_fit_to_pages(sheet, 1, 0)
        sheets.append(sheet)
        return sheets.count - 1
    }

    func text(_ sheet: Int, _ row: Int, _ column: Int, _ value: String, _ style: Style = .text) {
        // A cell holds at most 32,767 characters.
        let value = value.utf8.count > 32_000 ? String(value.prefix(8_000)) + "…" : value
        check(worksheet_write_string(at(sheet), lxw_row_t(row), lxw_col_t(column), value, format(style)), sheet, row, column)
    }

    func number(_ sheet: Int, _ row: Int, _ column: Int, _ value: Double, _ style: Style) {
        check(worksheet_write_number(at(sheet), lxw_row_t(row), lxw_col_t(column), value, format(style)), sheet, row, column)
    }

    func boolean(_ sheet: Int, _ row: Int, _ column: Int, _ value: Bool) {
        check(worksheet_write_boolean(at(sheet), lxw_row_t(row), lxw_col_t(column), value ? 1 : 0, format(.text)),
              sheet, row, column)
    }

    /// A formula with the value it comes to stored beside it, so a reader
    /// that does not calculate (openpyxl, a previewer) shows the number.
    func formula(_ sheet: Int, _ row: Int, _ column: Int, _ formula: String, value: Double, _ style: Style) {
        check(worksheet_write_formula_num(at(sheet), lxw_row_t(row), lxw_col_t(column), formula, format(style), value),
              sheet, row, column)
    }

    func comment(_ sheet: Int, _ row: Int, _ column: Int, _ text: String) {
        check(worksheet_write_comment(at(sheet), lxw_row_t(row), lxw_col_t(column), text), sheet, row, column)
    }

    func columnWidth(_ sheet: Int, _ first: Int, _ last: Int, _ width: Double) {
        check(worksheet_set_column(at(sheet), lxw_col_t(first), lxw_col_t(last), width, nil), sheet, 0, first)
    }

    /// Keeps the rows above `row` and the columns left of `column` in view.
    func freeze(_ sheet: Int, rows row: Int, columns column: Int) {
        worksheet_freeze_panes(at(sheet), lxw_row_t(row), lxw_col_t(column))
    }

    /// Writes the workbook out (libxlsxwriter writes nothing before).
    func close() throws(ToolError) {
        guard let workbook else { return }
        self.workbook = nil
        if let failure {
            lxw_workbook_free(workbook)
            throw ToolError("cannot write the workbook \(path): \(failure)", status: ReportFileTool.ioError)
        }
        let error = workbook_close(workbook)
        guard error == LXW_NO_ERROR else {
            throw ToolError("cannot write the workbook \(path): \(String(cString: lxw_strerror(error)))",
                            status: ReportFileTool.ioError)
        }
    }

    private func at(_ sheet: Int) -> UnsafeMutablePointer<lxw_worksheet>? { sheets.indices.contains(sheet) ? sheets[sheet] : nil }

    private func check(_ error: lxw_error, _ sheet: Int, _ row: Int, _ column: Int) {
        guard error != LXW_NO_ERROR, failure == nil else { return }
        failure = "cell \(column),\(row) of sheet \(sheet + 1): \(String(cString: lxw_strerror(error)))"
    }

    private func format(_ style: Style) -> UnsafeMutablePointer<lxw_format>? {
        if let made = formats[style] { return made }
        guard let workbook, let format = workbook_add_format(workbook) else { return nil }
        let money = currency.map { "#,##0.00 \"\($0)\"" } ?? "#,##0.00"
        switch style {
        case .text: break
        case .bold: format_set_bold(format)
        case .note: format_set_font_color(format, 0x666666)
        case .header:
            format_set_bold(format)
            format_set_bg_color(format, 0xE8E8E8)
            format_set_bottom(format, UInt8(LXW_BORDER_THIN.rawValue))
        case .headerDate:
            format_set_bold(format)
            format_set_bg_color(format, 0xE8E8E8)
            format_set_bottom(format, UInt8(LXW_BORDER_THIN.rawValue))
            format_set_num_format(format, "ddd yyyy-mm-dd")
            format_set_align(format, UInt8(LXW_ALIGN_RIGHT.rawValue))
        case .headerFill(let color):
            format_set_bold(format)
            format_set_bg_color(format, color)
            // Dark fills get white text.
            let luma = 0.3 * Double(color >> 16) + 0.59 * Double(color >> 8 & 0xFF) + 0.11 * Double(color & 0xFF)
            format_set_font_color(format, luma < 140 ? 0xFFFFFF : 0x000000)
            format_set_bottom(format, UInt8(LXW_BORDER_THIN.rawValue))
        case .duration: format_set_num_format(format, "[h]:mm")
        case .durationBold:
            format_set_num_format(format, "[h]:mm")
            format_set_bold(format)
        case .money: format_set_num_format(format, money)
        case .moneyBold:
            format_set_num_format(format, money)
            format_set_bold(format)
        case .integer: format_set_num_format(format, "0")
        case .integerBold:
            format_set_num_format(format, "0")
            format_set_bold(format)
        case .date: format_set_num_format(format, "yyyy-mm-dd")
        case .dateTime: format_set_num_format(format, "yyyy-mm-dd hh:mm")
        }
        formats[style] = format
        return format
    }
}
