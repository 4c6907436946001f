import TrackeeCore
import TrackeeReport

/// The page's HTML: the document around every view, and the small pieces
/// the views share. Every text a person or another device typed goes
/// through ``text(_:)`` (`HTMLText.escaped`): element text and quoted
/// attributes alike.
enum WebHTML {
    /// `text`, escaped for element text and quoted attributes.
    static func text(_ text: some StringProtocol) -> String { HTMLText.escaped(text) }

    /// A whole page: `main` is the `<main>` element's content; `csrf`,
    /// given for a signed-in page, goes into a `<meta>` the script reads
    /// for its requests; `bar` is the header's content.
    static func document(title: String, main: String, mainID: String, csrf: String?, bar: String) -> String {
        var head = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            + "<title>\(text(title))</title>\n"
            + "<link rel=\"icon\" type=\"image/svg+xml\" href=\"\(WebAssets.paths[.icon]!)\">\n"
            + "<link rel=\"stylesheet\" href=\"\(WebAssets.paths[.css]!)\">\n"
        if let csrf {
            head += "<meta name=\"csrf-token\" content=\"\(csrf)\">\n"
                + "<script src=\"\(WebAssets.paths[.js]!)\" defer></script>\n"
        }
        return head + "</head>\n<body>\n<a class=\"skip\" href=\"#\(mainID)\">Skip to the page</a>\n"
            + "<header class=\"bar\">\(bar)</header>\n<main id=\"\(mainID)\" tabindex=\"-1\">\n\(main)</main>\n</body>\n</html>\n"
    }

    /// The header of a signed-in page: the name, the sections, who is
    /// signed in and the sign-out button.
    static func bar(device: String, csrf: String, sections: Bool) -> String {
        var html = "<a class=\"brand\" href=\"/\">trackee</a>"
        if sections {
            html += "<nav aria-label=\"Sections\"><a href=\"#timer\">Timer</a><a href=\"#today\">Today</a>"
                + "<a href=\"#week\">Week</a><a href=\"#why\">Why</a></nav>"
                + "<span id=\"live\" class=\"live\" role=\"status\"></span>"
        }
        return html + "<form class=\"out\" method=\"post\" action=\"/sign-out\">" + hidden("csrf", csrf)
            + "<span class=\"muted who\">\(text(device))</span>"
            + "<button type=\"submit\" class=\"plain\">Sign out</button></form>"
    }

    /// The alert at the top of a page, announced by screen readers; empty
    /// without one.
    static func alert(_ message: String?) -> String {
        "<div id=\"alerts\" data-live>" + (message.map { "<p class=\"alert\" role=\"alert\">\(text($0))</p>" } ?? "") + "</div>\n"
    }

    static func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(name)\" value=\"\(text(value))\">"
    }

    /// A form that posts to `action` with the CSRF token and a fresh
    /// idempotency key: one key per form as served, so a double click or
    /// a repeated submit of the same form is the same intent.
    static func postForm(_ action: String, csrf: String, key: Bool = false, fields: String = "", button: String,
                         className: String = "inline") -> String {
        "<form class=\"\(className)\" method=\"post\" action=\"\(action)\" data-async>" + hidden("csrf", csrf)
            + (key ? hidden("key", newKey()) : "") + fields + button + "</form>"
    }

    /// `web-` and 128 random bits in hex: an intent key no other way in makes.
    static func newKey() -> String {
        var random = SystemRandomNumberGenerator()
        return "web-" + hex(random.next() as UInt64) + hex(random.next() as UInt64)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `09:05` in `zone`.
    static func clock(_ instant: Instant, _ zone: Zone) -> String {
        let local = zone.localDateTime(instant)
        return pad(local.hour, 2) + ":" + pad(local.minute, 2)
    }

    /// `2026-11-29T09:05` in `zone`, as a `datetime-local` input takes it:
    /// the local time's ISO text to the minute.
    static func localInput(_ instant: Instant, _ zone: Zone) -> String {
        String(zone.localDateTime(instant).description.prefix(16))
    }

    /// `Sun 29 Nov`.
    static func day(_ date: LocalDate) -> String {
        "\(HTMLText.weekday(date)) \(date.day) \(HTMLText.month(date))"
    }

    /// `1:02:03`, hours unpadded: the timer's elapsed time.
    static func elapsed(_ seconds: Int64) -> String {
        let s = max(0, seconds)
        return "\(s / 3600):" + pad(Int(s / 60 % 60), 2) + ":" + pad(Int(s % 60), 2)
    }

    /// A project as a page names it: `Docs`, `Docs (Acme)`, `(no project)`.
    static func project(_ name: String?, client: String?) -> String {
        text(name ?? "(no project)") + (client.map { " <span class=\"muted\">(\(text($0)))</span>" } ?? "")
    }

    static func tags(_ tags: [String]) -> String {
        tags.map { "<span class=\"tag\">#\(text($0))</span>" }.joined(separator: " ")
    }
}
