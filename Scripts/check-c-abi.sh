#!/usr/bin/env bash
# Checks Girders' own declarations of libcurl and libcrypto (Sources/CGirdersCurl, Sources/CGirdersOpenSSL) against
# the libraries' real headers: every constant Girders declares, and the layout of every struct it reads, must be
# the same. Girders builds without those headers; this check needs them (libcurl4-openssl-dev, libssl-dev) and
# says so when they are missing (.ci/run runs it where they are installed).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! echo '#include <curl/curl.h>
#include <openssl/evp.h>' | cc -E - >/dev/null 2>&1; then
    echo "check-c-abi: skipped: libcurl's and OpenSSL's headers are not installed" \
        "(apt-get install libcurl4-openssl-dev libssl-dev)"
    exit 0
fi
work=$(mktemp -d /tmp/check-c-abi.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Every enumerator and macro the declarations name, and the struct fields they read.
names=$(grep -hoE "^ *(#define )?(CURLE|CURLOPT|CURLM|CURLMOPT|CURLMSG|CURL_GLOBAL|CURL_ERROR|CURL_READFUNC|CURL_SEEKFUNC|CURL_PREREQFUNC|CURL_WRITEFUNC|CURLPAUSE|CURL_BLOB|CURLPROTO|CURLINFO|CURL_HTTP_VERSION|EVP_CTRL_GCM)_[A-Z0-9_]+( =| )" \
    Sources/CGirdersCurl/include/CGirdersCurl.h Sources/CGirdersOpenSSL/include/CGirdersOpenSSL.h \
    | sed -E 's/^ *(#define )?//; s/ =?$//' | sort -u)
program() {
    echo "#include <stdio.h>"
    echo "#include <stddef.h>"
    echo "$1"
    echo "int main(void) {"
    for name in $names; do echo "    printf(\"$name=%ld\\n\", (long)($name));"; done
    echo '    printf("sizeof(curl_off_t)=%zu\n", sizeof(curl_off_t));'
    echo '    printf("CURLMsg=%zu,%zu,%zu\n", sizeof(CURLMsg), offsetof(CURLMsg, easy_handle), offsetof(CURLMsg, data));'
    echo '    printf("curl_slist=%zu,%zu\n", sizeof(struct curl_slist), offsetof(struct curl_slist, next));'
    echo '    printf("curl_blob=%zu,%zu,%zu\n", sizeof(struct curl_blob), offsetof(struct curl_blob, len), offsetof(struct curl_blob, flags));'
    echo "    printf(\"version_num=%zu\\n\", offsetof($2, version_num));"
    echo "    return 0;"
    echo "}"
}
program '#include <curl/curl.h>
#include <openssl/evp.h>' curl_version_info_data >"$work/real.c"
program '#include "CGirdersCurl.h"
#include "CGirdersOpenSSL.h"' girders_curl_version_info >"$work/ours.c"
cc -Wno-deprecated-declarations "$work/real.c" -o "$work/real"
cc -I Sources/CGirdersCurl/include -I Sources/CGirdersOpenSSL/include "$work/ours.c" -o "$work/ours"
if ! diff <("$work/real") <("$work/ours") >"$work/diff"; then
    echo "check-c-abi: Girders' declarations differ from the real headers (< real, > ours):" >&2
    cat "$work/diff" >&2
    exit 1
fi
echo "check-c-abi: $(echo "$names" | wc -l) constants and 4 struct layouts match libcurl's and OpenSSL's headers"

# libpsl (the cookie jar's public-suffix list): the three functions PublicSuffixLoader.c declares, with its types,
# must be libpsl's own; PSL_TYPE_ANY must be the value it passes.
if echo '#include <libpsl.h>' | cc -E - >/dev/null 2>&1; then
    sed -n '/^typedef struct psl_ctx_st/,/^} api;/p' Sources/CGirdersCurl/PublicSuffixLoader.c >"$work/psl_ours.h"
    {
        echo '#include <libpsl.h>'
        cat "$work/psl_ours.h"
        echo 'int main(void) {'
        echo '    api.latest = psl_latest;'
        echo '    api.is_cookie_domain_acceptable = psl_is_cookie_domain_acceptable;'
        echo '    api.is_public_suffix2 = psl_is_public_suffix2;'
        echo '    _Static_assert(GIRDERS_PSL_TYPE_ANY == PSL_TYPE_ANY, "PSL_TYPE_ANY");'
        echo '    return 0;'
        echo '}'
    } >"$work/psl.c"
    if ! cc -std=c11 -c -Werror=incompatible-pointer-types -Werror=int-conversion "$work/psl.c" -o "$work/psl.o" 2>"$work/psl.err"; then
        echo "check-c-abi: Girders' libpsl declarations differ from libpsl.h:" >&2
        cat "$work/psl.err" >&2
        exit 1
    fi
    echo "check-c-abi: 3 libpsl functions and PSL_TYPE_ANY match libpsl.h"
else
    echo "check-c-abi: libpsl skipped: its header is not installed (apt-get install libpsl-dev)"
fi

# zlib, brotli's decoder and zstd (CurlTransport's content decoding): the structs and constants
# Sources/CGirdersCompression/CompressionABI.h declares must be the real headers' own.
if echo '#include <zlib.h>
#include <brotli/decode.h>
#include <zstd.h>' | cc -E - >/dev/null 2>&1; then
    {
        echo '#include <stddef.h>'
        echo '#include <zlib.h>'
        echo '#include <brotli/decode.h>'
        echo '#include <zstd.h>'
        echo '#include "CompressionABI.h"'
        echo '#define SAME(a, b) _Static_assert((a) == (b), #a " == " #b)'
        echo 'SAME(sizeof(girders_z_stream), sizeof(z_stream));'
        for field in next_in avail_in total_in next_out avail_out total_out msg state zalloc zfree opaque data_type adler reserved; do
            echo "SAME(offsetof(girders_z_stream, $field), offsetof(z_stream, $field));"
        done
        for constant in Z_OK Z_STREAM_END Z_NEED_DICT Z_BUF_ERROR Z_NO_FLUSH BROTLI_DECODER_RESULT_ERROR \
            BROTLI_DECODER_RESULT_SUCCESS ZSTD_d_windowLogMax ZSTD_reset_session_only; do
            echo "SAME(GIRDERS_$constant, $constant);"
        done
        echo 'SAME(sizeof(girders_zstd_in), sizeof(ZSTD_inBuffer));'
        echo 'SAME(sizeof(girders_zstd_out), sizeof(ZSTD_outBuffer));'
        for field in src size pos; do echo "SAME(offsetof(girders_zstd_in, $field), offsetof(ZSTD_inBuffer, $field));"; done
        for field in dst size pos; do echo "SAME(offsetof(girders_zstd_out, $field), offsetof(ZSTD_outBuffer, $field));"; done
        echo 'int main(void) { return 0; }'
    } >"$work/compression.c"
    if ! cc -std=c11 -I Sources/CGirdersCompression -c "$work/compression.c" -o "$work/compression.o" 2>"$work/compression.err"; then
        echo "check-c-abi: Girders' zlib, brotli or zstd declarations differ from their headers:" >&2
        cat "$work/compression.err" >&2
        exit 1
    fi
    echo "check-c-abi: z_stream, ZSTD_inBuffer, ZSTD_outBuffer and 9 constants match zlib.h, brotli/decode.h and zstd.h"
else
    echo "check-c-abi: compression skipped: zlib's, brotli's or zstd's headers are not installed" \
        "(apt-get install zlib1g-dev libbrotli-dev libzstd-dev)"
fi
