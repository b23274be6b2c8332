#!/usr/bin/env bash
# Makes this machine ready to run or test the service: pnpm, dependencies, the Prisma client, Chromium,
# PostgreSQL and Redis. Reuses what is there; installs (as root, from Debian) or starts what is missing;
# otherwise says exactly what to do. Idempotent and quiet when everything is ready.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.8
PG_HOST=127.0.0.1 PG_PORT=5432 REDIS_PORT=6379
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}

say() { printf 'bootstrap: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
is_root() { [ "$(id -u)" = 0 ]; }
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
apt_updated=
apt_install() {
  is_root || die "missing: $*. Install it: sudo apt-get install -y $*"
  if [ -z "$apt_updated" ]; then say "apt-get update"; apt-get update -qq >/dev/null; apt_updated=1; fi
  say "installing $* from Debian"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
wait_port() {
  for _ in $(seq 1 60); do port_open "$1" "$2" && return 0; sleep 0.5; done
  return 1
}

# Node: the version our dependencies need.
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || die "Node.js >= 20.19 is required (found $(node --version))"

# pnpm: the version package.json names.
if ! command -v pnpm >/dev/null || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  if is_root; then
    say "installing pnpm $PNPM_VERSION"; npm install -g --silent "pnpm@$PNPM_VERSION" >/dev/null
  else
    say "installing pnpm $PNPM_VERSION into .tools"; npm install --silent --prefix .tools "pnpm@$PNPM_VERSION" >/dev/null
    export PATH="$PWD/.tools/node_modules/.bin:$PATH"
  fi
fi

# Dependencies (no-op when the lockfile is already installed) and the generated Prisma client.
# (pnpm keeps a copy of the lockfile it installed: when it matches, the install is skipped, saving seconds.)
if ! cmp -s pnpm-lock.yaml node_modules/.pnpm/lock.yaml; then
  pnpm install --frozen-lockfile --prefer-offline --reporter=silent
fi
if [ ! -f packages/db/src/generated/prisma/client.ts ] || [ prisma/schema.prisma -nt packages/db/src/generated/prisma/client.ts ]; then
  say "generating the Prisma client"; pnpm --silent --filter @authsvc/db run generate
fi

# Chromium from Debian (a browser download would fail here, and we want the distribution's updates), and its
# headless shell (BROWSER_MODE=shell; the tests and the bench run it too).
[ -x "$CHROMIUM" ] || apt_install chromium fonts-liberation
[ -x "$CHROMIUM" ] || die "Chromium not found at $CHROMIUM (set CHROMIUM_PATH)"
[ -x /usr/lib/chromium/chromium-headless-shell ] || apt_install chromium-headless-shell

# Debian's python3: the Python client's tests and example run with it (standard library only).
[ -x /usr/bin/python3 ] || command -v python3 >/dev/null || apt_install python3

# PostgreSQL on 127.0.0.1:5432 with the postgres user: reuse, start the machine's cluster, or install one.
if ! port_open $PG_HOST $PG_PORT; then
  if ! command -v pg_ctlcluster >/dev/null; then apt_install postgresql; fi
  cluster=$(pg_lsclusters -h 2>/dev/null | awk '$2 == "main" {print $1; exit}')
  [ -n "$cluster" ] || die "PostgreSQL is installed but has no 'main' cluster; create one: pg_createcluster --start 15 main"
  is_root || die "PostgreSQL is not running; start it: sudo pg_ctlcluster $cluster main start"
  say "starting PostgreSQL $cluster/main"
  pg_ctlcluster --skip-systemctl-redirect "$cluster" main start || true
  wait_port $PG_HOST $PG_PORT || die "PostgreSQL did not start; see /var/log/postgresql/"
fi
if ! node -e '
  const { Client } = require("./packages/db/node_modules/pg");
  const c = new Client({ connectionString: process.env.DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres" });
  c.connect().then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });' 2>/tmp/authsvc-pg-error; then
  # A fresh Debian cluster asks for a password on TCP; local development trusts loopback connections of user postgres.
  if is_root && grep -q "password authentication failed\|no password\|SASL" /tmp/authsvc-pg-error; then
    hba=$(su postgres -c "psql -tAc 'SHOW hba_file'")
    say "allowing user postgres from 127.0.0.1 without a password (development machine): $hba"
    sed -i '1i host all postgres 127.0.0.1/32 trust' "$hba"
    su postgres -c "psql -qc 'SELECT pg_reload_conf()'" >/dev/null
  else
    die "cannot connect to PostgreSQL as postgres@127.0.0.1: $(cat /tmp/authsvc-pg-error)"
  fi
fi

# Redis on 127.0.0.1:6379: reuse, or start one (installing it first if needed), keeping nothing on disk.
if ! port_open 127.0.0.1 $REDIS_PORT; then
  command -v redis-server >/dev/null || apt_install redis-server
  say "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port $REDIS_PORT --save "" --appendonly no >/dev/null
  wait_port 127.0.0.1 $REDIS_PORT || die "Redis did not start"
fi
