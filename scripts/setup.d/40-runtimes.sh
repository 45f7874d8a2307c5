#!/usr/bin/env bash
# Runtimes the runtime-error fixture generator (scripts/fixtures/gen_runtime_errors.py) runs:
# Go, PHP CLI, Jackson (Debian jars), and Debian's vendored serde/serde_json sources (Rust, offline).
set -euo pipefail
. "$(dirname "$0")/_lib.sh"
apt_install golang-go php-cli librust-serde-json-dev librust-serde-derive-dev openssl libjackson2-databind-java
