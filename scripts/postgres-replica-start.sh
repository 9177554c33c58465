#!/usr/bin/env bash
# Starts a streaming hot-standby replica of the throw-away cluster of scripts/postgres-start.sh
# (which must be running) and prints its postgres:// URL: the same databases and roles, read-only,
# fed by streaming replication (a physical copy by pg_basebackup, then WAL streamed from the primary).
#
#   bash scripts/postgres-start.sh
#   bash scripts/postgres-replica-start.sh    # prints the URL, writes test/tmp/replica/postgres-url
#   bash scripts/postgres-stop.sh             # stops the replica too, then the primary
#
# The replica's state lives in test/tmp/replica/postgres-env (L2NODE_PG_REPLICA_DIR overrides it), in
# the format of the primary's, so `L2NODE_PG_STATE_DIR=test/tmp/replica bash scripts/postgres-restart.sh`
# restarts the replica alone (a database outage seen by a reader). Idempotent like postgres-start.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
primary_env="${L2NODE_PG_STATE_DIR:-$root/test/tmp}/postgres-env"
state_dir="${L2NODE_PG_REPLICA_DIR:-$root/test/tmp/replica}"
env_file="$state_dir/postgres-env"
url_file="$state_dir/postgres-url"
started=$(date +%s%N)
# shellcheck source=scripts/postgres-common.sh
. "$root/scripts/postgres-common.sh"
[ -f "$primary_env" ] || { echo "no primary recorded; run scripts/postgres-start.sh first" >&2; exit 1; }
# shellcheck disable=SC1090
. "$primary_env"
primary_port=$PG_PORT primary_dir=$PG_DATADIR bindir=$PG_BINDIR

reuse_recorded_cluster

# The primary's own URL names the role, password and database the replica serves too.
primary_url=$(cat "$(dirname "$primary_env")/postgres-url")
as_owner "$bindir/psql" -h "$primary_dir" -p "$primary_port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
  -c "do \$\$ begin if not exists (select from pg_roles where rolname = 'l2node_replication') then create role l2node_replication login replication password 'l2node_replication'; end if; end \$\$;"

pick_free_port

datadir=$(mktemp -d /tmp/l2node-pg-replica.XXXXXX)
[ "$(id -u)" = 0 ] && chown postgres:postgres "$datadir"
chmod 700 "$datadir"
# -R writes standby.signal and primary_conninfo: the copy starts as a hot standby streaming from the primary.
as_owner env PGPASSWORD=l2node_replication "$bindir/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U l2node_replication \
  -D "$datadir/data" -R -X stream --no-sync >"$datadir/basebackup.log" 2>&1
cat >>"$datadir/data/postgresql.conf" <<CONF
port = $port
unix_socket_directories = '$datadir'
hot_standby = on
hot_standby_feedback = off
max_standby_streaming_delay = 1s
CONF
as_owner "$bindir/pg_ctl" -D "$datadir/data" -l "$datadir/server.log" -w -t 60 start >/dev/null

url=$(echo "$primary_url" | sed -E "s#@127\.0\.0\.1:[0-9]+/#@127.0.0.1:$port/#")
mkdir -p "$state_dir"
cat >"$env_file" <<ENV
PG_BINDIR=$bindir
PG_DATADIR=$datadir
PG_PORT=$port
ENV
echo "$url" >"$url_file"
elapsed=$(( ($(date +%s%N) - started) / 1000000 ))
echo "postgres replica of 127.0.0.1:$primary_port started on 127.0.0.1:$port in ${elapsed} ms (data: $datadir)" >&2
echo "$url"
