#!/usr/bin/env bash
# HTTP clients side by side against nginx on 127.0.0.1: Girders on CurlTransport and on URLSessionTransport, bare
# URLSession, AsyncHTTPClient, and the limit, the strongest plain-C libcurl program for each scenario
# (Benchmarks/Sources/CurlLimit: the easy interface one request at a time, the multi interface for 16 in flight).
# Scenarios: small GETs one after another and 16 in flight, a 100 MiB download to memory and to a file, a 100 MiB
# upload from a file. Each client and scenario runs in a process of its own (so its peak RSS is the scenario's),
# RUNS times (3 by default); the table shows the median, and for small GETs the share of C's rate, p50 and p99
# latency and heap allocations per request (Benchmarks/Tools/malloc-count.c, preloaded for every client alike).
# CPU per request, for small GETs: each run sends 4,000 requests in one process and 24,000 in another, and the
# figure is the difference of their CPU time (user + system, every thread) over the 20,000 requests between them,
# so start-up, warm-up and the first connections drop out, and other work on the machine moves it least. The
# rate, latency and allocations are the 24,000-request process's.
# Two more Girders clients for small GETs: girders-curl-executor (the lanes prefer CurlTransport.taskExecutor) and
# girders-curl-equipped (an AuthenticationInterceptor, a RetryPolicy and a monitor), and the cache's read path:
# girders-curl-cache and girders-curl-cache-file (CachingTransport in memory and on disk; fresh hits of cached.json
# after the first request).
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
clients=${CLIENTS:-"curl-c girders-curl girders-urlsession urlsession async-http-client"}
# Only the programs the chosen clients need (AsyncHTTPClient's build is the long one).
case " $clients " in
    *" urlsession "* | *" async-http-client "*)
        swift build -c release --package-path Benchmarks --product HTTPThroughput 2>/dev/null | tail -1 ;;
esac
swift build -c release --package-path Benchmarks --product GirdersThroughput 2>/dev/null | tail -1
swift build -c release --package-path Benchmarks --product CurlLimit 2>/dev/null | tail -1
case "$clients" in
    *openapi*) swift build -c release --package-path Benchmarks --product OpenAPIThroughput 2>/dev/null | tail -1 ;;
esac
bin=Benchmarks/.build/release

root=$(mktemp -d /tmp/girders-bench-http.XXXXXX)
# shellcheck source=Scripts/bench-nginx.sh
. Scripts/bench-nginx.sh
trap 'stop_bench_nginx; rm -rf "$root"' EXIT
start_bench_nginx "$root"  # sets $base
# Allocations per request: every client runs its small GETs with the counting shim preloaded (one relaxed atomic
# add per allocation, the same for all of them).
cc -O2 -shared -fPIC -o "$root/malloc-count.so" Benchmarks/Tools/malloc-count.c
preload() { case "$1" in small-*) echo "$root/malloc-count.so" ;; *) echo "" ;; esac; }

scenarios=${SCENARIOS:-"small-sequential small-parallel download-memory download-file upload-file"}
# The two request counts of the small scenarios (short, long): CPU per request is their difference.
short=4000
long=24000
argument() {
    case "$1" in
        small-sequential | small-parallel) echo "$long" ;;
        download-file) echo "$root/out/download.bin" ;;
        upload-file) echo "$root/upload.bin" ;;
        *) echo "" ;;
    esac
}
results="$root/results"
# One process of `client` for `scenario` with argument `3`: its line.
measure() {
    local client=$1 scenario=$2 argument=$3 shim
    shim=$(preload "$scenario")
    if [ "$client" = curl-c ]; then
        LD_PRELOAD=$shim "$bin/CurlLimit" "$scenario" "$base" $argument || true
    elif [[ "$client" == girders-* && "$client" != *openapi ]]; then
        LD_PRELOAD=$shim "$bin/GirdersThroughput" "$client" "$scenario" "$base" $argument || true
    elif [[ "$client" == *openapi ]]; then
        LD_PRELOAD=$shim "$bin/OpenAPIThroughput" "$client" "$scenario" "$base" $argument || true
    else
        LD_PRELOAD=$shim "$bin/HTTPThroughput" "$client" "$scenario" "$base" $argument || true
    fi
}
for run in $(seq "$runs"); do
    for scenario in $scenarios; do
        for client in $clients; do
            case "$scenario" in
                small-*) echo "$client $run short $(measure "$client" "$scenario" "$short")" >>"$results" ;;
            esac
            line=$(measure "$client" "$scenario" "$(argument "$scenario")")
            rm -f "$root/out/download.bin"
            echo "$client $run long $line" >>"$results"
        done
    done
done

