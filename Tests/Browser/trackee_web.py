"""A realistic store behind the real `trackee run` with its web page on,
for Tests/TrackeeCLITests/Browser/web_browser.py and bench/web.py.

The store is made with trackee's own commands, in a zone of a whole hour's
offset chosen so that it is 14:xx there now (afternoon_zone): today then
always has a morning of entries with gaps and a timer running since
13:15, whatever the hour the machine's clock says. The days before, back
a week, have a working day each from Monday to Friday; the rules file
has three rules (a schedule, a timer left running, a timer started for a
client), so the page's "why" has rules, next firings, intents and a rule's
trace.
"""
import os
import signal
import subprocess
import time

TOKEN_NAME = "phone"
RULES = """rules:
  - id: evening-stop
    name: Stop at the end of the day
    when: {at: "*-*-* 18:30"}
    if: {timer: running}
    do: [stop]
  - id: long-timer
    name: A timer left running
    when: {timer: {running_for: 4h}}
    do:
      - notify: {title: "Still tracking?", body: "The timer has run for four hours."}
  - id: acme-started
    name: Acme work
    when: {timer: started, client: Acme}
    do:
      - notify: "Acme's timer started: keep the ticket number in the description"
"""

PROJECTS = [
    ["Website", "-c", "Acme", "--billable"], ["Mobile app", "-c", "Globex", "--billable"],
    ["Support", "-c", "Acme", "--billable"], ["Admin"], ["Research"],
]

# Today's entries, as the commands that make them: each start switches
# from the one before at its time; two stops leave gaps (10:40-11:00,
# 12:30-13:15). The last start (RUNNING), made after a first `trackee run`
# has set the rules' cursor, leaves the timer running, and the next
# `trackee run` fires the rule acme-started on it.
TODAY = [
    ["start", "-p", "Admin", "-d", "Inbox and planning", "-t", "admin", "--at", "08:30"],
    ["start", "-p", "Website", "-d", "Checkout page redesign", "-t", "design", "--at", "09:05"],
    ["stop", "--at", "10:40"],
    ["start", "-p", "Admin", "-d", "Stand-up", "-t", "meeting", "--at", "11:00"],
    ["start", "-p", "Mobile app", "-d", "Offline sync bug", "-t", "bug", "--at", "11:15"],
    ["stop", "--at", "12:30"],
]
RUNNING = ["start", "-p", "Website", "-d", "Checkout page: payment step", "-t", "design", "--at", "13:15"]
# What today shows once RUNNING runs: 5 entries, 2 gaps.
TODAY_ENTRIES = 5
TODAY_GAPS = 2

# A working day's entries (from, to, project, description, tags);
# each earlier weekday leaves out one of them in turn.
WORKDAY = [
    ("09:00", "10:30", "Website", "Checkout page redesign", ["design"]),
    ("10:45", "12:15", "Mobile app", "Release 2.3 build", ["release"]),
    ("13:00", "13:20", "Admin", "Stand-up", ["meeting"]),
    ("13:30", "15:45", "Support", "Customer tickets", ["tickets"]),
    ("16:00", "17:10", "Research", "Reading on CRDTs", ["learning"]),
]


def afternoon_zone(now=None):
    """The tzdata name of the whole-hour offset from UTC in which it is now
    14:00 to 14:59 (UTC's hour 0 to 23 makes an offset of +14 to -9)."""
    offset = 14 - time.gmtime(now).tm_hour
    return "UTC" if offset == 0 else ("Etc/GMT-%d" % offset if offset > 0 else "Etc/GMT+%d" % -offset), offset


def local_date(offset, days_back=0):
    """The date `days_back` days before today in the zone of `offset`."""
    return time.strftime("%Y-%m-%d", time.gmtime(time.time() + offset * 3600 - days_back * 86400))


def trackee(binary, env, *arguments):
    """Runs `binary arguments` with `env`; its stdout, or an error naming
    the command and what it wrote."""
    run = subprocess.run([binary] + list(arguments), env=env, capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise RuntimeError("trackee %s: exit %d: %s%s" % (" ".join(arguments), run.returncode, run.stdout, run.stderr))
    return run.stdout


def prepare(binary, env, port, log):
    """Sets TZ in `env` to afternoon_zone's, writes the settings (the page
    on 127.0.0.1:PORT, projects made as named) and the rules into
    $XDG_CONFIG_HOME/trackee, makes the token the page signs in with and
    the projects, records the past week and today's morning, runs
    `trackee run` once (its standard error to `log`), and starts the
    running timer. Returns the token's secret and the zone's offset in
    hours."""
    env["TZ"], offset = afternoon_zone()
    config = os.path.join(env["XDG_CONFIG_HOME"], "trackee")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "config.yaml"), "w", encoding="utf-8") as f:
        f.write("create_projects: always\nhttp:\n  listen: 127.0.0.1:%d\n" % port)
    with open(os.path.join(config, "rules.yaml"), "w", encoding="utf-8") as f:
        f.write(RULES)
    secret = trackee(binary, env, "tokens", "add", TOKEN_NAME, "--scope", "read,start,stop,cancel").splitlines()[0]
    for project in PROJECTS:
        trackee(binary, env, "projects", "add", *project)
    for back in range(7, 0, -1):
        day = local_date(offset, back)
        if time.strptime(day, "%Y-%m-%d").tm_wday >= 5:
            continue
        for i, (start, end, project, description, tags) in enumerate(WORKDAY):
            if i == back % len(WORKDAY):
                continue
            arguments = ["add", "-p", project, "-d", description, "--from", day + " " + start, "--to", day + " " + end]
            trackee(binary, env, *(arguments + [a for tag in tags for a in ("-t", tag)]))
    for command in TODAY:
        trackee(binary, env, *command)
    first = Daemon(binary, env, log)
    first.start()
    if first.stop() != 0:
        raise RuntimeError("the first trackee run did not end well: " + open(log, errors="replace").read())
    trackee(binary, env, *RUNNING)
    return secret, offset


class Daemon:
    """`trackee run`, its standard error in `log`: started and stopped
    (SIGTERM) as often as asked, on the settings' port each time."""

    def __init__(self, binary, env, log):
        self.binary, self.env, self.log = binary, env, log
        self.process = None
        self.url = None

    def start(self):
        """Starts it and waits (up to 60 s) for its `http: listening on`
        line; returns the seconds that took."""
        began = time.monotonic()
        offset = os.path.getsize(self.log) if os.path.exists(self.log) else 0
        with open(self.log, "ab") as err:
            self.process = subprocess.Popen([self.binary, "run"], env=self.env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=err)
        marker = "http: listening on "
        while time.monotonic() - began < 60:
            with open(self.log, encoding="utf-8", errors="replace") as f:
                f.seek(offset)
                for line in f.read().splitlines():
                    if marker in line:
                        self.url = line.split(marker, 1)[1].strip()
                        return time.monotonic() - began
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        raise RuntimeError("trackee run did not say where it listens: " + open(self.log, errors="replace").read())

    def stop(self):
        """SIGTERM, and its exit status (None if it ran 30 s on, then killed)."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def rss_kb(self):
        """Its resident memory (VmRSS), in kB."""
        with open("/proc/%d/status" % self.process.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return None


def sign_in(driver, url, secret, wait):
    """Opens the page, signs in with `secret` through the form and waits
    (`wait`: a WebDriverWait) for the signed-in page."""
    driver.get(url + "/")
    driver.find_element("id", "token").send_keys(secret)
    driver.find_element("css selector", "#sign-in button[type=submit]").click()
    wait.until(lambda d: d.execute_script("return document.getElementById('page') !== null"))
