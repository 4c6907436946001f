import Foundation
import Testing
import TrackeeAPI
import TrackeeAutomation
import TrackeeCore
import TrackeeReport
import TrackeeStore
@testable import TrackeeWeb

/// What the page's forms do (issue 38 §1, §3): each timer button is one
/// intent of the source `web:DEVICE` under its form's key, an edit and a
/// delete are journal steps that undo takes back, and nothing is done
/// for a request from another site or without the session's CSRF token.
@Suite struct WebActionTests {
    /// A signed-in harness with Docs running since 08:00.
    func running() async throws -> (WebHarness, cookie: String, csrf: String) {
        let h = try WebHarness()
        _ = try h.store.apply(Intent(.start(TimerParameters(project: "Docs")), at: nine - 3600, source: .cli), now: nine - 3600)
        let cookie = try await h.signIn()
        return (h, cookie, try await h.csrf(cookie))
    }

    @Test func stopIsOneIntentOfTheWebPageUnderTheFormsKey() async throws {
        let (h, cookie, csrf) = try await running()
        let answer = await h.send("POST", "/timer/stop", form: [("csrf", csrf), ("key", "web-k1")], cookie: cookie)
        #expect(answer.status == 303)
        #expect(answer.header("Location") == "/")
        #expect(try h.store.running() == nil)
        let history = try h.store.intentHistory(limit: 5)
        #expect(history.map(\.source) == [.web(device: "phone"), .cli])
        #expect(history.map(\.action) == ["stop", "start"])
        #expect(history.first?.key == "web-k1")
        #expect(history.first?.outcome == "stopped")
    }

    @Test func theSameFormTwiceIsOneIntentEvenAtOnce() async throws {
        let (h, cookie, csrf) = try await running()
        let form = [("csrf", csrf), ("key", "web-double"), ("project", "Mail"), ("description", "inbox")]
        async let first = h.send("POST", "/timer/start", form: form, cookie: cookie)
        async let second = h.send("POST", "/timer/start", form: form, cookie: cookie)
        let answers = await [first, second]
        #expect(answers.map(\.status) == [303, 303])
        let third = await h.send("POST", "/timer/start", form: form, cookie: cookie)
        #expect(third.status == 303)
        let history = try h.store.intentHistory(limit: 10)
        #expect(history.map(\.action) == ["start", "start"])
        #expect(history.first?.outcome == "switched")
        #expect(try h.store.running()?.project == "Mail")
        #expect(try h.store.running()?.description == "inbox")
    }

    @Test func aStartTakesProjectDescriptionAndTags() async throws {
        let (h, cookie, csrf) = try await running()
        let answer = await h.send("POST", "/timer/start", form: [
            ("csrf", csrf), ("key", "web-k2"), ("project", " Review "), ("description", "A new thing"), ("tags", "#deep, calls  x"),
        ], cookie: cookie)
        #expect(answer.status == 303)
        let entry = try #require(try h.store.running())
        #expect([entry.project, entry.description] == ["Review", "A new thing"])
        #expect(entry.tags == ["calls", "deep", "x"])
    }

