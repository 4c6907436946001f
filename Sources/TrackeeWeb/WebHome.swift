import TrackeeAPI
import TrackeeAutomation
import TrackeeCore
import TrackeeReport
import TrackeeStore

/// What the page at `/` shows, read from the store (and the daemon's
/// rules) for one request; ``html`` writes it.
struct WebHome {
    var device: String
    var csrf: String
    var scopes: Set<TokenScope>
    var zone: Zone
    var now: Instant
    var running: Entry?
    /// Today's local day, and the entries that overlap it, by start.
    var today: Timespan
    var entries: [Entry]
    /// The latest projects worked on, newest first, the running one left out.
    var recent: [(project: String, client: String?)]
    /// Every project, for the start form's completion.
    var projects: [Project]
    /// The week's report, or why the filters could not make one.
    var week: Result<Report, Problem>
    /// The week's filters as given in the page's query.
    var filters: [(String, String)]
    var history: [IntentRecord]
    var traces: [RuleTrace]
    var outlook: RulesOutlook
    /// What `trackee undo` would revert now.
    var undoable: JournalStepSummary?

    /// The page's `<main>`: the alert, then the four sections.
    func main(alert: String?) -> String {
        WebHTML.alert(alert) + timer + todaySection + weekSection + why
    }

    /// The whole page.
    func html(alert: String?) -> String {
        WebHTML.document(
            title: running.map { "▶ " + ($0.project ?? "(no project)") + " · trackee" } ?? "trackee",
            main: main(alert: alert), mainID: "page", csrf: csrf,
            bar: WebHTML.bar(device: device, csrf: csrf, sections: true))
    }

    // MARK: the timer

    var timer: String {
        var html = "<section id=\"timer\" aria-labelledby=\"timer-h\">\n<h2 id=\"timer-h\">Timer</h2>\n"
            + "<div id=\"timer-now\" data-live>"
        if let running {
            let seconds = now - running.start
            html += "<p class=\"state running\"><span id=\"timer-state\">Running</span> "
                + "<time id=\"elapsed\" data-elapsed=\"\(seconds)\" datetime=\"PT\(max(0, seconds))S\">"
                + WebHTML.elapsed(seconds) + "</time> <span class=\"muted\">since "
                + WebHTML.clock(running.start, zone) + "</span></p>\n"
                + "<p class=\"what\"><b id=\"timer-project\">" + WebHTML.project(running.project, client: running.client) + "</b>"
                + (running.description.isEmpty ? "" : " <span id=\"timer-description\">\(WebHTML.text(running.description))</span>")
                + (running.tags.isEmpty ? "" : " " + WebHTML.tags(running.tags)) + "</p>\n<div class=\"actions\">"
            if scopes.contains(.stop) {
                html += WebHTML.postForm("/timer/stop", csrf: csrf, key: true,
                                         button: "<button type=\"submit\" id=\"stop\" class=\"primary\">Stop timer</button>")
            }
            if scopes.contains(.cancel) {
                html += WebHTML.postForm("/timer/cancel", csrf: csrf, key: true,
                                         button: "<button type=\"submit\" id=\"cancel\" class=\"danger\">Cancel timer</button>")
            }
            html += "</div>\n"
        } else {
            html += "<p class=\"state\"><span id=\"timer-state\">No timer is running.</span></p>\n"
        }
        if scopes.contains(.start), !recent.isEmpty {
            html += "<h3 id=\"recent-h\">\(running == nil ? "Start" : "Switch to")</h3>\n<ul class=\"recent\" aria-labelledby=\"recent-h\">"
            for (project, client) in recent {
                let fields = WebHTML.hidden("project", project) + (client.map { WebHTML.hidden("client", $0) } ?? "")
                html += "<li>" + WebHTML.postForm(
                    "/timer/start", csrf: csrf, key: true, fields: fields,
                    button: "<button type=\"submit\">" + WebHTML.project(project, client: client) + "</button>") + "</li>"
            }
            html += "</ul>\n"
        }
        html += "</div>\n"
        if scopes.contains(.start) { html += startForm }
        return html + "</section>\n"
    }

