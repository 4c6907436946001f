"""Headless Chromium for the browser tests and the web page's benchmark.

What Tests/TrackeeReportTests/Browser/report_browser.py,
Tests/TrackeeCLITests/Browser/web_browser.py and bench/web.py share:
starting Debian's chromium through Debian's chromium-driver (never
Selenium Manager: both executables are given) with Chrome's performance
log on, reading the URLs asked for from that log, WCAG 2's contrast of
the page's text, a local HTTP server for the pages of another origin,
why Chromium could not start (exit 77), and the browser's processes left
after it quit.

Needs python3-selenium (Debian's /usr/bin/python3).
"""
import contextlib
import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

# WCAG 2's contrast ratio of each rendered text against the first opaque
# background behind it (an SVG text's fill against the page's): the lowest.
CONTRAST = """
const luminance = color => {
  const [r, g, b] = color.match(/[\\d.]+/g).slice(0, 3).map(Number).map(v => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const background = element => {
  for (let e = element; e; e = e.parentElement) {
    const parts = getComputedStyle(e).backgroundColor.match(/[\\d.]+/g);
    if (parts && (parts.length < 4 || Number(parts[3]) > 0)) return getComputedStyle(e).backgroundColor;
  }
  return 'rgb(255, 255, 255)';
};
const lowestContrast = () => {
  let lowest = {ratio: 99, text: ''};
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (texts.nextNode()) {
    const node = texts.currentNode, element = node.parentElement;
    if (!node.textContent.trim() || element.closest('title')) continue;
    if (element.getBoundingClientRect().width === 0) continue;
    const style = getComputedStyle(element);
    const a = luminance(element instanceof SVGElement ? style.fill : style.color), b = luminance(background(element));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < lowest.ratio) lowest = {ratio: ratio, text: node.textContent.trim().slice(0, 40)};
  }
  return lowest;
};
"""


def start_driver(work):
    """Chromium, headless, its profile in `work`/profile, logging every
    network event (goog:loggingPrefs performance) and the console
    (browser). Exits 77 with why on stderr when it cannot start."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    flags = ["--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
             "--force-device-scale-factor=1", "--no-first-run", "--no-default-browser-check",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-extensions", "--disable-default-apps", "--disable-crash-reporter",
             "--user-data-dir=" + os.path.join(work, "profile")]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")
    for flag in flags:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    service = Service(executable_path=CHROMEDRIVER, log_path=os.path.join(work, "chromedriver.log"))
    try:
        return webdriver.Chrome(service=service, options=options)
    except WebDriverException as error:
        print("Chromium did not start: %s" % str(error.msg or error).strip().splitlines()[0], file=sys.stderr)
        print("Chromium alone says: %s" % chromium_alone(work), file=sys.stderr)
        sys.exit(77)


def network_events(driver):
    """The Network domain's events in the performance log since the last
    read, each as (method, params)."""
    events = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method", "").startswith("Network."):
            events.append((message["method"], message.get("params", {})))
    return events


def requested_urls(events):
    """The URLs asked for in `events` (network_events)."""
    urls = []
    for method, params in events:
        if method == "Network.requestWillBeSent":
            urls.append(params["request"]["url"])
        elif method == "Network.webSocketCreated":
            urls.append(params["url"])
    return urls


@contextlib.contextmanager
def serving(handler):
    """An HTTP server on a free loopback port that answers with `handler`
    (a BaseHTTPRequestHandler), in a thread of its own, for the with
    block."""
    server = http.server.HTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def chromium_alone(work):
    """The end of what Chromium writes when started without the driver
    (chromedriver only says that it exited): why it could not start."""
    flags = ["--headless=new", "--disable-gpu", "--user-data-dir=" + os.path.join(work, "alone")]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")
    try:
        run = subprocess.run([CHROMIUM] + flags + ["--dump-dom", "about:blank"], capture_output=True, text=True,
                             timeout=30)
        return "exit %d: %s" % (run.returncode, run.stderr.strip()[-1000:])
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)


def strays(profile):
    """The processes still running with the browser's profile folder in
    their command line (the browser's own, started with it), after waiting
    up to 10 s for them to end on their own; those are then killed."""
    def running():
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    if profile.encode() in f.read():
                        found.append(int(pid))
            except OSError:
                pass
        return found
    for _ in range(100):
        left = running()
        if not left:
            return []
        time.sleep(0.1)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return left
