#!/usr/bin/python3
"""Uses trackee's web page in headless Chromium and says what it saw.

    /usr/bin/python3 -B web_browser.py --work DIR --trackee BIN --port PORT

Run by WebBrowserTests (Swift), which gives it a sandbox's environment
(HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, TRACKEE_STORE) and a free port,
reads the JSON this prints on stdout and asserts on it. The store is
Tests/Browser/trackee_web.py's realistic one, behind the real `trackee
run` (BIN run, which execs trackee-daemon), started here and stopped here
(SIGTERM), and started again once on the same port. In order:

signIn     a wrong token, then the right one, through the sign-in form:
           the alert, the statuses, the cookies as the browser holds them,
           document.cookie.
page       the signed-in page at 1280 and 375 px wide: widths, controls
           without an accessible name, the lowest text contrast, what it
           shows; a full-page screenshot of each (web-WIDTH.png in DIR);
           the first button reached with Tab and its outline.
stop       a click on Stop; `trackee status` and `history --json` after.
start      the start form with a new project, description and tags;
           `trackee status --json` after.
double     a double click on a recent project's button: how many start
           intents it made.
live       `trackee start -p Review` in a terminal: when the page shows it,
           from the command's exit.
edit       the edit page's description changed and saved, then `trackee
           undo`: what the page shows within 3 s (live: the page's stream
           sends `changed` for the journal's step) and when.
restart    trackee run stopped (SIGTERM) and started again on the port; a
           `trackee start` after it, on the page without a reload.
xss        a start from the form with a description and a project that are
           HTML: what the page shows (as text), images, dialogs; the same
           after a reload.
network    every URL the page asked for from the sign-in to here, and the
           console's messages (the daemon's restart's apart).
crossSite  a page of another origin (http://localhost:OTHER, served here)
           whose form posts to /timer/stop on its own, then one whose
           fetch posts there (no-cors, with credentials): the statuses,
           and the timer per `trackee status --json`.
noScript   the page with its script turned off (DevTools): a double click
           on Stop and the start form post, the server redirects back;
           the stops made, what the reloaded page shows, the timer.
strays     the browser's processes still running after it quit.

Uses Debian's chromium, chromium-driver and python3-selenium
(Tests/Browser/chromium.py starts them). Its own process group, so the
test can end it, the browser and trackee run together. Exit 77 when
Chromium cannot start, with why on stderr; then nothing else was done.
"""
import argparse
import base64
import http.server
import json
import os
import sys
import time

from selenium.common.exceptions import NoAlertPresentException, NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Browser"))
from chromium import CONTRAST, network_events, requested_urls, serving, start_driver, strays  # noqa: E402
import trackee_web  # noqa: E402

XSS_PROJECT = "Say \"hi\" & 'bye'"
XSS_DESCRIPTION = "<img src=x onerror=alert(1)>"

# What the page shows, read in one go.
PAGE = """
const text = selector => { const e = document.querySelector(selector); return e ? e.textContent.trim() : null; };
// A control's accessible name as far as the DOM says: aria-labelledby,
// aria-label, a label for it or around it, its text (a button's value).
const named = e => {
  const by = e.getAttribute('aria-labelledby');
  if (by && by.split(/\\s+/).some(id => { const l = document.getElementById(id); return l && l.textContent.trim(); })) return true;
  if ((e.getAttribute('aria-label') || '').trim()) return true;
  if (e.id && Array.from(document.querySelectorAll('label')).some(l => l.htmlFor === e.id && l.textContent.trim())) return true;
  if (e.closest('label') && e.closest('label').textContent.trim()) return true;
  if (e.tagName !== 'INPUT' && e.textContent.trim()) return true;
  return e.tagName === 'INPUT' && ['submit', 'button', 'reset'].includes(e.type) && (e.value || '').trim() !== '';
};
const controls = Array.from(document.querySelectorAll('button, input, select, textarea, a[href]'))
  .filter(e => !(e.tagName === 'INPUT' && e.type === 'hidden'));
return {
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  scrollHeight: document.documentElement.scrollHeight,
  controls: controls.length,
  unnamed: controls.filter(e => !named(e)).map(e => e.outerHTML.slice(0, 120)),
  contrast: lowestContrast(),
  timerState: text('#timer-state'),
  timerProject: text('#timer-project'),
  timerDescription: text('#timer-description'),
  entries: document.querySelectorAll('#entries tr[data-entry]').length,
  gaps: document.querySelectorAll('#entries tr.gap').length,
  recent: document.querySelectorAll('ul.recent button').length,
  weekCharts: document.querySelectorAll('#week svg').length,
  history: document.querySelectorAll('#why ol.history > li').length,
  traces: document.querySelectorAll('#why ol.traces > li').length,
  rules: document.querySelectorAll('#rules tbody tr').length,
  live: text('#live'),
  images: document.querySelectorAll('img').length,
};
"""

