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
# Modules built before the target's own (as GirdersSupport is), for targets that compile a whole module.
dependencies=()
# The whole of GirdersNetworking: its sources, the modules it imports, libcurl's and libpsl's loaders.
whole_networking() {
    module=GirdersNetworking
    sources=$(find Sources/GirdersNetworking -name '*.swift')
    dependencies=(GirdersLog GirdersConfig)
    module_flags=(-I Sources/CGirdersCurl/include -I Sources/CGirdersLoading/include
        -I Sources/CGirdersCompression/include -I Sources/CGirdersOpenSSL/include)
    c_sources=(Sources/CGirdersCurl/CurlLoader.c Sources/CGirdersCurl/PublicSuffixLoader.c
        Sources/CGirdersCurl/SocketWaits.c Sources/CGirdersCompression/CompressionLoader.c
        Sources/CGirdersOpenSSL/CryptoLoader.c Sources/CGirdersLoading/LibraryLoader.c)
}
case "$target" in
    trema-parser | strings-reader | placeholders)
        module=GirdersTrema
        sources=$(find Sources/GirdersTrema -name '*.swift') ;;
    xml-plist | binary-plist)
        # The property-list readers live in GirdersSupport; the configuration layer on top of them in GirdersConfig.
        module=GirdersConfig
        sources=$(find Sources/GirdersConfig -name '*.swift') ;;
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
        module=GirdersTrema
        sources="$(find Sources/GirdersTrema -name '*.swift') Tests/GirdersTremaTests/Support/AndroidStrings.swift" ;;
    multipart | request-builders)
        whole_networking ;;
    config-merge)
        module=GirdersConfig
        sources=$(find Sources/GirdersConfig -name '*.swift') ;;
    storage-decoding)
        module=GirdersStorage
        sources=$(find Sources/GirdersStorage -name '*.swift')
        # libcrypto is declared by CGirdersOpenSSL and loaded at run time: its loader is compiled here, no
        # OpenSSL headers or link-time library needed.
        module_flags=(-I Sources/CGirdersOpenSSL/include)
        c_sources=(Sources/CGirdersOpenSSL/CryptoLoader.c Sources/CGirdersLoading/LibraryLoader.c) ;;
    *) echo "fuzz: unknown target '$target'; use one of: $targets, all" >&2; exit 2 ;;
esac

work=".build/fuzz/$target"
mkdir -p "$work/corpus" "$work/support"
rm -f "$work/fuzzer"  # a stale build must not stand in for one that failed
echo "== fuzz $target: building =="
# GirdersSupport (the internal target every module imports) is built first as a module of its own, instrumented
# the same way; `package` access needs the same package name on both sides.
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -wmo -module-name GirdersSupport \
    -enable-upcoming-feature InternalImportsByDefault -I Sources/CGirdersAtomics/include \
    -package-name Girders -emit-module -emit-module-path "$work/support/GirdersSupport.swiftmodule" \
    -emit-object -o "$work/support/GirdersSupport.o" $(find Sources/GirdersSupport -name '*.swift') 2>&1 \
    | grep -v "Cannot export local symbol" || true
# GirdersSupport's C part (CGirdersAtomics: atomics, and whether the build is sanitized), instrumented alike.
clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CGirdersAtomics/include Sources/CGirdersAtomics/Atomics.c \
    -o "$work/support/Atomics.o"
module_flags+=(-package-name Girders -I "$work/support" -I Sources/CGirdersAtomics/include "$work/support/GirdersSupport.o"
    "$work/support/Atomics.o")
for dependency in "${dependencies[@]+"${dependencies[@]}"}"; do
    # shellcheck disable=SC2046
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -wmo -module-name "$dependency" \
        -enable-upcoming-feature InternalImportsByDefault -package-name Girders -I "$work/support" \
        -I Sources/CGirdersAtomics/include -emit-module -emit-module-path "$work/support/$dependency.swiftmodule" \
        -emit-object -o "$work/support/$dependency.o" $(find "Sources/$dependency" -name '*.swift') 2>&1 \
        | grep -v "Cannot export local symbol" || true
    module_flags+=("$work/support/$dependency.o")
done
for source in "${c_sources[@]+"${c_sources[@]}"}"; do
    object="$work/support/$(basename "$source" .c).o"
    clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I "$(dirname "$source")/include" \
        -I Sources/CGirdersLoading/include "$source" -o "$object"
    module_flags+=("$object")
done
# shellcheck disable=SC2086
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name "$module" \
    $sources "Fuzz/$target.swift" "${module_flags[@]}" -o "$work/fuzzer" 2>&1 \
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
