#!/usr/bin/env bash
# Builds and runs a coverage-guided fuzz target (libFuzzer + AddressSanitizer); see Fuzz/README.md.
# Usage: Scripts/fuzz.sh TARGET SECONDS      one target (trema-parser, strings-reader, placeholders, xml-plist,
#                                            binary-plist, http-dates, storage-decoding, curl-head, set-cookie,
#                                            certificate-key, sse-parser, trema-roundtrip, multipart,
#                                            request-builders, config-merge, cache-control, websocket-frames,
#                                            websocket-upgrade-head)
#        Scripts/fuzz.sh all SECONDS         every target in turn
#        Scripts/fuzz.sh campaign SECONDS [TARGET...]
#                                            a long run per target (every target by default), then the corpus it
#                                            grew merged, minimised (-merge=1), into Fuzz/corpus/TARGET to commit,
#                                            so CI's short runs start where the campaign ended
# Each run prints its executions, coverage (cov: edges, ft: features) and corpus size.
# Exit status: 0 when no target crashed, 1 when one did (its input is left in .build/fuzz/TARGET/crash-*).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swiftc >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swiftc ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

targets="trema-parser strings-reader placeholders xml-plist binary-plist http-dates storage-decoding curl-head set-cookie
certificate-key sse-parser trema-roundtrip multipart request-builders config-merge cache-control
websocket-frames websocket-upgrade-head"
target=${1:?usage: Scripts/fuzz.sh TARGET|all SECONDS}
seconds=${2:-30}

if [ "$target" = "all" ]; then
    status=0
    for each in $targets; do "$0" "$each" "$seconds" || status=1; done
    exit $status
fi
if [ "$target" = "campaign" ]; then
    shift 2 || true
    status=0
    for each in ${*:-$targets}; do
        GIRDERS_FUZZ_MERGE=1 "$0" "$each" "$seconds" || status=1
    done
    exit $status
fi

module_flags=()
c_sources=()
# Modules built before the target's own (as GirdersSupport is), for targets that use a whole module.
dependencies=()
# A target that uses a whole module names it here: the module is built once (with -enable-testing, into the shared
# folder below) and the target's entry point is compiled as a module of its own that imports it `@testable`. Targets
# that use a few files of a module compile those files and the entry point as that module instead.
whole_module=""
# Sources compiled into the target beside its entry point (a test target's helper).
extra_sources=""
# The whole of GirdersNetworking: the modules it imports, libcurl's and libpsl's loaders.
whole_networking() {
    whole_module=GirdersNetworking
    dependencies=(GirdersLog GirdersConfig)
    module_flags=(-I Sources/CGirdersCurl/include -I Sources/CGirdersLoading/include
        -I Sources/CGirdersCompression/include -I Sources/CGirdersOpenSSL/include)
    c_sources=(Sources/CGirdersCurl/CurlLoader.c Sources/CGirdersCurl/PublicSuffixLoader.c
        Sources/CGirdersCurl/SocketWaits.c Sources/CGirdersCompression/CompressionLoader.c
        Sources/CGirdersOpenSSL/CryptoLoader.c Sources/CGirdersLoading/LibraryLoader.c)
}
case "$target" in
    trema-parser | strings-reader | placeholders)
        whole_module=GirdersTrema ;;
    xml-plist | binary-plist)
        # The property-list readers live in GirdersSupport; the configuration layer on top of them in GirdersConfig.
        whole_module=GirdersConfig ;;
    http-dates)
        module=GirdersNetworking
        sources=$(find Sources/GirdersNetworking/Dates -name '*.swift') ;;
    curl-head)
        # The response-head reader CurlTransport uses (it needs only the header types beside it).
        module=GirdersNetworking
        sources="Sources/GirdersNetworking/Transports/Curl/CurlHead.swift Sources/GirdersNetworking/Request/HTTPHeaders.swift"
        module_flags=(-I Sources/CGirdersCurl/include) ;;
    set-cookie)
        # The cookie jar's field parser, with its rules and libpsl's public suffixes (loaded at run time).
        module=GirdersNetworking
        sources="Sources/GirdersNetworking/Cookies/Cookie.swift Sources/GirdersNetworking/Cookies/CookieDomain.swift
            Sources/GirdersNetworking/Cookies/CookiePath.swift Sources/GirdersNetworking/Cookies/CookieDate.swift
            Sources/GirdersNetworking/Cookies/CookieJarLimits.swift Sources/GirdersNetworking/Cookies/SetCookieParser.swift
            Sources/GirdersNetworking/Cookies/SetCookieFields.swift"
        module_flags=(-I Sources/CGirdersCurl/include)
        c_sources=(Sources/CGirdersCurl/PublicSuffixLoader.c Sources/CGirdersLoading/LibraryLoader.c) ;;
    certificate-key)
        # The DER reader that finds the key a public-key pin names in a server's certificate.
        module=GirdersNetworking
        sources="Sources/GirdersNetworking/TLS/DERCertificate.swift" ;;
    cache-control)
        # The Cache-Control parser and the freshness arithmetic of CachingTransport.
        module=GirdersNetworking
        # Compiled into one module with the core files they use (their `import GirdersNetworking` is then ignored).
        sources="Sources/GirdersHTTPCache/Policy/CacheControl.swift
            Sources/GirdersHTTPCache/Policy/CacheControl+Parsing.swift Sources/GirdersHTTPCache/Policy/CacheFreshness.swift
            Sources/GirdersHTTPCache/EntryFormat/CachedResponse.swift Sources/GirdersHTTPCache/Policy/CacheStorability.swift
            Sources/GirdersNetworking/Request/HTTPHeaders.swift $(find Sources/GirdersNetworking/Dates -name '*.swift')" ;;
    websocket-frames)
        # The WebSocket frame parser and message assembler (RFC 6455), with the UTF-8 check under them.
        module=GirdersNetworking
        sources=$(for name in WebSocketFrame WebSocketFrameParser WebSocketFrameWriter WebSocketMessageAssembler \
            UTF8Validator WebSocketMessage WebSocketLimits WebSocketError WebSocketCloseCode; do
            find Sources/GirdersWebSocket -name "$name.swift"; done) ;;
    websocket-upgrade-head)
        # The reader of the answer to a request to switch protocols (a WebSocket's opening handshake) over libcurl's
        # connect-only connection.
        module=GirdersNetworking
        sources="Sources/GirdersNetworking/Upgrades/UpgradeResponseHead.swift
            Sources/GirdersNetworking/Request/HTTPHeaders.swift Sources/GirdersNetworking/Wire/ResponseLimits.swift" ;;
    sse-parser)
        # The Server-Sent Events reader and the line splitter under it.
        module=GirdersNetworking
        sources="Sources/GirdersNetworking/Streams/ServerSentEventParser.swift
            Sources/GirdersNetworking/Streams/LineScanner.swift" ;;
    trema-roundtrip)
        # Every exporter's round trip; the Android reader is the tests' own (Foundation only).
        whole_module=GirdersTrema
        extra_sources=Tests/GirdersTremaTests/Support/AndroidStrings.swift ;;
    multipart | request-builders)
        whole_networking ;;
    config-merge)
        whole_module=GirdersConfig ;;
    storage-decoding)
        whole_module=GirdersStorage
        # libcrypto is declared by CGirdersOpenSSL and loaded at run time: its loader is compiled here, no
        # OpenSSL headers or link-time library needed.
        module_flags=(-I Sources/CGirdersOpenSSL/include)
        c_sources=(Sources/CGirdersOpenSSL/CryptoLoader.c Sources/CGirdersLoading/LibraryLoader.c) ;;
    *) echo "fuzz: unknown target '$target'; use one of: $targets, all" >&2; exit 2 ;;
