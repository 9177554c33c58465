#!/usr/bin/env bash
# Starts a throw-away Postgres cluster for the storage tests and prints its postgres:// URL.
#
#   bash scripts/postgres-start.sh            # prints the URL, writes test/tmp/postgres-url
#   export L2NODE_TEST_DATABASE_URL=$(cat test/tmp/postgres-url)
#   bash scripts/postgres-stop.sh             # stops it and removes its data directory
#
# Installs Postgres from Debian when no server binaries are found (needs root). The cluster lives
# in a fresh temp directory owned by the postgres user (initdb refuses to run as root), listens on
# a free port on 127.0.0.1 plus a unix socket in that directory, and runs with fsync off: test
# data need not survive a power cut. Idempotent: when the recorded cluster still answers, it only
# prints its URL again. State for the other scripts: test/tmp/postgres-env (L2NODE_PG_STATE_DIR
# overrides test/tmp, for a second, private cluster).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
state_dir="${L2NODE_PG_STATE_DIR:-$root/test/tmp}"
env_file="$state_dir/postgres-env"
url_file="$state_dir/postgres-url"
role=l2node
password=l2node
database=l2node
started=$(date +%s%N)

find_bindir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return; fi
  command -v initdb >/dev/null 2>&1 && dirname "$(readlink -f "$(command -v initdb)")"
}

# shellcheck source=scripts/postgres-common.sh
. "$root/scripts/postgres-common.sh"

reuse_recorded_cluster

bindir=$(find_bindir || true)
if [ -z "$bindir" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "Postgres is not installed; run as root or: sudo apt-get install -y postgresql" >&2
    exit 1
  fi
  echo "installing postgresql from Debian…" >&2
  export DEBIAN_FRONTEND=noninteractive
  flock /tmp/apt.lock apt-get update -qq
  flock /tmp/apt.lock apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  bindir=$(find_bindir)
fi

pick_free_port

datadir=$(mktemp -d /tmp/l2node-pg.XXXXXX)
[ "$(id -u)" = 0 ] && chown postgres:postgres "$datadir"
chmod 700 "$datadir"
as_owner "$bindir/initdb" -D "$datadir/data" -U postgres -A trust --auth-host=scram-sha-256 --no-sync -E UTF8 --locale=C.UTF-8 >"$datadir/initdb.log"
# In postgresql.conf rather than on the command line, so a plain `pg_ctl start` (restart script) keeps them.
cat >>"$datadir/data/postgresql.conf" <<EOF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$datadir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
EOF
as_owner "$bindir/pg_ctl" -D "$datadir/data" -l "$datadir/server.log" -w -t 30 start >/dev/null
as_owner "$bindir/psql" -h "$datadir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
  -c "create role $role login createdb password '$password';" \
  -c "create database $database owner $role;"

url="postgres://$role:$password@127.0.0.1:$port/$database"
mkdir -p "$state_dir"
cat >"$env_file" <<EOF
PG_BINDIR=$bindir
PG_DATADIR=$datadir
PG_PORT=$port
EOF
echo "$url" >"$url_file"
elapsed=$(( ($(date +%s%N) - started) / 1000000 ))
echo "postgres started on 127.0.0.1:$port in ${elapsed} ms (data: $datadir)" >&2
echo "$url"
