#!/usr/bin/env bash
# Debian packages the port-forwarding benchmark (bench/portforward.mjs) compares against:
# iperf3 (throughput), socat, haproxy and nginx with its stream module (the peers), wrk (connection rate).
# Only installs: nothing is started or enabled here (policy-rc.d keeps daemons down, and the
# benchmark runs every peer by hand on loopback with its config in a temp dir).
# As root: installs what is missing. Otherwise: prints the one line to run, and fails.
set -euo pipefail
PKGS=(iperf3 socat haproxy nginx libnginx-mod-stream wrk)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "The port-forwarding benchmark needs these Debian packages. Run:" >&2
  echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
