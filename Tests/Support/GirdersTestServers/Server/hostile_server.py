#!/usr/bin/env python3
"""A hostile HTTP server for the limit tests: each route acts out one way a server can exhaust a client's memory.
Raw sockets, so that it can send what http.server would not. Prints its port, then serves until its standard input
closes.

Routes (the request's path, query ignored unless named):
  /bomb?layers=N     a body of 256 MiB of zeros gzip-compressed N times (1 or 2), `Content-Encoding: gzip, gzip`
  /gzip-text         4 MiB of varied JSON-like text, gzip-compressed once (`Content-Encoding: gzip`)
  /endless           200 without Content-Length, then zeros until the client goes away, at about 50 MB/s
                     (`?fast=1`: as fast as the client reads; FoundationNetworking queues every piece for its
                     delegate without back-pressure, so an unthrottled stream grows its queue faster than a
                     cancellation takes effect)
  /sized?n=N         200 with `Content-Length: N` and N zero bytes, as fast as the client reads
  /gzip-sized?n=N    N bytes of varied text (gzip-text's, repeated), gzip-compressed (about 10:1), as fast as read
  /announce?length=N 200 with `Content-Length: N`, 16 bytes of body, then silence until the client goes away
  /head-huge         200 with `Content-Length: 268435456` and no body (for HEAD)
  /not-modified-huge 304 with `Content-Length: 268435456`
  /fields?n=N        200 with N distinct header fields and a 2-byte body
  /length-twice?a=A&b=B  two Content-Length fields, A then B, and A bytes of body
  /length-list?v=V   `Content-Length: V` (for example "10, 5") and 5 bytes
  /both-framings     `Transfer-Encoding: chunked` and `Content-Length: 100`, a chunked "hello"
  /keepalive/both, /keepalive/id   a kept-alive connection: both framings, or the connection's number
  /keepalive/drop-next  the body's length, the connection kept; the next request on it closed without an answer
  /control-value     a field whose value holds ESC, a bare CR and DEL
  /cookies?n=N       200 with N persistent Set-Cookie fields (expiring in 2031)
  /coded?coding=C&damage=D   a 108,000-byte text in content coding C (gzip, deflate, raw-deflate, br, zstd,
                     gzip-gzip), whole or damaged (D: none, half, tail, garbage, members; see codings.py), with a
                     Content-Length of what is sent; /coded?coding=compress names a coding nobody decodes (compress-over-gzip: gzip, then compress)
  /trailer?size=N    a chunked 200 announcing `Trailer: X-Checksum`, then the body and a trailer field of N bytes
  /interim?n=N&size=S  N interim `102 Processing` heads, each with a field of S bytes, then a 200 with "ok"
  /cookies-raw       Set-Cookie fields with control characters (\x01 in a name; BEL, ESC, DEL in values), one with
                     `Max-Age` one past Int64, one with `Domain=127.0.0.1`, and a plain `ok=1`
  /reset             reads the request, then resets the connection (RST) without a response
  /close             reads the request, then closes the connection without a response
  /reset-mid-body    `Content-Length: 100`, 10 bytes, then a reset
"""
import gzip
import socket
import struct
import threading
import time
import zlib
from urllib.parse import parse_qs, urlsplit

import codings
import raw_listener

BOMB_SIZE = 256 << 20
_bombs = {}
_bomb_lock = threading.Lock()


def gzip_stream(chunks):
    """The gzip member of the concatenated chunks, compressed as they come."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    out = [compressor.compress(chunk) for chunk in chunks]
    out.append(compressor.flush())
    return b"".join(out)


def _gzip_text():
    """4 MiB of JSON-like records with varied numbers and words, gzip-compressed once."""
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett"]
    records, size, index = [], 0, 0
    while size < 4 << 20:
        record = '{"id":%d,"name":"%s-%d","score":%d,"tags":["%s","%s"]},' % (
            index, words[index % 10], (index * 7919) % 100003, (index * 104729) % 9973, words[(index * 3) % 10],
            words[(index * 7) % 10])
        records.append(record)
        size += len(record)
        index += 1
    return gzip.compress("".join(records).encode()[: 4 << 20])


GZIP_TEXT = _gzip_text()


_sized = {}


def gzip_sized(size):
    """`size` bytes of gzip-text's plain text, repeated, gzip-compressed (kept for the next request)."""
    with _bomb_lock:
        if size not in _sized:
            plain = gzip.decompress(GZIP_TEXT)
            compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
            parts, left = [], size
            while left > 0:
                piece = plain[:left]
                parts.append(compressor.compress(piece))
                left -= len(piece)
            parts.append(compressor.flush())
            _sized[size] = b"".join(parts)
        return _sized[size]


