#!/usr/bin/python3
"""The web page's costs (issue 38 §5): the real `trackee run` with its page
on loopback, over the realistic store of Tests/Browser/trackee_web.py (a
week of entries, today with gaps and a timer running, three rules), and
headless Chromium signed in.

paint:   performance.getEntriesByType('paint'): first-paint and
         first-contentful-paint of `/`, from the navigation's start, over
         BENCH_WEB_LOADS (20) loads in a row (the first with an empty
         cache; the assets are then cached, as they are named by hash).
weight:  the bytes of the document and of every asset it loads on the
         first load, as the browser decoded them (resource timing's
         decodedBodySize; the icon, should resource timing leave it out,
         from the performance log's Network.dataReceived), beside the same
         URLs fetched with curl (uncompressed: curl asks for no encoding).
         Target: 100 KB.
memory:  trackee-daemon's VmRSS (/proc) after start-up and 2 s idle, before
         any page was served; and after the loads and BENCH_WEB_IDLE (10) s
         idle with the page open, its event stream connected. Target: 30 MB.
KB and MB are 1,024 bytes and 1,024 KB, as in the other benchmarks.

Runs Debian's python (python3-selenium, chromium, chromium-driver) and
curl. Prints a Markdown table. Usage: bench/web.py path/to/trackee (the
release build: trackee-daemon beside it).
"""
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.support.ui import WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Browser"))
from chromium import network_events, start_driver, strays  # noqa: E402
import trackee_web  # noqa: E402

PAINT = """
const paint = {};
for (const p of performance.getEntriesByType('paint')) paint[p.name] = p.startTime;
const nav = performance.getEntriesByType('navigation')[0];
return {paint: paint, responseEnd: nav.responseEnd,
        bytes: [[location.href, nav.decodedBodySize]].concat(
          performance.getEntriesByType('resource').map(r => [r.name, r.decodedBodySize]))};
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def curl_bytes(url, cookie):
    """The body's size of `url` fetched with curl and the session cookie."""
    run = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
                          "-H", "Cookie: trackee_session=" + cookie, url],
                         capture_output=True, text=True, check=True)
    status, size = run.stdout.split()
    if status != "200":
        raise RuntimeError("curl %s: %s" % (url, status))
    return int(size)


def load(driver, url):
    """Loads `url` and waits for both paint entries; the page's figures."""
    driver.get(url)
    for _ in range(500):
        seen = driver.execute_script(PAINT)
        if len(seen["paint"]) == 2:
            return seen
        time.sleep(0.01)
    raise RuntimeError("no paint entries for %s: %s" % (url, seen))


def icon_bytes(events):
    """The decoded bytes of the icon's first response in the performance
    log (None if the browser did not ask for it), and how many times it
    asked."""
    ids = [params["requestId"] for method, params in events
           if method == "Network.responseReceived" and "/assets/icon.svg" in params["response"]["url"]]
    if not ids:
        return None, 0
    return sum(params["dataLength"] for method, params in events
               if method == "Network.dataReceived" and params["requestId"] == ids[0]), len(ids)


