#!/usr/bin/env bash
# Debian packages the test suite drives for real: the browser, its CJK font,
# oathtool (independent TOTP codes), openssl, tar, curl.
# As root: installs what is missing. Otherwise: prints the one line to run, and fails.
set -euo pipefail
PKGS=(chromium fonts-wqy-microhei oathtool openssl tar curl iproute2 pdns-server pdns-backend-sqlite3 sqlite3 bind9)
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
  echo "The tests need these Debian packages. Run:" >&2
  echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
