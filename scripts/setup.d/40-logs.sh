#!/usr/bin/env bash
# Real log producers for the log-reader fixtures (scripts/fixtures/gen_logs.py):
# a JDK, logback and log4j2 from Debian's jars, php-cli with Monolog, and systemd's journald.
set -euo pipefail
. "$(dirname "$0")/_lib.sh"
apt_install default-jdk-headless libslf4j-java liblogback-java liblog4j2-java php-cli php-monolog systemd
