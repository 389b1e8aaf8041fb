#!/usr/bin/env python3
"""An origin server whose answers each test scripts, for CachingTransport's tests (standard library only).

Binds 127.0.0.1 on a free port, prints the port on the first line of stdout, and exits when stdin closes.

  POST /_script/<name>   body: a JSON list of answers for /o/<name>..., given out in order; the last one repeats.
                         An answer: {"status": 200, "headers": [["ETag", "\\"v1\\""], ...], "body": "text"}, or
                         {"drop": true} to close the connection without answering. No Date or Server field is
                         added: a test that wants Date scripts it (its clock is not this machine's).
  ANY  /o/<name>[...]    the next scripted answer; each request is logged
  GET  /_log/<name>      JSON list of the requests to /o/<name> or /f/<name>: {"method", "path", "headers"}
  POST /_file/<name>     body: JSON settings of a downloadable file /f/<name>: "size", "version" (its bytes and its
                         ETag "<version>" follow from it), and optionally "cuts" (a list: the next responses send
                         only that many body bytes, then close), "drip_ms" (a pause after every 16 KiB),
                         "hold_after" (after that many body bytes, nothing more until the client goes away),
                         "chunked" (a 200 without Content-Length, its body chunked), "ignore_if_range" (answers a Range with 206 even for another version), "shift" (a 206
                         that starts that many bytes later than asked), "no_validator", "date_only" (no ETag; a
                         Last-Modified a day before Date)
  GET  /f/<name>[?...]   the file: 200, or 206 for "Range: bytes=N-" when If-Range matches (416 past the end)
"""
import time
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import gates

LOCK = threading.Lock()
SCRIPTS = {}
LOGS = {}
FILES = {}
LAST_MODIFIED = "Tue, 01 Dec 2026 10:00:00 GMT"
DATE = "Wed, 02 Dec 2026 10:00:00 GMT"


def file_bytes(version, size):
    """The bytes of a file version: a pattern no two versions share at any offset."""
    seed = sum(version.encode()) * 7919
    block = bytes(((index * 131) + seed + (index >> 8) * 7) & 0xFF for index in range(65536))
    return (block * (size // len(block) + 1))[:size]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass

    def _plain(self, status, body):
        self.send_response_only(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _handle(self):
        length = int(self.headers.get("Content-Length") or 0)
        request_body = self.rfile.read(length) if length else b""
        path = self.path.split("?", 1)[0]
        if path.startswith("/_script/"):
            with LOCK:
                SCRIPTS[path[len("/_script/"):]] = json.loads(request_body)
            return self._plain(200, b"{}")
        if path.startswith("/_log/"):
            with LOCK:
                log = LOGS.get(path[len("/_log/"):], [])
                return self._plain(200, json.dumps(log).encode())
        if path.startswith("/_file/"):
            with LOCK:
                FILES[path[len("/_file/"):]] = json.loads(request_body)
            return self._plain(200, b"{}")
        if path.startswith("/f/"):
            return self._file(path[len("/f/"):])
        if not path.startswith("/o/"):
            return self._plain(404, b'{"error": "no such route"}')
        name = path[len("/o/"):].split("/", 1)[0]
        with LOCK:
            LOGS.setdefault(name, []).append({
                "method": self.command, "path": self.path,
                "headers": {key.lower(): value for key, value in self.headers.items()},
            })
            script = SCRIPTS.get(name) or [{"status": 404, "body": "not scripted"}]
            answer = script.pop(0) if len(script) > 1 else script[0]
        if answer.get("drop"):
            self.close_connection = True
            return
        status = answer.get("status", 200)
        body = answer.get("body", "").encode()
        self.send_response_only(status)
        for field_name, value in answer.get("headers", []):
            self.send_header(field_name, value)
        if status in (204, 304):
            self.end_headers()
            return
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _file(self, name):
        with LOCK:
            LOGS.setdefault(name, []).append({
                "method": self.command, "path": self.path,
                "headers": {key.lower(): value for key, value in self.headers.items()},
            })
            settings = dict(FILES.get(name) or {})
            cuts = (FILES.get(name) or {}).get("cuts") or []
            cut = cuts.pop(0) if cuts else None
        size, version = settings.get("size", 0), settings.get("version", "v1")
        content = file_bytes(version, size)
        etag = '"%s"' % version
        validators = []
        if settings.get("date_only"):
            validators = [("Last-Modified", LAST_MODIFIED), ("Date", DATE)]
        elif not settings.get("no_validator"):
            validators = [("ETag", etag)]
        status, body, extra = 200, content, []
        wanted = self.headers.get("Range", "")
        if wanted.startswith("bytes=") and wanted.endswith("-"):
            start = int(wanted[len("bytes="):-1])
            condition = self.headers.get("If-Range")
            current = LAST_MODIFIED if settings.get("date_only") else etag
            if condition is None or condition == current or settings.get("ignore_if_range"):
                if start >= size:
                    self.send_response_only(416)
                    self.send_header("Content-Range", "bytes */%d" % size)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                start += settings.get("shift", 0)
                status, body = 206, content[start:]
                extra = [("Content-Range", "bytes %d-%d/%d" % (start, size - 1, size))]
        self.send_response_only(status)
        for field_name, value in validators + extra:
            self.send_header(field_name, value)
        self.send_header("Content-Type", "application/octet-stream")
        chunked = settings.get("chunked") and status == 200
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        limit = len(body) if cut is None else min(cut, len(body))
        hold = settings.get("hold_after")
        if hold is not None:
            limit = min(limit, hold)
        sent = 0
        try:
            while sent < limit:
                piece = body[sent:min(limit, sent + 16384)]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                self.wfile.flush()
                sent += len(piece)
                if settings.get("drip_ms"):
                    time.sleep(settings["drip_ms"] / 1000)
            if chunked and cut is None and hold is None:
                self.wfile.write(b"0\r\n\r\n")
            if hold is not None:
                gates.client_gone(self.connection, 300)
        except (BrokenPipeError, ConnectionResetError):
            pass
        if cut is not None or hold is not None:
            self.close_connection = True

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = _handle


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the tests open many connections at once; the default backlog of 5 resets some


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # returns when the parent closes stdin or exits


if __name__ == "__main__":
    main()
