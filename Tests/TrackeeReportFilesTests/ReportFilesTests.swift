import Foundation
import Testing
import TrackeeTestSupport
@testable import TrackeeReport
@testable import TrackeeReportFiles

/// The built `trackee-report`: `$TRACKEE_REPORT`, else beside the built
/// `trackee` (`.build/debug`).
func reportBinary() throws -> String {
    if let explicit = ProcessInfo.processInfo.environment["TRACKEE_REPORT"], !explicit.isEmpty { return explicit }
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/trackee-report").path
    try #require(FileManager.default.isExecutableFile(atPath: path), "trackee-report is missing at \(path); run swift build")
    return path
}

/// A scratch directory with the report written to it and the programs
/// that read it back.
final class ReportFiles {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("trackee-report-") }

    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// Runs `trackee-report` with `input` on its stdin.
    func run(_ arguments: [String], input: Data) throws -> Run {
        let inputPath = dir.path + "/input-\(UUID().uuidString).json"
        let out = dir.path + "/out-\(UUID().uuidString)", err = dir.path + "/err-\(UUID().uuidString)"
        defer {
            for path in [inputPath, out, err] { try? FileManager.default.removeItem(atPath: path) }
        }
        try input.write(to: URL(fileURLWithPath: inputPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try reportBinary())
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": dir.path]
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: try Data(contentsOf: URL(fileURLWithPath: out)),
                   stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: err)), as: UTF8.self))
    }

    /// Writes `report` as `format` to `name` in the directory; returns its path.
    func write(_ report: Report, _ format: String, name: String? = nil) throws -> String {
        let path = dir.path + "/" + (name ?? "report.\(format)")
        let r = try run(["--format", format, "-o", path], input: try json(report))
        #expect(r.status == 0, "trackee-report failed: \(r.stderr)")
        #expect(r.stderr == "")
        return path
    }

    /// A program's standard output, or nil (with why) when it cannot run.
    func tool(_ program: String, _ arguments: [String]) throws -> String {
        let r = try runProgram(program, arguments, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
                               in: URL(fileURLWithPath: dir.path))
        try #require(r.status == 0, "\(program) \(arguments) failed: \(r.stderr)")
        return r.stdout
    }
}

/// The report's JSON as `trackee report --json` prints it.
func json(_ report: Report) throws -> Data {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(report)
}

/// The poppler and openpyxl tools the files are read back with.
let readers = ["/usr/bin/pdftotext", "/usr/bin/pdffonts", "/usr/bin/pdftoppm", "/usr/bin/pdfinfo"]
let readersMissing: String? = {
    let why = readersProblem()
    if let why { print("ReportFilesTests skipped: \(why)") }
    return why
}()

func readersProblem() -> String? {
    if let missing = readers.first(where: { !FileManager.default.isExecutableFile(atPath: $0) }) {
        return "\(missing) is missing (apt-get install poppler-utils)"
    }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    probe.arguments = ["-c", "import openpyxl"]
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return "/usr/bin/python3 is missing" }
    probe.waitUntilExit()
    return probe.terminationStatus == 0 ? nil : "openpyxl is missing (apt-get install python3-openpyxl)"
}

@Suite("trackee-report: the report as PDF and XLSX, read back with poppler and openpyxl (issue 37)",
       .enabled(if: readersMissing == nil, "\(readersMissing ?? "")"))
struct ReportFilesTests {
    // MARK: PDF

    func text(_ files: ReportFiles, _ path: String, page: Int? = nil) throws -> String {
        try files.tool("/usr/bin/pdftotext", ["-layout"] + (page.map { ["-f", "\($0)", "-l", "\($0)"] } ?? []) + [path, "-"])
    }

    /// pdftotext's lines, each run of spaces (its columns) made one space.
    func lines(_ files: ReportFiles, _ path: String, page: Int? = nil) throws -> [String] {
        try text(files, path, page: page).split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
    }

