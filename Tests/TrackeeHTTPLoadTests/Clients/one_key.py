"""Many clients send one request under one idempotency key at once.

Each thread opens its connection first and then waits at a barrier, so
the requests reach `trackee run` together and overlap there. Prints a
JSON array, one object per client in thread order: {"status", "type"
(Content-Type), "body"} for an answer, {"error"} for an exchange that
failed. The token comes from TRACKEE_TOKEN.

Usage: one_key.py --port P --clients 200 --key K --body '{"project":"A"}'
"""
import argparse
import http.client
import json
import os
import sys
import threading


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--clients", type=int, required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--body", required=True)
    parser.add_argument("--path", default="/v1/start")
    args = parser.parse_args()
    headers = {
        "Authorization": "Bearer " + os.environ["TRACKEE_TOKEN"],
        "Content-Type": "application/json",
        "Idempotency-Key": args.key,
    }
    body = args.body.encode()
    together = threading.Barrier(args.clients, timeout=60)
    answers = [None] * args.clients

    def client(i):
        conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
        try:
            conn.connect()
        except OSError as e:
            answers[i] = {"error": "connect: %s" % e}
        try:
            together.wait()
        except threading.BrokenBarrierError:
            answers[i] = answers[i] or {"error": "the others never came to the barrier"}
        if answers[i]:
            return
        try:
            conn.request("POST", args.path, body=body, headers=headers)
            answer = conn.getresponse()
            answers[i] = {
                "status": answer.status,
                "type": answer.getheader("Content-Type"),
                "body": answer.read().decode("utf-8", "replace"),
            }
        except (OSError, http.client.HTTPException) as e:
            answers[i] = {"error": "%s: %s" % (type(e).__name__, e)}
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    json.dump(answers, sys.stdout)


if __name__ == "__main__":
    main()
