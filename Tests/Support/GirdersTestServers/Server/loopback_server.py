#!/usr/bin/env python3
"""Loopback HTTP server for GirdersNetworking's tests and benchmarks (standard library only).

Binds 127.0.0.1 on a free port, prints the port on the first line of stdout, and exits when stdin closes,
so it never outlives the test process that started it.

Routes (any method unless noted):
  /echo, /echo/...       JSON: method, path, raw query, headers (lower-cased names, lists), body (latin-1 text),
                        body_length
  /status/<code>        that status; a small JSON body except for 204 and 304; 1xx sends the informational
                        response first and then 200
  /set-cookie?v=<field>&big=<n>   one Set-Cookie field per v; big adds one cookie of n bytes
  /redirect/<code>?to=<url>   a redirect with Location: <url>
  /delay?ms=<n>         waits n ms, then 200 "done"
  /drip?bytes=<n>&interval_ms=<m>[&name=]   sends Content-Length n, then one byte every m ms; with name=, counts
                        drip-<name> as the body starts and drip-closed-<name> when the client goes away before the end;
                        with hold=1, sends the first byte and then nothing until the client goes away (at most 300 s,
                        then closes short), so a test of cancelling never depends on the body outlasting a slow machine
  /bytes?n=<n>          n bytes of a repeating pattern, Content-Length set
  /json/object, /json/array, /json/malformed, /json/empty200, /json/dates
  /content-type?type=<t>    body "{}" with that Content-Type
  /challenge            401 with WWW-Authenticate: Basic realm="girders"
  /sink                 JSON: length and sha256 of the request body
  /record?id=           JSON: length of the body; counts record-<id>
  /login                JSON {"token": "token-for-<user>"} when Basic credentials are present, else 401
  /flaky?id=&fail=n[&status=503][&after=s]   fails n times per id, then 200
  /count?name=          the counter of /flaky (flaky-<id>) or /protected (protected-<realm>)
  /protected?realm=&good=<token>[&hold=<gate>]   200 for "Bearer <token>", else 401; with hold=, counts the request
                        and answers once the gate is released (gates.hold)
  /refresh?realm=       JSON {"token": "<realm>-fresh"}; counted as refresh-<realm>
  /small                the benchmarks' target: 200, 13-byte JSON body
  /multipart            JSON list of the parts of a multipart/form-data body: name, filename, content_type,
                        length, sha256
  /cached?name=&etag=1&lm=1   200 with ETag and/or Last-Modified, 304 when the request's validators match;
                        counted as cached-<name>-200 and cached-<name>-304
  /fault/short?n=       Content-Length n, sends n/2 bytes and closes the connection
  /fault/reset?n=       Content-Length n, sends n/2 bytes and resets the connection (RST)
  /fault/stall          Content-Length 100000, sends 1000 bytes, then nothing for 60 s
  /sse?name=&total=T&drop=D[&token=]   Server-Sent Events 0..T-1 (`id`, `event: tick`, two data lines, line ends
                        LF, CRLF and CR in turn, `retry: 50`), from the one after Last-Event-ID; the connection closes
                        after D events, mid-event; 204 once all were sent. With token=, 401 unless the request has
                        "Authorization: Bearer <token>". Each connection's Last-Event-ID and Authorization are logged.
                        With cut=id, the connection closes after the next event's `id:` and `event:` lines instead.
  /sse-log?name=        JSON list of [Last-Event-ID or null, Authorization or null] per connection of /sse
  /sse-flood?name=      an event stream that says `retry: 0` and closes at once, without an event; counts
                        sse-flood-<name> per connection
  /ndjson?n=            chunked, n JSON lines {"i": k}, their line ends LF, CRLF and CR in turn, a chunk per line
  /delay also counts delay-<name> when given name=
  /hold?name=, /release?name=, /barrier?name=&n=, /arrivals?name=   the gates of gates.py
  /connections          how many connections the server has accepted so far
"""
import socket
import struct
import gzip
import hashlib
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

import gates

PATTERN = bytes(range(256)) * 4096  # 1 MiB
COUNTERS = {}
COUNTERS_LOCK = threading.Lock()
SSE_LOG = {}


