#!/usr/bin/env bash
# Restarts the throw-away Postgres cluster of scripts/postgres-start.sh (fast shutdown: open
# connections are cut), so tests can check that the node reconnects. `--down-ms N` keeps the
# server stopped for N milliseconds before starting it again.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
env_file="${L2NODE_PG_STATE_DIR:-$root/test/tmp}/postgres-env"
[ -f "$env_file" ] || { echo "no cluster recorded; run scripts/postgres-start.sh first" >&2; exit 1; }
# shellcheck disable=SC1090
. "$env_file"
down_ms=0
if [ "${1:-}" = "--down-ms" ]; then down_ms=${2:?}; fi
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DATADIR/data" -m fast -w stop >/dev/null
sleep "$(awk "BEGIN { print $down_ms / 1000 }")"
as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DATADIR/data" -l "$PG_DATADIR/server.log" -w -t 30 start >/dev/null
