"""What the raw-socket test servers share (hostile_server.py, fault_proxy.py): reading a request head, and the
listener: 127.0.0.1 on a free port, the port printed on the first line of stdout, one thread per connection, and an
exit when stdin closes."""
import socket
import sys
import threading


def read_head(conn, limit=1 << 20):
    """The bytes of a request head (without its blank line) and whatever followed it, or None when the
    connection closes first or the head passes `limit` bytes."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk or len(data) > limit:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def run(serve, backlog=64, nodelay=False):
    """Calls `serve(conn)` on its own thread for every connection until this process's stdin closes."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(backlog)
    print(listener.getsockname()[1], flush=True)

    def accept():
        while True:
            conn, _ = listener.accept()
            if nodelay:
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    sys.stdin.read()
