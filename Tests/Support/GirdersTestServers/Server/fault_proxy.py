#!/usr/bin/env python3
"""A fault-injecting HTTP proxy in front of the loopback server, for FaultInjectionTests.

Usage: fault_proxy.py UPSTREAM_PORT. Listens on 127.0.0.1, prints its port, and serves until its standard input
closes. Each client connection carries one request (every response says `Connection: close`): the proxy reads the
request (its head and a Content-Length body), forwards it to 127.0.0.1:UPSTREAM_PORT and relays the answer,
with the fault the request's query names in `fault=`:

  none       relayed as it is
  throttle   relayed whole, 4 KiB at a time with 5 ms pauses
  truncate   the head and half of the body, then a clean close (FIN)
  reset      the head and half of the body, then a reset (RST)
  stall      the head and 1,000 bytes of the body, then silence for 30 s
  lost       the request reaches the upstream whole (a POST is processed), then a reset and no response
  refuse     the request is read but never forwarded: a reset, no response
"""
import socket
import struct
import sys
import time
from urllib.parse import parse_qs, urlsplit

import raw_listener

UPSTREAM = int(sys.argv[1])


def reset(conn):
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def read_request(conn):
    received = raw_listener.read_head(conn)
    if received is None:
        return None
    head, rest = received
    lines = head.split(b"\r\n")
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        rest += chunk
    kept = [line for line in lines[1:] if line.split(b":")[0].strip().lower() != b"connection"]
    request = b"\r\n".join([lines[0]] + kept + [b"Connection: close"]) + b"\r\n\r\n" + rest[:length]
    target = lines[0].split(b" ")[1].decode("latin-1")
    return request, parse_qs(urlsplit(target).query).get("fault", ["none"])[0]


def fetch(request):
    upstream = socket.create_connection(("127.0.0.1", UPSTREAM))
    upstream.sendall(request)
    response = b""
    while True:
        chunk = upstream.recv(65536)
        if not chunk:
            break
        response += chunk
    upstream.close()
    return response


def serve(conn):
    try:
        conn.settimeout(60)
        parsed = read_request(conn)
        if parsed is None:
            conn.close()
            return
        request, fault = parsed
        if fault == "refuse":
            return reset(conn)
        response = fetch(request)
        if fault == "lost":
            return reset(conn)
        head, _, body = response.partition(b"\r\n\r\n")
        # The proxy closes every connection after one answer, and says so: a client that took the connection for
        # kept alive could send its next request into the close (a race on a busy machine, not a fault of the test).
        lines = [line for line in head.split(b"\r\n") if line.split(b":")[0].strip().lower() != b"connection"]
        head = b"\r\n".join(lines + [b"Connection: close"]) + b"\r\n\r\n"
        response = head + body
        if fault == "throttle":
            for at in range(0, len(response), 4096):
                conn.sendall(response[at:at + 4096])
                time.sleep(0.005)
        elif fault in ("truncate", "reset"):
            conn.sendall(head + body[: len(body) // 2])
            time.sleep(0.05)
            if fault == "reset":
                return reset(conn)
        elif fault == "stall":
            conn.sendall(head + body[:1000])
            time.sleep(30)
        else:
            conn.sendall(response)
        conn.close()
    except OSError:
        try:
            conn.close()
        except OSError:
            pass


if __name__ == "__main__":
    raw_listener.run(serve, backlog=128, nodelay=True)
