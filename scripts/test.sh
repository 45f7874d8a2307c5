#!/usr/bin/env bash
# The whole test run: lint, types, generated docs up to date, then pytest (which starts the
# real services it needs: PostgreSQL, llama-server, Chromium, Redis, Spark).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
export PYTHONPATH="$PWD/src:$PWD${PYTHONPATH:+:$PYTHONPATH}"
echo "== ruff"; $BIN/ruff check src tests scripts benchmarks examples
echo "== mypy"; $BIN/mypy
if [ -f scripts/gen_rule_docs.py ]; then
    echo "== docs/rules.md up to date"; $BIN/python scripts/gen_rule_docs.py --check
fi
echo "== pytest"; $BIN/python -m pytest "$@"