def ms(values):
    return "%.0f / %.0f ms" % (statistics.median(values), max(values))


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: bench/web.py path/to/trackee")
    trackee = os.path.abspath(sys.argv[1])
    daemon_bin = os.path.join(os.path.dirname(trackee), "trackee-daemon")
    if not os.access(daemon_bin, os.X_OK):
        raise SystemExit("bench/web.py: %s not found (make build builds it)" % daemon_bin)
    loads = int(os.environ.get("BENCH_WEB_LOADS", "20"))
    idle = float(os.environ.get("BENCH_WEB_IDLE", "10"))
    out = os.path.join(HERE, "out", "web")
    shutil.rmtree(out, ignore_errors=True)
    for folder in ["config", "data", "home"]:
        os.makedirs(os.path.join(out, folder))
    # Private copies, so a rebuild elsewhere cannot swap them mid-run:
    # `trackee run` execs the trackee-daemon of its own folder.
    for binary in [trackee, daemon_bin]:
        shutil.copy2(binary, out)
    binary = os.path.join(out, "trackee")
    # The browser's socket's path must fit in 108 bytes: a short TMPDIR.
    tmp = tempfile.mkdtemp(prefix="trh-", dir="/tmp")
    env = {"PATH": "/usr/bin:/bin", "HOME": os.path.join(out, "home"), "LANG": "C.UTF-8", "TMPDIR": tmp,
           "XDG_CONFIG_HOME": os.path.join(out, "config"), "XDG_DATA_HOME": os.path.join(out, "data"),
           "XDG_CACHE_HOME": os.path.join(out, "home", ".cache"), "TRACKEE_STORE": os.path.join(out, "web.sqlite3")}
    os.environ["TMPDIR"] = tmp
    log = os.path.join(out, "daemon.log")
    daemon = trackee_web.Daemon(binary, env, log)
    driver = None
    try:
        secret, _ = trackee_web.prepare(binary, env, free_port(), log)
        daemon.start()
        url = daemon.url
        time.sleep(2)
        rss_before = daemon.rss_kb()
        driver = start_driver(out)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        trackee_web.sign_in(driver, url, secret, WebDriverWait(driver, 15))
        cookie = next(c["value"] for c in driver.get_cookies() if c["name"] == "trackee_session")
        # A page of trackee's origin before the first load, so that load
        # does not also pay for Chromium's new renderer process (site
        # isolation gives each site its own; about:blank has none of
        # trackee's), then the cache emptied, so it fetches every asset.
        driver.get(url + "/favicon.ico")
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        network_events(driver)
        seen = [load(driver, url + "/") for _ in range(loads)]
        events = network_events(driver)
        time.sleep(idle)
        rss_idle = daemon.rss_kb()
        with open("/proc/%d/status" % daemon.process.pid) as f:
            hwm = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
        first = seen[0]
        icon, icons = icon_bytes(events)
        icon_url = driver.execute_script("return document.querySelector('link[rel=icon]').href")
        items = first["bytes"]
        if not any(address == icon_url for address, _ in items):
            items.append([icon_url, icon])
        curled = [curl_bytes(name, cookie) for name, _ in items]
        fp = [s["paint"]["first-paint"] for s in seen]
        fcp = [s["paint"]["first-contentful-paint"] for s in seen]
        version = subprocess.run([binary, "--version"], env=env, capture_output=True, text=True).stdout.strip()
        print("trackee %s, Chromium %s, %d loads of %s/ (the icon fetched %d time(s))" % (
            version, driver.capabilities.get("browserVersion"), loads, url, icons), file=sys.stderr)
    finally:
        if driver is not None:
            driver.quit()
        stopped = daemon.stop()
        left = strays(os.path.join(out, "profile"))
        shutil.rmtree(tmp, ignore_errors=True)
    if stopped != 0 or left:
        raise SystemExit("bench/web.py: trackee run ended with %s; the browser left %s" % (stopped, left))

    def verdict(value, target):
        return "met" if value <= target else "missed"

    def name(address):
        return address.split("?")[0].rstrip("/").split("/")[-1] if "/assets/" in address else "document"

    weight = sum(size if size is not None else curl for (_, size), curl in zip(items, curled))

    print("| the web page (`trackee run`, %d loads of `/`) | measured | target | verdict |" % loads)
    print("| --- | ---: | ---: | --- |")
    warm = fp[1:] or fp
    print("| first paint, median of the loads with the assets cached | %.0f ms | ≤ 100 ms | %s |" % (
        statistics.median(warm), verdict(statistics.median(warm), 100)))
    print("| first paint, slowest load with the assets cached | %.0f ms | ≤ 100 ms | %s |" % (max(warm), verdict(max(warm), 100)))
    print("| first paint of the first load (empty cache: the assets fetched too) | %.0f ms | ≤ 100 ms | %s |" % (
        fp[0], verdict(fp[0], 100)))
    print("| first contentful paint, median / max | %s | | |" % ms(fcp))
    print("| the document's response ended, median | %.0f ms | | |" % statistics.median(s["responseEnd"] for s in seen))
    print("| page weight, decoded by the browser: %s | %.1f KB | ≤ 100 KB | %s |" % (
        " + ".join("%s %s" % (name(a), "%.1f" % (size / 1024) if size is not None else "(not asked; curl's)")
                   for a, size in items), weight / 1024, verdict(weight, 100 * 1024)))
    print("| the same URLs with curl, uncompressed: %s | %.1f KB | | |" % (
        " + ".join("%.1f" % (size / 1024) for size in curled), sum(curled) / 1024))
    print("| trackee-daemon RSS before any page was served (start-up, 2 s idle) | %.1f MB | | |" % (rss_before / 1024))
    print("| trackee-daemon RSS after the loads and %.0f s idle, the page's event stream open | %.1f MB (peak %.1f MB) "
          "| ≤ 30 MB | %s |" % (idle, rss_idle / 1024, hwm / 1024, verdict(rss_idle, 30 * 1024)))


if __name__ == "__main__":
    main()