# Records, once, the time (ms since the epoch) at which the element of
# arguments[0] first has the text arguments[1]: a mutation observer, so
# the time is the DOM change's and not the next look's.
WATCH = """
const [selector, wanted] = arguments;
window.seen = window.seen || {};
const key = selector + '=' + wanted;
delete window.seen[key];
const look = () => {
  const e = document.querySelector(selector);
  if (e && e.textContent.trim() === wanted && !(key in window.seen)) window.seen[key] = Date.now();
};
new MutationObserver(look).observe(document.documentElement, {subtree: true, childList: true, characterData: true});
look();
"""
SEEN = "return (window.seen || {})[arguments[0] + '=' + arguments[1]] || null;"


class Use:
    """The browser, trackee run and the commands, with what the page asked
    for and the console said, phase by phase."""

    def __init__(self, driver, daemon, binary, env, work):
        self.driver, self.daemon, self.binary, self.env, self.work = driver, daemon, binary, env, work
        self.wait = WebDriverWait(driver, 15, poll_frequency=0.02)
        self.events = []
        self.console = []

    def trackee(self, *arguments):
        return trackee_web.trackee(self.binary, self.env, *arguments)

    def history(self):
        return json.loads(self.trackee("history", "--json", "--limit", "500"))["intents"]

    def status(self):
        return json.loads(self.trackee("status", "--json"))

    def drain(self):
        """The network events and console messages since the last drain."""
        events = network_events(self.driver)
        console = [{"level": e["level"], "message": e["message"]} for e in self.driver.get_log("browser")]
        return events, console

    def keep(self):
        """Drains into the page's own use."""
        events, console = self.drain()
        self.events += events
        self.console += console

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def text(self, selector):
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;",
                       selector)

    def until_text(self, selector, wanted, seconds=15):
        """Waits for the element's text; true if it came."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.text(selector) == wanted:
                return True
            time.sleep(0.02)
        return False

    def size(self, width):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 900 if width > 600 else 800, "deviceScaleFactor": 1, "mobile": width < 600})

    def look(self):
        return self.js(CONTRAST + PAGE)

    def shoot(self, name, height):
        width = self.js("return window.innerWidth")
        full = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
        with open(os.path.join(self.work, name), "wb") as f:
            f.write(base64.b64decode(full["data"]))

    def dialog(self):
        try:
            return self.driver.switch_to.alert.text
        except NoAlertPresentException:
            return None

    def after_command(self, selector, wanted, command, seconds=5):
        """Runs `trackee command` and waits for the page to show `wanted`
        in `selector`: the command's output and the seconds from its exit
        to the DOM change (None if it did not come)."""
        self.js(WATCH, selector, wanted)
        output = self.trackee(*command)
        exited = time.time() * 1000
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            seen = self.js(SEEN, selector, wanted)
            if seen is not None:
                return output, (seen - exited) / 1000
            time.sleep(0.01)
        return output, None


def statuses(events, suffix):
    """The HTTP statuses of the responses to URLs ending in `suffix`, a
    redirect's among them."""
    found = []
    for method, params in events:
        if method == "Network.responseReceived" and params["response"]["url"].endswith(suffix):
            found.append(params["response"]["status"])
        elif method == "Network.requestWillBeSent" and "redirectResponse" in params:
            if params["redirectResponse"]["url"].endswith(suffix):
                found.append(params["redirectResponse"]["status"])
    return found


def sent(events, suffix):
    """What became of the requests to URLs ending in `suffix` that a page
    cannot read (no-cors): how many were sent, the statuses the server
    answered (Network.responseReceivedExtraInfo, which comes even when
    the browser keeps the answer from the page) and why the browser
    blocked them, if it did."""
    ids = {params["requestId"] for method, params in events
           if method == "Network.requestWillBeSent" and params["request"]["url"].endswith(suffix)}
    return {"requests": len(ids),
            "statuses": [params["statusCode"] for method, params in events
                         if method == "Network.responseReceivedExtraInfo" and params["requestId"] in ids],
            "failures": [params.get("blockedReason") or params.get("errorText") for method, params in events
                         if method == "Network.loadingFailed" and params["requestId"] in ids]}


