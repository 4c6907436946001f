import Foundation
import Testing
import TrackeeCore
import TrackeeReport
import TrackeeTestSupport

/// What the test needs and lacks: the browser, python3-pil and poppler-utils.
private let reportBrowserMissing = BrowserTools.missing([
    ("/usr/lib/python3/dist-packages/PIL", "python3-pil"), ("/usr/bin/pdfinfo", "poppler-utils"),
])

/// The HTML report in headless Chromium (issue 37 §4): Browser/
/// report_browser.py, run with Debian's python3 and python3-selenium,
/// opens each page at 1280×900 and at 375×800, screenshots it, reads the
/// SVG's bars from the DOM, records every request and prints it to PDF;
/// this test asserts on what it saw. Python's Selenium rather than
/// WebDriver over HTTP from Swift: it reads Chrome's performance log and
/// speaks CDP (screenshots past the viewport, printToPDF, device metrics)
/// in a line each, and Debian packages it beside chromium-driver.
///
/// With TRACKEE_REPORT_SCREENSHOTS set to a folder, the realistic week's
/// screenshots are copied there as report-html.png (1280 wide) and
/// report-html-375.png, with the week as JSON and as terminal text for
/// the other formats' pictures (scripts/report-screenshots.sh makes all
/// of docs/'s).
@Suite(.enabled(if: reportBrowserMissing == nil, Comment(rawValue: reportBrowserMissing ?? "")))
struct ReportHTMLBrowserTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Browser/report_browser.py").path


    struct Run: Decodable {
        var browser: String
        var pages: [String: Page]
        var probe: [String: Int]
        var strays: [Int]
    }

    struct Page: Decodable {
        var wide: View
        var narrow: View
        var pdf: Printed
        enum CodingKeys: String, CodingKey {
            case wide = "1280", narrow = "375", pdf
        }
    }

    struct View: Decodable {
        var scrollWidth: Int
        var innerWidth: Int
        var byDay: [String: Int64]
        var byProject: [String: Int64]
        var projectBars: [String: Int64]
        var clientBars: [String: Int64]
        var active: Int
        var headings: [String]
        var inked: Double
        var shotSize: [Int]
        var requests: [String]
        var dialog: String?
        var contrast: Contrast
    }

    struct Contrast: Decodable {
        var ratio: Double
        var text: String
    }

    struct Printed: Decodable {
        var pages: Int
        var firstLines: [String]
        var requests: [String]
    }

    /// The realistic week as each kind, the week with hostile names, and a
    /// detailed report long enough that its table goes over a page.
    static func pages() -> [(String, Report)] {
        let long = (0..<60).map { i in
            ReportFixture.Entry(
                id: "l\(i)", day: i / 12, start: "\(8 + i % 12 / 2):\(i % 2 == 0 ? "00" : "30")",
                end: "\(8 + i % 12 / 2):\(i % 2 == 0 ? "25" : "55")", project: ReportFixture.projects[i % 6].name,
                description: "Step \(i + 1)")
        }
        return [
            ("weekly", ReportFixture.week(.weekly)), ("summary", ReportFixture.week(.summary)),
            ("detailed", ReportFixture.week(.detailed)), ("hostile", ReportHTMLTests.hostile(.detailed)),
            ("long", ReportFixture.make(.detailed, projects: ReportFixture.projects, entries: long)),
            ("month", ReportFixture.make(.weekly, projects: ReportFixture.projects, entries: ReportFixture.weeks(4), dayCount: 31)),
            ("year", ReportFixture.make(.summary, projects: ReportFixture.projects, entries: ReportFixture.weeks(52), dayCount: 365)),
        ]
    }

    @Test func chromiumShowsThePagesAsTheReportSaysWithoutFetchingAnything() async throws {
        let work = try TemporaryDirectory("trackee-report-html-")
        let pages = Self.pages()
        var arguments = ["--work", work.path]
        for (name, report) in pages {
            arguments.append(name + "=" + (try work.write(ReportHTML.render(report), to: name + ".html")))
        }
        try FileManager.default.createDirectory(atPath: work.path + "/home", withIntermediateDirectories: true)
        let environment = [
            "HOME": work.path + "/home", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "XDG_CONFIG_HOME": work.path + "/home/.config", "XDG_CACHE_HOME": work.path + "/home/.cache",
        ]
        let browser = try await BrowserTools.run(Self.script, arguments, work: work.path, environment: environment)
        try #require(browser.ended, "the browser's run took over 300 s: \(browser.stderr)")
        if browser.status == 77 { try Test.cancel(Comment(rawValue: browser.stderr)) }
        try #require(browser.status == 0, "\(browser.stderr)")
        let run = try JSONDecoder().decode(Run.self, from: browser.stdout)
        #expect(run.strays == [])
        #expect(run.pages.count == pages.count)
        for (name, report) in pages {
            let page = try #require(run.pages[name])
            let file = "file://" + work.path + "/" + name + ".html"
            for (view, width, height) in [(page.wide, 1280, 900), (page.narrow, 375, 800)] {
                let at = "\(name) at \(width)"
                #expect(view.innerWidth == width, "\(at)")
                #expect(view.scrollWidth <= view.innerWidth, "\(at): the page scrolls sideways")
                #expect(view.shotSize == [width, height], "\(at)")
                #expect(view.inked > 0.04, "\(at): the screenshot is blank (\(view.inked) of its pixels inked)")
                #expect(view.requests == [file], "\(at)")
                #expect(view.dialog == nil, "\(at)")
                #expect(view.active == 0, "\(at)")
                // WCAG AA for text: 4.5 to 1 at the least.
                #expect(view.contrast.ratio >= 4.5, "\(at): \(view.contrast.text) has \(view.contrast.ratio) to 1")
                #expect(view.byDay == Dictionary(uniqueKeysWithValues: report.days.filter { $0.seconds > 0 }.map { ($0.date, $0.seconds) }),
                        "\(at)")
                let projects = Dictionary(uniqueKeysWithValues: report.projects.enumerated().map { (String($0), $1.seconds) })
                #expect(view.byProject == projects, "\(at)")
                #expect(view.projectBars == projects, "\(at)")
                #expect(view.clientBars == Dictionary(uniqueKeysWithValues: report.clients.enumerated().map { (String($0), $1.seconds) }),
                        "\(at)")
            }
            // Printed: each section starts a page, in order; any other page
            // starts with the header row its table repeats.
            let headings = page.wide.headings
            #expect(headings.count == [Report.Kind.summary: 2, .detailed: 3, .weekly: 3][report.kind], "\(name)")
            #expect(page.pdf.pages >= headings.count, "\(name)")
            let starts = headings.map { heading in page.pdf.firstLines.firstIndex { $0.hasPrefix(heading) } }
            #expect(starts.first == 0, "\(name): \(page.pdf.firstLines)")
            #expect(starts.allSatisfy { $0 != nil }, "\(name): \(headings) \(page.pdf.firstLines)")
            #expect(starts.map { $0 ?? -1 } == starts.map { $0 ?? -1 }.sorted(), "\(name)")
            for (i, line) in page.pdf.firstLines.enumerated() where !starts.contains(i) {
                #expect(line.hasPrefix("Date"), "\(name): page \(i + 1) starts with \(line)")
            }
            #expect(page.pdf.requests == [file], "\(name)")
        }
        // The long report's entries went over two pages or more.
        #expect(try #require(run.pages["long"]).pdf.pages >= 4)
        #expect(run.probe == ["withPolicy": 0, "withoutPolicy": 2])
        if let folder = ProcessInfo.processInfo.environment["TRACKEE_REPORT_SCREENSHOTS"], !folder.isEmpty {
            for (from, to) in [("weekly-1280.png", "report-html.png"), ("weekly-375.png", "report-html-375.png")] {
                let target = URL(fileURLWithPath: folder).appendingPathComponent(to)
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(atPath: work.path + "/" + from, toPath: target.path)
            }
            // The same week for scripts/report-screenshots.sh's other formats.
            let out = URL(fileURLWithPath: folder)
            try ReportFixture.week(.summary).json().write(to: out.appendingPathComponent("week-summary.json"))
            try ReportFixture.week(.weekly).json().write(to: out.appendingPathComponent("week-weekly.json"))
            let text = ReportText(ReportFixture.week(.summary), width: 92, style: TextStyle(color: true)).lines()
            try Data((text.joined(separator: "\n") + "\n").utf8).write(to: out.appendingPathComponent("week-terminal.ansi"))
        }
    }
}
