#!/usr/bin/env python3
"""nginx (Debian's nginx-light) serving HTTP/2 over TLS on 127.0.0.1, for CurlTransport's HTTP/2 test.

Usage: nginx_h2.py FOLDER, where FOLDER holds server.pem and server.key (tls_server.py makes them). It starts nginx
as one process (no daemon, no workers) with a configuration written into FOLDER, prints the port once nginx
accepts connections, answers every request with the protocol it arrived in (nginx's $server_protocol), and /connection
with the serial number of the connection it arrived on ($connection), and stops nginx when its standard input closes.
"""
import os
import shutil
import socket
import subprocess
import sys
import time

FOLDER = sys.argv[1]

CONFIGURATION = """
daemon off;
master_process off;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {folder}/nginx-body;
    proxy_temp_path {folder}/nginx-proxy;
    fastcgi_temp_path {folder}/nginx-fastcgi;
    uwsgi_temp_path {folder}/nginx-uwsgi;
    scgi_temp_path {folder}/nginx-scgi;
    server {{
        listen 127.0.0.1:{port} ssl http2;
        ssl_certificate {folder}/server.pem;
        ssl_certificate_key {folder}/server.key;
        location /connection {{
            default_type text/plain;
            return 200 "$connection";
        }}
        location / {{
            default_type text/plain;
            return 200 "$server_protocol";
        }}
    }}
}}
"""


def free_port():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def main():
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        sys.exit("nginx_h2.py: nginx is not installed (apt-get install nginx-light)")
    port = free_port()
    path = os.path.join(FOLDER, "nginx.conf")
    with open(path, "w") as configuration:
        configuration.write(CONFIGURATION.format(folder=FOLDER, port=port))
    log = open(os.path.join(FOLDER, "nginx-stderr.log"), "w")
    process = subprocess.Popen([nginx, "-c", path, "-p", FOLDER, "-e", os.path.join(FOLDER, "nginx-error.log")],
                               stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        for _ in range(200):
            if process.poll() is not None:
                sys.exit("nginx_h2.py: nginx exited with status %d" % process.returncode)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            sys.exit("nginx_h2.py: nginx did not listen on port %d" % port)
        print(port, flush=True)
        sys.stdin.read()  # returns when the parent closes stdin or exits
    finally:
        process.kill()
        process.wait()


if __name__ == "__main__":
    main()
