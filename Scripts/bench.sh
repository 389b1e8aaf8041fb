#!/usr/bin/env bash
# Runs the comparison benchmarks in Benchmarks/ (release build, package-benchmark).
# Usage: Scripts/bench.sh [extra `swift package benchmark` arguments, e.g. --filter "Console.*"]
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
# SwiftPM caches the source lists of path dependencies in its build plan; drop the plan (not the build) so files
# added to the main package since the last run are compiled.
rm -f .build/*.yaml .build/build.db
swift package --allow-writing-to-package-directory benchmark --no-progress "$@"
