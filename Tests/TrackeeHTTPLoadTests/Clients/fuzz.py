"""Bad requests for `trackee run`'s HTTP server, generated from a seed.

Each case is bytes written on a fresh connection: a bad method, path,
header or body, or no HTTP at all. The answer is read and checked to be
HTTP/1.1: a status line, headers, and a body framed by Content-Length or
chunked encoding (none after HEAD, 204 or 304), and nothing after it. A
case ends when its answers are complete, when the server closes, or after
--wait seconds of silence; each case comes from a loopback address of its
own (127.1.x.y). After every --every cases, GET /v1/status with
the token must answer 200.

Prints a JSON object: "cases" (one per case: index, kind, name, outcome
"answered" | "closed" | "silent" | "invalid", the statuses and problem
types of the answers, and what was wrong when invalid), and "status_checks"
(the status of each check, or an error text). The token comes from
TRACKEE_TOKEN.

Usage: fuzz.py --port P --seed S --count 500 [--every 50]
"""
import argparse
import base64
import json
import os
import random
import re
import select
import socket
import sys
import time

TOKEN = b""
ROUTES_POST = [b"/v1/start", b"/v1/stop", b"/v1/cancel", b"/v1/focus", b"/v1/events"]


def message(method=b"GET", target=b"/v1/status", version=b"HTTP/1.1", headers=(), body=None,
            host=True, auth=True, length=True, close=True):
    """A request's bytes; Content-Length is added for a body unless told not to."""
    lines = [method + b" " + target + b" " + version]
    if host:
        lines.append(b"Host: 127.0.0.1")
    if auth:
        lines.append(b"Authorization: Bearer " + TOKEN)
    lines.extend(headers)
    if body is not None and length:
        lines.append(b"Content-Length: %d" % len(body))
    if close:
        lines.append(b"Connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n" + (body or b"")


# --- the kinds of bad input; each returns (name, bytes, method of each request)

def bad_method(rng):
    method = rng.choice([
        b"DELETE", b"PUT", b"PATCH", b"OPTIONS", b"TRACE", b"HEAD", b"FOO", b"get", b"PoSt",
        b"G\x00T", b"", b"GET GET", b"\xff\xfe", b"M" * 5000, b"POST\t", b"BREW", b"CONNECT",
    ])
    target = rng.choice([b"/v1/status", b"/v1/start", b"/v1/entries", b"/v1/openapi.json", b"/"])
    body = rng.choice([None, b"{}"])
    name = "method %r on %s" % (method[:20], target.decode())
    return name, message(method=method, target=target, body=body), [method]


def bad_path(rng):
    target = rng.choice([
        b"/" + b"a" * rng.choice([1000, 9000, 70000]),
        b"/v1/" + b"%41" * 3000,
        b"/v1/%73tatus", b"/v1/status%00", b"/v1/sta\x00tus", b"/%2e%2e/%2e%2e/etc/passwd",
        b"/v1/../v1/status", b"/../../../etc/passwd", b"//v1//status", b"/v1/status/",
        b"/v1/status?" + bytes(rng.randrange(33, 127) for _ in range(200)),
        b"/v1/entries?from=%ZZ&to=%", b"/v1/entries?from=" + b"9" * 300, b"/v1/entries?from=2026-13-45&to=yesterday",
        b"/v1/entries?from=&to=&from=x", b"/v1/entries?" + b"&" * 5000, b"*", b"http://127.0.0.1/v1/status",
        b"/v1/st\xc3\xa4tus", b"/v1/\xff\xfe", b"/v1/status#frag", b"", b"v1/status", b"/v1/start",
        b"/v1/events/stream", b"/v1/owntracks", b"/V1/STATUS", b"/v1/status;x=y", b"/%",
    ])
    name = "path %r" % target[:40]
    return name, message(target=target), [b"GET"]


def bad_header(rng):
    start = b'{"project":"Fuzz"}'
    choice = rng.randrange(26)
    if choice == 0:
        return "duplicate Content-Length, same", message(
            b"POST", b"/v1/start", headers=[b"Content-Length: %d" % len(start)] * 2, body=start, length=False), [b"POST"]
    if choice == 1:
        return "duplicate Content-Length, different", message(
            b"POST", b"/v1/start", headers=[b"Content-Length: %d" % len(start), b"Content-Length: 5"], body=start,
            length=False), [b"POST"]
    if choice == 2:
        value = rng.choice([b"-1", b"1e3", b"99999999999999999999", b"0x12", b" ", b"12 12", b"+18"])
        return "Content-Length %r" % value, message(
            b"POST", b"/v1/start", headers=[b"Content-Length: " + value], body=start, length=False), [b"POST"]
    if choice == 3:
        return "Content-Length 70000 and no body", message(
            b"POST", b"/v1/start", headers=[b"Content-Length: 70000"], body=b"", length=False), [b"POST"]
    if choice == 4:
        size = rng.choice([20000, 100000, 300000])
        return "one header of %d bytes" % size, message(headers=[b"X-Fill: " + b"a" * size]), [b"GET"]
    if choice == 5:
        count = rng.choice([200, 2000])
        return "%d headers" % count, message(headers=[b"X-N%d: v" % i for i in range(count)]), [b"GET"]
    if choice == 6:
        te = rng.choice([b"gzip", b"chunked, gzip", b"chunkedx", b"identity", b"chunked;q=1", b"\xffchunked"])
        return "Transfer-Encoding %r" % te, message(
            b"POST", b"/v1/start", headers=[b"Transfer-Encoding: " + te], body=start, length=False), [b"POST"]
    if choice == 7:
        return "Transfer-Encoding chunked and Content-Length", message(
            b"POST", b"/v1/start", headers=[b"Transfer-Encoding: chunked", b"Content-Length: 4"],
            body=b"%x\r\n%s\r\n0\r\n\r\n" % (len(start), start), length=False), [b"POST"]
    if choice == 8:
        size = rng.choice([b"zz", b"ffffffffffffffffffff", b"-1", b"2;" + b"e" * 5000, b""])
        return "chunk size %r" % size[:20], message(
            b"POST", b"/v1/start", headers=[b"Transfer-Encoding: chunked"],
            body=size + b"\r\n{}\r\n0\r\n\r\n", length=False), [b"POST"]
    if choice == 9:
        return "chunked twice", message(
            b"POST", b"/v1/start", headers=[b"Transfer-Encoding: chunked", b"Transfer-Encoding: chunked"],
            body=b"%x\r\n%s\r\n0\r\n\r\n" % (len(start), start), length=False), [b"POST"]
    if choice == 10:
        value = rng.choice([b"caf\xc3\xa9", b"\xff\xfe\xfd", b"\xe2\x80\x8b", "日本".encode()])
        return "non-ASCII header value %r" % value, message(headers=[b"X-Name: " + value]), [b"GET"]
    if choice == 11:
        return "non-ASCII header name", message(headers=[b"N\xc3\xa4me: v"]), [b"GET"]
    if choice == 12:
        return "missing Host", message(host=False), [b"GET"]
    if choice == 13:
        return "header without a colon", message(headers=[b"NoColonHere"]), [b"GET"]
    if choice == 14:
        return "folded header", message(headers=[b"X-A: b", b" c"]), [b"GET"]
    if choice == 15:
        return "space in a header name", message(headers=[b"X A: b"]), [b"GET"]
    if choice == 16:
        version = rng.choice([b"HTTP/1.0", b"HTTP/2.0", b"HTTP/9.9", b"HTTP/1.1x", b"HTTPS/1.1", b"http/1.1", b""])
        return "version %r" % version, message(version=version), [b"GET"]
    if choice == 17:
        value = rng.choice([
            b"Bearer", b"Bearer  ", b"Basic !!!", b"Basic " + base64.b64encode(b"a" * 1000), b"Bearer " + b"x" * 10000,
            b"Digest x", b"bearer " + TOKEN, b"Bearer " + TOKEN + b"x", b"Bearer trk_\xc3\xa9", b"Bearer " + TOKEN[:-1],
            b"Basic " + base64.b64encode(b"load:" + TOKEN),
        ])
        return "Authorization %r" % value[:24], message(auth=False, headers=[b"Authorization: " + value]), [b"GET"]
    if choice == 18:
        return "two Authorization headers", message(headers=[b"Authorization: Bearer nope"]), [b"GET"]
    if choice == 19:
        key = rng.choice([b'"unclosed', b'""', b'"a\\b"', b"k" * 5000, b"\xff\xfe", b'"a"b"', b"\\", b"caf\xc3\xa9"])
        return "Idempotency-Key %r" % key[:20], message(
            b"POST", b"/v1/start", headers=[b"Idempotency-Key: " + key], body=start), [b"POST"]
    if choice == 20:
        return "control character in a header value", message(headers=[b"X-C: a\x01b"]), [b"GET"]
    if choice == 21:
        return "bare LF line ends", message().replace(b"\r\n", b"\n"), [b"GET"]
    if choice == 22:
        return "Expect: 100-continue", message(
            b"POST", b"/v1/start", headers=[b"Expect: 100-continue"], body=start), [b"POST"]
    if choice == 23:
        return "Content-Type not JSON", message(
            b"POST", b"/v1/start", headers=[b"Content-Type: text/plain; charset=latin1"], body=start), [b"POST"]
    if choice == 24:
        return "Upgrade: h2c", message(headers=[b"Upgrade: h2c", b"HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA"]), [b"GET"]
    return "pipelined: status then a bad request", (
        message(close=False) + message(b"POST", b"/v1/start", body=b"{", close=True)), [b"GET", b"POST"]


def deep(depth, rng):
    if rng.random() < 0.5:
        return b"[" * depth + b"]" * depth
    return b'{"a":' * depth + b"1" + b"}" * depth


def bad_body(rng):
    target = rng.choice(ROUTES_POST)
    body = rng.choice([
        b'{"project": "\xff\xfe"}', b"\xc3\x28", b'{"project": "\xed\xa0\x80"}', b"\xef\xbb\xbf{}",
        deep(10000, rng), b'{"project": ' + deep(10000, rng) + b"}", deep(600, rng),
        b'{"project": 1e400}', b'{"at": 123456789012345678901234567890}', b'{"tags": [1e-400]}',
        b'{"project": -0}', b'{"project": NaN}', b'{"at": Infinity}', b'{"mode": 1' + b"0" * 5000 + b"}",
        b'{"project": 5}', b'{"project": null}', b'{"tags": "x"}', b'{"tags": [1, 2]}', b'{"at": true}',
        b'{"description": {}}', b'{"idempotency_key": 5}', b"[]", b'"string"', b"null", b"true", b"0",
        b"", b"   ", b'{"project":"A","project":"B"}', b'{"x": 1}', b"{}x", b"{/**/}", b"{'project': 'A'}",
        b'{"project": "' + b"p" * 60000 + b'"}', b'{"description": "' + b"\\u0000" * 100 + b'"}',
        b'{"mode": "deep", "state": "sideways"}', b'{"mode": ""}', b'{"type": "focus"}', b'{"type": 7}',
        b'{"at": "yesterday at 25:61"}', b'{"at": "' + b"9" * 400 + b'"}', b'{"project": "\\ud800"}',
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000))),
    ])
    name = "body %r to %s" % (body[:24], target.decode())
    return name, message(b"POST", target, headers=[b"Content-Type: application/json"], body=body), [b"POST"]


