#!/usr/bin/env bash
# Runs the comparison benchmarks in Benchmarks/ (release build, package-benchmark).
# Usage: Scripts/bench.sh [extra `swift package benchmark` arguments, e.g. --filter "Console.*"]
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
swift package --allow-writing-to-package-directory benchmark --no-progress "$@"
