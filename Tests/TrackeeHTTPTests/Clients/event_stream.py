#!/usr/bin/python3
"""Times the event stream: connects to GET /v1/events/stream, and once the
stream's first comment has arrived runs a command (a `trackee start` made
beside the daemon) and reads on until an event of the wanted kind comes.

Usage: event_stream.py PORT TOKEN EVENT COMMAND... Prints one JSON object:
the command's exit status, the monotonic time it exited, and every line
of the stream with the monotonic time it arrived, so the test measures
from the command's exit to the event.
"""

import http.client
import json
import os
import subprocess
import sys
import threading
import time


def main():
    port, token, wanted = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    command = sys.argv[4:]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/v1/events/stream", headers={"Authorization": "Bearer " + token})
    answer = conn.getresponse()

    lines = []
    opened = threading.Event()
    arrived = threading.Event()

    def read():
        seen = False
        try:
            while True:
                line = answer.readline()
                now = time.monotonic()
                if not line:
                    break
                text = line.decode("utf-8").rstrip("\n")
                lines.append([now, text])
                if text.startswith(": trackee"):
                    opened.set()
                if text == "event: " + wanted:
                    seen = True
                elif seen and text.startswith("data:"):
                    arrived.set()
        # The main thread closes the connection under it at the end.
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass
        opened.set()
        arrived.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    opened.wait(30)
    ran = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    exited = time.monotonic()
    arrived.wait(10)
    print(json.dumps({
        "status": answer.status,
        "content_type": answer.getheader("Content-Type"),
        "exit_status": ran.returncode,
        "exited": exited,
        "lines": list(lines),
    }))
    # The reader thread is still blocked in a read that only the next
    # heartbeat would end, and the interpreter would wait for it at exit.
    sys.stdout.flush()
    os._exit(0)


main()
