#!/usr/bin/env bash
# Reads the built documentation as a reader would: serves .build/docs on 127.0.0.1, opens each module's landing
# page and one article (its "Migrating from GirdersSwift", or a feature module's main article) in headless Chromium
# (Debian's `chromium`), and checks that each rendered page shows its title and that the landing page's links to symbols and articles lead to pages.
# Usage: Scripts/docs.sh && Scripts/check-docs.sh        Needs chromium (apt-get install chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromium >/dev/null 2>&1 || { echo "check-docs: chromium is required (apt-get install chromium)" >&2; exit 1; }
[ -f .build/docs/index.html ] || { echo "check-docs: run Scripts/docs.sh first" >&2; exit 1; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory .build/docs >/dev/null 2>&1 &
server=$!
profile=$(mktemp -d /tmp/girders-check-docs.XXXXXX)
trap 'kill $server 2>/dev/null; rm -rf "$profile"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/index.html" >/dev/null && break; sleep 0.1; done

render() {
    timeout 60 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$profile" \
        --virtual-time-budget=10000 --dump-dom "$1" 2>/dev/null
}

failures=0
for module in GirdersLog GirdersConfig GirdersDI GirdersNetworking GirdersHTTPCache GirdersWebSocket GirdersStorage GirdersTrema; do
    lower=$(echo "$module" | tr '[:upper:]' '[:lower:]')
    page="http://127.0.0.1:$port/$module/documentation/$lower/"
    dom=$(render "$page")
    if ! grep -q "class=\"title\"><span[^>]*>$module</span></h1>" <<<"$dom"; then
        echo "check-docs: $page does not render its title $module" >&2
        failures=$((failures + 1))
        continue
    fi
    # Every link to a symbol page of this module must lead to a page that exists.
    links=$(grep -o "href=\"/$module/documentation/$lower/[^\"#]*\"" <<<"$dom" | sed 's/^href="//; s/"$//' | sort -u)
    count=0
    for link in $links; do
        count=$((count + 1))
        status=$(curl -sL -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$link")
        [ "$status" = 200 ] || { echo "check-docs: $link from $module's landing page answers $status" >&2; failures=$((failures + 1)); }
    done
    [ "$count" -gt 0 ] || { echo "check-docs: $module's landing page links to no symbol" >&2; failures=$((failures + 1)); }
    # One article: the migration guide of each module GirdersSwift had; the main article of the feature modules.
    case "$module" in
        GirdersHTTPCache) path=cachingandoffline title="Caching and working offline" ;;
        GirdersWebSocket) path=liveconnectionswithwebsockets title="Live connections with WebSockets" ;;
        *) path=migratingfromgirdersswift title="Migrating from GirdersSwift" ;;
    esac
    article=$(render "http://127.0.0.1:$port/$module/documentation/$lower/$path/")
    if ! grep -q "class=\"title\"><span[^>]*>$title</span></h1>" <<<"$article"; then
        echo "check-docs: $module's article $title does not render its title" >&2
        failures=$((failures + 1))
    fi
    echo "check-docs: $module: landing page and article rendered, $count links resolve"
done
[ "$failures" -eq 0 ] || { echo "check-docs: $failures problems" >&2; exit 1; }
echo "check-docs: all pages render"
