#!/usr/bin/env bash
# Base tools the tests use: SQLite's CLI, curl, and the shells whose completion scripts
# `hintline completion` writes (tests/test_cli_shell.py drives them).
set -euo pipefail
. "$(dirname "$0")/_lib.sh"
apt_install sqlite3 curl ca-certificates zsh fish
