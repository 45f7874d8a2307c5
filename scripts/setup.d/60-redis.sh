#!/usr/bin/env bash
# Debian's redis-server for the shared guard-store tests (started by tests/services/redis.py).
set -euo pipefail
. "$(dirname "$0")/_lib.sh"
apt_install redis-server
