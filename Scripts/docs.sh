#!/usr/bin/env bash
# Builds the DocC documentation of every module with the toolchain alone (no package dependency): symbol graphs
# extracted by `swift package dump-symbol-graph`, then `docc convert` of each module's catalog
# (Sources/<Module>/<Module>.docc) into a static site under .build/docs/<Module>, and .build/docs/index.html
# linking them. Any DocC warning (an unresolved symbol link, a missing parameter) fails the script.
# Usage: Scripts/docs.sh        Serve the result with: python3 -m http.server -d .build/docs 8000 --bind 127.0.0.1
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v docc >/dev/null 2>&1; then
    toolchain=$(dirname "$(command -v swift)")
    [ -x "$toolchain/docc" ] || { echo "docs: the toolchain has no docc" >&2; exit 1; }
    PATH="$toolchain:$PATH"
fi
modules="GirdersLog GirdersConfig GirdersDI GirdersNetworking GirdersHTTPCache GirdersWebSocket GirdersStorage GirdersTrema"
scratch=.build  # the tests' build, when it is there, so nothing is built twice
out=.build/docs
graphs="$scratch/module-graphs"
# Test modules that are not built yet are reported by the command; the modules' own graphs are checked below.
swift package --scratch-path "$scratch" dump-symbol-graph --minimum-access-level public >/dev/null 2>&1 || true
all=$(find "$scratch" -maxdepth 2 -type d -name symbolgraph | head -1)
for module in $modules; do
    [ -n "$all" ] && [ -s "$all/$module.symbols.json" ] \
        || { echo "docs: no symbol graph for $module (swift package dump-symbol-graph failed)" >&2; exit 1; }
done
rm -rf "$out" "$graphs"
mkdir -p "$out"
status=0
for module in $modules; do
    mkdir -p "$graphs/$module"
    cp "$all/$module.symbols.json" "$graphs/$module/"
    cp "$all/$module"@*.symbols.json "$graphs/$module/" 2>/dev/null || true
    echo "== docc convert $module =="
    if ! docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs/$module" \
        --output-path "$out/$module" --transform-for-static-hosting --hosting-base-path "$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.girders.$module" \
        --warnings-as-errors; then
        status=1
    fi
done
{
    echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Girders documentation</title></head>'
    echo '<body><h1>Girders documentation</h1><ul>'
    for module in $modules; do
        lower=$(echo "$module" | tr '[:upper:]' '[:lower:]')
        echo "<li><a href=\"$module/documentation/$lower/\">$module</a></li>"
    done
    echo '</ul></body></html>'
} >"$out/index.html"
[ "$status" -eq 0 ] || { echo "docs: DocC reported warnings or errors" >&2; exit 1; }
echo "docs: $out/index.html"
