#!/usr/bin/env python3
"""An origin server whose answers each test scripts, for CachingTransport's tests (standard library only).

Binds 127.0.0.1 on a free port, prints the port on the first line of stdout, and exits when stdin closes.

  POST /_script/<name>   body: a JSON list of answers for /o/<name>..., given out in order; the last one repeats.
                         An answer: {"status": 200, "headers": [["ETag", "\\"v1\\""], ...], "body": "text"}, or
                         {"drop": true} to close the connection without answering. No Date or Server field is
                         added: a test that wants Date scripts it (its clock is not this machine's).
  ANY  /o/<name>[...]    the next scripted answer; each request is logged
  GET  /_log/<name>      JSON list of the requests to /o/<name>: {"method", "path", "headers": {lower-cased: value}}
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
SCRIPTS = {}
LOGS = {}


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
