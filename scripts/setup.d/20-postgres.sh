#!/usr/bin/env bash
# PostgreSQL server binaries for the live test tier (tests/services/postgres.py starts a throwaway
# cluster with them; it looks on PATH, then under /usr/lib/postgresql/*/bin). Nothing is started here.
set -euo pipefail
. "$(dirname "$0")/_lib.sh"
# German and French message catalogues for lc_messages (tests/rules/test_signals_live.py and
# scripts/fixtures/gen_signal_errors.py): PostgreSQL ships them, the OS locales must exist.
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$' || ! locale -a 2>/dev/null | grep -qi '^fr_FR\.utf-\?8$'; then
    apt_install locales
    sed -i 's/^# *\(de_DE\.UTF-8 UTF-8\)/\1/; s/^# *\(fr_FR\.UTF-8 UTF-8\)/\1/' /etc/locale.gen
    locale-gen >/dev/null
fi
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
