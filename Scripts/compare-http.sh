#!/usr/bin/env bash
# Is this change slower? Builds GirdersThroughput (Benchmarks/) against an earlier commit of Girders and against
# the working tree, then runs the two alternately against one nginx on 127.0.0.1 (A B, then B A, ...), so a drift
# of the machine's speed during the session falls on both alike, and prints each scenario's median per build and
# the median of the pairwise ratios. The same benchmark code (this tree's Benchmarks/) is built for both, so only
# Girders differs. CPU per request is Scripts/bench-http.sh's: each build sends 4,000 requests in one process and
# 24,000 in another, and the difference of their CPU time is divided by the 20,000 between (start-up and warm-up
# drop out); the rate is the 24,000-request process's.
#
# Usage: Scripts/compare-http.sh [BASE] [RUNS]   BASE: a commit (default HEAD, i.e. the working tree against the
#                                                last commit); RUNS: pairs per scenario (default 7)
# SCENARIOS (space-separated): default "small-sequential small-parallel"; CLIENT: girders-curl (default) or
# girders-urlsession. Needs nginx (Debian's nginx-light) and curl. Run it before you push a change to the transports,
# the client or the request path (CONTRIBUTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
base_ref=${1:-HEAD}
runs=${2:-7}
scenarios=${SCENARIOS:-"small-sequential small-parallel"}
client=${CLIENT:-girders-curl}
command -v nginx >/dev/null 2>&1 || { echo "compare-http: nginx is required: apt-get install nginx-light" >&2; exit 1; }
sha=$(git rev-parse --verify "$base_ref^{commit}")
work=${TMPDIR:-/tmp}/girders-compare-http
old=$work/$sha
# The earlier Girders, with this tree's Benchmarks/ beside it (kept between calls: its build is reused).
if [ ! -f "$old/Package.swift" ]; then
    rm -rf "$old" && mkdir -p "$old"
    git archive "$sha" | tar -x -C "$old"
fi
rm -rf "$old/Benchmarks/Sources" "$old/Benchmarks/Package.swift" "$old/Benchmarks/nginx"
cp -R Benchmarks/Sources Benchmarks/Package.swift Benchmarks/nginx "$old/Benchmarks/"
echo "compare-http: building GirdersThroughput for $(git log -1 --format='%h %s' "$sha" | cut -c1-70) and for the working tree"
swift build -c release --package-path "$old/Benchmarks" --product GirdersThroughput 2>&1 | tail -1
swift build -c release --package-path Benchmarks --product GirdersThroughput 2>&1 | tail -1
before=$old/Benchmarks/.build/release/GirdersThroughput
after=Benchmarks/.build/release/GirdersThroughput

root=$(mktemp -d "${TMPDIR:-/tmp}/girders-compare-nginx.XXXXXX")
# shellcheck source=Scripts/bench-nginx.sh
. Scripts/bench-nginx.sh
trap 'stop_bench_nginx; rm -rf "$root"' EXIT
start_bench_nginx "$root"
short=4000
long=24000
count() { case "$1" in small-*) echo "$long" ;; *) echo "" ;; esac; }
results=$root/results
for run in $(seq "$runs"); do
    for scenario in $scenarios; do
        # Alternate which build goes first.
        order="before after"
        [ $((run % 2)) -eq 0 ] && order="after before"
        for which in $order; do
            binary=$before
            [ "$which" = after ] && binary=$after
            case "$scenario" in
                small-*) echo "$which-short $run $("$binary" "$client" "$scenario" "$base" "$short" || true)" >>"$results" ;;
            esac
            echo "$which $run $("$binary" "$client" "$scenario" "$base" $(count "$scenario") || true)" >>"$results"
        done
    done
done
grep FAILED "$results" | sed "s/^/failed: /" || true
python3 - "$results" "$runs" "$scenarios" "$(git log -1 --format=%h "$sha")" "$short" "$long" <<'PY'
import statistics, sys
rows = {}
shorts = {}
between = int(sys.argv[6]) - int(sys.argv[5])
lines = [line.split() for line in open(sys.argv[1])]
for parts in lines:
    if len(parts) >= 7 and parts[0].endswith("-short") and "FAILED" not in parts:
        shorts[(parts[2], parts[0][: -len("-short")], parts[1])] = float(parts[6])
for parts in lines:
    if len(parts) < 7 or "FAILED" in parts or parts[0].endswith("-short"):
        continue
    which, run, scenario, seconds, rate, rss, cpu = parts[0], parts[1], parts[2], float(parts[3]), float(parts[4]), int(parts[5]), float(parts[6])
    count = rate * seconds
    per_request = cpu / count * 1e6 if count else 0
    short = shorts.get((scenario, which, run))
    if scenario.startswith("small-"):
        if short is None:
            continue
        per_request = (cpu - short) / between * 1e6
    rows.setdefault((scenario, which), {})[run] = (rate, per_request, rss / 1024)
print(f"{sys.argv[2]} runs per build, alternating; medians (min-max); the ratio is after/before, the median of the pairs")
print(f"| scenario | before ({sys.argv[4]}) | after (working tree) | after/before, rate | after/before, CPU per request |")
print("|---|---|---|---|---|")
for scenario in sys.argv[3].split():
    before, after = rows.get((scenario, "before"), {}), rows.get((scenario, "after"), {})
    def cell(values):
        if not values:
            return "failed"
        rates = [v[0] for v in values.values()]
        cpus = [v[1] for v in values.values()]
        return (f"{statistics.median(rates):,.0f}/s ({min(rates):,.0f}-{max(rates):,.0f}), "
                f"{statistics.median(cpus):.1f} µs CPU")
    pairs = [run for run in before if run in after]
    rate_ratio = statistics.median(after[r][0] / before[r][0] for r in pairs) if pairs else float("nan")
    cpu_ratio = statistics.median(after[r][1] / before[r][1] for r in pairs) if pairs else float("nan")
    print(f"| {scenario} | {cell(before)} | {cell(after)} | {rate_ratio:.3f} | {cpu_ratio:.3f} |")
PY
