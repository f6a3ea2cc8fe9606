#!/usr/bin/env bash
# N `rummy serve` processes behind HAProxy with room affinity, on PostgreSQL + Redis on this
# machine; runs until interrupted (Ctrl+C, SIGTERM), then stops them all.
#
#   scripts/cluster.sh 4                 # http://127.0.0.1:8000, processes on 8101..8104
#   make cluster N=4
#
# Settings (environment):
#   CLUSTER_PORT (8000)          the proxy's port; CLUSTER_BIND (127.0.0.1) its address
#   CLUSTER_BASE_PORT (8100)     process i listens on CLUSTER_BASE_PORT + i
#   CLUSTER_METRICS_BASE_PORT    process i serves /metrics on 127.0.0.1:CLUSTER_METRICS_BASE_PORT
#                                + i (default CLUSTER_BASE_PORT + 100; 0: no metrics); the
#                                folder's prometheus.yml scrapes them all (deploy/prometheus.yml)
#   CLUSTER_DIR (mktemp)         where the config, the key and the logs go (kept)
#   RUMMY_DATABASE_URL           default postgresql+asyncpg://root@127.0.0.1:5432/rummy_cluster
#                                (created if missing)
#   RUMMY_REDIS_URL              default redis://127.0.0.1:6379/0
#   RUMMY_SECRET_KEY             default: a key file in CLUSTER_DIR, made once, shared by all
# Any other RUMMY_ setting passes through to every process (RUMMY_RATE_LIMIT_ENABLED=0 for
# a load bench from one address). docs/cluster.md says how to do the same across machines.
set -euo pipefail

N=${1:-${N:-2}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUMMY=${RUMMY:-$ROOT/.venv/bin/rummy}
PORT=${CLUSTER_PORT:-8000}
BIND=${CLUSTER_BIND:-127.0.0.1}
BASE=${CLUSTER_BASE_PORT:-8100}
METRICS_BASE=${CLUSTER_METRICS_BASE_PORT:-$((BASE + 100))}
DIR=${CLUSTER_DIR:-$(mktemp -d /tmp/rummy-cluster.XXXXXX)}
mkdir -p "$DIR"
export RUMMY_DATABASE_URL=${RUMMY_DATABASE_URL:-postgresql+asyncpg://root@127.0.0.1:5432/rummy_cluster}
export RUMMY_REDIS_URL=${RUMMY_REDIS_URL:-redis://127.0.0.1:6379/0}
# Every process reaches the app through the proxy: its TCP peer is the proxy, so the
# per-address connection cap belongs to the proxy (maxconn); the app's other per-address
# limits see X-Forwarded-For.
export RUMMY_MAX_CONNECTIONS_PER_CLIENT=${RUMMY_MAX_CONNECTIONS_PER_CLIENT:-0}
if [ -z "${RUMMY_SECRET_KEY:-}" ]; then
  export RUMMY_SECRET_KEY_FILE=${RUMMY_SECRET_KEY_FILE:-$DIR/secret.key}
fi

say() { echo "cluster: $*" >&2; }
command -v haproxy >/dev/null || { say "haproxy is not installed (apt-get install -y haproxy)"; exit 1; }
[ -x "$RUMMY" ] || { say "$RUMMY is missing: run make install"; exit 1; }

# The database, once: `rummy serve` migrates it, but cannot create it.
if command -v psql >/dev/null; then
  db=$(python3 -c "import sys,urllib.parse as u; print(u.urlsplit(sys.argv[1]).path.lstrip('/'))" "$RUMMY_DATABASE_URL")
  admin=$(echo "$RUMMY_DATABASE_URL" | sed -E 's#^postgresql\+asyncpg#postgresql#; s#/[^/?]*(\?.*)?$#/postgres#')
  if ! psql -qAt "$admin" -c "select 1 from pg_database where datname='$db'" 2>/dev/null | grep -q 1; then
    psql -q "$admin" -c "create database \"$db\"" >/dev/null && say "created database $db"
  fi
fi

PIDS=()
cleanup() {
  trap - EXIT INT TERM
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  say "stopped (logs in $DIR)"
}
trap cleanup EXIT
trap 'exit 0' INT TERM

# One at a time until the first is up: it migrates and makes the key file the others read.
SERVERS=""
TARGETS=""
for i in $(seq 1 "$N"); do
  port=$((BASE + i))
  if [ "$METRICS_BASE" != 0 ]; then
    export RUMMY_METRICS_ADDRESS=127.0.0.1:$((METRICS_BASE + i))
    TARGETS+="${TARGETS:+, }'$RUMMY_METRICS_ADDRESS'"
  fi
  "$RUMMY" serve --host 127.0.0.1 --port "$port" >"$DIR/server-$i.log" 2>&1 &
  PIDS+=($!)
  SERVERS+="    server s$i 127.0.0.1:$port check"$'\n'
  if [ "$i" = 1 ]; then
    for _ in $(seq 1 300); do
      curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
      kill -0 "${PIDS[0]}" 2>/dev/null || { cat "$DIR/server-1.log" >&2; exit 1; }
      sleep 0.1
    done
  fi
done
for i in $(seq 1 "$N"); do
  until curl -fsS "http://127.0.0.1:$((BASE + i))/healthz" >/dev/null 2>&1; do
    kill -0 "${PIDS[$((i - 1))]}" 2>/dev/null || { cat "$DIR/server-$i.log" >&2; exit 1; }
    sleep 0.1
  done
done

THREADS=${CLUSTER_PROXY_THREADS:-1}
MAXCONN=${CLUSTER_MAXCONN:-$((($(ulimit -n) - 200) / 2))}
python3 - "$ROOT/deploy/haproxy.cfg" "$DIR/haproxy.cfg" "$BIND" "$PORT" "$THREADS" "$MAXCONN" "$SERVERS" <<'PY'
import sys
src, dst, bind, port, threads, maxconn, servers = sys.argv[1:]
text = open(src).read()
for key, value in (("@BIND@", bind), ("@PORT@", port), ("@THREADS@", threads), ("@MAXCONN@", maxconn)):
    text = text.replace(key, value)
open(dst, "w").write(text.replace("@SERVERS@\n", servers))
PY
if [ -n "$TARGETS" ]; then
  sed "s/@TARGETS@/$TARGETS/" "$ROOT/deploy/prometheus.yml" >"$DIR/prometheus.yml"
  cp "$ROOT/deploy/rummy-alerts.yml" "$DIR/"
fi
haproxy -f "$DIR/haproxy.cfg" -db >"$DIR/haproxy.log" 2>&1 &
PIDS+=($!)
until curl -fsS "http://$BIND:$PORT/healthz" >/dev/null 2>&1; do
  kill -0 "${PIDS[-1]}" 2>/dev/null || { cat "$DIR/haproxy.log" >&2; exit 1; }
  sleep 0.1
done
say "$N processes behind http://$BIND:$PORT (config, key and logs in $DIR)"
[ -n "$TARGETS" ] && say "metrics: $TARGETS (prometheus --config.file=$DIR/prometheus.yml)"
echo "ready http://$BIND:$PORT $DIR"
# Until interrupted or until the proxy dies. A server process that dies is left dead: the
# proxy's health check sends its rooms to the others (what bench/hostkill.py measures).
wait "${PIDS[-1]}" || true
say "the proxy ended; stopping the cluster"
