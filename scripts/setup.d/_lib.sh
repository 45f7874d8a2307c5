# Shared helpers for the setup parts. Source it: . "$(dirname "$0")/_lib.sh"
# apt_install PKG...: install the Debian packages that are missing (apt-get update once),
# waiting for another apt run to release its lock.
apt_install() {
    local missing=()
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    export DEBIAN_FRONTEND=noninteractive
    local lock=(-o DPkg::Lock::Timeout=900)
    if [ ! -f /tmp/.hintline-apt-updated ]; then
        apt-get "${lock[@]}" update -qq && touch /tmp/.hintline-apt-updated
    fi
    apt-get "${lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
