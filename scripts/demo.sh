#!/usr/bin/env bash
# The main job on samples: clean real errors into hints, then list and group the errors of real
# logs (written by real programs: tests/logs/fixtures/, see scripts/fixtures/gen_logs.py).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
export PYTHONPATH="$PWD/src:$PWD${PYTHONPATH:+:$PYTHONPATH}"
$BIN/hintline --version
echo
echo "== hintline clean: one line per real error (examples/errors/)"
for f in examples/errors/*.txt; do
    [ -e "$f" ] || continue
    printf '%-48s ' "$(basename "$f")"
    $BIN/hintline clean "$f"
done
echo
echo "== hintline logs: the newest errors of a real Python log (rotated and gzipped files included)"
$BIN/hintline logs tests/logs/fixtures/python/app.log --limit 3
echo
echo "== hintline scan: every error of the sample logs, grouped"
state=$(mktemp -d)
$BIN/hintline scan tests/logs/fixtures/python tests/logs/fixtures/logback --state "$state" --top 8
rm -rf "$state"
