"""Gates the test servers share, so a test can wait for a condition on the server instead of for time.

  hold(name)      blocks the calling request until release(name) (or 60 s pass), counting its arrival
  release(name)   lets every request held under name go (and any that arrives later)
  barrier(name, n)  blocks until n requests wait under name at once, then lets them all go; False when that did
                  not happen within 20 s (so a client that sends them one after another fails the test, not hangs it)
  arrivals(name)  how many requests arrived at hold(name) or barrier(name)
  client_gone(connection, seconds)  blocks until the client closes or resets `connection` (True) or `seconds` pass
The hold's and the barrier's limits are three times as long when GIRDERS_SANITIZER is set (the tests' own
sanitizerSlowdown): a sanitized client on two cores can take more than a minute to come back and release a hold.
"""
import os
import select
import threading
import time

_SLOWDOWN = 3 if os.environ.get("GIRDERS_SANITIZER") else 1

_condition = threading.Condition()
_arrived = {}
_released = set()


def client_gone(connection, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        readable, _, _ = select.select([connection], [], [], 1.0)
        if readable:
            try:
                if not connection.recv(1):
                    return True
            except OSError:
                return True
    return False


def arrivals(name):
    with _condition:
        return _arrived.get(name, 0)


def hold(name, timeout=60):
    timeout *= _SLOWDOWN
    with _condition:
        _arrived[name] = _arrived.get(name, 0) + 1
        _condition.notify_all()
        return _condition.wait_for(lambda: name in _released, timeout)


def release(name):
    with _condition:
        _released.add(name)
        _condition.notify_all()


def barrier(name, count, timeout=20):
    timeout *= _SLOWDOWN
    with _condition:
        _arrived[name] = _arrived.get(name, 0) + 1
        _condition.notify_all()
        return _condition.wait_for(lambda: _arrived[name] >= count, timeout)


def route(path, query):
    """(status, body) for the gate routes (/hold, /release, /barrier, /arrivals), or None for any other path.
    `query` maps each name to its first value."""
    name = query.get("name", "")
    if path == "/hold":
        return (200, b"released") if hold(name) else (504, b"never released")
    if path == "/release":
        release(name)
        return 200, b"released"
    if path == "/barrier":
        return (200, b"together") if barrier(name, int(query.get("n", "1"))) else (503, b"not together")
    if path == "/arrivals":
        return 200, str(arrivals(name)).encode()
    return None
