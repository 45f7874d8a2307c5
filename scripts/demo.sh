#!/usr/bin/env bash
# `make demo`: hintline on samples with the CORE install only, in under a minute on a fresh
# machine. Its own small virtualenv (.venv-demo: `pip install -e .` plus the light
# `pydantic-ai` extra for the agent run); no system packages, no services, no model.
#   - hints for real errors (examples/errors/, captured from real programs)
#   - an agent run through the error policy (PydanticAI's own offline FunctionModel)
#   - the newest errors of a real log, and a scan of real logs, grouped
# Works as any user who can write to the clone. PYTHON=python3.12 picks the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=.venv-demo
LOG=$VENV.log
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "demo: hintline needs Python 3.11 or newer; $PY is $("$PY" --version 2>&1). Set PYTHON=python3.X" >&2
    exit 2
fi
stamp=$VENV/.hintline-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    start=$(date +%s)
    printf 'demo: installing hintline (core + the pydantic-ai extra) into %s ... ' "$VENV"
    # Seeding a virtualenv with pip costs more than the rest of the install: when the
    # interpreter has pip 22.3 or newer, that pip installs into a venv made without one.
    if "$PY" -c 'import pip, sys; sys.exit(tuple(map(int, pip.__version__.split(".")[:2])) < (22, 3))' 2>/dev/null; then
        make_venv=("$PY" -m venv --without-pip "$VENV")
        pip=("$PY" -m pip --python "$VENV/bin/python")
    else
        make_venv=("$PY" -m venv "$VENV")
        pip=("$VENV/bin/python" -m pip)
    fi
    if ! { "${make_venv[@]}" && "${pip[@]}" install --disable-pip-version-check --no-input \
            --no-compile -e ".[pydantic-ai]"; } > "$LOG" 2>&1; then
        echo "FAILED; its output is in $LOG" >&2
        tail -n 15 "$LOG" >&2
        exit 1
    fi
    touch "$stamp"
    echo "done in $(( $(date +%s) - start )) s"
fi
BIN=$PWD/$VENV/bin
"$BIN/hintline" --version
echo
echo "== hintline clean: one line per real error (examples/errors/, see its README)"
for f in examples/errors/*.txt; do
    [ -e "$f" ] || continue
    printf '%-36s ' "$(basename "$f" .txt)"
    "$BIN/hintline" clean "$f"
done
echo
echo "== an agent run: the policy retries a transient fault, hints a recoverable one,"
echo "   refuses a policy error and stops after the third failure in a row"
echo "   (examples/agents/policy_tour.py: PydanticAI with its offline FunctionModel)"
"$BIN/python" examples/agents/policy_tour.py
echo
echo "== hintline logs: the newest errors of a real Python log (rotated and gzipped files included)"
"$BIN/hintline" logs tests/logs/fixtures/python/app.log --limit 3
echo
echo "== hintline scan: every error of real Python and logback logs, grouped"
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
"$BIN/hintline" scan tests/logs/fixtures/python/*.log* tests/logs/fixtures/logback/*.log --state "$state" --top 5 --no-progress
echo
echo "More: hintline --help; the model path (hintline explain) and the web page need extras"
echo "and services: see the README. The full test run: make test."