def owntracks(rng):
    user = rng.choice([b"load", b"someone", b"", b"load:x"])
    credentials = base64.b64encode(user + b":" + rng.choice([TOKEN, b"wrong"]))
    body = rng.choice([
        b'{"_type":"location","lat":"north","lon":14.4,"tst":1}', b'{"_type":"location","lat":999,"lon":-999,"tst":-5}',
        b'{"_type":"transition","event":"sideways"}', b'{"_type":7}', b"[]", b'{"_type":"location"}',
        b'{"_type":"location","lat":50.08,"lon":14.42,"tst":' + b"9" * 40 + b"}", b"\xff",
    ])
    name = "OwnTracks %r as %r" % (body[:24], user)
    return name, message(b"POST", b"/v1/owntracks", auth=False,
                         headers=[b"Authorization: Basic " + credentials], body=body), [b"POST"]


def garbage(rng):
    data = rng.choice([
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4000))),
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(rng.randrange(256) for _ in range(200)),
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", b" " * 100 + b"\r\n\r\n", b"\x00" * 64,
        # Empty lines before a request line are skipped (RFC 9112 2.2), so
        # the request after them is answered; alone they would be no
        # request at all, and the server rightly waits.
        b"\r\n\r\n" + message(),
        b"GET /v1/status\r\n\r\n", b"GET\r\n\r\n",
    ])
    return "garbage %r" % data[:16], data, [b"?"]