def sign_in(use, url, secret):
    d = use.driver
    use.size(1280)
    use.drain()
    d.get(url + "/")
    form = use.js("return [!!document.querySelector('form#sign-in[method=post][action=\"/sign-in\"]'), "
                  "!!document.querySelector('#sign-in input#token[name=token]')]")
    d.find_element("id", "token").send_keys("trk_notatokenofthisstore")
    d.find_element("css selector", "#sign-in button[type=submit]").click()
    use.wait.until(lambda _: use.text("p.alert[role=alert]") is not None)
    wrong = {"alert": use.text("p.alert[role=alert]"), "cookies": d.get_cookies(),
             "form": bool(use.js("return !!document.getElementById('sign-in')"))}
    events, console = use.drain()
    wrong["statuses"] = statuses(events, "/sign-in")
    wrong["console"] = console
    d.find_element("id", "token").send_keys(secret)
    d.find_element("css selector", "#sign-in button[type=submit]").click()
    use.wait.until(lambda _: use.js("return document.getElementById('page') !== null"))
    cookies = [{k: c.get(k) for k in ["name", "httpOnly", "sameSite", "path", "secure", "domain"]}
               for c in d.get_cookies()]
    right = {"cookies": cookies, "documentCookie": use.js("return document.cookie"), "url": d.current_url}
    events, console = use.drain()
    right["statuses"] = statuses(events, "/sign-in")
    use.events += events
    use.console += console
    return {"form": form, "wrong": wrong, "right": right}


def page(use):
    use.until_text("#live", "Live")
    seen = {}
    for width in [1280, 375]:
        use.size(width)
        time.sleep(0.3)
        look = use.look()
        use.shoot("web-%d.png" % width, look["scrollHeight"])
        seen[str(width)] = look
    use.size(1280)
    # Tab from the top of the page to the first button.
    use.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    body = use.driver.find_element("tag name", "body")
    ActionChains(use.driver).move_to_element_with_offset(body, 0, 0).perform()
    focus = None
    for tabs in range(1, 41):
        ActionChains(use.driver).send_keys(Keys.TAB).perform()
        focus = use.js("""const e = document.activeElement, s = getComputedStyle(e);
            return {tag: e.tagName, text: e.textContent.trim(), outlineStyle: s.outlineStyle, outlineWidth: s.outlineWidth,
                    outlineColor: s.outlineColor, focusVisible: e.matches(':focus-visible')};""")
        if focus["tag"] == "BUTTON":
            focus["tabs"] = tabs
            break
    seen["focus"] = focus
    use.keep()
    return seen


def stop(use):
    use.driver.find_element("id", "stop").click()
    shown = use.until_text("#timer-state", "No timer is running.")
    latest = use.history()[0]
    use.keep()
    return {"shown": shown, "status": use.trackee("status").splitlines()[0],
            "history": {k: latest.get(k) for k in ["action", "outcome", "source"]}}


def start(use):
    d = use.driver
    d.find_element("id", "start-project").send_keys("Writing")
    d.find_element("id", "start-description").send_keys("Release notes for 2.3")
    d.find_element("id", "start-tags").send_keys("docs, #release")
    d.find_element("id", "start-button").click()
    shown = use.until_text("#timer-project", "Writing")
    use.until_text("#timer-description", "Release notes for 2.3")
    running = use.status()["running"]
    use.keep()
    return {"shown": shown, "running": {k: running.get(k) for k in ["project", "client", "description", "tags", "source"]},
            "formCleared": use.js("return document.getElementById('start-project').value")}


def double(use):
    starts = sum(1 for i in use.history() if i["action"] == "start")
    button = use.driver.find_element("css selector", "ul.recent li:first-child button")
    project = use.js("return arguments[0].form.elements.project.value", button)
    client = use.js("const c = arguments[0].form.elements.client; return c ? c.value : null", button)
    shown_as = button.text
    ActionChains(use.driver).double_click(button).perform()
    shown = use.until_text("#timer-project", shown_as)
    time.sleep(1.5)
    after = use.history()
    running = use.status()["running"]
    use.keep()
    return {"project": project, "client": client, "shown": shown,
            "startsMade": sum(1 for i in after if i["action"] == "start") - starts,
            "latest": {k: after[0].get(k) for k in ["action", "outcome", "source"]},
            "running": [running.get("project"), running.get("client")]}