    func pages(_ files: ReportFiles, _ path: String) throws -> Int {
        let info = try files.tool("/usr/bin/pdfinfo", [path])
        let line = info.split(separator: "\n").first { $0.hasPrefix("Pages:") } ?? ""
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? -1
    }

    @Test("summary PDF: every project, client and total in pdftotext's text; the charts on page 1, the table on page 2")
    func summaryPDF() throws {
        let files = try ReportFiles()
        let path = try files.write(ReportFixture.report(.summary), "pdf")
        let text = try text(files, path)
        for needle in [
            "week 2026-11-23 – 2026-11-29", "2026-11-23 – 2026-11-29", "Europe/Prague", "client, then project",
            "client \"Acme, Inc.\" or none; tag \"a,b\"", "rounded up per entry to 15 min", "2026-11-27T11:20:00+01:00",
            "Total 6:15 · billable 4:45 · non-billable 1:30 · 322.50 EUR · 4 entries",
            "Café \"Ü\"", "Docs", "(no project)", "Acme, Inc.", "(no client)", "Mon 23", "Sun 29",
            "210.00 EUR", "112.50 EUR", "322.50 EUR", "3:30", "1:15", "4:45", "6:15",
        ] {
            #expect(text.contains(needle), "no \(needle) in\n\(text)")
        }
        #expect(try pages(files, path) == 2)
        // The table: a group's row has its duration, billable time, entries and amount.
        let table = try lines(files, path, page: 2)
        #expect(table.contains("Café \"Ü\" 3:30 3:30 2 210.00 EUR"))
        #expect(table.contains("Docs 1:15 1:15 1 112.50 EUR"))
        #expect(table.contains("(no project) 1:30 0:00 1"))
        #expect(table.contains("Total 6:15 4:45 4 322.50 EUR"))
    }

    @Test("every font in the PDF is embedded (pdffonts: DejaVu Sans and its bold, emb yes)")
    func fontsEmbedded() throws {
        let files = try ReportFiles()
        for kind in Report.Kind.allCases {
            let path = try files.write(ReportFixture.report(kind), "pdf", name: "\(kind).pdf")
            let rows = try files.tool("/usr/bin/pdffonts", [path]).split(separator: "\n").dropFirst(2)
            let fonts = rows.map { row -> (String, String) in
                let columns = row.split(separator: " ", omittingEmptySubsequences: true)
                // name type... emb sub uni object ID: emb is the fifth from the end.
                let name = String(columns[0]).split(separator: "+").last.map(String.init) ?? ""
                return (name, String(columns[columns.count - 5]))
            }
            #expect(fonts.map(\.0).sorted() == ["DejaVuSans", "DejaVuSans-Bold"], "\(kind): \(rows)")
            #expect(fonts.allSatisfy { $0.1 == "yes" }, "\(kind): \(rows)")
        }
    }

    /// Page 1 at 50 dpi in colour: its size and how many of its pixels
    /// are not white and how many are the first project's blue (#1f77b4).
    func render(_ files: ReportFiles, _ path: String) throws -> (width: Int, height: Int, inked: Int, blue: Int) {
        _ = try files.tool("/usr/bin/pdftoppm", ["-r", "50", "-f", "1", "-l", "1", path, files.dir.path + "/page"])
        let image = try Data(contentsOf: URL(fileURLWithPath: files.dir.path + "/page-1.ppm"))
        try? FileManager.default.removeItem(atPath: files.dir.path + "/page-1.ppm")
        // P6, width, height, 255, one whitespace byte, then RGB triples.
        var fields: [String] = [], index = 0, field = ""
        while fields.count < 4, index < image.count {
            let byte = image[image.startIndex + index]
            index += 1
            if byte == 0x20 || byte == 0x0A {
                if !field.isEmpty { fields.append(field) }
                field = ""
            } else {
                field.append(Character(UnicodeScalar(byte)))
            }
        }
        try #require(fields.first == "P6" && fields.count == 4, "not a PPM: \(fields)")
        let width = Int(fields[1]) ?? 0, height = Int(fields[2]) ?? 0
        let pixels = image.dropFirst(index)
        try #require(pixels.count == width * height * 3)
        var inked = 0, blue = 0
        var i = pixels.startIndex
        while i < pixels.endIndex {
            let r = Int(pixels[i]), g = Int(pixels[i + 1]), b = Int(pixels[i + 2])
            if r < 240 || g < 240 || b < 240 { inked += 1 }
            if abs(r - 0x1f) < 12, abs(g - 0x77) < 12, abs(b - 0xb4) < 12 { blue += 1 }
            i += 3
        }
        return (width, height, inked, blue)
    }