KINDS = [("method", bad_method), ("path", bad_path), ("header", bad_header), ("body", bad_body),
         ("owntracks", owntracks), ("garbage", garbage)]


# --- reading the answers

class NotHTTP(Exception):
    pass


class Reader:
    """Bytes from a socket, read as they are needed."""

    def __init__(self, sock, wait):
        self.sock = sock
        self.wait = wait
        self.buffer = b""
        self.closed = False

    def more(self):
        """Reads more bytes; False at the end of the stream or after `wait` seconds of silence."""
        if self.closed:
            return False
        ready, _, _ = select.select([self.sock], [], [], self.wait)
        if not ready:
            raise TimeoutError()
        try:
            data = self.sock.recv(65536)
        except ConnectionResetError:
            data = b""
        if not data:
            self.closed = True
            return False
        self.buffer += data
        return True

    def line(self):
        while b"\r\n" not in self.buffer:
            if len(self.buffer) > 1 << 20:
                raise NotHTTP("a line longer than 1 MiB")
            if not self.more():
                raise NotHTTP("the connection closed inside a line: %r" % self.buffer[:80])
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def exactly(self, n):
        while len(self.buffer) < n:
            if not self.more():
                raise NotHTTP("the connection closed %d bytes into a body of %d" % (len(self.buffer), n))
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data