def bomb(layers):
    with _bomb_lock:
        if layers not in _bombs:
            zeros = bytes(1 << 20)
            body = gzip_stream(zeros for _ in range(BOMB_SIZE >> 20))
            for _ in range(layers - 1):
                body = gzip.compress(body, 9)
            _bombs[layers] = body
        return _bombs[layers]


def read_head(conn):
    return request_line(raw_listener.read_head(conn))


def request_line(received):
    if received is None:
        return None
    line = received[0].split(b"\r\n", 1)[0].decode("latin-1")
    parts = line.split(" ")
    return (parts[0], parts[1]) if len(parts) >= 2 else None


def wait_for_close(conn):
    try:
        while conn.recv(65536):
            pass
    except OSError:
        pass


_connections = [0]
_connections_lock = threading.Lock()


def keep_alive(conn, path):
    """Serves requests on one kept-alive connection: /keepalive/both answers with both framings (and no
    `Connection: close`), /keepalive/id with the connection's number, which tells the client's reuse apart."""
    with _connections_lock:
        _connections[0] += 1
        number = _connections[0]
    while path is not None:
        if path == "/keepalive/both":
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        else:
            body = str(number).encode()
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        request = read_head(conn)
        path = urlsplit(request[1]).path if request else None


def drop_next(conn, received):
    """/keepalive/drop-next: answers the first request on a connection with its body's length (and keeps the
    connection), then closes the connection on the next request without an answer, as a server whose idle timeout
    fired just as the request went out. A client should send that request again on a new connection."""
    head, body = received
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return
        body += chunk
    reply = b"%d" % length
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(reply) + reply)
    raw_listener.read_head(conn)