    /// The start form: outside the parts the script refreshes, so what a
    /// person is typing stays when another device starts a timer.
    var startForm: String {
        var html = "<form id=\"start\" class=\"start\" method=\"post\" action=\"/timer/start\" data-async "
            + "aria-labelledby=\"start-h\">\n<h3 id=\"start-h\">Start a timer</h3>\n"
            + WebHTML.hidden("csrf", csrf) + WebHTML.hidden("key", WebHTML.newKey()) + "\n"
            + "<div class=\"fields\"><label for=\"start-project\">Project</label>"
            + "<input id=\"start-project\" name=\"project\" list=\"projects\" autocomplete=\"off\">"
            + "<label for=\"start-description\">Description</label>"
            + "<input id=\"start-description\" name=\"description\" autocomplete=\"off\">"
            + "<label for=\"start-tags\">Tags</label>"
            + "<input id=\"start-tags\" name=\"tags\" autocomplete=\"off\" aria-describedby=\"start-tags-hint\">"
            + "<span id=\"start-tags-hint\" class=\"hint muted\">separated by commas or spaces</span></div>\n"
            + "<button type=\"submit\" id=\"start-button\" class=\"primary\">Start</button>\n</form>\n<datalist id=\"projects\">"
        for project in projects {
            html += "<option value=\"\(WebHTML.text(project.name))\">"
                + (project.client.map { "\(WebHTML.text($0))</option>" } ?? "</option>")
        }
        return html + "</datalist>\n"
    }

    // MARK: today

    var todaySection: String {
        let day = zone.localDate(today.start)
        var html = "<section id=\"today\" aria-labelledby=\"today-h\">\n<h2 id=\"today-h\">Today "
            + "<span class=\"muted\">\(WebHTML.day(day))</span></h2>\n<div id=\"today-live\" data-live>"
        let end = min(now, today.end)
        let pieces = entries.map { entry -> (entry: Entry, from: Instant, to: Instant) in
            (entry, max(entry.start, today.start), min(entry.end ?? end, today.end))
        }
        let tracked = pieces.reduce(Int64(0)) { $0 + max(0, $1.to - $1.from) }
        var gaps: [(from: Instant, to: Instant)] = []
        for (a, b) in zip(pieces, pieces.dropFirst()) where b.from - a.to >= 60 { gaps.append((a.to, b.from)) }
        let gapSeconds = gaps.reduce(Int64(0)) { $0 + ($1.to - $1.from) }
        html += "<p class=\"sum\">Tracked <b id=\"today-total\">\(HTMLText.duration(tracked))</b> in "
            + "\(entries.count == 1 ? "1 entry" : "\(entries.count) entries")"
            + (gaps.isEmpty ? "" : ", with <b>\(HTMLText.duration(gapSeconds))</b> in \(gaps.count == 1 ? "1 gap" : "\(gaps.count) gaps")")
            + ".</p>\n"
        html += timeline(pieces, tracked: tracked)
        if let undoable, scopes.isSuperset(of: WebPage.editScopes) {
            html += WebHTML.postForm(
                "/undo", csrf: csrf,
                button: "<button type=\"submit\" id=\"undo\" class=\"plain\">Undo: \(WebHTML.text(undoable.label))</button>",
                className: "undo")
        }
        guard !entries.isEmpty else { return html + "<p class=\"empty\">Nothing tracked yet today.</p>\n</div>\n</section>\n" }
        html += "<div class=\"scroll\"><table id=\"entries\" class=\"today\">\n<thead><tr><th scope=\"col\">Time</th>"
            + "<th scope=\"col\" class=\"n\">Duration</th><th scope=\"col\">Project</th><th scope=\"col\">Description</th>"
            + "<th scope=\"col\">Tags</th><th scope=\"col\"><span class=\"sr\">Actions</span></th></tr></thead>\n<tbody>\n"
        var gapIndex = 0
        let edits = scopes.isSuperset(of: WebPage.editScopes)
        for piece in pieces {
            while gapIndex < gaps.count, gaps[gapIndex].to <= piece.from {
                let gap = gaps[gapIndex]
                html += "<tr class=\"gap\"><td class=\"nw\">\(WebHTML.clock(gap.from, zone))–\(WebHTML.clock(gap.to, zone))</td>"
                    + "<td class=\"n\">\(HTMLText.duration(gap.to - gap.from))</td><td colspan=\"4\">gap</td></tr>\n"
                gapIndex += 1
            }
            let entry = piece.entry
            let span = WebHTML.clock(entry.start, zone) + "–" + (entry.end.map { WebHTML.clock($0, zone) } ?? "now")
            let label = span + " " + (entry.project ?? "(no project)")
            html += "<tr data-entry=\"\(entry.id)\"><td class=\"nw\">\(span)</td>"
                + "<td class=\"n\">\(entry.isRunning ? "<span class=\"run\">running</span>" : HTMLText.duration(piece.to - piece.from))</td>"
                + "<th scope=\"row\">\(WebHTML.project(entry.project, client: entry.client))</th>"
                + "<td>\(WebHTML.text(entry.description))</td><td>\(WebHTML.tags(entry.tags))</td><td class=\"row-actions\">"
            if edits {
                html += "<a href=\"/entries/\(entry.id)\" aria-label=\"Edit the entry \(WebHTML.text(label))\">Edit</a>"
                    + WebHTML.postForm(
                        "/entries/\(entry.id)/delete", csrf: csrf,
                        button: "<button type=\"submit\" class=\"plain danger-text\" aria-label=\"Delete the entry "
                            + "\(WebHTML.text(label))\">Delete</button>")
            }
            html += "</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n</div>\n</section>\n"
    }

