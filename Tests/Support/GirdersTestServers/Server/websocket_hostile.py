#!/usr/bin/env python3
"""A hostile WebSocket server (standard library, raw sockets): each route breaks one rule of RFC 6455 or RFC 7692,
or one of the client's limits, so the tests can check the client's answer. Prints its port, then serves until its
standard input closes.

Every connection's path carries `?id=ID`; what the server saw of the client on it is kept under that ID and
answered as JSON by a plain `GET /_state?id=ID` (404 before a connection named ID arrived): "close" (the close code the client sent, or null), "pongs" (pongs
received), "pings" (pings received), "blocked" (whether a send found the client's receive window full), "done",
"texts" (the text messages the client sent before its close).

Handshake answers (/hs/...): bad-accept, no-upgrade, extension (an extension not offered), protocol (a subprotocol
not offered), deflate-bits (server_max_window_bits=7), 200 (a 200 with a body), huge-head (head fields without end),
silent (nothing at all), garbage (no HTTP), hang-up (closes at once).

After a good handshake (/f/<case>), the server sends the case's bytes, then reads the client's frames until it
closes: masked, rsv1, opcode-3, control-126, fragmented-ping, continuation, bad-utf8, split-utf8 (a text message whose
two-byte character is split across fragments, then one whose split character is invalid), length-2-63,
close-1005, close-1-byte, close-bad-reason, ping-flood?n=N (N pings of 125 bytes, then the text "done"), deflate-bomb
(agrees to permessage-deflate and sends a message that inflates to 64 MiB), quiet (nothing, and no pong for any ping),
flood?n=N&size=S (N binary messages of S bytes, sent without blocking, noting when the client's window is full;
then the text "end" and a normal close), drop (the text "hello", then the connection closes without a close frame),
split-utf8-good (a text message whose "é" is split between two fragments), then-rsv2 (the texts "first" and "second",
then in the same write a frame with RSV2 set), utf8-early (a text frame announcing 1 MiB whose first three bytes,
then nothing more, hold an invalid byte), utf8-early-continuation (the same in a continuation of a text message).
"""
import base64
import hashlib
import json
import socket
import struct
import threading
import zlib
from urllib.parse import parse_qs, urlsplit

import raw_listener

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
LOCK = threading.RLock()
STATES = {}


def state(identifier):
    with LOCK:
        return STATES.setdefault(identifier, {"close": None, "pongs": 0, "pings": 0, "blocked": False,
                                              "done": False, "texts": []})


def frame(opcode, payload=b"", fin=True, rsv1=False, mask=None, length=None):
    first = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    size = len(payload) if length is None else length
    if size < 126:
        head = struct.pack("!BB", first, size | (0x80 if mask else 0))
    elif size < 1 << 16:
        head = struct.pack("!BBH", first, 126 | (0x80 if mask else 0), size)
    else:
        head = struct.pack("!BBQ", first, 127 | (0x80 if mask else 0), size)
    if mask:
        payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        return head + mask + payload
    return head + payload


def accept_value(key):
    return base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()


def answer(conn, key, extra=()):
    lines = ["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Accept: " + accept_value(key), *extra]
    conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())


def read_exactly(conn, count):
    data = b""
    while len(data) < count:
        chunk = conn.recv(count - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def read_client(conn, seen):
    """Reads the client's frames until it closes (or the connection ends), noting pings, pongs and its close."""
    while True:
        head = read_exactly(conn, 2)
        if head is None:
            return
        opcode, size = head[0] & 0x0F, head[1] & 0x7F
        if size == 126:
            size = struct.unpack("!H", read_exactly(conn, 2) or b"\0\0")[0]
        elif size == 127:
            size = struct.unpack("!Q", read_exactly(conn, 8) or bytes(8))[0]
        mask = read_exactly(conn, 4) if head[1] & 0x80 else b"\0\0\0\0"
        payload = read_exactly(conn, size) if size else b""
        if mask is None or payload is None:
            return
        payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        with LOCK:
            if opcode == 0x8:
                seen["close"] = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
            elif opcode == 0xA:
                seen["pongs"] += 1
            elif opcode == 0x9:
                seen["pings"] += 1
            elif opcode == 0x1:
                seen["texts"].append(payload.decode("utf-8", "replace"))
        if opcode == 0x8:
            try:
                conn.sendall(frame(0x8, payload[:2]))
            except OSError:
                pass
            return


def handshake_case(conn, case, key):
    if case == "bad-accept":
        conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Accept: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
    elif case == "no-upgrade":
        conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
                      + accept_value(key) + "\r\n\r\n").encode())
    elif case == "extension":
        answer(conn, key, ["Sec-WebSocket-Extensions: x-webkit-deflate-frame"])
    elif case == "protocol":
        answer(conn, key, ["Sec-WebSocket-Protocol: mqtt"])
    elif case == "deflate-bits":
        answer(conn, key, ["Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=7"])
    elif case == "200":
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
    elif case == "huge-head":
        try:
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\n")
            for index in range(100000):
                conn.sendall(b"X-Filler-%d: %s\r\n" % (index, b"x" * 100))
        except OSError:
            pass
    elif case == "silent":
        raw_listener_wait(conn)
    elif case == "garbage":
        conn.sendall(b"\x16\x03\x01 this is no HTTP at all\r\n\r\n")
    # "hang-up": nothing; the connection closes below.


