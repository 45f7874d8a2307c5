#!/usr/bin/env bash
# PostgreSQL server binaries for the live test tier (tests/services/postgres.py starts a throwaway
# cluster with them; it looks on PATH, then under /usr/lib/postgresql/*/bin). Nothing is started here.
set -euo pipefail
. "$(dirname "$0")/_lib.sh"
if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    exit 0
fi
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    exit 0
fi
apt_install postgresql
# Debian's package starts a cluster of its own where a service manager exists; the tests never use it.
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || {
    echo "20-postgres: postgresql installed but no initdb under /usr/lib/postgresql/*/bin" >&2
    exit 1
}
