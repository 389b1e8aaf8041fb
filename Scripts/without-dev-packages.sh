#!/usr/bin/env bash
# Runs a command with the development files of libcurl, OpenSSL, libpsl, zlib, brotli and zstd out of reach: their
# headers (curl/, openssl/, zlib.h, brotli/, zstd.h), their link-time libraries (libcurl.so, libcrypto.so, libz.so,
# ... and the .a archives) and their pkg-config files, whichever package installed them. The run libraries
# (libcurl.so.4, libcrypto.so.3, libz.so.1, libbrotlidec.so.1, libzstd.so.1) stay.
#
# How: a private mount namespace (unshare) in which each folder holding such files is covered by an overlay whose
# upper layer deletes them. Nothing on the machine changes, and the files are back for everyone else, including
# this shell, when the command ends. A build that still needs a header or a link-time library fails inside.
#
# Usage: Scripts/without-dev-packages.sh COMMAND [ARGUMENT...]     (root, or a kernel that lets users mount
#        overlays in a user namespace)
set -euo pipefail
[ "$#" -gt 0 ] || { echo "usage: $0 COMMAND [ARGUMENT...]" >&2; exit 2; }

if [ -z "${GIRDERS_INSIDE_NAMESPACE:-}" ]; then
    if [ "$(id -u)" = "0" ]; then
        exec env GIRDERS_INSIDE_NAMESPACE=1 unshare --mount --propagation private "$0" "$@"
    fi
    exec env GIRDERS_INSIDE_NAMESPACE=1 unshare --user --map-root-user --mount --propagation private "$0" "$@"
fi

patterns=(
    "/usr/include/curl" "/usr/include/*/curl" "/usr/local/include/curl"
    "/usr/include/openssl" "/usr/include/*/openssl" "/usr/local/include/openssl"
    "/usr/lib/*/libcurl.so" "/usr/lib/*/libcurl.a" "/usr/lib/libcurl.so" "/usr/local/lib/libcurl.so"
    "/usr/lib/*/libcrypto.so" "/usr/lib/*/libcrypto.a" "/usr/lib/libcrypto.so" "/usr/local/lib/libcrypto.so"
    "/usr/lib/*/libssl.so" "/usr/lib/*/libssl.a" "/usr/lib/libssl.so" "/usr/local/lib/libssl.so"
    "/usr/lib/*/pkgconfig/libcurl.pc" "/usr/lib/*/pkgconfig/libcrypto.pc" "/usr/lib/*/pkgconfig/libssl.pc"
    "/usr/lib/*/pkgconfig/openssl.pc" "/usr/lib/pkgconfig/libcurl.pc" "/usr/share/pkgconfig/libcurl.pc"
    "/usr/include/libpsl.h" "/usr/lib/*/libpsl.so" "/usr/lib/*/libpsl.a" "/usr/lib/*/pkgconfig/libpsl.pc"
    "/usr/include/zlib.h" "/usr/include/zconf.h" "/usr/include/*/zconf.h" "/usr/lib/*/libz.so" "/usr/lib/*/libz.a"
    "/usr/lib/*/pkgconfig/zlib.pc" "/usr/include/brotli" "/usr/lib/*/libbrotlidec.so" "/usr/lib/*/libbrotlidec.a"
    "/usr/lib/*/libbrotlienc.so" "/usr/lib/*/libbrotlicommon.so" "/usr/lib/*/pkgconfig/libbrotlidec.pc"
    "/usr/include/zstd.h" "/usr/include/zstd_errors.h" "/usr/include/zdict.h" "/usr/lib/*/libzstd.so"
    "/usr/lib/*/libzstd.a" "/usr/lib/*/pkgconfig/libzstd.pc"
)
shopt -s nullglob
hidden=()
for pattern in "${patterns[@]}"; do
    for path in $pattern; do
        [ -e "$path" ] || [ -L "$path" ] && hidden+=("$path")
    done
done

layers=$(mktemp -d /tmp/without-dev-packages.XXXXXX)
covered=()
cleanup() {
    for (( index = ${#covered[@]} - 1; index >= 0; index-- )); do umount "${covered[$index]}" 2>/dev/null || true; done
    rm -rf "$layers"
}
trap cleanup EXIT
# One overlay per folder holding such files, shallowest first; a folder inside one already covered needs none
# (an overlay covers its whole tree, and one mounted below another would hide the other's deletions).
while IFS= read -r folder; do
    inside=0
    for outer in "${covered[@]+"${covered[@]}"}"; do
        case "$folder/" in "$outer"/*) inside=1 ;; esac
    done
    [ "$inside" = 1 ] && continue
    layer="$layers/${#covered[@]}"
    mkdir -p "$layer/upper" "$layer/work"
    mount -t overlay overlay -o "lowerdir=$folder,upperdir=$layer/upper,workdir=$layer/work" "$folder"
    covered+=("$folder")
done < <(for path in "${hidden[@]+"${hidden[@]}"}"; do dirname "$path"; done | sort -u | awk '{ print length, $0 }' \
    | sort -n | cut -d' ' -f2-)
for path in "${hidden[@]+"${hidden[@]}"}"; do rm -rf "$path"; done
for path in "${hidden[@]+"${hidden[@]}"}"; do
    if [ -e "$path" ] || [ -L "$path" ]; then
        echo "without-dev-packages: could not hide $path" >&2
        exit 1
    fi
done
echo "without-dev-packages: ${#hidden[@]} development files hidden (${hidden[*]:-none were installed})"
"$@"