def live(use):
    output, seconds = use.after_command("#timer-project", "Review", ["start", "-p", "Review"])
    use.keep()
    return {"output": output.strip(), "seconds": seconds}


def edit(use):
    d = use.driver
    row = use.js("""return Array.from(document.querySelectorAll('#entries tr[data-entry]'))
        .find(r => r.cells[3].textContent.trim() === 'Inbox and planning').dataset.entry""")
    d.find_element("css selector", "a[href='/entries/%s']" % row).click()
    use.wait.until(lambda _: use.js("return document.getElementById('edit') !== null"))
    widths = {}
    for width in [375, 1280]:
        use.size(width)
        time.sleep(0.2)
        widths[str(width)] = use.js("return [document.documentElement.scrollWidth, window.innerWidth]")
    before = d.find_element("id", "edit-description").get_attribute("value")
    field = d.find_element("id", "edit-description")
    field.clear()
    field.send_keys("Inbox, planning and invoices")
    d.find_element("id", "save").click()
    cell = "#entries tr[data-entry='%s'] td:nth-of-type(3)" % row
    use.wait.until(lambda _: use.js("return document.getElementById('entries') !== null"))
    saved = use.text(cell)
    undo, seconds = use.after_command(cell, "Inbox and planning", ["undo"], seconds=3)
    use.keep()
    return {"entry": row, "before": before, "saved": saved, "undo": undo.strip(), "liveSeconds": seconds,
            "shownAfterUndo": use.text(cell), "cell": cell, "widths": widths}


def restart(use, cell):
    use.js("window.notReloaded = true;")
    was = use.text("#live")
    use.keep()
    stopped = use.daemon.stop()
    gone = use.until_text("#live", "Reconnecting…", seconds=10)
    down = time.monotonic()
    use.daemon.start()
    back = use.until_text("#live", "Live", seconds=30)
    reconnected = time.monotonic() - down
    output, seconds = use.after_command("#timer-project", "Restarted", ["start", "-p", "Restarted"])
    _, console = use.drain()
    return {"liveBefore": was, "exit": stopped, "reconnecting": gone, "live": back, "reconnectSeconds": reconnected,
            "output": output.strip(), "seconds": seconds, "notReloaded": use.js("return window.notReloaded === true"),
            "editShown": use.text(cell), "console": console}


def xss(use):
    d = use.driver
    d.find_element("id", "start-project").send_keys(XSS_PROJECT)
    d.find_element("id", "start-description").send_keys(XSS_DESCRIPTION)
    d.find_element("id", "start-button").click()
    use.until_text("#timer-project", XSS_PROJECT)
    use.until_text("#timer-description", XSS_DESCRIPTION)
    time.sleep(0.5)
    read = """const row = document.querySelector('#entries tr[data-entry]:last-child');
        return {project: document.getElementById('timer-project').textContent,
                description: document.getElementById('timer-description').textContent,
                rowProject: row.querySelector('th').textContent, rowDescription: row.cells[3].textContent,
                images: document.querySelectorAll('img').length,
                handlers: document.querySelectorAll('[onerror], [onload], [onclick]').length,
                title: document.title};"""
    seen = {"live": use.js(read), "liveDialog": use.dialog()}
    d.refresh()
    use.until_text("#live", "Live")
    seen["reloaded"] = use.js(read)
    seen["reloadedDialog"] = use.dialog()
    running = use.status()["running"]
    seen["running"] = [running.get("project"), running.get("description")]
    use.keep()
    return seen