esac

work=".build/fuzz/$target"
# What several targets share (GirdersSupport, whole modules, the C loaders), each built once, instrumented the same
# way, and built again only when its sources, its flags, this script or the compiler changed (a stamp beside it).
shared=".build/fuzz/shared"
mkdir -p "$work/corpus" "$shared"
rm -f "$work/fuzzer"  # a stale build must not stand in for one that failed
echo "== fuzz $target: building =="
compiler_version=$(swiftc --version 2>&1)
# Every C target's headers and module maps, which Swift modules import.
c_headers=$(find Sources -path '*/include/*' -type f | sort)
# Prints the stamp of a build: a digest of its sources' contents, its command line, the C headers, this script and the
# compiler.
stamp_of() {
    # shellcheck disable=SC2086
    {
        printf '%s\n' "$compiler_version" "$*"
        cat "$0" $c_headers
        for file in "$@"; do [ -f "$file" ] && cat "$file"; done
    } 2>/dev/null | sha256sum | cut -d' ' -f1
}
# Builds a Swift module NAME from SOURCES... into $shared (NAME.o, NAME.swiftmodule) unless its stamp is current.
# Extra compiler flags come in the array `flags`.
shared_module() {
    local name=$1
    shift
    local stamp
    stamp=$(stamp_of "${flags[@]+"${flags[@]}"}" "$@")
    if [ -f "$shared/$name.o" ] && [ "$(cat "$shared/$name.stamp" 2>/dev/null)" = "$stamp" ]; then
        return
    fi
    rm -f "$shared/$name.o" "$shared/$name.stamp"
    echo "fuzz: building $name"
    # -num-threads: the one whole-module job generates code on every core, an object per source, archived; the
    # archive is joined into one object whole (every conformance record in it, whether a target names its file or not).
    rm -f "$shared/lib$name.a"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -wmo -num-threads "$(nproc)" \
        -module-name "$name" -enable-upcoming-feature InternalImportsByDefault -package-name Girders -I "$shared" \
        -I Sources/CGirdersAtomics/include "${flags[@]+"${flags[@]}"}" -emit-module \
        -emit-module-path "$shared/$name.swiftmodule" -emit-library -static -o "$shared/lib$name.a" "$@" 2>&1 \
        | grep -v "Cannot export local symbol" || true
    [ -f "$shared/lib$name.a" ] && ld -r --whole-archive "$shared/lib$name.a" -o "$shared/$name.o"
    rm -f "$shared/lib$name.a"
    [ -f "$shared/$name.o" ] || { echo "fuzz: $name did not build" >&2; exit 1; }
    echo "$stamp" >"$shared/$name.stamp"
}
# Builds a C source into $shared with the fuzzer's coverage and ASan, unless its stamp is current; prints the object.
shared_c_object() {
    local source=$1 object stamp
    object="$shared/$(basename "$source" .c).o"
    stamp=$(stamp_of "$source")
    if [ ! -f "$object" ] || [ "$(cat "$object.stamp" 2>/dev/null)" != "$stamp" ]; then
        clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I "$(dirname "$source")/include" \
            -I Sources/CGirdersLoading/include "$source" -o "$object"
        echo "$stamp" >"$object.stamp"
    fi
    echo "$object"
}
# GirdersSupport (the internal target every module imports) and its C part (CGirdersAtomics: atomics, and whether
# the build is sanitized); `package` access needs the same package name on every side.
flags=()
# shellcheck disable=SC2046
shared_module GirdersSupport $(find Sources/GirdersSupport -name '*.swift' | sort)
objects=("$shared/GirdersSupport.o" "$(shared_c_object Sources/CGirdersAtomics/Atomics.c)")
for source in "${c_sources[@]+"${c_sources[@]}"}"; do
    objects+=("$(shared_c_object "$source")")
