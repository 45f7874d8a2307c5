#!/usr/bin/env bash
# The main job on samples: clean real errors into hints.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
export PYTHONPATH="$PWD/src:$PWD${PYTHONPATH:+:$PYTHONPATH}"
$BIN/hintline --version
for f in examples/errors/*.txt; do
    [ -e "$f" ] || continue
    echo "--- $f"
    $BIN/hintline clean "$f"
done
