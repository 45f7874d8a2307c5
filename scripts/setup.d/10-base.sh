#!/usr/bin/env bash
# Base tools the tests use: SQLite's CLI, curl.
set -euo pipefail
. "$(dirname "$0")/_lib.sh"
apt_install sqlite3 curl ca-certificates
