#!/usr/bin/env python3
"""The comparison for Scripts/autobahn.sh: PyPI's websockets client (13.1, asyncio) as an echo client of Autobahn's
fuzzingserver, as TransferProbe's `autobahn` mode is for Girders, so both run the same cases against the same server
and the suite's per-case durations can be set side by side (AGENTS="python-deflate" Scripts/autobahn.sh 9.* 12.1.*).

Usage: autobahn_echo.py ws://127.0.0.1:PORT deflate|plain AGENT [FIRST-LAST]"""
import asyncio
import sys
from urllib.parse import quote

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException


async def echo(url, compression):
    try:
        async with connect(url, compression=compression, max_size=64 << 20, ping_interval=None) as socket:
            async for message in socket:
                await socket.send(message)
    except (WebSocketException, OSError):
        pass


async def main(base, mode, agent, span):
    compression = "deflate" if mode == "deflate" else None
    async with connect(f"{base}/getCaseCount", compression=None) as socket:
        count = int(await socket.recv())
    first, last = (int(part) for part in span.split("-")) if span else (1, count)
    for number in range(max(first, 1), min(last, count) + 1):
        await echo(f"{base}/runCase?case={number}&agent={quote(agent)}", compression)
    async with connect(f"{base}/updateReports?agent={quote(agent)}", compression=None) as socket:
        try:
            await socket.recv()
        except WebSocketException:
            pass


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None))
