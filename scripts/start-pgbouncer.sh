#!/usr/bin/env bash
# Starts Debian's PgBouncer in transaction mode in front of a PostgreSQL server, as managed hosts' pooled
# connection strings do. Stock settings except pool_mode, the port, trust auth (the servers here trust
# local connections) and a private directory. PgBouncer refuses to run as root, so under root it runs as
# `postgres`.
#
#   scripts/start-pgbouncer.sh <listen-port> <upstream-port> <dir>
#
# Prints nothing on success; the pid is in <dir>/pgbouncer.pid, the log in <dir>/pgbouncer.log.
set -euo pipefail
listen_port=$1 upstream_port=$2 dir=$3
mkdir -p "$dir"
cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$upstream_port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $listen_port
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
pool_mode = transaction
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
echo '"postgres" ""' >"$dir/userlist.txt"
if [ "$(id -u)" = 0 ]; then
  chown -R postgres "$dir"
  runuser -u postgres -- pgbouncer -d "$dir/pgbouncer.ini"
else
  pgbouncer -d "$dir/pgbouncer.ini"
fi
for _ in $(seq 1 50); do
  pg_isready -h 127.0.0.1 -p "$listen_port" -q && exit 0
  sleep 0.1
done
echo "PgBouncer did not start on port $listen_port:" >&2
cat "$dir/pgbouncer.log" >&2
exit 1