    @Test("pdftoppm renders page 1 of each kind A4 and not blank; the summary's and the week's bars are in the first project's colour")
    func pageOneRenders() throws {
        let files = try ReportFiles()
        for kind in Report.Kind.allCases {
            let path = try files.write(ReportFixture.report(kind), "pdf", name: "\(kind).pdf")
            let page = try render(files, path)
            #expect(page.width == 414 && page.height == 585, "\(kind): \(page)")
            // Text alone inks a few thousand pixels at 50 dpi.
            #expect(page.inked > 3000, "\(kind): \(page)")
            switch kind {
            case .summary, .weekly:
                // Café's bars: in the summary 3:30 of the longest 4:45
                // across ~300 pt, 10 pt high; each day's under the grid.
                #expect(page.blue > 300, "\(kind): \(page)")
            case .detailed:
                #expect(page.blue == 0, "\(page)")
            }
        }
        // And an empty page is white: the counts above can fail.
        var empty = ReportFixture.report(.summary)
        empty.title = ""
        empty.groups = []
        empty.total = ReportFixture.totals(0, billable: 0, amount: nil, entries: 0)
        let path = try files.write(empty, "pdf", name: "empty.pdf")
        #expect(try text(files, path).contains("Nothing was tracked in this range."))
        #expect(try render(files, path).blue == 0)
    }

    @Test("detailed PDF: each entry under its groups, the running one, subtotals and the total")
    func detailedPDF() throws {
        let files = try ReportFiles()
        let path = try files.write(ReportFixture.report(.detailed), "pdf")
        let lines = try lines(files, path)
        for line in [
            "2026-11-23 09:00–10:30 Review \"draft\", part 1 \"a,b\", ünï 1:30 90.00 EUR",
            "2026-11-24 14:00–15:10 Zürich notes 1:15 112.50 EUR",
            "2026-11-25 23:00–11-26 01:00 Night release 2:00 120.00 EUR",
            "2026-11-27 10:00–running Reading 1:30",
            "Subtotal Café \"Ü\" 3:30 210.00 EUR", "Subtotal Docs 1:15 112.50 EUR",
            "Subtotal Acme, Inc. 4:45 322.50 EUR", "Subtotal (no project) 1:30", "Subtotal (no client) 1:30",
            "Total 6:15 322.50 EUR",
        ] {
            #expect(lines.contains(line), "no \(line) in\n\(lines.joined(separator: "\n"))")
        }
    }

    @Test("a table longer than a page goes on over pages, its header repeated on each")
    func longTable() throws {
        let files = try ReportFiles()
        let path = try files.write(ReportFixture.long(150), "pdf")
        let count = try pages(files, path)
        #expect(count == 3)
        for page in 1...max(1, count) {
            let text = try self.text(files, path, page: page)
            #expect(text.contains("Date") && text.contains("Description") && text.contains("Duration"), "page \(page)")
            #expect(text.contains("page \(page)"))
        }
        let lines = try lines(files, path)
        #expect(lines.contains("2026-01-01 08:00–09:00 Task 0 1:00 90.00 EUR"))
        #expect(lines.contains("2026-06-10 08:00–09:00 Task 149 1:00 90.00 EUR"))
        #expect(lines.contains("Total 150:00 13,500.00 EUR"))
    }

