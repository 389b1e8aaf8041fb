# nginx for the HTTP benchmarks (sourced by Scripts/bench-http.sh and Scripts/compare-http.sh): serves, from ROOT,
# small.json (14 bytes; cached.json the same, fresh for a day), stats (the example app's GET /stats), big.bin (100 MiB) and an /upload sink on a free port
# of 127.0.0.1, with ROOT/upload.bin and ROOT/out for the file scenarios.
#   start_bench_nginx ROOT   starts it and sets base (http://127.0.0.1:PORT) and nginx_pid
#   stop_bench_nginx         stops it
nginx_pid=
start_bench_nginx() {
    local root=$1 port
    mkdir -p "$root/www" "$root/body" "$root/proxy" "$root/fastcgi" "$root/uwsgi" "$root/scgi" "$root/out"
    printf '{"ok":"yes"}\n' >"$root/www/small.json"
    cp "$root/www/small.json" "$root/www/cached.json"  # served with Cache-Control: max-age=86400
    printf '{"logins":1,"refreshes":2,"unavailable":3,"uploads":7}\n' >"$root/www/stats"
    head -c $((100 << 20)) /dev/urandom >"$root/www/big.bin"
    cp "$root/www/big.bin" "$root/upload.bin"
    # nginx's workers run as another user when it is started by root: let them read the files and write their temp.
    chmod 755 "$root" "$root/www"
    chmod 644 "$root/www/small.json" "$root/www/cached.json" "$root/www/stats" "$root/www/big.bin"
    chmod 777 "$root/body" "$root/proxy" "$root/fastcgi" "$root/uwsgi" "$root/scgi"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    sed -e "s|__ROOT__|$root|g" -e "s|__PORT__|$port|g" Benchmarks/nginx/nginx.conf.template >"$root/nginx.conf"
    nginx -c "$root/nginx.conf" -p "$root" &
    nginx_pid=$!
    for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/small.json" >/dev/null && break; sleep 0.1; done
    base="http://127.0.0.1:$port"
}

stop_bench_nginx() {
    if [ -n "$nginx_pid" ]; then
        kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    fi
    nginx_pid=
}
