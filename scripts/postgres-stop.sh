#!/usr/bin/env bash
# Stops the throw-away Postgres cluster started by scripts/postgres-start.sh and deletes its data.
# Does nothing when none is recorded in test/tmp/postgres-env.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
env_file="${L2NODE_PG_STATE_DIR:-$root/test/tmp}/postgres-env"
# A replica of scripts/postgres-replica-start.sh goes first (it streams from the primary).
replica_env="${L2NODE_PG_REPLICA_DIR:-$root/test/tmp/replica}/postgres-env"
if [ -z "${L2NODE_PG_STATE_DIR:-}" ] && [ -f "$replica_env" ]; then
  L2NODE_PG_STATE_DIR="$(dirname "$replica_env")" bash "$0"
fi
[ -f "$env_file" ] || exit 0
# shellcheck disable=SC1090
. "$env_file"
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DATADIR/data" -m immediate -w stop >/dev/null 2>&1 || true
case "$PG_DATADIR" in /tmp/l2node-pg.*|/tmp/l2node-pg-replica.*) rm -rf "$PG_DATADIR" ;; esac
rm -f "$env_file" "$(dirname "$env_file")/postgres-url"
