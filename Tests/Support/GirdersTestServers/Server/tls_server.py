#!/usr/bin/env python3
"""An HTTPS server on 127.0.0.1 that requires a client certificate, for CurlTransport's TLS tests.

Usage: tls_server.py FOLDER. It makes a test CA, a server certificate for 127.0.0.1 and a client identity
(client.p12, password "secret") and the public-key pins of both keys (server.pin, client.pin) in FOLDER with the
openssl command, prints its port, answers GET with the client
certificate's common name and the ALPN protocols the client offered as JSON, and exits when its standard input
closes. It also serves the gates of gates.py (/hold, /release, /barrier, /arrivals), over HTTP/1.1 only.
"""
import base64
import hashlib
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import gates

FOLDER = sys.argv[1]


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=FOLDER)


def make_certificates():
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=Girders Test CA")
    with open(os.path.join(FOLDER, "server.ext"), "w") as extensions:
        extensions.write("subjectAltName=IP:127.0.0.1\n")
    for name, subject, extra in (("server", "/CN=127.0.0.1", ["-extfile", "server.ext"]),
                                 ("client", "/CN=girders-client", [])):
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key", "-out", name + ".csr",
                "-subj", subject)
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", name + ".pem", "-days", "2", *extra)
    openssl("pkcs12", "-export", "-in", "client.pem", "-inkey", "client.key", "-out", "client.p12",
            "-passout", "pass:secret")
    openssl("x509", "-in", "ca.pem", "-outform", "der", "-out", "ca.der")
    # Public-key pins (base64 of the SHA-256 of the DER SubjectPublicKeyInfo) of the server's and the client's keys.
    for name in ("server", "client"):
        key = subprocess.run(["openssl", "x509", "-in", name + ".pem", "-pubkey", "-noout"], check=True,
                             capture_output=True, cwd=FOLDER).stdout
        der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key, check=True,
                             capture_output=True, cwd=FOLDER).stdout
        with open(os.path.join(FOLDER, name + ".pin"), "w") as pin:
            pin.write(base64.b64encode(hashlib.sha256(der).digest()).decode())


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        parts = urlsplit(self.path)
        gated = gates.route(parts.path, {name: values[0] for name, values in parse_qs(parts.query).items()})
        if gated is not None:
            self.send_response(gated[0])
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(gated[1])))
            self.end_headers()
            self.wfile.write(gated[1])
            return
        certificate = self.connection.getpeercert() or {}
        names = [value for field in certificate.get("subject", ()) for key, value in field if key == "commonName"]
        offered = self.server.offers.pop(self.client_address, [])
        body = json.dumps({"client": names[0] if names else None, "alpn": offered}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def offered_alpn(hello):
    """The protocol names in the ALPN extension of a TLS ClientHello record, or [] when there is none."""
    try:
        at = 5 + 4 + 2 + 32  # record header, handshake header, version, random
        at += 1 + hello[at]  # session id
        at += 2 + int.from_bytes(hello[at:at + 2], "big")  # cipher suites
        at += 1 + hello[at]  # compression methods
        end = at + 2 + int.from_bytes(hello[at:at + 2], "big")
        at += 2
        while at + 4 <= end:
            kind, length = int.from_bytes(hello[at:at + 2], "big"), int.from_bytes(hello[at + 2:at + 4], "big")
            if kind == 16:  # application_layer_protocol_negotiation
                names, cursor, stop = [], at + 6, at + 4 + length
                while cursor < stop:
                    size = hello[cursor]
                    names.append(hello[cursor + 1:cursor + 1 + size].decode())
                    cursor += 1 + size
                return names
            at += 4 + length
    except (IndexError, UnicodeDecodeError):
        pass
    return []


class Server(ThreadingHTTPServer):
    daemon_threads = True
    context = None
    offers = {}

    def get_request(self):
        """Accepts a connection, notes the ALPN protocols its ClientHello offers, then completes the handshake."""
        connection, address = self.socket.accept()
        connection.settimeout(5)
        hello = b""
        while len(hello) < 5 or len(hello) < 5 + int.from_bytes(hello[3:5], "big"):
            chunk = connection.recv(16384, socket.MSG_PEEK)
            if not chunk or len(chunk) == len(hello):
                break
            hello = chunk
        self.offers[address] = offered_alpn(hello)
        wrapped = self.context.wrap_socket(connection, server_side=True)
        wrapped.settimeout(None)
        return wrapped, address

    def handle_error(self, request, client_address):
        pass  # refused handshakes are what some tests are about


def main():
    make_certificates()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(FOLDER, "server.pem"), os.path.join(FOLDER, "server.key"))
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_verify_locations(os.path.join(FOLDER, "ca.pem"))
    context.set_alpn_protocols(["http/1.1"])
    server = Server(("127.0.0.1", 0), Handler)
    server.context = context
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()


if __name__ == "__main__":
    main()
