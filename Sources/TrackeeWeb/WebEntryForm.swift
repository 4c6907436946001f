import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// An entry's edit form (`GET /entries/ID`) and what its post asks for.
enum WebEntryForm {
    static func html(_ entry: Entry, zone: Zone, device: String, csrf: String, alert: String?) -> String {
        var main = WebHTML.alert(alert) + "<section aria-labelledby=\"edit-h\">\n<h1 id=\"edit-h\">Edit the entry</h1>\n"
            + "<form id=\"edit\" class=\"edit\" method=\"post\" action=\"/entries/\(entry.id)\">" + WebHTML.hidden("csrf", csrf)
            + "\n<div class=\"fields\"><label for=\"edit-start\">Start</label>"
            + "<input id=\"edit-start\" name=\"start\" type=\"datetime-local\" required value=\"\(WebHTML.localInput(entry.start, zone))\">"
        if let end = entry.end {
            main += "<label for=\"edit-end\">End</label>"
                + "<input id=\"edit-end\" name=\"end\" type=\"datetime-local\" required value=\"\(WebHTML.localInput(end, zone))\">"
        } else {
            main += "<p class=\"muted wide\">Still running: stop the timer to end it.</p>"
        }
        main += "<label for=\"edit-project\">Project</label><input id=\"edit-project\" name=\"project\" "
            + "value=\"\(WebHTML.text(entry.project ?? ""))\" autocomplete=\"off\">"
            + "<label for=\"edit-client\">Client</label><input id=\"edit-client\" name=\"client\" "
            + "value=\"\(WebHTML.text(entry.client ?? ""))\" autocomplete=\"off\">"
            + "<label for=\"edit-description\">Description</label><input id=\"edit-description\" name=\"description\" "
            + "value=\"\(WebHTML.text(entry.description))\" autocomplete=\"off\">"
            + "<label for=\"edit-tags\">Tags</label><input id=\"edit-tags\" name=\"tags\" "
            + "value=\"\(WebHTML.text(entry.tags.joined(separator: ", ")))\" autocomplete=\"off\"></div>\n"
            + "<p class=\"actions\"><button type=\"submit\" id=\"save\" class=\"primary\">Save</button> "
            + "<a href=\"/#today\">Back without saving</a></p>\n</form>\n"
            + "<p class=\"muted\">A save is one step of the journal: <code>trackee undo</code> or the page's undo button takes it back.</p>\n"
            + "</section>\n"
        return WebHTML.document(
            title: "Edit the entry · trackee", main: main, mainID: "page", csrf: csrf,
            bar: WebHTML.bar(device: device, csrf: csrf, sections: false))
    }

    /// The changes a posted form asks for: every field the form has (an
    /// empty project or client is none; the end only for a finished entry).
    static func changes(_ form: WebForm, entry: Entry, zone: Zone) throws(Problem) -> EntryChanges {
        let start = try time(form, "start", zone: zone)
        let end = entry.end == nil ? nil : try time(form, "end", zone: zone)
        let project = form.text("project")
        let client = form.text("client")
        if client != nil && project == nil {
            throw Problem.unprocessable("client-needs-project", "The field \"client\" needs a project; give the project too.")
        }
        let description = form["description"].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return EntryChanges(
            start: start, end: end, project: .some(project), client: client, description: description,
            tags: form["tags"] == nil ? nil : WebForm.tags(form["tags"]))
    }

    /// A `datetime-local` field (`2026-11-29T09:05`, seconds optional) as
    /// an instant in `zone`; nil when the form has no such field.
    static func time(_ form: WebForm, _ name: String, zone: Zone) throws(Problem) -> Instant? {
        guard let text = form.text(name) else { return nil }
        let bad = Problem.unprocessable("bad-time", "The field \"\(name)\" is \"\(text.prefix(40))\"; give a date and time such as 2026-11-29T09:05.")
        let parts = text.split(separator: "T")
        guard parts.count == 2 else { throw bad }
        let day = parts[0].split(separator: "-").compactMap { Int($0) }
        let time = parts[1].split(separator: ":").compactMap { Int($0) }
        guard day.count == 3, (2...3).contains(time.count), (1000...9999).contains(day[0]), (0...23).contains(time[0]),
              (0...59).contains(time[1]), time.count == 2 || (0...59).contains(time[2])
        else { throw bad }
        let date = LocalDate(year: day[0], month: day[1], day: day[2])
        guard date.isValid else { throw bad }
        return zone.instant(for: LocalDateTime(date: date, hour: time[0], minute: time[1], second: time.count == 3 ? time[2] : 0))
    }
}
