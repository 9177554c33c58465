# Shared by scripts/postgres-start.sh and scripts/postgres-replica-start.sh (sourced, not run).

# Runs a server binary as the cluster owner (postgres when we are root, else ourselves).
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# When $env_file records a cluster that still runs, prints its URL ($url_file) and exits; else forgets it.
reuse_recorded_cluster() {
  [ -f "$env_file" ] || return 0
  # shellcheck disable=SC1090
  . "$env_file"
  if as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DATADIR/data" status >/dev/null 2>&1; then
    cat "$url_file"
    exit 0
  fi
  rm -rf "$PG_DATADIR"
}

# Sets $port to a port nothing listens on (bash's /dev/tcp connect fails on a free port).
pick_free_port() {
  port=""
  for _ in $(seq 1 50); do
    local p=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then port=$p; break; fi
  done
  [ -n "$port" ] || { echo "no free port found" >&2; exit 1; }
}
