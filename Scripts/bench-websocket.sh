#!/usr/bin/env bash
# WebSocket clients side by side against PyPI's websockets server on 127.0.0.1
# (Tests/Support/GirdersTestServers/Server/websocket_server.py): Girders on CurlTransport and on URLSessionTransport
# (Benchmarks/Sources/WebSocketThroughput) and websockets' own Python client (Benchmarks/Tools/ws_client.py), each
# scenario in a process of its own, RUNS times (3 by default), alternating clients; the table shows the medians.
# Scenarios: roundtrip (10,000 echoes of a 16-byte text, one after another) and stream (20,000 binary messages of
# 64 KiB from the server), each with permessage-deflate off and on.
# Usage: Scripts/bench-websocket.sh [RUNS]    Installs websockets 13.1 from PyPI when missing.
# CLIENTS, SCENARIOS and DEFLATE (space-separated) pick a subset: CLIENTS="girders-curl python-websockets"
#   SCENARIOS=roundtrip DEFLATE=off Scripts/bench-websocket.sh 5
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
python3 -c "import websockets" 2>/dev/null || python3 -m pip install --quiet websockets==13.1
swift build -c release --package-path Benchmarks --product WebSocketThroughput 2>&1 | tail -1
binary="$(swift build -c release --package-path Benchmarks --show-bin-path)/WebSocketThroughput"
work=$(mktemp -d)
trap 'exec 3>&-; rm -rf "$work"' EXIT
mkfifo "$work/stdin"
python3 Tests/Support/GirdersTestServers/Server/websocket_server.py < "$work/stdin" > "$work/port" &
exec 3>"$work/stdin"
while [ ! -s "$work/port" ]; do sleep 0.1; done
port=$(head -1 "$work/port")
clients=${CLIENTS:-girders-curl girders-urlsession python-websockets}
for scenario in ${SCENARIOS:-roundtrip stream}; do
    for compression in ${DEFLATE:-off on}; do
        for run in $(seq "$runs"); do
            for client in $clients; do
                case $client in
                    girders-curl) line=$("$binary" "$port" "$scenario" curl "$compression") ;;
                    girders-urlsession) line=$("$binary" "$port" "$scenario" urlSession "$compression") ;;
                    python-websockets) line=$(python3 Benchmarks/Tools/ws_client.py "$port" "$scenario" "$compression") ;;
                esac
                echo "$scenario $compression $client $line" >> "$work/results"
            done
        done
    done
done
python3 - "$work/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    scenario, compression, client, _, rate, byte_rate, rss, cpu = line.split()
    rows.setdefault((scenario, compression, client), []).append((float(rate), float(byte_rate), int(rss), float(cpu)))
print("| scenario | deflate | client | messages/s | MB/s | peak RSS MiB | CPU s | runs |")
print("|---|---|---|---:|---:|---:|---:|---:|")
for (scenario, compression, client), values in rows.items():
    median = lambda index: statistics.median(value[index] for value in values)
    print(f"| {scenario} | {compression} | {client} | {median(0):,.0f} | {median(1) / 1e6:,.1f} | "
          f"{median(2) / 1024:,.1f} | {median(3):.2f} | {len(values)} |")
PY