grep -E "FAILED|^[a-z-]+ [0-9]+ [a-z]+ *$" "$results" | sed "s/^/failed: /" | head -20 || true
python3 - "$results" "$runs" "$clients" "$scenarios" "$short" "$long" <<'PY'
import statistics, sys
rows = {}
short_cpu = {}  # (scenario, client, run) -> CPU seconds of that run's short process
short_count, long_count = int(sys.argv[5]), int(sys.argv[6])
lines = [line.split() for line in open(sys.argv[1])]
for parts in lines:
    if len(parts) >= 8 and parts[2] == "short" and "FAILED" not in parts:
        short_cpu[(parts[3], parts[0], parts[1])] = float(parts[7])
for parts in lines:
    if len(parts) < 3 or parts[2] != "long":
        continue
    if len(parts) < 8 or "FAILED" in parts:
        rows.setdefault((parts[3] if len(parts) > 3 else "?", parts[0]), []).append(None)
        continue
    client, run, scenario = parts[0], parts[1], parts[3]
    seconds, rate, rss, cpu = float(parts[4]), float(parts[5]), int(parts[6]), float(parts[7])
    extra = parts[8:11] if len(parts) >= 11 else None
    latency = (float(extra[0]), float(extra[1]), None if extra[2] == "-" else float(extra[2])) if extra else None
    # CPU per request: for small GETs, the difference from this run's short process over the requests between.
    per_request = cpu / (rate * seconds) * 1e6 if rate else 0
    if scenario.startswith("small-"):
        short = short_cpu.get((scenario, client, run))
        per_request = (cpu - short) / (long_count - short_count) * 1e6 if short is not None else float("nan")
    rows.setdefault((scenario, client), []).append((rate, rss, per_request, latency))
clients = sys.argv[3].split()
names = {"curl-c": "libcurl in C (easy one at a time, multi 16 in flight)", "girders-curl": "Girders, CurlTransport",
         "girders-curl-executor": "Girders, CurlTransport, callers on its taskExecutor",
         "girders-curl-equipped": "Girders, CurlTransport, with authentication, retries and a monitor",
         "girders-curl-cache": "Girders, CachingTransport in memory: fresh hits",
         "girders-curl-cache-file": "Girders, CachingTransport on disk: fresh hits",
         "girders-urlsession": "Girders, URLSessionTransport", "urlsession": "bare URLSession",
         "async-http-client": "AsyncHTTPClient",
         "girders-openapi": "generated client, GirdersOpenAPI on CurlTransport",
         "ahc-openapi": "generated client, swift-openapi-async-http-client"}
units = {"small-sequential": "requests/s", "small-parallel": "requests/s"}
def values(scenario, client):
    return [v for v in rows.get((scenario, client), []) if v]
def median_rate(scenario, client):
    found = values(scenario, client)
    return statistics.median(v[0] for v in found) if found else None
print(f"median of {sys.argv[2]} runs; rate (peak RSS), and for small GETs the CPU time per request (all threads, the"
      f" difference of {long_count:,} and {short_count:,} requests), its ratio to C's and the share of C's rate")
print("| scenario | " + " | ".join(names[c] for c in clients) + " |")
print("|---" * (len(clients) + 1) + "|")
for scenario in sys.argv[4].split():
    cells = []
    limit = median_rate(scenario, "curl-c")
    for client in clients:
        found = values(scenario, client)
        if not found:
            cells.append("failed")
            continue
        rate = statistics.median(v[0] for v in found)
        rss = statistics.median(v[1] for v in found) / 1024
        unit = units.get(scenario, "MiB/s")
        share = f", {rate / limit:.0%} of C" if limit and client != "curl-c" and scenario in units else ""
        per_request = statistics.median(v[2] for v in found)
        c_found = values(scenario, "curl-c")
        c_cpu = statistics.median(v[2] for v in c_found) if c_found else None
        times = f" = {per_request / c_cpu:.2f}x C" if c_cpu and client != "curl-c" else ""
        cpu = f", {per_request:.1f} µs CPU{times}" if scenario in units else ""
        cells.append(f"{rate:,.0f} {unit} ({rss:.0f} MiB{cpu}{share})")
    print(f"| {scenario} | " + " | ".join(cells) + " |")
small = [s for s in sys.argv[4].split() if s in units]
if small:
    print()
    print("latency from the call to the whole body, p50 / p99 (median over runs), and heap allocations per request")
    print("| scenario | " + " | ".join(names[c] for c in clients) + " |")
    print("|---" * (len(clients) + 1) + "|")
    for scenario in small:
        cells = []
        for client in clients:
            found = [v[3] for v in values(scenario, client) if v[3]]
            if not found:
                cells.append("-")
                continue
            p50 = statistics.median(v[0] for v in found)
            p99 = statistics.median(v[1] for v in found)
            counted = [v[2] for v in found if v[2] is not None]
            allocations = f", {statistics.median(counted):.1f} allocations" if counted else ""
            cells.append(f"{p50:,.0f} / {p99:,.0f} µs{allocations}")
        print(f"| {scenario} | " + " | ".join(cells) + " |")
PY
