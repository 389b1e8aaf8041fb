#!/usr/bin/env bash
# Autobahn|Testsuite (the WebSocket conformance suite, 25.10.1) against Girders' client: the suite's fuzzingserver on
# 127.0.0.1 and Girders as an echo client (TransferProbe autobahn, a release build) in four agents: CurlTransport and
# URLSessionTransport, each without and with permessage-deflate (the compression groups 12 and 13 run for the
# deflate agents only). Prints a table per agent and fails unless every case is OK or INFORMATIONAL.
#
# Usage: Scripts/autobahn.sh [CASES...]     CASES are the suite's patterns ("*" by default, "1.*", "12.1.1", ...).
#   AGENTS="curl-deflate" picks agents (curl-plain curl-deflate urlsession-plain urlsession-deflate; python-plain and
#   python-deflate run PyPI's websockets 13.1 the same way, Benchmarks/Tools/autobahn_echo.py, for comparison).
#
# The suite runs on Python 2.7 only: pyenv's 2.7.18 (or PYTHON27), in a virtualenv made with virtualenv < 20.22 under
# ${GIRDERS_AUTOBAHN_HOME:-~/.cache/girders-autobahn}, with the dependency set the suite pins
# (Scripts/autobahn/requirements.txt). Reports go to .build/autobahn/reports (index.html per case).
set -euo pipefail
cd "$(dirname "$0")/.."
home=${GIRDERS_AUTOBAHN_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/girders-autobahn}
python27=${PYTHON27:-}
if [ -z "$python27" ]; then
    for candidate in "$HOME/.pyenv/versions/2.7.18/bin/python" "$(command -v python2.7 || true)"; do
        [ -n "$candidate" ] && [ -x "$candidate" ] && { python27=$candidate; break; }
    done
fi
[ -n "$python27" ] || { echo "autobahn: no Python 2.7 (set PYTHON27; pyenv install 2.7.18)" >&2; exit 1; }
venv="$home/venv"
if [ ! -x "$venv/bin/wstest" ] || ! cmp -s Scripts/autobahn/requirements.txt "$home/requirements.txt"; then
    echo "autobahn: installing the suite into $venv"
    python3 -c "import virtualenv, sys; sys.exit(tuple(map(int, virtualenv.__version__.split('.')[:2])) >= (20, 22))" \
        2>/dev/null || python3 -m pip install --quiet 'virtualenv<20.22'
    rm -rf "$venv"
    python3 -m virtualenv --quiet -p "$python27" "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps autobahntestsuite==25.10.1
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r Scripts/autobahn/requirements.txt
    cp Scripts/autobahn/requirements.txt "$home/requirements.txt"
fi

swift build -c release --product TransferProbe 2>&1 | tail -1
probe="$(swift build -c release --show-bin-path)/TransferProbe"
work=.build/autobahn
rm -rf "$work"
mkdir -p "$work"
port=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
agents=${AGENTS:-curl-plain curl-deflate urlsession-plain urlsession-deflate}
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("*")
# The agent's name in the reports: girders-<transport>-<mode>, or websockets-<mode> for the Python comparison.
label() { case $1 in python-*) echo "websockets-${1#*-}" ;; *) echo "girders-$1" ;; esac; }
labels=$(for agent in $agents; do label "$agent"; done)
python3 - "$work/spec.json" "$port" "$labels" "${cases[@]}" <<'PY'
import json, sys
path, port, agents, cases = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
plain = {agent: ["12.*", "13.*"] for agent in agents if agent.endswith("-plain")}
json.dump({"url": f"ws://127.0.0.1:{port}", "outdir": "./reports", "cases": cases, "exclude-cases": [],
           "exclude-agent-cases": plain}, open(path, "w"))
PY
(cd "$work" && exec "$venv/bin/python" "$OLDPWD/Scripts/autobahn/wstest_local.py" -m fuzzingserver -s spec.json -w 0 \
    > server.log 2>&1) &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
    sleep 0.2
done
for agent in $agents; do
    transport=${agent%-*}
    [ "$transport" = "urlsession" ] && transport=urlSession
    start=$(date +%s)
    if [ "$transport" = "python" ]; then
        python3 Benchmarks/Tools/autobahn_echo.py "ws://127.0.0.1:$port" "${agent#*-}" "$(label "$agent")"
    else
        "$probe" autobahn "ws://127.0.0.1:$port" "$transport" "${agent#*-}" "$(label "$agent")"
    fi
    echo "autobahn: $(label "$agent") ran in $(($(date +%s) - start)) s"
done
python3 Scripts/autobahn/summary.py "$work/reports"
