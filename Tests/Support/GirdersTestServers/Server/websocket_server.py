#!/usr/bin/env python3
"""A WebSocket server of PyPI's `websockets` (13.1), for the tests of Girders' WebSocket client against a third party.

Binds 127.0.0.1 on a free port, prints the port on the first line of stdout, and exits when stdin closes. Offers
permessage-deflate (the library's default) and the subprotocols "chat" and "superchat". With `--tls FOLDER` it
speaks TLS with FOLDER's server.pem and server.key (made by tls_server.py) and requires a client certificate of
FOLDER's ca.pem.

  /echo                 every message back, as it came (text as text, binary as binary)
  /headers              one text message: the handshake's request fields as a JSON object (lower-cased names; a
                        repeated field's values joined with ", "), then a normal close
  /auth                 401 unless the handshake has "Authorization: Bearer fresh"; then as /echo
  /cookie               sets the cookie "ws=1" on the 101, then as /headers
  /redirect             302 to /echo
  /count?n=N&size=S     N binary messages of S bytes (default 100 of 1,000), then a normal close
  /close?code=C&reason=R  closes at once with code C and reason R
  /big?size=S           one text message of S 'a's (a compressed frame inflates far beyond itself), then waits
"""
import asyncio
import json
import logging
import os
import ssl
import sys
import threading
from urllib.parse import urlsplit, parse_qs

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response


def query(path):
    parts = urlsplit(path)
    return parts.path, {key: values[-1] for key, values in parse_qs(parts.query).items()}


def request_fields(request):
    fields = {}
    for name, value in request.headers.raw_items():
        name = name.lower()
        fields[name] = fields[name] + ", " + value if name in fields else value
    return fields


def select_subprotocol(connection, offered):
    """The client's first choice among "chat" and "superchat"; none when it offered neither."""
    return next((name for name in offered if name in ("chat", "superchat")), None)


def process_request(connection, request):
    path, _ = query(request.path)
    if path == "/auth" and request.headers.get("Authorization") != "Bearer fresh":
        return Response(401, "Unauthorized", Headers([("Content-Length", "6")]), b"no way")
    if path == "/redirect":
        return Response(302, "Found", Headers([("Location", "/echo"), ("Content-Length", "0")]), b"")
    return None


def process_response(connection, request, response):
    path, _ = query(request.path)
    if path == "/cookie":
        response.headers["Set-Cookie"] = "ws=1; Path=/"
    return response


async def handler(connection):
    path, arguments = query(connection.request.path)
    if path in ("/echo", "/auth"):
        async for message in connection:
            await connection.send(message)
    elif path in ("/headers", "/cookie"):
        await connection.send(json.dumps(request_fields(connection.request)))
        await connection.close()
    elif path == "/count":
        size = int(arguments.get("size", "1000"))
        for index in range(int(arguments.get("n", "100"))):
            await connection.send(bytes([index & 0xFF]) * size)
        await connection.close()
    elif path == "/close":
        await connection.close(int(arguments.get("code", "1000")), arguments.get("reason", ""))
    elif path == "/big":
        await connection.send("a" * int(arguments.get("size", "1000000")))
        await connection.wait_closed()


async def main():
    logging.disable(logging.CRITICAL)  # a refused handshake is a test's own doing
    stop = asyncio.get_running_loop().create_future()
    loop = asyncio.get_running_loop()

    def wait_for_stdin():
        sys.stdin.read()
        loop.call_soon_threadsafe(lambda: stop.done() or stop.set_result(None))

    threading.Thread(target=wait_for_stdin, daemon=True).start()
    context = None
    if len(sys.argv) == 3 and sys.argv[1] == "--tls":
        folder = sys.argv[2]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.path.join(folder, "server.pem"), os.path.join(folder, "server.key"))
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(os.path.join(folder, "ca.pem"))
    async with serve(
        handler, "127.0.0.1", 0, ssl=context, process_request=process_request, process_response=process_response,
        select_subprotocol=select_subprotocol, max_size=64 << 20, ping_interval=None,
        # No handshake deadline: under a full test run a client's task may wait long for one of Swift's two
        # cooperative threads between its connect and its request (websockets' default closes after 10 s).
        open_timeout=None,
    ) as server:
        port = server.sockets[0].getsockname()[1]
        print(port, flush=True)
        await stop


if __name__ == "__main__":
    asyncio.run(main())