    @Test("weekly PDF: the grid with each row's and each day's total, and the chart of the days")
    func weeklyPDF() throws {
        let files = try ReportFiles()
        let path = try files.write(ReportFixture.report(.weekly), "pdf")
        let lines = try lines(files, path)
        #expect(lines.contains("Mon 23 Tue 24 Wed 25 Thu 26 Fri 27 Sat 28 Sun 29 Total"))
        #expect(lines.contains("Acme, Inc. 1:30 1:15 1:00 1:00 4:45"))
        #expect(lines.contains("(no client) 1:30 1:30"))
        #expect(lines.contains("Total 1:30 1:15 1:00 1:00 1:30 0:00 0:00 6:15"))
        #expect(lines.contains("Each day, by project") && lines.contains("Café \"Ü\" 3:30 (no project) 1:30 Docs 1:15"))
        #expect(try pages(files, path) == 1)
    }

    // MARK: XLSX

    func workbook(_ files: ReportFiles, _ path: String) throws -> JSONValue {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("read_xlsx.py").path
        return try parsedJSON(try files.tool("/usr/bin/python3", [script, path]))
    }

    static func seconds(_ n: Int) -> JSONValue { .object(["seconds": .number(Double(n))]) }
    static func cents(_ n: Int) -> JSONValue { .object(["cents": .number(Double(n))]) }