done
# Every shared module is built the one way (-enable-testing, the target's C headers for the whole module alone), so
# GirdersConfig built for the networking targets is the one the configuration targets use.
for dependency in "${dependencies[@]+"${dependencies[@]}"}" $whole_module; do
    flags=(-enable-testing)
    [ "$dependency" = "$whole_module" ] && flags+=("${module_flags[@]+"${module_flags[@]}"}")
    # shellcheck disable=SC2046
    shared_module "$dependency" $(find "Sources/$dependency" -name '*.swift' | sort)
    objects+=("$shared/$dependency.o")
done
if [ -n "$whole_module" ]; then
    # The entry point imports the module `@testable` (its internal parsers), as a module named after the target.
    module="Fuzz_${target//-/_}"
    sources="$extra_sources"
fi
# shellcheck disable=SC2086
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name "$module" -package-name Girders \
    -I "$shared" -I Sources/CGirdersAtomics/include "${module_flags[@]+"${module_flags[@]}"}" \
    $sources "Fuzz/$target.swift" "${objects[@]}" -o "$work/fuzzer" 2>&1 \
    | grep -v "Cannot export local symbol" || true
[ -x "$work/fuzzer" ] || { echo "fuzz: $target did not build" >&2; exit 1; }

echo "== fuzz $target: $seconds s =="
set +e
# Swift's backtracer reads the crashed stack from a thread of its own, which ASan reports as a second error
# that hides the first: the failure's own message stays the log's last words without it.
SWIFT_BACKTRACE=enable=no "$work/fuzzer" "$work/corpus" "Fuzz/corpus/$target" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
    -timeout=10 -artifact_prefix="$work/" -print_final_stats=1 >"$work/log" 2>&1
status=$?
set -e
grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+[[:space:]]+DONE)" "$work/log" | tr '\n' ' '
echo "corpus: $(find "$work/corpus" -type f | wc -l) files"
if [ "$status" -eq 0 ] && [ -n "${GIRDERS_FUZZ_MERGE:-}" ]; then
    # The checked-in corpus and what this run added, minimised to the inputs that keep the coverage.
    merged="$work/merged"
    rm -rf "$merged"
    mkdir -p "$merged" "Fuzz/corpus/$target"
    "$work/fuzzer" -merge=1 -max_len=65536 -rss_limit_mb=2048 -timeout=10 "$merged" "Fuzz/corpus/$target" \
        "$work/corpus" >"$work/merge.log" 2>&1
    rm -rf "Fuzz/corpus/$target"
    mv "$merged" "Fuzz/corpus/$target"
    echo "fuzz: $target corpus merged into Fuzz/corpus/$target: $(find "Fuzz/corpus/$target" -type f | wc -l) files"
fi
if [ "$status" -ne 0 ]; then
    echo "fuzz: $target failed (status $status); last lines of $work/log:" >&2
    grep -a -m 3 -E "Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer" "$work/log" >&2 || true
    tail -40 "$work/log" >&2
    exit 1
fi