TOKEN_CHARS = re.compile(rb"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")


def read_answer(reader, method):
    """One answer: (status, headers, body); raises NotHTTP for bytes that are not one."""
    while True:
        status_line = reader.line()
        m = re.match(rb"^HTTP/1\.[01] ([1-5][0-9][0-9]) [\x20-\x7e]*$", status_line)
        if not m:
            raise NotHTTP("not a status line: %r" % status_line[:80])
        status = int(m.group(1))
        headers = []
        while True:
            line = reader.line()
            if line == b"":
                break
            name, colon, value = line.partition(b":")
            if not colon or not TOKEN_CHARS.match(name):
                raise NotHTTP("not a header line: %r" % line[:80])
            headers.append((name.decode().lower(), value.strip()))
        if 100 <= status < 200:
            continue
        break
    lengths = [v for n, v in headers if n == "content-length"]
    chunked = any(n == "transfer-encoding" and b"chunked" in v.lower() for n, v in headers)
    kind = dict(headers).get("content-type", b"")
    if len(lengths) > 1:
        raise NotHTTP("%d Content-Length headers" % len(lengths))
    if lengths and chunked:
        raise NotHTTP("both Content-Length and chunked")
    if method == b"HEAD" or status in (204, 304):
        return status, headers, b""
    if kind.startswith(b"text/event-stream"):
        return status, headers, b""
    if lengths:
        if not lengths[0].isdigit():
            raise NotHTTP("Content-Length %r" % lengths[0])
        return status, headers, reader.exactly(int(lengths[0]))
    if chunked:
        body = b""
        while True:
            size_line = reader.line()
            size = size_line.split(b";", 1)[0].strip()
            if not re.match(rb"^[0-9a-fA-F]+$", size):
                raise NotHTTP("chunk size %r" % size_line[:40])
            n = int(size, 16)
            if n == 0:
                while reader.line() != b"":
                    pass
                return status, headers, body
            body += reader.exactly(n)
            if reader.exactly(2) != b"\r\n":
                raise NotHTTP("a chunk not followed by CRLF")
    # Neither: the body runs to the end of the connection.
    while reader.more():
        pass
    body, reader.buffer = reader.buffer, b""
    return status, headers, body