    @Test("summary XLSX: a sheet per section, durations and amounts as numbers, subtotals and totals as formulas with their values")
    func summaryXLSX() throws {
        let files = try ReportFiles()
        let book = try workbook(files, try files.write(ReportFixture.report(.summary), "xlsx"))
        #expect(book["sheets"] == ["Report", "Summary", "Days"])
        let s = book["Summary"]
        #expect(s["A1"]["text"] == "Client" && s["B1"]["text"] == "Project" && s["C1"]["text"] == "Duration")
        #expect(s["G1"]["text"] == "Entries" && s["F1"]["text"] == "Amount (EUR)" && s["A1"]["bold"] == true)
        #expect(s["A2"]["text"] == "Acme, Inc." && s["B3"]["text"] == "Café \"Ü\"" && s["B4"]["text"] == "Docs")
        #expect(s["C3"] == Self.seconds(12600) && s["C4"] == Self.seconds(4500))
        #expect(s["F3"] == Self.cents(21000) && s["F4"] == Self.cents(11250))
        #expect(s["C2"] == .object(["seconds": 17100, "formula": "=SUBTOTAL(9,C3:C4)", "bold": true]))
        #expect(s["F2"] == .object(["cents": 32250, "formula": "=SUBTOTAL(9,F3:F4)", "bold": true]))
        #expect(s["G2"] == .object(["number": 3, "formula": "=SUBTOTAL(9,G3:G4)", "bold": true]))
        #expect(s["A5"]["text"] == "(no client)" && s["B6"]["text"] == "(no project)")
        #expect(s["C6"] == Self.seconds(5400) && s["D6"] == Self.seconds(0) && s["E6"] == Self.seconds(5400))
        #expect(s["F5"] == .absent && s["F6"] == .absent)
        #expect(s["A7"]["text"] == "Total")
        #expect(s["C7"] == .object(["seconds": 22500, "formula": "=SUBTOTAL(9,C2:C6)", "bold": true]))
        #expect(s["D7"] == .object(["seconds": 17100, "formula": "=SUBTOTAL(9,D2:D6)", "bold": true]))
        #expect(s["F7"] == .object(["cents": 32250, "formula": "=SUBTOTAL(9,F2:F6)", "bold": true]))
        #expect(s["G7"] == .object(["number": 4, "formula": "=SUBTOTAL(9,G2:G6)", "bold": true]))
        #expect(book["frozen"]["Summary"] == "A2" && book["frozen"]["Days"] == "B2" && book["frozen"]["Report"] == .null)
        // Widths as set (28 characters and 13), plus the padding libxlsxwriter adds as Excel does.
        #expect(book["widths"]["Summary"] == .object(["A": .number(28.71), "B": .number(28.71), "C": .number(13.71),
                                                      "D": .number(13.71), "E": .number(13.71), "F": .number(13.71),
                                                      "G": .number(13.71)]))

        let d = book["Days"]
        #expect(d["A2"] == .object(["date": "2026-11-23"]) && d["A8"] == .object(["date": "2026-11-29"]))
        #expect(d["C1"]["text"] == "Café \"Ü\"" && d["D1"]["text"] == "(no project)" && d["E1"]["text"] == "Docs")
        #expect(d["B2"] == .object(["seconds": 5400, "formula": "=SUM(C2:E2)", "bold": true]))
        #expect(d["C2"] == Self.seconds(5400) && d["E3"] == Self.seconds(4500) && d["D6"] == Self.seconds(5400))
        #expect(d["B9"] == .object(["seconds": 22500, "formula": "=SUM(B2:B8)", "bold": true]))
        #expect(d["C9"] == .object(["seconds": 12600, "formula": "=SUM(C2:C8)", "bold": true]))
        #expect(d["E9"] == .object(["seconds": 4500, "formula": "=SUM(E2:E8)", "bold": true]))

        let r = book["Report"]
        #expect(r["A1"]["text"] == "week 2026-11-23 – 2026-11-29")
        #expect(r.keys.contains { r[$0]["text"] == "rounded up per entry to 15 min" })
        #expect(r.keys.contains { r[$0] == .object(["date": "2026-11-27T11:20:00"]) })
        #expect(r.keys.contains { r[$0] == Self.cents(32250) })
    }

    @Test("detailed XLSX: a row per entry with its groups, dates and times as dates, the running entry, the total a formula")
    func detailedXLSX() throws {
        let files = try ReportFiles()
        let book = try workbook(files, try files.write(ReportFixture.report(.detailed), "xlsx"))
        #expect(book["sheets"] == ["Report", "Entries", "Summary", "Days"])
        let e = book["Entries"]
        let header = (0..<15).map { e[XLSXReport.cell(0, $0)]["text"] }
        #expect(header == ["Client", "Project", "Date", "Start", "End", "Project", "Client", "Description", "Tags",
                           "Billable", "Duration", "Unrounded", "Amount (EUR)", .absent, .absent])
        // Rows in group order: e1, e3 (Café), e2 (Docs), e4 (no project).
        #expect(e["A2"]["text"] == "Acme, Inc." && e["B2"]["text"] == "Café \"Ü\"" && e["B3"]["text"] == "Café \"Ü\"")
        #expect(e["C2"] == .object(["date": "2026-11-23"]) && e["D2"] == .object(["date": "2026-11-23T09:00:00"]))
        #expect(e["E3"] == .object(["date": "2026-11-26T01:00:00"]))
        #expect(e["H2"]["text"] == "Review \"draft\", part 1" && e["I2"]["text"] == "\"a,b\", ünï")
        #expect(e["J2"] == .object(["bool": true]) && e["J5"] == .object(["bool": false]))
        #expect(e["K4"] == Self.seconds(4500) && e["L4"] == Self.seconds(4200) && e["M4"] == Self.cents(11250))
        #expect(e["E5"]["text"] == "running" && e["K5"] == Self.seconds(5400) && e["M5"] == .absent)
        #expect(e["A6"]["text"] == "Total")
        #expect(e["K6"] == .object(["seconds": 22500, "formula": "=SUM(K2:K5)", "bold": true]))
        #expect(e["M6"] == .object(["cents": 32250, "formula": "=SUM(M2:M5)", "bold": true]))
        #expect(book["frozen"]["Entries"] == "A2")
    }

    @Test("weekly XLSX: the grid, each row's and each day's total a formula")
    func weeklyXLSX() throws {
        let files = try ReportFiles()
        let book = try workbook(files, try files.write(ReportFixture.report(.weekly), "xlsx"))
        #expect(book["sheets"] == ["Report", "Week", "Summary", "Days"])
        let w = book["Week"]
        #expect(w["B1"]["date"] == "2026-11-23" && w["H1"]["date"] == "2026-11-29" && w["I1"]["text"] == "Total")
        #expect(w["A2"]["text"] == "Acme, Inc." && w["B2"] == Self.seconds(5400) && w["F2"] == .absent)
        #expect(w["I2"] == .object(["seconds": 17100, "formula": "=SUM(B2:H2)", "bold": true]))
        #expect(w["I3"] == .object(["seconds": 5400, "formula": "=SUM(B3:H3)", "bold": true]))
        #expect(w["F4"] == .object(["seconds": 5400, "formula": "=SUM(F2:F3)", "bold": true]))
        #expect(w["H4"] == .object(["seconds": 0, "formula": "=SUM(H2:H3)", "bold": true]))
        #expect(w["I4"] == .object(["seconds": 22500, "formula": "=SUM(I2:I3)", "bold": true]))
        #expect(book["frozen"]["Week"] == "B2")
    }

    @Test("by tag, where an entry is under two groups, the total is the number (no SUM that would count it twice), with a note")
    func tagTotalIsNotASum() throws {
        let files = try ReportFiles()
        let book = try workbook(files, try files.write(ReportFixture.byTag(), "xlsx"))
        let s = book["Summary"]
        #expect(s["B2"] == Self.seconds(5400) && s["B3"] == Self.seconds(5400))
        #expect(s["B4"] == .object(["seconds": 5400, "bold": true, "comment": .string(XLSXReport.notASum)]))
        #expect(s["E4"] == .object(["cents": 9000, "bold": true, "comment": .string(XLSXReport.notASum)]))
    }

    // MARK: output and bad input

    @Test("-o - writes the file to stdout; an existing file is replaced whole, and nothing else is left beside it")
    func outputs() throws {
        let files = try ReportFiles()
        let toStdout = try files.run(["--format", "pdf", "-o", "-"], input: try json(ReportFixture.report(.summary)))
        #expect(toStdout.status == 0 && toStdout.stderr == "")
        #expect(toStdout.stdout.prefix(5) == Data("%PDF-".utf8))
        let xlsx = try files.run(["--format", "xlsx", "-o", "-"], input: try json(ReportFixture.report(.summary)))
        #expect(xlsx.stdout.prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]))
        let path = try files.write(ReportFixture.report(.summary), "pdf", name: "out.pdf")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        _ = try files.write(ReportFixture.report(.weekly), "pdf", name: "out.pdf")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(5) == Data("%PDF-".utf8))
        #expect(files.dir.names == ["out.pdf"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o644 || mode == 0o664)
    }

    @Test("bad JSON on stdin: one sentence naming what and where, exit 65, no file")
    func badJSON() throws {
        let files = try ReportFiles()
        let whole = try json(ReportFixture.report(.summary))
        let out = files.dir.path + "/r.pdf"
        let cases: [(Data, String)] = [
            (whole.prefix(whole.count / 2), "trackee: the report on stdin is not valid JSON (unexpected end of file during JSON parse)\n"),
            (Data("{\"kind\": summary}".utf8), "trackee: the report on stdin is not valid JSON (invalid value around character 9)\n"),
            (Data(), "trackee: no report on stdin: it was empty (trackee report --format pdf|xlsx writes one)\n"),
            (Data(String(decoding: whole, as: UTF8.self).replacingOccurrences(of: "\"billable_seconds\":17100,", with: "").utf8),
             "trackee: the report on stdin lacks total.billable_seconds\n"),
            (Data(String(decoding: whole, as: UTF8.self).replacingOccurrences(of: "\"seconds\":22500", with: "\"seconds\":\"6:15\"").utf8),
             "trackee: the report on stdin has a value of the wrong type at total.seconds: expected an integer\n"),
            (Data(String(decoding: whole, as: UTF8.self).replacingOccurrences(of: "\"kind\":\"summary\"", with: "\"kind\":\"monthly\"").utf8),
             "trackee: the report on stdin has an invalid value at kind: cannot initialize Kind from invalid String value monthly\n"),
        ]
        for (input, message) in cases {
            for format in ["pdf", "xlsx"] {
                let r = try files.run(["--format", format, "-o", out], input: input)
                #expect(r.status == 65, "\(r.stderr)")
                #expect(r.stderr == message)
                #expect(files.dir.names == [], "\(files.dir.names)")
            }
        }
    }

    @Test("an unwritable -o: one sentence, exit 73, nothing half-written; a bad format or argument: exit 64")
    func unwritable() throws {
        let files = try ReportFiles()
        let input = try json(ReportFixture.report(.summary))
        let missing = try files.run(["--format", "pdf", "-o", files.dir.path + "/no/such/dir/r.pdf"], input: input)
        #expect(missing.status == 73)
        #expect(missing.stderr == "trackee: cannot write \(files.dir.path)/no/such/dir/r.pdf: No such file or directory\n")
        let directory = try files.run(["--format", "xlsx", "-o", files.dir.path], input: input)
        #expect(directory.status == 73)
        #expect(directory.stderr == "trackee: cannot write \(files.dir.path): it is a directory\n")
        // A directory without write permission (root ignores it; then it is not tried).
        let locked = files.dir.path + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked) }
        if geteuid() != 0 {
            let r = try files.run(["--format", "pdf", "-o", locked + "/r.pdf"], input: input)
            #expect(r.status == 73)
            #expect(r.stderr == "trackee: cannot write \(locked)/r.pdf: Permission denied\n")
        }
        #expect(files.dir.names == ["locked"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked) == [])

        let format = try files.run(["--format", "docx", "-o", "x.docx"], input: input)
        #expect(format.status == 64 && format.stderr == "trackee: unknown format docx: trackee-report writes pdf or xlsx\n")
        let bare = try files.run([], input: input)
        #expect(bare.status == 64 && bare.stderr == "trackee: " + ReportFileTool.usageLine + "\n")
    }

    // MARK: the pieces

    @Test("money as 1,234.50 EUR, durations as h:mm, cells as B2, wall times from ISO 8601")
    func pieces() {
        #expect(ReportText.money(123_450, currency: "EUR") == "1,234.50 EUR")
        #expect(ReportText.money(100_000_000, currency: "CZK") == "1,000,000.00 CZK")
        #expect(ReportText.money(5, currency: nil) == "0.05")
        #expect(ReportText.money(-123_405, currency: nil) == "-1,234.05")
        #expect(ReportText.duration(97_500) == "27:05")
        #expect(XLSXReport.cell(0, 0) == "A1" && XLSXReport.cell(1, 25) == "Z2" && XLSXReport.cell(9, 26) == "AA10")
        #expect(XLSXReport.cell(0, 701) == "ZZ1" && XLSXReport.cell(0, 702) == "AAA1")
        let t = WallTime("2026-11-23T09:05:30+01:00")
        #expect(t?.date == "2026-11-23" && t?.time == "09:05" && t?.weekday == "Mon")
        // 2026-11-23 09:05:30 is Excel's day 46349 and 32,730 seconds.
        #expect(t?.excelSerial == 46_349 + 32_730.0 / 86_400)
        #expect(WallTime("1970-01-01")?.epochDay == 0 && WallTime("1969-12-31")?.weekday == "Wed")
        #expect(WallTime("2026-13-01") == nil && WallTime("today") == nil && WallTime("2026-11-23T9") == nil)
        #expect(RGB(hex: "#1f77b4")?.packed == 0x1F77B4 && RGB(hex: "1f77b4") == nil)
    }
}

@Test("a group's entry ids are entry_ids in the report's JSON, both ways")
func entryIDsKey() throws {
    let data = try json(ReportFixture.report(.detailed))
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("\"entry_ids\":[\"e1\",\"e3\"]") && !text.contains("entry_i_ds"))
    #expect(try ReportFileTool.decode(data) == ReportFixture.report(.detailed))
}