    /// The day as a bar from midnight to midnight, an entry a block in its
    /// project's colour (the week's, when the week's report has the
    /// project; else by today's time), with the hours marked below.
    func timeline(_ pieces: [(entry: Entry, from: Instant, to: Instant)], tracked: Int64) -> String {
        let length = Double(max(1, today.end - today.start))
        var seconds: [ReportProjectKey: Int64] = [:]
        for piece in pieces { seconds[Self.key(piece.entry), default: 0] += piece.to - piece.from }
        let ranked = seconds.sorted { ($0.value, $1.key.name ?? "") > ($1.value, $0.key.name ?? "") }.map(\.key)
        var colors: [ReportProjectKey: String] = [:]
        if case .success(let report) = week {
            for project in report.projects { colors[project.key] = project.color }
        }
        var svg = "<svg class=\"timeline\" width=\"100%\" height=\"40\" role=\"img\" aria-label=\"Today from midnight to "
            + "midnight: \(HTMLText.duration(tracked)) tracked\"><rect class=\"track\" x=\"0\" y=\"4\" width=\"100%\" height=\"20\"/>"
        for piece in pieces where piece.to > piece.from {
            let x = Double(piece.from - today.start) / length * 100
            let width = max(0.2, Double(piece.to - piece.from) / length * 100)
            let key = Self.key(piece.entry)
            let rank = ranked.firstIndex(of: key) ?? 0
            let color = HTMLText.color(colors[key] ?? ReportBuilder.palette[rank % ReportBuilder.palette.count])
            svg += "<rect x=\"\(HTMLText.percent(x))\" y=\"4\" width=\"\(HTMLText.percent(width))\" height=\"20\" "
                + "fill=\"\(color)\"><title>"
                + WebHTML.text(WebHTML.clock(piece.entry.start, zone) + " " + (piece.entry.project ?? "(no project)"))
                + "</title></rect>"
        }
        for hour in stride(from: 0, through: 24, by: 6) {
            let x = Double(hour) / 24 * 100
            let anchor = hour == 0 ? "start" : hour == 24 ? "end" : "middle"
            svg += "<text x=\"\(HTMLText.percent(x))\" y=\"38\" text-anchor=\"\(anchor)\">\(pad(hour, 2)):00</text>"
        }
        return svg + "</svg>\n"
    }

    static func key(_ entry: Entry) -> ReportProjectKey {
        ReportProjectKey(name: entry.project, client: entry.client)
    }

    // MARK: the week

    var weekSection: String {
        var html = "<section id=\"week\" aria-labelledby=\"week-h\">\n<h2 id=\"week-h\">This week</h2>\n"
            + "<form class=\"filters\" method=\"get\" action=\"/\" role=\"search\" aria-label=\"Filter the week\">"
        func value(_ name: String) -> String { WebHTML.text(filters.first { $0.0 == name }?.1 ?? "") }
        for (name, label) in [("project", "Project"), ("client", "Client"), ("tag", "Tag"), ("description", "Description")] {
            html += "<div class=\"f\"><label for=\"week-\(name)\">\(label)</label><input id=\"week-\(name)\" name=\"\(name)\" "
                + "value=\"\(value(name))\"" + (name == "project" ? " list=\"projects\"" : "") + " autocomplete=\"off\"></div>"
        }
        html += "<div class=\"f\"><label for=\"week-date\">Week of</label>"
            + "<input id=\"week-date\" name=\"date\" type=\"date\" value=\"\(value("date"))\"></div>"
            + "<button type=\"submit\">Show</button>"
            + (filters.isEmpty ? "" : "<a href=\"/#week\">Clear</a>") + "</form>\n<div id=\"week-live\" data-live>"
        switch week {
        case .success(let report):
            html += "<p class=\"muted range\">\(WebHTML.text(report.title))"
                + (report.filters.isEmpty ? "" : "; " + report.filters.map(WebHTML.text).joined(separator: "; ")) + "</p>\n"
                + ReportHTML.fragment(report)
        case .failure(let problem):
            html += "<p class=\"alert\" role=\"alert\">\(WebHTML.text(problem.detail))</p>\n"
        }
        return html + "</div>\n</section>\n"
    }

    // MARK: why

