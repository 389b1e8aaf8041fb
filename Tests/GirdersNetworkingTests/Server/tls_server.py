#!/usr/bin/env python3
"""An HTTPS server on 127.0.0.1 that requires a client certificate, for CurlTransport's TLS tests.

Usage: tls_server.py FOLDER. It makes a test CA, a server certificate for 127.0.0.1 and a client identity
(client.p12, password "secret") in FOLDER with the openssl command, prints its port, answers GET with the client
certificate's common name as JSON, and exits when its standard input closes.
"""
import json
import os
import ssl
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        certificate = self.connection.getpeercert() or {}
        names = [value for field in certificate.get("subject", ()) for key, value in field if key == "commonName"]
        body = json.dumps({"client": names[0] if names else None}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # refused handshakes are what some tests are about


def main():
    make_certificates()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(FOLDER, "server.pem"), os.path.join(FOLDER, "server.key"))
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_verify_locations(os.path.join(FOLDER, "ca.pem"))
    server = Server(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()


if __name__ == "__main__":
    main()
