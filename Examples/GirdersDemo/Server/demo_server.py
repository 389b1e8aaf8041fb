#!/usr/bin/env python3
"""The REST service GirdersDemo talks to: Python's standard library only, on 127.0.0.1.

Prints "PORT <n>" once it listens (port 0 picks a free one). Tokens start with "secret-" so a test can check that
none reaches a log. An access token is good for --access-uses requests, then 401; POST /refresh trades the
refresh token for a new pair (the old refresh token stops working); POST /expire expires every access token at once. With --flaky the first GET /items of each
access token answers 503 with Retry-After: 0. GET /feed (a WebSocket, with a bearer token) announces every change of
the items as a text message: {"change": "created", "item": {...}} or {"change": "deleted", "id": N}.
"""
import argparse
import base64
import hashlib
import json
import secrets
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USERS = {"ada": "lovelace"}


class State:
    def __init__(self, access_uses, flaky):
        self.lock = threading.Lock()
        self.access_uses = access_uses
        self.flaky = flaky
        self.access = {}  # token -> remaining uses
        self.refresh = {}  # token -> user
        self.flaked = set()
        self.items = {}
        self.next_id = 1
        self.stats = {"logins": 0, "refreshes": 0, "unavailable": 0, "uploads": 0, "watchers": 0}
        self.feeds = []  # the live feed's connections

    def publish(self, change):
        """Sends `change` to every feed as one unmasked text frame (RFC 6455, 5.2); a closed one is dropped."""
        data = json.dumps(change).encode()
        frame = bytes([0x81, len(data)]) if len(data) < 126 else bytes([0x81, 126]) + len(data).to_bytes(2, "big")
        for connection in list(self.feeds):
            try:
                connection.sendall(frame + data)
            except OSError:
                self.feeds.remove(connection)

    def issue(self, user):
        access, refresh = "secret-access-" + secrets.token_hex(8), "secret-refresh-" + secrets.token_hex(8)
        self.access[access] = self.access_uses
        self.refresh[refresh] = user
        return {"accessToken": access, "refreshToken": refresh}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=None, headers=()):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
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

    def json_body(self):
        try:
            return json.loads(self.body() or b"{}")
        except ValueError:
            return {}

    def authorized(self, state):
        token = self.headers.get("Authorization", "").removeprefix("Bearer ")
        with state.lock:
            if state.access.get(token, 0) <= 0:
                return None
            state.access[token] -= 1
            return token

    def do_POST(self):
        state = self.server.state
        if self.path == "/login":
            body = self.json_body()
            if USERS.get(body.get("username")) != body.get("password"):
                return self.reply(403, {"message": "wrong user name or password"})
            with state.lock:
                state.stats["logins"] += 1
                return self.reply(200, state.issue(body["username"]))
        if self.path == "/expire":  # a test hook: every access token expires now
            with state.lock:
                state.access.clear()
            return self.reply(204)
        if self.path == "/refresh":
            body = self.json_body()
            with state.lock:
                user = state.refresh.pop(body.get("refreshToken"), None)
                if user is None:
                    return self.reply(403, {"message": "refresh token refused"})
                state.stats["refreshes"] += 1
                return self.reply(200, state.issue(user))
        if self.path == "/items":
            body = self.json_body()
            if not self.authorized(state):
                return self.reply(401, {"message": "token expired"})
            with state.lock:
                item = {"id": state.next_id, "name": str(body.get("name", ""))}
                state.items[state.next_id] = item
                state.next_id += 1
                state.publish({"change": "created", "item": item})
            return self.reply(201, item)
        if self.path == "/uploads":
            data = file_part(self.body(), self.headers.get("Content-Type", ""))
            if not self.authorized(state):
                return self.reply(401, {"message": "token expired"})
            with state.lock:
                state.stats["uploads"] += 1
            return self.reply(200, {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
        self.reply(404, {"message": "no such endpoint"})

    def do_GET(self):
        state = self.server.state
        if self.path == "/stats":
            with state.lock:
                return self.reply(200, state.stats)
        if self.path == "/feed":
            return self.feed(state)
        if self.path == "/items":
            token = self.authorized(state)
            if not token:
                return self.reply(401, {"message": "token expired"})
            with state.lock:
                if state.flaky and token not in state.flaked:
                    state.flaked.add(token)
                    state.access[token] += 1
                    state.stats["unavailable"] += 1
                    return self.reply(503, {"message": "try again"}, [("Retry-After", "0")])
                return self.reply(200, sorted(state.items.values(), key=lambda item: item["id"]))
        self.reply(404, {"message": "no such endpoint"})

    def feed(self, state):
        """The live feed: the opening handshake (RFC 6455, 4.2.2), then changes until the client closes."""
        if not self.authorized(state):
            return self.reply(401, {"message": "token expired"})
        key = self.headers.get("Sec-WebSocket-Key", "").encode() + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
        self.send_response(101)
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", base64.b64encode(hashlib.sha1(key).digest()).decode())
        self.end_headers()
        self.wfile.flush()
        with state.lock:
            state.feeds.append(self.connection)
            state.stats["watchers"] += 1
        while (first := self.rfile.read(2)) and first[0] & 0x0F != 0x8:  # until the client's close
            size = first[1] & 0x7F
            size = int.from_bytes(self.rfile.read({126: 2, 127: 8}[size]), "big") if size > 125 else size
            self.rfile.read(4 + size)
        with state.lock:
            if self.connection in state.feeds:
                state.feeds.remove(self.connection)
            if first:
                self.connection.sendall(bytes([0x88, 0]))
        self.close_connection = True

    def do_DELETE(self):
        state = self.server.state
        if self.path.startswith("/items/"):
            if not self.authorized(state):
                return self.reply(401, {"message": "token expired"})
            with state.lock:
                found = state.items.pop(int(self.path[7:]) if self.path[7:].isdigit() else -1, None)
                if found:
                    state.publish({"change": "deleted", "id": found["id"]})
            return self.reply(204) if found else self.reply(404, {"message": "no such item"})
        self.reply(404, {"message": "no such endpoint"})


def file_part(body, content_type):
    """The content of the multipart part named "file", or the whole body when there is none."""
    boundary = content_type.partition("boundary=")[2].strip('"').encode()
    for part in body.split(b"--" + boundary)[1:] if boundary else []:
        head, _, content = part.partition(b"\r\n\r\n")
        if b'name="file"' in head:
            return content[:-2] if content.endswith(b"\r\n") else content
    return body


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--access-uses", type=int, default=3)
    parser.add_argument("--flaky", action="store_true")
    # For tests: exit when standard input closes, so a test process that dies takes its server with it.
    parser.add_argument("--exit-with-stdin", action="store_true")
    arguments = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    server.state = State(arguments.access_uses, arguments.flaky)
    print("PORT", server.server_address[1], flush=True)
    if arguments.exit_with_stdin:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        sys.stdin.read()
        return
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