def serve(conn):
    try:
        received = raw_listener.read_head(conn)
        request = request_line(received)
        if request is None:
            return
        method, target = request
        if urlsplit(target).path == "/keepalive/drop-next":
            return drop_next(conn, received)
        if target.startswith("/keepalive/"):
            return keep_alive(conn, urlsplit(target).path)
        url = urlsplit(target)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        path = url.path
        if path == "/bomb":
            layers = int(query.get("layers", "1"))
            body = bomb(layers)
            coding = ", ".join(["gzip"] * layers)
            conn.sendall(
                f"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Encoding: {coding}\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
        elif path == "/gzip-sized":
            coded = gzip_sized(int(query.get("n", "1")))
            conn.sendall(
                f"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\n"
                f"Content-Length: {len(coded)}\r\nConnection: close\r\n\r\n".encode() + coded)
        elif path == "/gzip-text":
            conn.sendall(
                f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
                f"Content-Length: {len(GZIP_TEXT)}\r\nConnection: close\r\n\r\n".encode() + GZIP_TEXT)
        elif path == "/endless":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n")
            zeros = bytes(256 << 10)
            fast = query.get("fast") == "1"
            while True:
                conn.sendall(zeros)
                if not fast:
                    time.sleep(0.005)
        elif path == "/sized":
            total = int(query.get("n", "0"))
            conn.sendall(
                f"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {total}\r\n"
                f"Connection: close\r\n\r\n".encode())
            zeros = bytes(256 << 10)
            while total > 0:
                conn.sendall(zeros[:min(total, len(zeros))])
                total -= min(total, len(zeros))
        elif path == "/announce":
            length = int(query.get("length", "0"))
            conn.sendall(f"HTTP/1.1 200 OK\r\nContent-Length: {length}\r\n\r\n".encode() + bytes(16))
            wait_for_close(conn)
        elif path == "/head-huge":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 268435456\r\nConnection: close\r\n\r\n")
        elif path == "/not-modified-huge":
            conn.sendall(b"HTTP/1.1 304 Not Modified\r\nContent-Length: 268435456\r\nConnection: close\r\n\r\n")
        elif path == "/fields":
            count = int(query.get("n", "1"))
            fields = "".join(f"X-Field-{i}: {i}\r\n" for i in range(count))
            conn.sendall(f"HTTP/1.1 200 OK\r\n{fields}Content-Length: 2\r\nConnection: close\r\n\r\nok".encode())
        elif path == "/length-twice":
            a, b = int(query["a"]), int(query["b"])
            conn.sendall(f"HTTP/1.1 200 OK\r\nContent-Length: {a}\r\nContent-Length: {b}\r\nConnection: close\r\n\r\n"
                         .encode() + b"hello world!"[:a])
        elif path == "/length-list":
            conn.sendall(f"HTTP/1.1 200 OK\r\nContent-Length: {query['v']}\r\nConnection: close\r\n\r\nhello".encode())
        elif path == "/both-framings":
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 100\r\nConnection: close\r\n\r\n"
                         b"5\r\nhello\r\n0\r\n\r\n")
        elif path == "/status-line":
            code = query.get("code", "200")
            conn.sendall(f"HTTP/1.1 {code} Odd\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".encode())
        elif path == "/control-value":
            conn.sendall(b"HTTP/1.1 200 OK\r\nX-Evil: a\x1b[31mred\rb\x7fc\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        elif path in ("/reset", "/reset-mid-body"):
            if path == "/reset-mid-body":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + bytes(10))
                time.sleep(0.05)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        elif path == "/cookies":
            count = int(query.get("n", "1"))
            fields = "".join(f"Set-Cookie: c{i}=v{i}; Expires=Wed, 01 Jan 2031 00:00:00 GMT; Path=/\r\n" for i in range(count))
            conn.sendall(f"HTTP/1.1 200 OK\r\n{fields}Content-Length: 2\r\nConnection: close\r\n\r\nok".encode())
        elif path == "/coded":
            if query.get("coding") == "compress":
                name, coded = "compress", b"\x1f\x9d\x90not really"
            elif query.get("coding") == "compress-over-gzip":
                name, coded = "gzip, compress", b"\x1f\x9d\x90" + gzip.compress(b"not really")
            else:
                name, coded = codings.body(query.get("coding", "gzip"), query.get("damage", "none"))
            conn.sendall(f"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: {name}\r\n"
                         f"Content-Length: {len(coded)}\r\nConnection: close\r\n\r\n".encode() + coded)
        elif path == "/trailer":
            value = b"a" * int(query.get("size", "16"))
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n"
                         b"Connection: close\r\n\r\n5\r\nhello\r\n0\r\nX-Checksum: " + value + b"\r\n\r\n")
        elif path == "/interim":
            field = b"X-Progress: " + b"p" * int(query.get("size", "16")) + b"\r\n"
            for _ in range(int(query.get("n", "1"))):
                conn.sendall(b"HTTP/1.1 102 Processing\r\n" + field + b"\r\n")
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        elif path == "/cookies-raw":
            fields = (b"Set-Cookie: c\x01tl=1; Path=/\r\n"
                      b"Set-Cookie: bell=a\x07b; Path=/\r\n"
                      b"Set-Cookie: esc=\x1b[31mred; Path=/\r\n"
                      b"Set-Cookie: del=x\x7fy; Path=/\r\n"
                      b"Set-Cookie: huge=1; Max-Age=9223372036854775808; Path=/\r\n"
                      b"Set-Cookie: ip=1; Domain=127.0.0.1; Path=/\r\n"
                      b"Set-Cookie: ok=1; Path=/\r\n")
            conn.sendall(b"HTTP/1.1 200 OK\r\n" + fields + b"Content-Length: 2\r\nConnection: close\r\n\r\nok")
        elif path == "/close":
            pass
        else:
            conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    except OSError:
        pass  # the client went away: the point of most routes
    finally:
        try:
            conn.close()
        except OSError:
            pass


if __name__ == "__main__":
    raw_listener.run(serve, backlog=64)
