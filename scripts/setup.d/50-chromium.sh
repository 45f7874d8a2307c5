#!/usr/bin/env bash
# Debian's Chromium for the browser tests (driven by Playwright's Python package with
# executable_path=/usr/bin/chromium; Playwright's own browser download is not used).
set -euo pipefail
. "$(dirname "$0")/_lib.sh"
apt_install chromium fonts-dejavu-core
