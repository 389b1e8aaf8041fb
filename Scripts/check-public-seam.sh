#!/usr/bin/env bash
# Builds the feature modules that stand on GirdersNetworking's public seam (GirdersHTTPCache, GirdersWebSocket) the
# way a user's package would: each module's sources are copied into a scratch package that depends on this one by
# path, where GirdersNetworking's `internal` declarations are out of reach, and built there.
#
# The copies may use GirdersSupport's `package` declarations (the internals several modules share): the scratch
# package is compiled under Girders' package name for that, which would also open GirdersNetworking's `package`
# declarations, so the script first checks that GirdersNetworking declares none. It also checks that no module
# source says `@testable import`, and, before the real build, that a copy planted with a use of one internal
# declaration fails to build (so a green run means something).
#
# First, an app of one file that sends a GET with `import GirdersNetworking` alone is built there: neither feature
# module may be compiled for it, and neither's types may be in reach.
#
# Usage: Scripts/check-public-seam.sh (from anywhere; .ci/run runs it). Needs only the toolchain.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
modules=(GirdersHTTPCache GirdersWebSocket)

# A `package` declaration in GirdersNetworking would be reachable from the scratch package (same package name).
declarations='^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*package\s+((static|final|mutating|nonisolated|override|class)\s+)*'
declarations+='(func|var|let|init|struct|class|enum|protocol|typealias|subscript|extension|actor)\b'
if grep -rnE "$declarations" "$root/Sources/GirdersNetworking" --include='*.swift'; then
    echo "check-public-seam: GirdersNetworking declares something \`package\` (above); make it public or internal" >&2
    exit 1
fi
if grep -rn '@testable' "$root/Sources" --include='*.swift'; then
    echo "check-public-seam: a module source imports with @testable (above)" >&2
    exit 1
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/girders-seam.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# The dependency's identity is its folder's name, and Girders' package name in the build is that identity.
ln -s "$root" "$scratch/girders"
mkdir -p "$scratch/check/Sources"

targets="        .target(name: \"SeamApp\", dependencies: [networking], swiftSettings: settings),"$'\n'
mkdir -p "$scratch/check/Sources/SeamApp"
cat >"$scratch/check/Sources/SeamApp/App.swift" <<'EOF'
public import Foundation
import GirdersNetworking

/// What an app that only sends requests writes.
public func fetchStatus(_ url: URL) async throws -> Int {
    try await HTTPClient().perform(Request(URL: url, method: .get)).statusCode
}
EOF
for module in "${modules[@]}"; do
    copy="Seam${module#Girders}"
    cp -R "$root/Sources/$module" "$scratch/check/Sources/$copy"
    rm -rf "$scratch/check/Sources/$copy"/*.docc "$scratch/check/Sources/$copy/README.md"
    targets+="        .target(name: \"$copy\", dependencies: [networking], swiftSettings: settings),"$'\n'
done

# Tools version 5.8: SwiftPM passes no package name of its own before 5.9, so the one below is the only one.
cat >"$scratch/check/Package.swift" <<EOF
// swift-tools-version: 5.8
import PackageDescription

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault"),
    .unsafeFlags(["-swift-version", "6", "-package-name", "girders", "-warnings-as-errors"]),
]
let networking = Target.Dependency.product(name: "GirdersNetworking", package: "girders")
let package = Package(
    name: "SeamCheck",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [.package(path: "../girders")],
    targets: [
$targets    ])
EOF

cd "$scratch/check"
echo "== check-public-seam: an app with GirdersNetworking alone compiles no cache and no WebSocket code =="
swift build --target SeamApp >"$scratch/app.log" 2>&1 || { cat "$scratch/app.log" >&2; exit 1; }
# (SwiftPM makes every target's folder in .build; a compiled one holds objects and a module.)
compiled=$(find .build \( -path '*/GirdersHTTPCache.build/*.o' -o -path '*/GirdersWebSocket.build/*.o' \
    -o -name 'GirdersHTTPCache.swiftmodule' -o -name 'GirdersWebSocket.swiftmodule' \) | head -3)
if [ -z "$(find .build -path '*/GirdersNetworking.build/*.o' | head -1)" ]; then
    echo "check-public-seam: the app's build compiled no GirdersNetworking objects; the check below would prove nothing" >&2
    exit 1
fi
if [ -n "$compiled" ]; then
    echo "check-public-seam: building an app on GirdersNetworking alone compiled a feature module: $compiled" >&2
    exit 1
fi
for name in CachingTransport WebSocket FileCacheStore ReconnectingWebSocket; do
    echo "public let planted: Any.Type = $name.self" >Sources/SeamApp/Planted.swift
    if swift build --target SeamApp >"$scratch/planted.log" 2>&1; then
        echo "check-public-seam: $name is in reach of an app that imports GirdersNetworking alone" >&2
        exit 1
    fi
    grep -q "cannot find '$name' in scope" "$scratch/planted.log" || { tail -20 "$scratch/planted.log" >&2; exit 1; }
done
rm Sources/SeamApp/Planted.swift

# The control: one use of an internal declaration of GirdersNetworking (the sink's hand-over of an upgrade) must not
# build.
planted="Sources/Seam${modules[1]#Girders}/PlantedInternalUse.swift"
cat >"$planted" <<'EOF'
import GirdersNetworking

func plantedInternalUse(_ sink: ResponseSink) -> Bool { sink.takeUpgrade() != nil }
EOF
echo "== check-public-seam: a copy that uses an internal declaration must not build =="
if swift build --target "Seam${modules[1]#Girders}" >"$scratch/planted.log" 2>&1; then
    echo "check-public-seam: the planted use of an internal declaration built; the check proves nothing" >&2
    exit 1
fi
if ! grep -q "takeUpgrade" "$scratch/planted.log"; then
    echo "check-public-seam: the planted copy failed for another reason:" >&2
    tail -20 "$scratch/planted.log" >&2
    exit 1
fi
rm "$planted"

echo "== check-public-seam: ${modules[*]} on GirdersNetworking's public API, in a scratch package =="
swift build 2>&1 | tail -3
echo "check-public-seam: ${modules[*]} build against GirdersNetworking's public API alone"