def raw_listener_wait(conn):
    try:
        while conn.recv(65536):
            pass
    except OSError:
        pass


def deflated(data):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    out = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
    return out[:-4]  # RFC 7692, 7.2.1: without the final 00 00 FF FF


def frames_case(conn, case, arguments, seen):
    sends = {
        "masked": frame(0x1, b"hi", mask=b"\x01\x02\x03\x04"),
        "rsv1": frame(0x1, b"hi", rsv1=True),
        "opcode-3": frame(0x3, b"hi"),
        "control-126": frame(0x9, b"p" * 126),
        "fragmented-ping": frame(0x9, b"p", fin=False),
        "continuation": frame(0x0, b"hi"),
        "bad-utf8": frame(0x1, b"\xc3\x28"),
        "split-utf8": frame(0x1, b"\xc3", fin=False) + frame(0x0, b"\xa9", fin=True)
        + frame(0x1, b"ok \xe2\x82", fin=False) + frame(0x0, b"\x28", fin=True),
        "split-utf8-good": frame(0x1, b"caf\xc3", fin=False) + frame(0x0, b"\xa9", fin=True),
        "length-2-63": struct.pack("!BBQ", 0x82, 127, 1 << 63),
        "close-1005": frame(0x8, struct.pack("!H", 1005)),
        "close-1-byte": frame(0x8, b"\x03"),
        "close-bad-reason": frame(0x8, struct.pack("!H", 1000) + b"\xff\xfe"),
        "then-rsv2": frame(0x1, b"first") + frame(0x1, b"second") + bytes([0xA1, 1]) + b"x",
        "utf8-early": struct.pack("!BBQ", 0x81, 127, 1 << 20) + b"ab\xff",
        "utf8-early-continuation": frame(0x1, b"ok", fin=False) + struct.pack("!BBQ", 0x80, 127, 1 << 20)
        + b"cd\xc0",
    }
    if case == "drop":
        conn.sendall(frame(0x1, b"hello"))
        return  # the connection closes without a close frame
    if case in sends:
        conn.sendall(sends[case])
    elif case == "ping-flood":
        reader = threading.Thread(target=read_client, args=(conn, seen), daemon=True)
        reader.start()
        ping = frame(0x9, b"p" * 125)
        for _ in range(int(arguments.get("n", "10000"))):
            conn.sendall(ping)
        conn.sendall(frame(0x1, b"done"))
        reader.join()
        return
    elif case == "deflate-bomb":
        conn.sendall(frame(0x1, deflated(bytes(64 << 20)), rsv1=True))
    elif case == "flood":
        flood(conn, int(arguments.get("n", "200")), int(arguments.get("size", "262144")), seen)
    elif case == "quiet":
        pass
    read_client(conn, seen)


def flood(conn, count, size, seen):
    """Sends without blocking; notes when the client's window is full (it stopped reading), then waits for it."""
    import select
    conn.setblocking(False)
    pending = b"".join(frame(0x2, bytes([index & 0xFF]) * size) for index in range(count)) + frame(0x1, b"end")
    pending += frame(0x8, struct.pack("!H", 1000))
    view, offset = memoryview(pending), 0
    while offset < len(view):
        try:
            offset += conn.send(view[offset:offset + 65536])
        except BlockingIOError:
            with LOCK:
                seen["blocked"] = True
            select.select([], [conn], [], 60)
    conn.setblocking(True)


def serve(conn):
    arguments = {}
    try:
        received = raw_listener.read_head(conn)
        if received is None:
            return
        head, _ = received
        lines = head.decode("latin-1").split("\r\n")
        target = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "/"
        fields = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        parts = urlsplit(target)
        arguments = {name: values[-1] for name, values in parse_qs(parts.query).items()}
        if parts.path == "/_state":
            with LOCK:
                known = STATES.get(arguments.get("id", ""))
                body = json.dumps(known).encode()
            status = b"200 OK" if known is not None else b"404 Not Found"
            conn.sendall(b"HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n%s" % (status, len(body), body))
            arguments = {"id": "_state"}
            return
        key = fields.get("sec-websocket-key", "")
        seen = state(arguments.get("id", ""))
        if parts.path.startswith("/hs/"):
            handshake_case(conn, parts.path[4:], key)
            return
        case = parts.path[3:] if parts.path.startswith("/f/") else ""
        answer(conn, key, ["Sec-WebSocket-Extensions: permessage-deflate"] if case == "deflate-bomb" else [])
        frames_case(conn, case, arguments, seen)
    except OSError:
        pass
    finally:
        with LOCK:
            state(arguments.get("id", ""))["done"] = True
        conn.close()


if __name__ == "__main__":
    raw_listener.run(serve, nodelay=True)
