#!/usr/bin/python3
"""Opens trackee's HTML reports in headless Chromium and says what it saw.

    /usr/bin/python3 -B report_browser.py --work DIR NAME=PAGE.html ...

Run by ReportHTMLBrowserTests (Swift), which writes the pages, reads the
JSON this prints on stdout and asserts on it. For each page, at 1280x900
and at 375x800 (as a phone: the viewport meta applies): a screenshot of
the viewport (its share of pixels that are not white) and of the whole
page (saved as NAME-WIDTH.png), the page's widths, the SVG bars'
data-seconds summed by day, project and client as the DOM holds them, the
elements that could fetch or run (img, script, …), the lowest contrast
of any text against its background (WCAG 2's ratio), a dialog if one opened,
and every URL the page asked for (Chrome's performance log, Network
domain). Then the page printed with Page.printToPDF (NAME.pdf): pdfinfo's
page count, and the first line of each page (pdftotext): each section
should start a page, and a page that starts none, with a table's repeated
header row. Last, the browser's processes still running after it quit
(none, or they are killed and named).

The probe: a copy of the first page with an <img> and a stylesheet
pointing at a local HTTP server this script runs, once as written (with
its Content-Security-Policy) and once with the policy taken out. The
server counts the requests each copy caused: none with the policy, and
some without it, which shows the probe would see one.

Uses Debian's chromium, chromium-driver and python3-selenium (never
Selenium Manager: both executables are given; Tests/Browser/chromium.py
starts them), python3-pil and poppler-utils. Its own process group, so the test can end it and the
browser together. Exit 77 when Chromium cannot start, with why on stderr
(what chromedriver said, and what Chromium says started alone); then
nothing else was done.
"""
import argparse
import base64
import http.server
import io
import json
import os
import subprocess
import sys

from PIL import Image
from selenium.common.exceptions import NoAlertPresentException

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Browser"))
from chromium import CONTRAST, network_events, requested_urls, serving, start_driver, strays  # noqa: E402

SIZES = [(1280, 900, False), (375, 800, True)]
CSP_META = ("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; img-src data:\">\n")

DOM_READ = """
const sum = (selector, key) => {
  const sums = {};
  for (const r of document.querySelectorAll(selector)) {
    const k = r.getAttribute(key);
    sums[k] = (sums[k] || 0) + Number(r.getAttribute('data-seconds'));
  }
  return sums;
};
return {
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  scrollHeight: document.documentElement.scrollHeight,
  byDay: sum('#chart-days rect[data-seconds]', 'data-day'),
  byProject: sum('#chart-days rect[data-seconds]', 'data-project'),
  projectBars: sum('#chart-projects rect[data-seconds]', 'data-project'),
  clientBars: sum('#chart-clients rect[data-seconds]', 'data-client'),
  active: document.querySelectorAll('script, img, iframe, object, embed, link, [onerror], [onload], [onmouseover]').length,
  headings: Array.from(document.querySelectorAll('section')).map(s => s.querySelector('h1, h2').textContent.trim()),
  contrast: lowestContrast(),
};
"""

class CountingHandler(http.server.BaseHTTPRequestHandler):
    """Answers 404 to anything and counts the requests by path."""
    hits = []

    def do_GET(self):
        CountingHandler.hits.append(self.path)
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def requested(driver):
    """The URLs of the requests in the performance log since the last read."""
    return requested_urls(network_events(driver))


def inked(png):
    """The share of the screenshot's pixels that are not (nearly) white."""
    image = Image.open(io.BytesIO(png)).convert("L")
    histogram = image.histogram()
    return sum(histogram[:240]) / (image.width * image.height)


def open_page(driver, path, width, height, mobile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    requested(driver)
    driver.get("file://" + path)
    driver.execute_script("return document.readyState")


def alert_text(driver):
    try:
        return driver.switch_to.alert.text
    except NoAlertPresentException:
        return None


def look(driver, work, name, path):
    seen = {}
    for width, height, mobile in SIZES:
        open_page(driver, path, width, height, mobile)
        dialog = alert_text(driver)
        dom = driver.execute_script(CONTRAST + DOM_READ)
        shot = base64.b64decode(driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"])
        full = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": dom["scrollHeight"], "scale": 1}})
        with open(os.path.join(work, "%s-%d.png" % (name, width)), "wb") as f:
            f.write(base64.b64decode(full["data"]))
        dom.update({"inked": inked(shot), "shotSize": list(Image.open(io.BytesIO(shot)).size),
                    "requests": requested(driver), "dialog": dialog})
        seen[str(width)] = dom
    seen["pdf"] = printed(driver, work, name, path, seen["1280"]["headings"])
    return seen


def printed(driver, work, name, path, headings):
    open_page(driver, path, 1280, 900, False)
    pdf = driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": True, "preferCSSPageSize": True,
                                                     "paperWidth": 8.27, "paperHeight": 11.69})
    file = os.path.join(work, name + ".pdf")
    with open(file, "wb") as f:
        f.write(base64.b64decode(pdf["data"]))
    info = subprocess.run(["pdfinfo", file], capture_output=True, text=True, check=True).stdout
    pages = int(next(line.split()[1] for line in info.splitlines() if line.startswith("Pages:")))
    first_lines = []
    for page in range(1, pages + 1):
        text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", file, "-"],
                              capture_output=True, text=True, check=True).stdout
        first_lines.append(next((line.strip() for line in text.splitlines() if line.strip()), ""))
    starts = [next((i + 1 for i, line in enumerate(first_lines) if line.startswith(h)), 0) for h in headings]
    return {"pages": pages, "sectionPages": starts, "firstLines": first_lines,
            "requests": requested(driver)}


def probe(driver, work, page):
    """Requests to a local server from the page with an <img> and a
    stylesheet added: with the page's policy, and without it."""
    with serving(CountingHandler) as server:
        base = "http://127.0.0.1:%d" % server.server_address[1]
        with open(page, encoding="utf-8") as f:
            html = f.read()
        added = '<img src="%s/pixel.png" alt=""><link rel="stylesheet" href="%s/style.css">\n</body>' % (base, base)
        counts = {}
        for label, text in [("withPolicy", html), ("withoutPolicy", html.replace(CSP_META, ""))]:
            copy = os.path.join(work, "probe-%s.html" % label)
            with open(copy, "w", encoding="utf-8") as f:
                f.write(text.replace("</body>", added, 1))
            CountingHandler.hits = []
            open_page(driver, copy, 1280, 900, False)
            driver.execute_script("return document.readyState")
            # The image and the stylesheet block the load event, which
            # driver.get waits for: their requests are made by now.
            counts[label] = len(CountingHandler.hits)
        return counts


def main():
    os.setpgrp()
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("pages", nargs="+")
    args = parser.parse_args()
    driver = start_driver(args.work)
    try:
        result = {"browser": driver.capabilities.get("browserVersion"), "pages": {}}
        pages = [page.split("=", 1) for page in args.pages]
        for name, path in pages:
            result["pages"][name] = look(driver, args.work, name, path)
        result["probe"] = probe(driver, args.work, pages[0][1])
    finally:
        driver.quit()
    result["strays"] = strays(os.path.join(args.work, "profile"))
    json.dump(result, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