    var why: String {
        var html = "<section id=\"why\" aria-labelledby=\"why-h\">\n<h2 id=\"why-h\">Why</h2>\n<div id=\"why-live\" data-live>"
            + "<h3>What changed the timer</h3>\n"
        var tracesByKey: [String: RuleTrace] = [:]
        for trace in traces { if let key = trace.key, tracesByKey[key] == nil { tracesByKey[key] = trace } }
        if history.isEmpty { html += "<p class=\"empty\">No intent yet.</p>\n" }
        html += "<ol class=\"history\">"
        for record in history {
            var what = record.action
            if record.action == "start", let parameters = TimerParameters(loggedParameters: record.parameters) {
                what += " " + WebHTML.project(parameters.project, client: parameters.client)
                if !parameters.description.isEmpty { what += " \"" + WebHTML.text(parameters.description) + "\"" }
                if !parameters.tags.isEmpty { what += " " + WebHTML.tags(parameters.tags) }
            } else {
                what = WebHTML.text(what)
            }
            html += "<li><time datetime=\"\(zone.iso8601(record.at))\">\(WebHTML.clock(record.at, zone))</time> "
                + "<b>\(what)</b>: \(WebHTML.text(record.outcome)) <span class=\"src\">\(WebHTML.text(record.source.storedText))</span>"
            if let trigger = record.trigger { html += " <span class=\"muted\">on \(WebHTML.text(trigger))</span>" }
            if let key = record.key, let firing = key.split(separator: "#").first, let trace = tracesByKey[String(firing)] {
                html += traceDetail(trace)
            }
            html += "</li>\n"
        }
        html += "</ol>\n<h3>What the rules decided</h3>\n"
        if traces.isEmpty { html += "<p class=\"empty\">No rule has seen an event yet.</p>\n" }
        html += "<ol class=\"traces\">"
        for trace in traces.prefix(10) {
            html += "<li><time datetime=\"\(zone.iso8601(trace.occurred))\">\(WebHTML.clock(trace.occurred, zone))</time> "
                + "<b>\(WebHTML.text(trace.rule ?? "(no rule)"))</b> <span class=\"muted\">\(WebHTML.text(trace.trigger))</span>"
                + traceDetail(trace) + "</li>\n"
        }
        html += "</ol>\n<h3>Rules</h3>\n"
        if outlook.rules.isEmpty { html += "<p class=\"empty\">No rules are loaded.</p>\n" }
        if !outlook.next.isEmpty {
            html += "<h4>Next firings</h4>\n<ol class=\"next\">"
            for firing in outlook.next.prefix(5) {
                html += "<li><time datetime=\"\(zone.iso8601(firing.time))\">\(WebHTML.text(nextTime(firing.time)))</time> "
                    + "<b>\(WebHTML.text(firing.rule))</b> <span class=\"muted\">\(WebHTML.text(firing.text))</span></li>\n"
            }
            html += "</ol>\n"
        }
        if !outlook.rules.isEmpty {
            html += "<div class=\"scroll\"><table id=\"rules\">\n<thead><tr><th scope=\"col\">Rule</th><th scope=\"col\">When</th>"
                + "</tr></thead>\n<tbody>\n"
            for rule in outlook.rules {
                html += "<tr><th scope=\"row\">\(WebHTML.text(rule.id))"
                    + (rule.name.map { " <span class=\"muted\">\(WebHTML.text($0))</span>" } ?? "")
                    + (rule.enabled ? "" : " <span class=\"tag\">disabled</span>") + "</th><td>"
                    + rule.triggers.map(WebHTML.text).joined(separator: "<br>") + "</td></tr>\n"
            }
            html += "</tbody>\n</table></div>\n"
        }
        if !outlook.untimedKinds.isEmpty {
            html += "<p class=\"muted\">\(WebHTML.text(outlook.untimedKinds.joined(separator: ", "))) triggers fire when the machine "
                + "changes, so they have no next time.</p>\n"
        }
        return html + "</div>\n</section>\n"
    }

    /// A trace as `rules why` says it: the verdict's sentence, each
    /// condition with what it looked at, the detail.
    func traceDetail(_ trace: RuleTrace) -> String {
        var html = "<div class=\"reason\">" + WebHTML.text(trace.verdict.sentence.prefix(1).uppercased() + trace.verdict.sentence.dropFirst())
        if !trace.conditions.isEmpty {
            html += "<ul>" + trace.conditions.map { condition in
                "<li>if \(WebHTML.text(condition.condition)): \(WebHTML.text(condition.input)) → \(condition.holds)</li>"
            }.joined() + "</ul>"
        }
        if let detail = trace.detail { html += "<p>\(WebHTML.text(detail))</p>" }
        return html + "</div>"
    }

    /// `14:00` today, else `Mon 30 Nov 14:00`.
    func nextTime(_ instant: Instant) -> String {
        let date = zone.localDate(instant)
        return (date == zone.localDate(now) ? "" : WebHTML.day(date) + " ") + WebHTML.clock(instant, zone)
    }
}
