#!/usr/bin/env bash
# Set up everything hintline's tests need, idempotently: system packages and services'
# binaries (scripts/setup.d/*.sh, in order), then the virtualenv with every extra.
# One line per step on the terminal; what the steps print (apt, compilers, pip) goes to
# build/setup.log, whose path and last lines are shown when a step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "setup: hintline needs Python 3.11 or newer; $PY is $("$PY" --version 2>&1). Set PYTHON=python3.X" >&2
    exit 2
fi
mkdir -p build
LOG=${HINTLINE_SETUP_LOG:-$PWD/build/setup.log}
: > "$LOG"

step() {  # step "what" command...: one progress line, the output into $LOG
    local what=$1 start
    shift
    start=$(date +%s)
    printf 'setup: %s ... ' "$what"
    echo "== $what: $*" >> "$LOG"
    if "$@" >> "$LOG" 2>&1; then
        echo "ok ($(( $(date +%s) - start )) s)"
    else
        echo "FAILED"
        echo "setup: '$what' failed; its output is in $LOG (last lines below)" >&2
        tail -n 20 "$LOG" >&2
        exit 1
    fi
}

for part in scripts/setup.d/[0-9]*.sh; do
    [ -e "$part" ] || continue
    step "$(basename "$part" .sh)" bash "$part"
done
if [ ! -x .venv/bin/python ]; then
    step "virtualenv .venv ($("$PY" --version 2>&1))" "$PY" -m venv .venv
fi
stamp=.venv/.hintline-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    step "pip: upgrade pip" .venv/bin/python -m pip install --upgrade pip
    step "pip: hintline with every extra (.[all,dev])" .venv/bin/python -m pip install -e ".[all,dev]"
    touch "$stamp"
fi
for part in scripts/setup.d/post-[0-9]*.sh; do
    [ -e "$part" ] || continue
    step "$(basename "$part" .sh)" bash "$part"
done
