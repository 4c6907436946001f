#!/usr/bin/python3
"""HTTP clients that misbehave on purpose, for what curl cannot do: a body
announced and never sent, a chunked body that grows too long, a client
that sends its headers one byte at a time, a body cut in half, and more
connections than the server allows, and many wrong tokens at once.

Usage: raw_client.py PORT MODE [TOKEN] [N] (guess-at-once: PORT MODE N). The token comes as an
argument because the tests pass it so; nothing here prints it. Each mode
prints one JSON object on standard output: the answer it got (status,
headers, body), whether the server closed the connection, and when, in
seconds since the connection was made.
"""

import http.client
import json
import select
import socket
import sys
import time


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def parse(data):
    """The first HTTP response in data, or None if there is none."""
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        return None
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", len(body)))
    return {
        "status": int(parts[1]),
        "headers": headers,
        "body": body[:length].decode("utf-8", "replace"),
    }


def read_to_end(sock, started, limit):
    """Reads until the server closes (or resets) the connection, or until
    limit seconds have passed since started."""
    data = b""
    closed = False
    while True:
        left = limit - (time.monotonic() - started)
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        except ConnectionResetError:
            closed = True
            break
        if not chunk:
            closed = True
            break
        data += chunk
    return data, closed


def report(data, closed, started, **more):
    result = {"answer": parse(data), "closed": closed, "seconds": round(time.monotonic() - started, 3)}
    result.update(more)
    print(json.dumps(result))


def post_start(port, token, framing, body=b""):
    """Connects and sends a POST /v1/start head with `framing` (the
    Content-Length or Transfer-Encoding line) and the first `body` bytes;
    returns the socket and when it started."""
    sock = connect(port)
    started = time.monotonic()
    sock.sendall(
        b"POST /v1/start HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + b"Authorization: Bearer " + token.encode() + b"\r\n"
        + b"Content-Type: application/json\r\n" + framing + b"\r\n\r\n"
        + body
    )
    return sock, started


def too_large(port, token):
    """Announces 70000 bytes and sends none: the answer must come anyway."""
    sock, started = post_start(port, token, b"Content-Length: 70000")
    data, closed = read_to_end(sock, started, 15)
    report(data, closed, started)


def chunked_too_large(port, token):
    """A chunked body of 4 x 16 KiB and one byte more, then nothing."""
    sock, started = post_start(port, token, b"Transfer-Encoding: chunked")
    sent = 0
    refused = False
    for size in [16384, 16384, 16384, 16384, 1]:
        try:
            sock.sendall(b"%x\r\n" % size + b" " * size + b"\r\n")
            sent += size
        except (BrokenPipeError, ConnectionResetError):
            refused = True
            break
    data, closed = read_to_end(sock, started, 15)
    report(data, closed, started, sent=sent, refused=refused)


def slow_headers(port):
    """Sends a request head one byte every 200 ms and never finishes it;
    stops when the server closes the connection."""
    head = (
        b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + b"User-Agent: a client on a bad line, one byte at a time, 200 ms apart\r\n"
    )
    sock = connect(port)
    started = time.monotonic()
    sent = 0
    data = b""
    closed = False
    for byte in head:
        readable, _, _ = select.select([sock], [], [], 0.2)
        if readable:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                closed = True
                break
            data += chunk
        try:
            sock.sendall(bytes([byte]))
            sent += 1
        except (BrokenPipeError, ConnectionResetError):
            closed = True
            break
    if not closed:
        more, closed = read_to_end(sock, started, 20)
        data += more
    report(data, closed, started, sent=sent, length=len(head))


def half_body(port, token):
    """Announces 100 bytes, sends 50, and waits."""
    sock, started = post_start(
        port, token, b"Content-Length: 100", b'{"project": "Half", "description": "a body cut off in the mi')
    data, closed = read_to_end(sock, started, 20)
    report(data, closed, started)


def crowd(port, token, count):
    """Holds `count` kept-alive connections, each having had one answer;
    asks on one more; then closes one of the held and asks again until
    the server takes a new connection."""
    headers = {"Authorization": "Bearer " + token}
    held = []
    statuses = []
    for _ in range(count):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        conn.request("GET", "/v1/status", headers=headers)
        answer = conn.getresponse()
        answer.read()
        statuses.append(answer.status)
        held.append(conn)

    started = time.monotonic()
    extra = connect(port)
    extra.sendall(b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token.encode() + b"\r\n\r\n")
    data, closed = read_to_end(extra, started, 10)
    refused = {"answer": parse(data), "closed": closed}

    held.pop().close()
    after = None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        try:
            conn.request("GET", "/v1/status", headers=headers)
            answer = conn.getresponse()
            answer.read()
            after = answer.status
        except (ConnectionError, http.client.HTTPException):
            after = None
        conn.close()
        if after == 200:
            break
        time.sleep(0.02)
    for conn in held:
        conn.close()
    print(json.dumps({"held": statuses, "refused": refused, "after_close": after}))


def guess_at_once(port, count):
    """Opens `count` connections, then sends on each a request with a
    wrong token of its own, one right after another without waiting for
    answers, so the server checks them at the same time; reports the
    statuses, in the order the requests were sent."""
    socks = [connect(port) for _ in range(count)]
    started = time.monotonic()
    for index, sock in enumerate(socks):
        sock.sendall(
            b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            + b"Authorization: Bearer trk_guess%d\r\n\r\n" % index
        )
    statuses = []
    for sock in socks:
        data, _ = read_to_end(sock, started, 15)
        answer = parse(data)
        statuses.append(answer["status"] if answer else None)
        sock.close()
    print(json.dumps({"statuses": statuses}))


def main():
    port = int(sys.argv[1])
    mode = sys.argv[2]
    if mode == "too-large":
        too_large(port, sys.argv[3])
    elif mode == "chunked-too-large":
        chunked_too_large(port, sys.argv[3])
    elif mode == "slow-headers":
        slow_headers(port)
    elif mode == "half-body":
        half_body(port, sys.argv[3])
    elif mode == "crowd":
        crowd(port, sys.argv[3], int(sys.argv[4]))
    elif mode == "guess-at-once":
        guess_at_once(port, int(sys.argv[3]))
    else:
        sys.exit("raw_client.py: no mode " + mode)


main()
