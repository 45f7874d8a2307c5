#!/usr/bin/env bash
# Set up everything hintline's demo and tests need, idempotently: system packages and
# services' binaries (scripts/setup.d/*.sh, in order), then the virtualenv with every extra.
set -euo pipefail
cd "$(dirname "$0")/.."
for part in scripts/setup.d/[0-9]*.sh; do
    [ -e "$part" ] || continue
    bash "$part"
done
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
stamp=.venv/.hintline-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[all,dev]"
    touch "$stamp"
fi
for part in scripts/setup.d/post-[0-9]*.sh; do
    [ -e "$part" ] || continue
    bash "$part"
done
