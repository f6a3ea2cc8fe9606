#!/usr/bin/env bash
# Runs a command (the test suite) with PostgreSQL and Redis at hand, for `make test` and
# `.ci/run` alike:
#
#   scripts/services.sh .venv/bin/pytest -x
#
# For each service, in this order:
#   - RUMMY_TEST_POSTGRES_URL / RUMMY_TEST_REDIS_URL already set: used as they are;
#   - something answers on 127.0.0.1:$RUMMY_SERVICES_PG_PORT (5432) /
#     $RUMMY_SERVICES_REDIS_PORT (6379): used (postgresql+asyncpg://root@…/test, redis://…/0),
#     never restarted or changed;
#   - the port is closed and the binaries are installed: a throwaway server is started on that
#     port, in a temporary directory, and stopped and deleted when the command ends;
#   - otherwise the script fails and says what to install.
# The tests then run with RUMMY_TEST_REQUIRE_SERVICES=1, so a missing service, Chromium or
# node fails them instead of skipping them. RUMMY_TEST_REQUIRE_SERVICES=0 turns each of
# those failures into a warning, and the tests that need the missing piece skip.
set -euo pipefail

PG_PORT=${RUMMY_SERVICES_PG_PORT:-5432}
REDIS_PORT=${RUMMY_SERVICES_REDIS_PORT:-6379}
CHROMIUM=/usr/bin/chromium
APT_HINT="apt-get install -y chromium postgresql redis-server nodejs npm haproxy prometheus postgresql-client"
STRICT=1
[ "${RUMMY_TEST_REQUIRE_SERVICES:-1}" = 0 ] && STRICT=0

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

say() { echo "services: $*" >&2; }

missing() {
  if [ "$STRICT" = 1 ]; then
    say "$1"
    say "install what is missing ($APT_HINT) or run with RUMMY_TEST_REQUIRE_SERVICES=0 to skip those tests"
    exit 1
  fi
  say "warning: $1; its tests will skip"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {
  for _ in $(seq 1 60); do
    port_open "$1" && return 0
    sleep 0.5
  done
  return 1
}

# The newest installed PostgreSQL's binaries: Debian keeps them off PATH.
pg_bin() {
  if command -v initdb >/dev/null; then
    dirname "$(readlink -f "$(command -v initdb)")"
    return
  fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && echo "$dir"
}

TMP=""
PG_DATA=""
PG_BIN=""
REDIS_PID_FILE=""

cleanup() {
  if [ -n "$PG_DATA" ]; then
    as_pg_owner "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [ -n "$REDIS_PID_FILE" ] && [ -s "$REDIS_PID_FILE" ]; then
    local pid
    pid=$(cat "$REDIS_PID_FILE")
    kill "$pid" 2>/dev/null || true
    # Gone before we return, so the next run finds the port closed.
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  [ -n "$TMP" ] && rm -rf "$TMP"
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tmpdir() {
  [ -n "$TMP" ] || TMP=$(mktemp -d /tmp/rummy-services.XXXXXX)
  chmod 755 "$TMP"
}

# initdb and postgres refuse to run as root: as root, the cluster belongs to `postgres`.
as_pg_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start_postgres() {
  tmpdir
  PG_DATA="$TMP/pg"
  mkdir "$PG_DATA"
  [ "$(id -u)" = 0 ] && chown postgres "$PG_DATA"
  say "starting a throwaway PostgreSQL on 127.0.0.1:$PG_PORT ($PG_BIN)"
  as_pg_owner "$PG_BIN/initdb" -A trust -U root -N -D "$PG_DATA" >"$TMP/initdb.log" 2>&1 || {
    cat "$TMP/initdb.log" >&2
    PG_DATA=""
    return 1
  }
  # fsync off: the cluster dies with the run, durability buys nothing.
  as_pg_owner "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_DATA/log" -w start -o \
    "-c listen_addresses=127.0.0.1 -p $PG_PORT -c unix_socket_directories=$PG_DATA -c fsync=off -c max_connections=200" \
    >/dev/null || {
    cat "$PG_DATA/log" >&2
    return 1
  }
  "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U root test
}

start_redis() {
  tmpdir
  REDIS_PID_FILE="$TMP/redis.pid"
  say "starting a throwaway Redis on 127.0.0.1:$REDIS_PORT"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" \
    --appendonly no --dir "$TMP" --pidfile "$REDIS_PID_FILE" --logfile "$TMP/redis.log"
  wait_port "$REDIS_PORT" || {
    cat "$TMP/redis.log" >&2
    return 1
  }
}

if [ -z "${RUMMY_TEST_POSTGRES_URL:-}" ]; then
  if ! port_open "$PG_PORT"; then
    PG_BIN=$(pg_bin || true)
    if [ -z "$PG_BIN" ]; then
      missing "PostgreSQL: nothing answers on 127.0.0.1:$PG_PORT and initdb is not installed"
    else
      start_postgres || { say "PostgreSQL could not be started"; exit 1; }
    fi
  fi
  if port_open "$PG_PORT"; then
    export RUMMY_TEST_POSTGRES_URL="postgresql+asyncpg://root@127.0.0.1:$PG_PORT/test"
    if command -v psql >/dev/null &&
      ! psql -qAt "postgresql://root@127.0.0.1:$PG_PORT/test" -c "select 1" >/dev/null 2>&1; then
      say "PostgreSQL on 127.0.0.1:$PG_PORT refuses root@…/test: set RUMMY_TEST_POSTGRES_URL"
      exit 1
    fi
  fi
fi

if [ -z "${RUMMY_TEST_REDIS_URL:-}" ]; then
  if ! port_open "$REDIS_PORT"; then
    if ! command -v redis-server >/dev/null; then
      missing "Redis: nothing answers on 127.0.0.1:$REDIS_PORT and redis-server is not installed"
    else
      start_redis || { say "Redis could not be started"; exit 1; }
    fi
  fi
  if port_open "$REDIS_PORT"; then
    export RUMMY_TEST_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
  fi
fi

[ -x "$CHROMIUM" ] || missing "Chromium is not installed at $CHROMIUM (the browser tests use Debian's)"
command -v node >/dev/null || missing "node is not installed (a test runs web/js/verify.js in it)"

export RUMMY_TEST_REQUIRE_SERVICES=$STRICT
# Where the suite points, without any password the URLs may carry.
for url in "PostgreSQL ${RUMMY_TEST_POSTGRES_URL:-none}" "Redis ${RUMMY_TEST_REDIS_URL:-none}"; do
  echo "services: $url" | sed -E 's#//([^:/@]*):[^@]*@#//\1:***@#' >&2
done

# Not exec: the trap must stop the throwaway servers when the command ends.
status=0
"$@" || status=$?
exit "$status"
