#!/usr/bin/env bash
# The Debian packages the whole test suite needs, installed when missing: the first step of
# `make test` (so the README's two commands stay the whole set-up), and so of `.ci/run`.
#
#   chromium       the browser tests (Playwright drives Debian's Chromium)
#   nodejs, npm    web/js/verify.js run in node; the TypeScript client test (tests/clients/)
#   haproxy        the cluster test behind a real proxy (tests/scale/test_cluster.py)
#   prometheus     promtool and a real Prometheus scraping two servers (tests/app/test_metrics.py)
#   postgresql-client  pg_dump and pg_restore (tests/scale/test_backup.py)
#   redis-server   when nothing answers on the Redis port (scripts/services.sh starts one)
#   postgresql     when nothing answers on the PostgreSQL port (likewise)
#
# As root with apt-get, what is missing is installed. Otherwise nothing is installed and one
# line says what to run; the script then fails, unless RUMMY_TEST_REQUIRE_SERVICES=0 (the
# tests that need a missing piece skip instead). SYSTEM_PACKAGES_DRY_RUN=1 only prints what
# is missing (tests/test_system_packages.py).
set -euo pipefail

CHROMIUM=/usr/bin/chromium
PG_PORT=${RUMMY_SERVICES_PG_PORT:-5432}
REDIS_PORT=${RUMMY_SERVICES_REDIS_PORT:-6379}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
has() { command -v "$1" >/dev/null; }

need=()
[ -x "$CHROMIUM" ] || need+=(chromium)
has node || need+=(nodejs)
# NodeSource's nodejs carries npm; Debian's own does not.
has npm || need+=(npm)
has haproxy || need+=(haproxy)
has promtool || need+=(prometheus)
has pg_dump || need+=(postgresql-client)
port_open "$REDIS_PORT" || has redis-server || need+=(redis-server)
port_open "$PG_PORT" || has initdb || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 ||
  need+=(postgresql)

[ ${#need[@]} -eq 0 ] && exit 0
if [ "${SYSTEM_PACKAGES_DRY_RUN:-0}" = 1 ]; then
  echo "${need[*]}"
  exit 0
fi

if [ "$(id -u)" != 0 ] || ! has apt-get; then
  echo "system-packages: the suite needs Debian packages; run: sudo apt-get install -y ${need[*]}" >&2
  [ "${RUMMY_TEST_REQUIRE_SERVICES:-1}" = 0 ] && exit 0
  exit 1
fi

echo "system-packages: installing ${need[*]}" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
# Installing postgresql may start Debian's own cluster, which refuses root over TCP; it is
# ours and unused, so stop it and let scripts/services.sh start a throwaway one instead.
if [[ " ${need[*]} " == *" postgresql "* ]] && has pg_lsclusters; then
  pg_lsclusters -h | while read -r version cluster _; do
    pg_ctlcluster "$version" "$cluster" stop 2>/dev/null || true
  done
fi
