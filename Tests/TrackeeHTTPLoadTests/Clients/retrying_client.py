"""Keyed timer requests that a client retries until they are answered.

Request i is, in turn, a start of project A, a stop, a start of B and a
stop, under the key "<prefix>-i". As the IETF idempotency-key draft has
clients do, a request whose exchange fails (connection refused, reset,
closed before the answer) or that is answered 5xx or 409 (its key still
in flight) is sent again with the same key and body, until it gets another
answer. Several threads share the requests, each on a keep-alive
connection it opens again after a failure.

One byte is appended to --progress per answered request, so the test can
time its SIGKILLs by the count. At the end --out holds a JSON object:
{"answers": {key: {"status", "body"}}, "retries": total resends,
"failures": [requests given up after --give-up seconds]}.
The token comes from TRACKEE_TOKEN.

Usage: retrying_client.py --port P --count 1000 --threads 4 --progress F --out F
"""
import argparse
import http.client
import json
import os
import threading
import time


def request_for(i):
    """The path and body of request i."""
    turn = i % 4
    if turn == 0:
        return "/v1/start", b'{"project":"A"}'
    if turn == 2:
        return "/v1/start", b'{"project":"B"}'
    return "/v1/stop", b"{}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--prefix", default="kill")
    parser.add_argument("--progress", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--give-up", type=float, default=60.0)
    args = parser.parse_args()
    token = os.environ["TRACKEE_TOKEN"]

    lock = threading.Lock()
    next_index = [0]
    answers = {}
    failures = []
    retries = [0]
    progress = os.open(args.progress, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    def take():
        with lock:
            i = next_index[0]
            next_index[0] += 1
            return i if i < args.count else None

    def worker():
        conn = None
        while True:
            i = take()
            if i is None:
                break
            key = "%s-%d" % (args.prefix, i)
            path, body = request_for(i)
            headers = {
                "Authorization": "Bearer " + token,
                "Content-Type": "application/json",
                "Idempotency-Key": key,
            }
            deadline = time.monotonic() + args.give_up
            sends = 0
            while True:
                sends += 1
                answer = None
                try:
                    if conn is None:
                        conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
                    conn.request("POST", path, body=body, headers=headers)
                    response = conn.getresponse()
                    answer = {"status": response.status, "body": response.read().decode("utf-8", "replace")}
                    if response.will_close:
                        conn.close()
                        conn = None
                except (OSError, http.client.HTTPException):
                    if conn is not None:
                        conn.close()
                    conn = None
                if answer is not None and answer["status"] < 500 and answer["status"] != 409:
                    break
                if time.monotonic() > deadline:
                    answer = None
                    break
                time.sleep(0.01)
            with lock:
                retries[0] += sends - 1
                if answer is None:
                    failures.append(key)
                else:
                    answers[key] = answer
            os.write(progress, b".")
        if conn is not None:
            conn.close()

    threads = [threading.Thread(target=worker) for _ in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    os.close(progress)
    with open(args.out, "w") as f:
        json.dump({"answers": answers, "retries": retries[0], "failures": failures}, f)


if __name__ == "__main__":
    main()