class OtherOrigin(http.server.BaseHTTPRequestHandler):
    """Another site's pages: a form that posts to trackee's /timer/stop
    when loaded, and a script that posts there with fetch."""
    target = ""
    pages = {
        "/form.html": '<!doctype html><title>other</title><form id="f" method="post" action="{target}">'
                      '<input name="csrf" value="{csrf}"><input name="key" value="web-cross-site"></form>'
                      '<script>document.getElementById("f").submit()</script>',
        "/fetch.html": '<!doctype html><title>other</title><script>'
                       'fetch("{target}", {{method: "POST", credentials: "include", mode: "no-cors", '
                       'body: new URLSearchParams({{csrf: "{csrf}", key: "web-cross-fetch"}})}})'
                       '.then(r => {{ document.title = "sent " + r.type; }}, e => {{ document.title = "failed " + e; }});'
                       '</script>',
    }

    def do_GET(self):
        body = self.pages.get(self.path, "").format(target=self.target, csrf="0" * 64).encode()
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def cross_site(use, url):
    OtherOrigin.target = url + "/timer/stop"
    with serving(OtherOrigin) as server:
        other = "http://localhost:%d" % server.server_address[1]
        intents = len(use.history())
        use.keep()
        d = use.driver
        d.get(other + "/form.html")
        use.wait.until(lambda _: d.current_url.startswith(url + "/timer/stop")
                       and use.js("return document.readyState") == "complete")
        form = {"url": d.current_url, "heading": use.text("h1"), "said": use.text("main p[role=alert]")}
        events, console = use.drain()
        form["statuses"] = statuses(events, "/timer/stop")
        form["console"] = console
        running = use.status()["running"]
        form["running"] = running.get("project") if running else None
        d.get(other + "/fetch.html")
        use.wait.until(lambda _: d.title != "other")
        # The extra information comes on its own, after the failure.
        time.sleep(1)
        fetched = {"title": d.title}
        events, console = use.drain()
        fetched.update(sent(events, "/timer/stop"))
        fetched["console"] = console
        running = use.status()["running"]
        fetched["running"] = running.get("project") if running else None
        return {"other": other, "form": form, "fetch": fetched, "intentsMade": len(use.history()) - intents}


def no_script(use, url):
    """The page with its script turned off: a double click on stop and the
    start form still post, the server redirects back, and the page shows
    the change after its reload; one stop is made."""
    d = use.driver
    # Each post navigates: an element found before the new page came can
    # go stale while it is read, or not be there yet.
    reload = WebDriverWait(d, 15, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException))
    d.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        use.trackee("start", "-p", "Review", "-d", "without the script")
        d.get(url + "/")
        reload.until(lambda _: d.find_elements("id", "stop"))
        live = d.find_element("id", "live").text
        stops = sum(1 for i in use.history() if i["action"] == "stop")
        ActionChains(d).double_click(d.find_element("id", "stop")).perform()
        reload.until(lambda _: d.find_element("id", "timer-state").text == "No timer is running.")
        time.sleep(1)
        stopped = d.find_element("id", "timer-state").text
        after = use.history()
        d.find_element("id", "start-project").send_keys("Offline")
        d.find_element("id", "start-description").send_keys("no script here")
        d.find_element("id", "start-button").click()
        reload.until(lambda _: d.find_element("id", "timer-project").text == "Offline")
        running = use.status()["running"]
        result = {"live": live, "stopped": stopped, "stopsMade": sum(1 for i in after if i["action"] == "stop") - stops,
                  "latest": {k: after[0].get(k) for k in ["action", "outcome", "source"]},
                  "started": d.find_element("id", "timer-project").text, "url": d.current_url,
                  "running": [running.get("project"), running.get("description"), running.get("source")]}
    finally:
        d.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    use.keep()
    return result


def main():
    os.setpgrp()
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("--trackee", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    driver = start_driver(args.work)
    env = dict(os.environ)
    log = os.path.join(args.work, "daemon.log")
    daemon = trackee_web.Daemon(args.trackee, env, log)
    result = {"browser": driver.capabilities.get("browserVersion")}
    try:
        secret, _ = trackee_web.prepare(args.trackee, env, args.port, log)
        result["zone"] = env["TZ"]
        daemon.start()
        url = daemon.url
        result["url"] = url
        use = Use(driver, daemon, args.trackee, env, args.work)
        result["signIn"] = sign_in(use, url, secret)
        result["page"] = page(use)
        result["stop"] = stop(use)
        result["start"] = start(use)
        result["double"] = double(use)
        result["live"] = live(use)
        result["edit"] = edit(use)
        result["restart"] = restart(use, result["edit"]["cell"])
        result["xss"] = xss(use)
        result["network"] = {"requests": requested_urls(use.events), "console": use.console}
        result["crossSite"] = cross_site(use, url)
        result["noScript"] = no_script(use, url)
    finally:
        driver.quit()
        result["daemonExit"] = daemon.stop()
    with open(log, encoding="utf-8", errors="replace") as f:
        result["daemonLog"] = [line for line in f.read().splitlines() if ": error: " in line or ": warning: " in line]
    result["strays"] = strays(os.path.join(args.work, "profile"))
    json.dump(result, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
