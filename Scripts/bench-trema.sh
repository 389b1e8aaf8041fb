#!/usr/bin/env bash
# Times `trema convert` (all four formats) and `trema lint` of the 20,000-key file with plural texts
# (Scripts/trema/generate-bench-file.py), release build, with farm-bench. The yardstick is libxml2's parse of the
# same file (`xmllint --noout`, Debian's libxml2-utils), timed pair by pair with the conversion: the median ratio
# must stay under the budget (TREMA_BUDGET_RATIO, 2.5). Given a commit, that commit's trema runs beside it too.
# Usage: Scripts/bench-trema.sh [BASE_COMMIT] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-}
runs=${2:-7}
budget=${TREMA_BUDGET_RATIO:-2.5}
command -v xmllint >/dev/null || { echo "bench-trema: needs xmllint (apt-get install libxml2-utils)" >&2; exit 1; }
work=$(mktemp -d /tmp/girders-bench-trema.XXXXXX)
trap 'if [ -n "$base" ]; then git worktree remove --force "$work/base" 2>/dev/null || true; git worktree prune; fi; rm -rf "$work"' EXIT
python3 Scripts/trema/generate-bench-file.py "$work/texts.trm"
swift build -c release --product trema >/dev/null
cp .build/release/trema "$work/trema"
formats=(--format strings --format xcstrings --format android --format swift)
vs=()
vs_lint=()
if [ -n "$base" ]; then
    git worktree add --detach "$work/base" "$base" >/dev/null 2>&1
    (cd "$work/base" && swift build -c release --product trema >/dev/null)
    vs=(--vs "$work/base/.build/release/trema convert $work/texts.trm --out $work/out-base ${formats[*]}")
    vs_lint=(--vs "$work/base/.build/release/trema lint $work/texts.trm")
fi
echo "== trema convert, 20,000 keys x 4 languages, all four formats (A: this tree${base:+, B: $base}) =="
farm-bench -n "$runs" "${vs[@]}" -- "$work/trema" convert "$work/texts.trm" --out "$work/out" "${formats[@]}" \
    | tee "$work/convert.txt"
echo "== trema lint (parsing and every check) =="
farm-bench -n "$runs" "${vs_lint[@]}" -- "$work/trema" lint "$work/texts.trm"
echo "== trema convert against xmllint --noout of the same file (B), pair by pair =="
farm-bench -n "$runs" --vs "xmllint --noout $work/texts.trm" -- \
    "$work/trema" convert "$work/texts.trm" --out "$work/out" "${formats[@]}" | tee "$work/yardstick.txt"
ratio=$(awk '/^A\/B wall/ {print $4}' "$work/yardstick.txt")
if awk -v r="$ratio" -v b="$budget" 'BEGIN { exit !(r > b) }'; then
    echo "bench-trema: the conversion takes ${ratio}x libxml2's parse (median of pairs), over the budget of ${budget}x" >&2
    exit 1
fi
echo "bench-trema: the conversion takes ${ratio}x libxml2's parse (median of pairs), within the budget of ${budget}x"
