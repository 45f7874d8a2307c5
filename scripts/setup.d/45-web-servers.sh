#!/usr/bin/env bash
# Web servers whose real error pages the wrapped-error fixture generator captures
# (scripts/fixtures/gen_wrapped_errors.py): nginx and Apache httpd, run there on loopback ports
# with their own throw-away configuration. The packages' own services are not left running.
set -euo pipefail
. "$(dirname "$0")/_lib.sh"
# keep the packages' post-install scripts from starting the default sites on port 80
policy=/usr/sbin/policy-rc.d
added=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && added=1
fi
trap '[ "$added" = 1 ] && rm -f "$policy"' EXIT
apt_install nginx-light apache2
