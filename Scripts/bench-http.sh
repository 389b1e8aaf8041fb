#!/usr/bin/env bash
# HTTP clients side by side against nginx on 127.0.0.1: Girders on CurlTransport and on URLSessionTransport, bare
# URLSession, AsyncHTTPClient, and the limit, the strongest plain-C libcurl program for each scenario
# (Benchmarks/Sources/CurlLimit: the easy interface one request at a time, the multi interface for 16 in flight).
# Scenarios: small GETs one after another and 16 in flight, a 100 MiB download to memory and to a file, a 100 MiB
# upload from a file. Each client and scenario runs in a process of its own (so its peak RSS is the scenario's),
# RUNS times (3 by default); the table shows the median.
# Usage: Scripts/bench-http.sh [RUNS]     Installs nginx (Debian's nginx-light) and, for the C limit's headers,
#                                        libcurl4-openssl-dev when missing (Girders itself needs neither).
# CLIENTS and SCENARIOS (space-separated) pick a subset. The OpenAPI clients (a generated client through
# GirdersOpenAPI's transport, girders-openapi, and through swift-openapi-async-http-client, ahc-openapi) run the
# small scenarios only: CLIENTS="girders-openapi ahc-openapi girders-curl async-http-client" \
#   SCENARIOS="small-sequential small-parallel" Scripts/bench-http.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
if ! command -v nginx >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && apt-get install -y -qq nginx-light
    else
        echo "bench-http: nginx is required: apt-get install nginx-light" >&2
        exit 1
    fi
fi
if [ ! -e /usr/include/curl/curl.h ] && ! ls /usr/include/*/curl/curl.h >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && apt-get install -y -qq libcurl4-openssl-dev pkg-config
    else
        echo "bench-http: the C limit needs libcurl's headers: apt-get install libcurl4-openssl-dev" >&2
        exit 1
    fi
fi
swift build -c release --package-path Benchmarks --product HTTPThroughput 2>/dev/null | tail -1
swift build -c release --package-path Benchmarks --product GirdersThroughput 2>/dev/null | tail -1
swift build -c release --package-path Benchmarks --product CurlLimit 2>/dev/null | tail -1
case "${CLIENTS:-}" in
    *openapi*) swift build -c release --package-path Benchmarks --product OpenAPIThroughput 2>/dev/null | tail -1 ;;
esac
bin=Benchmarks/.build/release

root=$(mktemp -d /tmp/girders-bench-http.XXXXXX)
# shellcheck source=Scripts/bench-nginx.sh
. Scripts/bench-nginx.sh
trap 'stop_bench_nginx; rm -rf "$root"' EXIT
start_bench_nginx "$root"  # sets $base

clients=${CLIENTS:-"curl-c girders-curl girders-urlsession urlsession async-http-client"}
scenarios=${SCENARIOS:-"small-sequential small-parallel download-memory download-file upload-file"}
argument() {
    case "$1" in
        small-sequential) echo 5000 ;;
        small-parallel) echo 20000 ;;
        download-file) echo "$root/out/download.bin" ;;
        upload-file) echo "$root/upload.bin" ;;
        *) echo "" ;;
    esac
}
results="$root/results"
for run in $(seq "$runs"); do
    for scenario in $scenarios; do
        for client in $clients; do
            if [ "$client" = curl-c ]; then
                line=$("$bin/CurlLimit" "$scenario" "$base" $(argument "$scenario") || true)
            elif [[ "$client" == girders-curl || "$client" == girders-urlsession ]]; then
                line=$("$bin/GirdersThroughput" "$client" "$scenario" "$base" $(argument "$scenario") || true)
            elif [[ "$client" == *openapi ]]; then
                line=$("$bin/OpenAPIThroughput" "$client" "$scenario" "$base" $(argument "$scenario") || true)
            else
                line=$("$bin/HTTPThroughput" "$client" "$scenario" "$base" $(argument "$scenario") || true)
            fi
            rm -f "$root/out/download.bin"
            echo "$client $line" >>"$results"
        done
    done
done

grep -E "FAILED|^[a-z-]+ *$" "$results" | sed "s/^/failed: /" | head -20 || true
python3 - "$results" "$runs" "$clients" "$scenarios" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 6 or "FAILED" in parts:
        rows.setdefault((parts[1] if len(parts) > 1 else "?", parts[0]), []).append(None)
        continue
    client, scenario, seconds, rate, rss, cpu = parts[0], parts[1], float(parts[2]), float(parts[3]), int(parts[4]), float(parts[5])
    rows.setdefault((scenario, client), []).append((rate, rss, cpu / (rate * seconds) * 1e6 if rate else 0))
clients = sys.argv[3].split()
names = {"curl-c": "libcurl in C (easy one at a time, multi 16 in flight)", "girders-curl": "Girders, CurlTransport",
         "girders-urlsession": "Girders, URLSessionTransport", "urlsession": "bare URLSession",
         "async-http-client": "AsyncHTTPClient",
         "girders-openapi": "generated client, GirdersOpenAPI on CurlTransport",
         "ahc-openapi": "generated client, swift-openapi-async-http-client"}
units = {"small-sequential": "requests/s", "small-parallel": "requests/s"}
print(f"median of {sys.argv[2]} runs; rate (peak RSS), and for small GETs the CPU time per request (all threads)")
print("| scenario | " + " | ".join(names[c] for c in clients) + " |")
print("|---" * (len(clients) + 1) + "|")
for scenario in sys.argv[4].split():
    cells = []
    for client in clients:
        values = [v for v in rows.get((scenario, client), []) if v]
        if not values:
            cells.append("failed")
            continue
        rate = statistics.median(v[0] for v in values)
        rss = statistics.median(v[1] for v in values) / 1024
        unit = units.get(scenario, "MiB/s")
        cpu = f", {statistics.median(v[2] for v in values):.1f} µs CPU" if scenario in units else ""
        cells.append(f"{rate:,.0f} {unit} ({rss:.0f} MiB{cpu})")
    print(f"| {scenario} | " + " | ".join(cells) + " |")
PY