def count(name):
    with COUNTERS_LOCK:
        COUNTERS[name] = COUNTERS.get(name, 0) + 1
        return COUNTERS[name]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass

    def setup(self):
        count("connections")
        super().setup()

    def _send(self, status, body=b"", content_type="application/json", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status in (204, 304) or 100 <= status < 200:
            self.end_headers()
            return
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            return self.rfile.read(length)
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        return b""

    def _handle(self):
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query, keep_blank_values=True)
        body = self._read_body()
        gated = gates.route(path, {name: values[0] for name, values in query.items()})
        if gated is not None:
            return self._send(gated[0], gated[1], "text/plain")
        if path == "/connections":
            with COUNTERS_LOCK:
                return self._send(200, str(COUNTERS.get("connections", 0)).encode(), "text/plain")
        if path == "/record":
            # Counts record-<id> for every request that arrives whole (the fault proxy's "no POST twice" check).
            count("record-" + query["id"][0])
            return self._send(200, json.dumps({"length": len(body)}).encode())
        if path == "/sink":
            reply = {"length": len(body), "sha256": hashlib.sha256(body).hexdigest()}
            return self._send(200, json.dumps(reply).encode())
        if path == "/login":
            if not self.headers.get("Authorization", "").startswith("Basic "):
                return self._send(401, b'{"error":"no credentials"}')
            user = json.loads(body or b"{}").get("user", "")
            return self._send(200, json.dumps({"token": "token-for-" + user}).encode())
        if path == "/flaky":
            # The first `fail` requests for `id` get `status` (with Retry-After when given), then 200 with the count.
            attempt = count("flaky-" + query["id"][0])
            if attempt <= int(query["fail"][0]):
                headers = [("Retry-After", query["after"][0])] if "after" in query else []
                return self._send(int(query.get("status", ["503"])[0]), b'{"attempt": %d}' % attempt, headers=headers)
            return self._send(200, json.dumps({"attempt": attempt}).encode())
        if path == "/count":
            with COUNTERS_LOCK:
                return self._send(200, json.dumps({"count": COUNTERS.get(query["name"][0], 0)}).encode())
        if path == "/protected":
            # 200 only for "Authorization: Bearer <good>", else 401; counts every request per realm.
            count("protected-" + query["realm"][0])
            if "hold" in query:
                gates.hold(query["hold"][0])
            if self.headers.get("Authorization") == "Bearer " + query["good"][0]:
                return self._send(200, b'{"ok": true}')
            return self._send(401, b'{"error": "expired"}')
        if path == "/refresh":
            # Issues token "<realm>-fresh" and counts refreshes per realm.
            count("refresh-" + query["realm"][0])
            time.sleep(0.05)
            return self._send(200, json.dumps({"token": query["realm"][0] + "-fresh"}).encode())
        if path == "/repeated":
            # Two Set-Cookie and two Link fields, which must reach the caller as two each, not joined.
            return self._send(200, b"{}", headers=[
                ("Set-Cookie", "first=1; Path=/"), ("Set-Cookie", "second=2; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT"),
                ("Link", "</a>; rel=next"), ("Link", "</b>; rel=last")])
        if path == "/set-cookie":
            # One Set-Cookie field per `v`, and with big=<n> one cookie of n bytes.
            fields = [("Set-Cookie", value) for value in query.get("v", [])]
            if "big" in query:
                fields.append(("Set-Cookie", "big=" + "x" * int(query["big"][0])))
            return self._send(200, b"{}", headers=fields)
        if path == "/odd-head":
            # An interim 100 with a field of its own, then a head with a name in mixed case, padding around a value,
            # an obsolete folded field and an empty value; `folded-length` folds the length onto a second line.
            if "folded-length" in query:
                length = "Content-Length: 5\r\n 5\r\n"
            else:
                length = "content-LENGTH:   5  \r\n"
            self.wfile.write(
                (
                    "HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\n"
                    "HTTP/1.1 200 OK\r\n" + length + "X-Folded: first\r\n \t second  \r\n"
                    "X-Empty:\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nhello"
                ).encode()
            )
            self.close_connection = True
            return
        if path == "/many-headers":
            count_ = int(query["n"][0])
            return self._send(200, b"{}", headers=[("X-Filler-%d" % i, "x" * 48) for i in range(count_)])
        if path == "/gzip":
            return self._send(200, gzip.compress(b'{"compressed":true}'), headers=[("Content-Encoding", "gzip")])
        if path == "/sse":
            return self._sse(query)
        if path == "/sse-flood":
            count("sse-flood-" + query["name"][0])
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", "10")
            self.end_headers()
            self.wfile.write(b"retry: 0\n\n")
            return
        if path == "/sse-log":
            with COUNTERS_LOCK:
                log = list(SSE_LOG.get(query["name"][0], []))
            return self._send(200, json.dumps(log).encode())
        if path == "/ndjson":
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for index in range(int(query["n"][0])):
                line = json.dumps({"i": index}).encode() + [b"\n", b"\r\n", b"\r"][index % 3]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
            self.wfile.write(b"0\r\n\r\n")
            return
        if path == "/small":
            return self._send(200, b'{"ok":"yes"}\n')
        if path == "/echo" or path.startswith("/echo/"):
            headers = {}
            for name, value in self.headers.items():
                headers.setdefault(name.lower(), []).append(value)
            reply = {
                "method": self.command, "path": path, "query": parts.query, "headers": headers,
                "body": body.decode("latin-1"), "body_length": len(body),
                "header_lines": [[name, value] for name, value in self.headers.items()],
            }
            return self._send(200, json.dumps(reply).encode())
        if path.startswith("/status/"):
            code = int(path[len("/status/"):])
            if 100 <= code < 200:
                self.send_response_only(code)
                self.end_headers()
                return self._send(200, b'{"after":"informational"}')
            return self._send(code, json.dumps({"status": code}).encode(), headers=[("X-Status", str(code))])
        if path.startswith("/redirect/"):
            code = int(path[len("/redirect/"):])
            return self._send(code, b"", headers=[("Location", query["to"][0])])
        if path == "/delay":
            if "name" in query:
                count("delay-" + query["name"][0])
            time.sleep(int(query["ms"][0]) / 1000)
            return self._send(200, b"done", "text/plain")
        if path == "/drip":
            total, interval = int(query["bytes"][0]), int(query["interval_ms"][0]) / 1000
            name = query.get("name", [None])[0]
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(total))
            self.end_headers()
            try:
                if query.get("hold") == ["1"]:
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    if name:
                        count("drip-" + name)
                    if gates.client_gone(self.connection, 300) and name:
                        count("drip-closed-" + name)
                    self.close_connection = True
                    return
                for index in range(total):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    if index == 0 and name:
                        count("drip-" + name)
                    time.sleep(interval)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
                if name:
                    count("drip-closed-" + name)
            return
        if path == "/bytes":
            total = int(query["n"][0])
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(total))
            self.end_headers()
            sent = 0
            while sent < total:
                chunk = PATTERN[: min(len(PATTERN), total - sent)]
                self.wfile.write(chunk)
                sent += len(chunk)
            return
        if path == "/multipart":
            return self._send(200, json.dumps(self._multipart(body)).encode())
        if path == "/cached":
            return self._cached(query)
        if path.startswith("/fault/"):
            return self._fault(path[len("/fault/"):], query)
        if path == "/json/object":
            return self._send(200, b'{"name":"Girders","count":3,"tags":["a","b"]}')
        if path == "/json/array":
            return self._send(200, b'[{"name":"one"},{"name":"two"}]')
        if path == "/json/malformed":
            return self._send(200, b'{"name": "Girders", "count": }')
        if path == "/json/empty200":
            return self._send(200, b"")
        if path == "/json/dates":
            return self._send(200, b'{"created":"2026-11-22T13:30:56.123Z","updated":"2026-11-22t14:30:56+01:00"}')
        if path == "/content-type":
            return self._send(200, b"{}", query["type"][0])
        if path == "/challenge":
            return self._send(401, b'{"error":"login"}', headers=[("WWW-Authenticate", 'Basic realm="girders"')])
        return self._send(404, b'{"error":"no route"}')

    def _sse(self, query):
        name = query["name"][0]
        total, drop = int(query["total"][0]), int(query["drop"][0])
        last = self.headers.get("Last-Event-ID")
        authorization = self.headers.get("Authorization")
        with COUNTERS_LOCK:
            SSE_LOG.setdefault(name, []).append([last, authorization])
        if "token" in query and authorization != "Bearer " + query["token"][0]:
            return self._send(401, b'{"error":"token"}')
        start = int(last) + 1 if last else 0
        if start >= total:
            return self._send(204)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        ends = [b"\n", b"\r\n", b"\r"]
        self.wfile.write(b"retry: 50\n: a comment\n\n")
        for index in range(start, min(start + drop, total)):
            end = ends[index % 3]
            event = b"id: %d%sevent: tick%sdata: %d%sdata: second line%s%s" % (index, end, end, index, end, end, end)
            self.wfile.write(event)
            self.wfile.flush()
        cut_at = start + drop
        if query.get("cut", [""])[0] == "id" and cut_at < total:
            self.wfile.write(b"id: %d\nevent: tick\n" % cut_at)  # cut after its id: never dispatched
        else:
            self.wfile.write(b"data: half an event, never dispatched")
        self.wfile.flush()

    def _multipart(self, body):
        content_type = self.headers.get("Content-Type", "")
        boundary = content_type.split("boundary=", 1)[1].strip('"').encode()
        parts = []
        for chunk in body.split(b"--" + boundary)[1:]:
            if chunk.startswith(b"--"):
                break
            head, _, content = chunk[2:].partition(b"\r\n\r\n")
            content = content[:-2]  # the CRLF before the next boundary
            fields = {}
            for line in head.decode("utf-8").split("\r\n"):
                name, _, value = line.partition(":")
                fields[name.strip().lower()] = value.strip()
            disposition = dict(
                (k.strip(), v.strip().strip('"')) for k, _, v in
                (p.partition("=") for p in fields.get("content-disposition", "").split(";")[1:]))
            parts.append({
                "name": disposition.get("name"), "filename": disposition.get("filename"),
                "content_type": fields.get("content-type"), "length": len(content),
                "sha256": hashlib.sha256(content).hexdigest(),
                "text": content.decode("utf-8", "replace") if len(content) < 200 else None,
            })
        return parts

    def _cached(self, query):
        name = query["name"][0]
        etag, modified = '"v1-%s"' % name, "Sun, 22 Nov 2026 10:00:00 GMT"
        headers = [("Cache-Control", "no-cache")]
        if query.get("etag", ["1"])[0] == "1":
            headers.append(("ETag", etag))
        if query.get("lm", ["1"])[0] == "1":
            headers.append(("Last-Modified", modified))
        matches = (query.get("etag", ["1"])[0] == "1" and self.headers.get("If-None-Match") == etag) or (
            query.get("lm", ["1"])[0] == "1" and self.headers.get("If-None-Match") is None
            and self.headers.get("If-Modified-Since") == modified)
        if matches:
            count("cached-%s-304" % name)
            return self._send(304, headers=headers + [("X-Revalidated", "yes")])
        served = count("cached-%s-200" % name)
        return self._send(200, json.dumps({"name": name, "served": served}).encode(), headers=headers)

    def _fault(self, kind, query):
        total = int(query.get("n", ["100000"])[0])
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(total))
        self.end_headers()
        self.close_connection = True
        if kind == "stall":
            self.wfile.write(b"s" * 1000)
            self.wfile.flush()
            time.sleep(60)
            return
        self.wfile.write(b"f" * (total // 2))
        self.wfile.flush()
        if kind == "reset":
            time.sleep(0.05)
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        else:
            self.connection.shutdown(socket.SHUT_RDWR)

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _handle


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256

    def handle_error(self, request, client_address):
        # Clients that cancel mid-transfer close their connections; that is expected here, not worth a traceback.
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError, ValueError)):
            super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # returns when the parent closes stdin or exits


if __name__ == "__main__":
    main()
