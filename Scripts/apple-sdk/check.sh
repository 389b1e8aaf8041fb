#!/usr/bin/env bash
# Type-checks Girders for macOS, iOS and tvOS against real Apple SDKs (Scripts/apple-sdk/typecheck.sh; its header
# says where the SDKs come from and how to set them up once): this package with its test targets, then Integrations/,
# Examples/GirdersDemo (tests included) and Examples/TremaPluginDemo with their dependencies
# (Scripts/apple-sdk/typecheck-package.py). Fails on any failing Girders target. Where the tool or the SDKs are not
# on the machine, prints one line saying the check was skipped and why, and succeeds.
#
# Needs a host `trema` (TREMA, default .build/debug/trema: `swift build` makes it) for the targets that use
# TremaPlugin, and the examples' and Integrations' dependencies resolved (`swift package resolve`, done here).
set -uo pipefail
cd "$(dirname "$0")/../.."
tool=${APPLE_SDK_TOOL:-Scripts/apple-sdk/typecheck.sh}
sdks=${APPLE_SDK_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/girders-apple-sdk/sdks}
if [ ! -f "$tool" ]; then
    echo "apple-sdk: skipped: the type-check tool is not on this machine ($tool)"
    exit 0
fi
for sdk in MacOSX15.5.sdk iPhoneOS26.2.sdk AppleTVOS18.0.sdk; do
    if [ ! -f "$sdks/$sdk/SDKSettings.json" ]; then
        echo "apple-sdk: skipped: the Apple SDKs are not set up on this machine (no $sdks/$sdk; see the header of Scripts/apple-sdk/typecheck.sh)"
        exit 0
    fi
done
tool=$(cd "$(dirname "$tool")" && pwd -P)/$(basename "$tool")  # the flat packages run it from elsewhere
export APPLE_SDK_TOOL=$tool TREMA=${TREMA:-$PWD/.build/debug/trema}
[ -x "$TREMA" ] || { echo "apple-sdk: no host trema at $TREMA (run swift build first)"; exit 1; }

# The tool's clang module cache is shared by every checkout on the machine and keyed by header paths: a clone made
# again at a path an older clone had (/tmp/ci2) found the older CGirdersCompression module there and failed on an
# enumerator the new header has. Girders' own C modules are built afresh each run; the SDK's stay cached.
work=${APPLE_SDK_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/girders-apple-sdk/work}
find "$work/module-cache" -name 'CGirders*.pcm' -delete 2>/dev/null

status=0
summary=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "== apple-sdk: Girders, every target (test targets on macOS) =="
PLATFORMS="macos ios tvos" TESTS=1 bash "$tool" | tee "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
summary+=("$(grep '^apple-sdk:' "$log" | tail -1)")
for package in Integrations Examples/GirdersDemo Examples/TremaPluginDemo; do
    swift package --package-path "$package" resolve > /dev/null 2>&1 \
        || { echo "apple-sdk: $package: swift package resolve failed"; status=1; continue; }
    tests=()
    [ "$package" = Examples/TremaPluginDemo ] || tests=(--tests)
    python3 Scripts/apple-sdk/typecheck-package.py "$package" --platforms "macos ios tvos" "${tests[@]}" | tee "$log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    summary+=("$(grep '^apple-sdk (' "$log" | tail -1)")
done
echo "== apple-sdk summary =="
printf '%s\n' "${summary[@]}"
exit $status
