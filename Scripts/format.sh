#!/usr/bin/env bash
# Formats every Swift file with the toolchain's swift-format and the checked-in .swift-format.
# Usage: Scripts/format.sh          rewrite files in place
#        Scripts/format.sh --check  report files that are not formatted, exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files '*.swift')
if [ "${1:-}" = "--check" ]; then
    swift format lint --configuration .swift-format $files
else
    swift format format --in-place --configuration .swift-format $files
fi
