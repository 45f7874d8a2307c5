#!/usr/bin/env bash
# Java for the Spark tests and `hintline.jobs.spark_scan` (PySpark runs on Java 17), and Debian's
# Log4j 2 jars for the log fixture generators (scripts/fixtures/gen_logs.py, gen_system_logs.py).
set -euo pipefail
. "$(dirname "$0")/_lib.sh"
apt_install openjdk-17-jre-headless liblog4j2-java
