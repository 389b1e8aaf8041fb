#!/usr/bin/env python3
"""The OpenAPI transport tests' server: Python's standard library only, on 127.0.0.1; prints "PORT <n>".

/echo          any method: the request as JSON (method, path with query, field lines in order, body)
/status/<n>    answers <n> with {"status": n}
/redirect307   307 to the "to" query parameter (a client keeps method and body)
/bytes?n=<n>   n bytes with Content-Length, in 64 KiB writes
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def handle_any(self):
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        body = self.read_body()
        if parts.path == "/echo":
            reply = {
                "method": self.command, "target": self.path, "body": body.decode("latin-1"),
                "header_lines": [[name, value] for name, value in self.headers.items()],
            }
            return self.reply(200, json.dumps(reply).encode())
        if parts.path.startswith("/status/"):
            code = int(parts.path[len("/status/"):])
            return self.reply(code, json.dumps({"status": code}).encode())
        if parts.path == "/redirect307":
            return self.reply(307, b"{}", [("Location", query["to"][0])])
        if parts.path == "/bytes":
            total = int(query["n"][0])
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(total))
            self.end_headers()
            sent = 0
            while sent < total:
                size = min(65536, total - sent)
                self.wfile.write(b"x" * size)
                sent += size
            return
        self.reply(404, b'{"message":"no such endpoint"}')

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_any


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT", server.server_address[1], flush=True)
    # Serves until standard input closes: a test process that dies takes its server with it.
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()


if __name__ == "__main__":
    sys.exit(main())