    @Test func anUnknownProjectIsRefusedWhenProjectsAreNotCreated() async throws {
        let h = try WebHarness(createsProjects: false)
        let cookie = try await h.signIn()
        let csrf = try await h.csrf(cookie)
        let answer = await h.send("POST", "/timer/start", form: [("csrf", csrf), ("key", "web-k3"), ("project", "Nope")], cookie: cookie)
        #expect(answer.status == 422)
        #expect(answer.text.contains(
            "<p class=\"alert\" role=\"alert\">The field &quot;project&quot;: no project &quot;Nope&quot;; create it with `trackee projects add`, or set create_projects: always.</p>"))
        #expect(try h.store.running() == nil)
    }

    @Test func crossSiteAndTokenlessPostsChangeNothing() async throws {
        let (h, cookie, csrf) = try await running()
        let stop = [("csrf", csrf), ("key", "web-evil")]
        let refusals: [APIResponse] = [
            await h.send("POST", "/timer/stop", form: stop, cookie: cookie, origin: "http://evil.example"),
            await h.send("POST", "/timer/stop", form: stop, cookie: cookie, origin: nil),
            await h.send("POST", "/timer/stop", form: stop, cookie: cookie, headers: [("Sec-Fetch-Site", "cross-site")], origin: "null"),
            await h.send("POST", "/timer/stop", form: stop, cookie: cookie, headers: [("Sec-Fetch-Site", "cross-site")]),
            await h.send("POST", "/timer/stop", form: stop, cookie: cookie, headers: [("Sec-Fetch-Site", "same-site")]),
            await h.send("POST", "/timer/stop", form: [("key", "web-evil")], cookie: cookie),
            await h.send("POST", "/timer/stop", form: [("csrf", String(repeating: "0", count: 64)), ("key", "web-evil")], cookie: cookie),
            await h.send("POST", "/timer/stop", form: stop),
        ]
        #expect(refusals.map(\.status) == [403, 403, 403, 403, 403, 403, 403, 403])
        #expect(refusals[0].text.contains(
            "The request came from another origin (http://evil.example), not http://127.0.0.1:7777; the page&#39;s forms are sent from the page only."))
        #expect(try h.store.running()?.project == "Docs")
        #expect(try h.store.intentHistory(limit: 5).count == 1)
        // Under the page's no-referrer policy a browser sends Origin: null
        // with the page's own posts, and Sec-Fetch-Site says same-origin;
        // without Sec-Fetch-Site (plain HTTP beyond loopback), the session
        // and its CSRF token decide: another site's post has neither.
        #expect(await h.send("POST", "/timer/stop", form: [("key", "web-null")], cookie: nil, origin: "null").status == 403)
        #expect(try h.store.running()?.project == "Docs")
        let null = await h.send("POST", "/timer/cancel", form: [("csrf", csrf), ("key", "web-null")], cookie: cookie,
                                headers: [("Sec-Fetch-Site", "same-origin")], origin: "null")
        #expect(null.status == 303)
        #expect(try h.store.running() == nil)
        _ = try h.store.apply(Intent(.start(TimerParameters(project: "Docs")), at: nine, source: .cli), now: nine)
        // The header the script sends does as well as the field.
        let scripted = await h.send("POST", "/timer/stop", form: [("key", "web-js")], cookie: cookie, headers: [("X-CSRF-Token", csrf)])
        #expect(scripted.status == 303)
        #expect(try h.store.running() == nil)
    }

    @Test func anEditAndADeleteAreStepsThatUndoTakesBack() async throws {
        let (h, cookie, csrf) = try await running()
        _ = try h.store.apply(Intent(.stop, at: nine - 1800, source: .cli), now: nine - 1800)
        let id = try #require(try h.store.intentHistory(limit: 1).first?.entryID)
        let form = await h.send("GET", "/entries/\(id)", cookie: cookie)
        #expect(form.status == 200)
        #expect(form.text.contains("<input id=\"edit-start\" name=\"start\" type=\"datetime-local\" required value=\"2026-11-20T08:00\">"))
        #expect(form.text.contains("<input id=\"edit-end\" name=\"end\" type=\"datetime-local\" required value=\"2026-11-20T08:30\">"))
        let saved = await h.send("POST", "/entries/\(id)", form: [
            ("csrf", csrf), ("start", "2026-11-20T07:45"), ("end", "2026-11-20T08:30"), ("project", "Docs"), ("client", ""),
            ("description", "Edited <b>here</b>"), ("tags", "a b"),
        ], cookie: cookie)
        #expect(saved.status == 303)
        #expect(saved.header("Location") == "/#today")
        var entry = try h.store.entry(id: id)
        #expect(entry.start == nine - 4500)
        #expect(entry.description == "Edited <b>here</b>")
        #expect(entry.tags == ["a", "b"])
        let bad = await h.send("POST", "/entries/\(id)", form: [
            ("csrf", csrf), ("start", "2026-11-20T09:45"), ("end", "2026-11-20T08:30"), ("project", "Docs"),
        ], cookie: cookie)
        #expect(bad.status == 422)
        #expect(try h.store.entry(id: id).start == nine - 4500)

        let page = await h.send("GET", "/", cookie: cookie).text
        #expect(page.contains(">Undo: edit #\(id)</button>"))
        #expect(await h.send("POST", "/undo", form: [("csrf", csrf)], cookie: cookie).status == 303)
        entry = try h.store.entry(id: id)
        #expect(entry.start == nine - 3600)
        #expect(entry.description == "")

        #expect(await h.send("POST", "/entries/\(id)/delete", form: [("csrf", csrf)], cookie: cookie).status == 303)
        #expect(throws: StoreError.self) { try h.store.entry(id: id) }
        #expect(await h.send("POST", "/undo", form: [("csrf", csrf)], cookie: cookie).status == 303)
        #expect(try h.store.entry(id: id).project == "Docs")
    }

    @Test func whatPeopleTypedIsShownAsText() async throws {
        let h = try WebHarness()
        let xss = "<img src=x onerror=alert(1)>"
        let project = "Say \"hi\" & 'bye' <script>"
        _ = try h.store.apply(Intent(.start(TimerParameters(project: project, description: xss, tags: ["t<x>"])),
                                     at: nine - 600, source: .cli), now: nine - 600)
        let cookie = try await h.signIn()
        let page = await h.send("GET", "/", cookie: cookie).text
        #expect(!page.contains("<img src=x"))
        #expect(!page.contains("<script>"))
        #expect(!page.contains("<x>"))
        #expect(page.contains("<span id=\"timer-description\">&lt;img src=x onerror=alert(1)&gt;</span>"))
        #expect(page.contains("<b id=\"timer-project\">Say &quot;hi&quot; &amp; &#39;bye&#39; &lt;script&gt;</b>"))
        #expect(page.contains("<span class=\"tag\">#t&lt;x&gt;</span>"))
        #expect(page.contains("<option value=\"Say &quot;hi&quot; &amp; &#39;bye&#39; &lt;script&gt;\"></option>"))
    }

    @Test func everyAnswerCarriesTheStrictHeaders() async throws {
        let (h, cookie, _) = try await running()
        for answer in [await h.send("GET", "/", cookie: cookie), await h.send("GET", "/"), await h.send("GET", "/nothing"),
                       await h.send("GET", "/assets/page.js")] {
            #expect(answer.header("Content-Security-Policy") == "default-src 'none'; script-src 'self'; style-src 'self'; "
                + "img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
            #expect(answer.header("X-Content-Type-Options") == "nosniff")
            #expect(answer.header("Referrer-Policy") == "no-referrer")
            #expect(answer.header("X-Frame-Options") == "DENY")
        }
        #expect(await h.send("GET", "/", cookie: cookie).header("Cache-Control") == "no-store")
        #expect(await h.send("GET", "/nothing").status == 404)
        let wrong = await h.send("DELETE", "/")
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "GET")
    }

    @Test func theAssetsAreCompiledInAndNamedByTheirHash() async throws {
        let h = try WebHarness()
        let script = await h.send("GET", "/assets/page.js")
        #expect(script.status == 200)
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(script.body == PackageResources.page_js)
        let css = await h.send("GET", "/assets/page.css")
        #expect(css.body == Array(ReportHTML.style.utf8) + PackageResources.page_css)
        let cookie = try await h.signIn()
        let page = await h.send("GET", "/", cookie: cookie).text
        #expect(page.contains("<script src=\"/assets/page.js?v=\(SHA256.hex(PackageResources.page_js).prefix(12))\" defer></script>"))
        // No URL of another host anywhere in the page.
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("//cdn"))
    }

    @Test func theWeekIsTheReportsOwnFragmentWithTheSameFilters() async throws {
        let (h, cookie, _) = try await running()
        let query = [("project", "Docs"), ("ignored", "x")]
        let page = await h.send("GET", "/", cookie: cookie, query: query).text
        let report = try h.api.buildReport(.weekly, query: APIRequest(method: "GET", path: "/", query: [("project", "Docs"), ("period", "week")]))
        #expect(report.filters == ["project Docs"])
        #expect(page.contains(ReportHTML.fragment(report)))
        // Today's line colours a project as the week's charts do.
        #expect(report.projects.map(\.name) == ["Docs"])
        #expect(page.contains("<rect x=\"33.333%\" y=\"4\" width=\"4.167%\" height=\"20\" fill=\"\(report.projects[0].color)\">"
            + "<title>08:00 Docs</title></rect>"))
        #expect(page.contains("<input id=\"week-project\" name=\"project\" value=\"Docs\" list=\"projects\" autocomplete=\"off\">"))
        #expect(await h.send("GET", "/favicon.ico").body == PackageResources.icon_svg)
        let bad = await h.send("GET", "/", cookie: cookie, query: [("billable", "maybe")]).text
        #expect(bad.contains("<p class=\"alert\" role=\"alert\">The query parameter &quot;billable&quot; is &quot;maybe&quot;; it takes true or false.</p>"))
    }

    @Test func whyShowsEachIntentsSourceAndTheRulesNextFirings() async throws {
        let rules = RulesOutlook(
            rules: [.init(id: "office", name: "Office <hours>", enabled: true, triggers: ["at Mon..Fri 09:00: 2026-11-23T09:00:00Z"])],
            next: [.init(time: nine + 86_400 * 3, rule: "office", text: "Mon..Fri 09:00")], untimedKinds: ["idle"])
        let h = try WebHarness(rules: rules)
        _ = try h.store.apply(Intent(.start(TimerParameters(project: "Docs")), at: nine - 60, source: .http(device: "tablet")), now: nine - 60)
        let cookie = try await h.signIn()
        let page = await h.send("GET", "/", cookie: cookie).text
        #expect(page.contains("<li><time datetime=\"2026-11-20T08:59:00Z\">08:59</time> <b>start Docs</b>: started "
            + "<span class=\"src\">http:tablet</span></li>"))
        #expect(page.contains("<tr><th scope=\"row\">office <span class=\"muted\">Office &lt;hours&gt;</span></th>"
            + "<td>at Mon..Fri 09:00: 2026-11-23T09:00:00Z</td></tr>"))
        #expect(page.contains("<ol class=\"next\"><li><time datetime=\"2026-11-23T09:00:00Z\">Mon 23 Nov 09:00</time> <b>office</b> "
            + "<span class=\"muted\">Mon..Fri 09:00</span></li>"))
        #expect(page.contains("idle triggers fire when the machine changes, so they have no next time."))
    }

    @Test func theEventStreamNeedsTheSession() async throws {
        let (h, cookie, _) = try await running()
        let stream = await h.send("GET", "/events", cookie: cookie)
        #expect(stream.status == 200)
        #expect(stream.header("Content-Type") == "text/event-stream")
        #expect(stream.eventCursor?.intent == 1)
        #expect(stream.eventCursor?.firing == 0)
    }
}
