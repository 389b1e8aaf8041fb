"""Runs Autobahn|Testsuite's wstest with its WebSocket server bound to 127.0.0.1 (it binds every interface otherwise).

Usage (Python 2.7, in the virtualenv Scripts/autobahn.sh makes): python wstest_local.py -m fuzzingserver -s SPEC -w 0
"""
import sys

from autobahn.twisted import websocket

_listen = websocket.listenWS


def listen_on_loopback(factory, contextFactory=None, backlog=50, interface="127.0.0.1"):
    return _listen(factory, contextFactory, backlog, interface or "127.0.0.1")


websocket.listenWS = listen_on_loopback

from autobahntestsuite import fuzzing  # noqa: E402  (after the patch, which it imports by name)

fuzzing.listenWS = listen_on_loopback

from autobahntestsuite.wstest import run  # noqa: E402

if __name__ == "__main__":
    sys.exit(run())
