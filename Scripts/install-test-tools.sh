#!/usr/bin/env bash
# Installs every tool a test needs that the Swift toolchain does not bring, so that no test skips:
#   Debian: openssl (the TLS tests' certificates), nginx-light (the HTTP/2 test), unicode-cldr-core (CLDR's plural
#   samples); PyPI (into the python3 on PATH): Scripts/test-requirements.txt (websockets, babel, cryptography).
# Without a tool, the tests that need it skip with one line naming it ("missing tool: ..."), and `swift test` passes.
# Debian packages need root (or sudo) and apt-get; elsewhere install the same tools with your package manager.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=()
command -v openssl >/dev/null 2>&1 || packages+=(openssl)
{ command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } || packages+=(nginx-light)
[ -r /usr/share/unicode/cldr/common/supplemental/plurals.xml ] || packages+=(unicode-cldr-core)
if [ ${#packages[@]} -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install-test-tools: install ${packages[*]} with your package manager" >&2
        exit 1
    fi
    sudo=""
    [ "$(id -u)" = "0" ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${packages[@]}"
fi

if ! python3 -m pip --version >/dev/null 2>&1; then
    python3 -m ensurepip --upgrade >/dev/null 2>&1 || { echo "install-test-tools: python3 has no pip" >&2; exit 1; }
fi
python3 -m pip install --quiet -r Scripts/test-requirements.txt 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages -r Scripts/test-requirements.txt
echo "install-test-tools: every test tool is installed"