def send_watching(sock, data):
    """Writes `data` in pieces, stopping early once an answer is readable
    (as after a 413, or a 400 for a head too large): the server closes
    then, and writing on would only make the kernel reset the connection
    and drop the answer."""
    for i in range(0, len(data), 16384):
        ready, _, _ = select.select([sock], [], [], 0)
        if ready:
            return
        try:
            sock.sendall(data[i:i + 16384])
        except OSError:
            return


def exchange(port, data, methods, wait, source):
    """Sends one case from the loopback address `source`; its outcome as a
    dict."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    answers = []
    try:
        send_watching(sock, data)
        reader = Reader(sock, wait)
        try:
            for method in methods:
                if not reader.buffer and not reader.more():
                    break
                status, headers, body = read_answer(reader, method)
                answers.append((status, headers, body))
                if any(n == "connection" and v.lower() == b"close" for n, v in headers):
                    break
            streaming = any(dict(a[1]).get("content-type", b"").startswith(b"text/event-stream") for a in answers)
            # Nothing may follow the answers the requests asked for (an
            # event stream goes on: its first answer is all this reads).
            while not streaming and not reader.closed and len(answers) == len(methods) and reader.more():
                pass
            if reader.buffer and not streaming:
                raise NotHTTP("bytes after the answer: %r" % reader.buffer[:80])
            outcome = "answered" if answers else "closed"
        except NotHTTP as e:
            return {"outcome": "invalid", "why": str(e), "statuses": [a[0] for a in answers]}
        except TimeoutError:
            outcome = "answered" if answers and len(answers) == len(methods) else "silent"
    finally:
        sock.close()
    return {
        "outcome": outcome,
        "statuses": [a[0] for a in answers],
        "types": [problem_type(a) for a in answers],
    }


def problem_type(answer):
    status, headers, body = answer
    if dict(headers).get("content-type", b"").startswith(b"application/problem+json"):
        try:
            return json.loads(body).get("type")
        except ValueError:
            return "unreadable problem body"
    return None


def status_check(port):
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        try:
            sock.sendall(message())
            status, _, _ = read_answer(Reader(sock, 10), b"GET")
            return status
        finally:
            sock.close()
    except (OSError, NotHTTP, TimeoutError) as e:
        return "%s: %s" % (type(e).__name__, e)


def main():
    global TOKEN
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--wait", type=float, default=3.0)
    args = parser.parse_args()
    TOKEN = os.environ["TRACKEE_TOKEN"].encode()
    rng = random.Random(args.seed)
    cases, checks = [], []
    for i in range(args.count):
        kind, make = rng.choice(KINDS)
        name, data, methods = make(rng)
        started = time.monotonic()
        try:
            # Each case from a loopback address of its own: the daemon limits
            # failed authentications per address (10 a minute), and the
            # cases are to reach past that limit into the parser; the status
            # checks come from 127.0.0.1, which no case uses.
            result = exchange(args.port, data, methods, args.wait, "127.1.%d.%d" % (i // 250, i % 250 + 1))
        except OSError as e:
            result = {"outcome": "refused", "why": "%s: %s" % (type(e).__name__, e), "statuses": []}
        result.update({"index": i, "kind": kind, "name": name, "seconds": round(time.monotonic() - started, 3)})
        cases.append(result)
        if (i + 1) % args.every == 0:
            checks.append(status_check(args.port))
    json.dump({"cases": cases, "status_checks": checks}, sys.stdout)


if __name__ == "__main__":
    main()
