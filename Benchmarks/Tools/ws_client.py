#!/usr/bin/env python3
"""The comparison for Benchmarks/Sources/WebSocketThroughput: PyPI's websockets client (13.1, its asyncio
implementation) doing the same scenarios against the same server.

Usage: ws_client.py PORT roundtrip|stream on|off   (on: permessage-deflate offered). Prints the same line."""
import asyncio
import resource
import sys
import time

from websockets.asyncio.client import connect

ROUND_TRIPS = 10_000
COUNT, SIZE = 20_000, 65_536


async def main(port, scenario, compression):
    options = {"compression": "deflate" if compression else None, "max_size": 1 << 24, "ping_interval": None}
    started = time.perf_counter()
    messages = size = 0
    if scenario == "roundtrip":
        async with connect(f"ws://127.0.0.1:{port}/echo", **options) as socket:
            text = "x" * 16
            for _ in range(ROUND_TRIPS):
                await socket.send(text)
                echoed = await socket.recv()
                assert len(echoed) == 16
                messages += 1
                size += 16
    else:
        async with connect(f"ws://127.0.0.1:{port}/count?n={COUNT}&size={SIZE}", **options) as socket:
            async for message in socket:
                messages += 1
                size += len(message)
    seconds = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print("%s %.0f %.0f %d %.2f" % (scenario, messages / seconds, size / seconds, usage.ru_maxrss,
                                    usage.ru_utime + usage.ru_stime))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], sys.argv[3] == "on"))
