#!/bin/sh
# Installs (or upgrades, or removes) the Lucky console from this unpacked release archive.
#   sudo ./install.sh [--prefix /opt/lucky-console] [--config-dir /var/lib/lucky-console]
#                     [--port 16601] [--no-systemd] [--uninstall [--purge]] [--print-unit]
# Layout after install: <prefix>/{bin/lucky, node/, app/, install.sh, README.txt, release.txt,
# .lucky-console (what this script installed: config dir, port, unit)}. The console's self-update
# swaps app/packages/*/dist in place; an upgrade with this script replaces app/ and node/ whole.
# The systemd unit is the one the console's own "install service" writes (core/system/service.ts):
# /etc/systemd/system/lucky.service, WorkingDirectory=<prefix>/app,
# ExecStart=<prefix>/node/bin/node <prefix>/app/packages/server/dist/main.js [-p <port>] -cd <config dir>.
# Running it twice gives the same result; the config dir is created once (0700) and never changed.
# For tests only (test/release/unit.test.ts runs the systemd branch on a machine without systemd,
# with a recording systemctl first in PATH), two environment variables move what it looks at:
#   LUCKY_INSTALL_SYSTEMD_RUN_DIR  the "systemd is running" directory (default /run/systemd/system)
#   LUCKY_INSTALL_UNIT_DIR         where the unit file goes (default /etc/systemd/system)
set -eu

UNIT=lucky
SYSTEMD_RUN_DIR=${LUCKY_INSTALL_SYSTEMD_RUN_DIR:-/run/systemd/system}
UNIT_FILE=${LUCKY_INSTALL_UNIT_DIR:-/etc/systemd/system}/$UNIT.service
MARKER=.lucky-console

prefix=/opt/lucky-console
config_dir=
port=
systemd=auto
action=install
purge=0

say() { printf '%s\n' "$*"; }
die() {
  printf 'install.sh: %s\n' "$*" >&2
  exit 1
}
usage() {
  say "usage: $0 [--prefix DIR] [--config-dir DIR] [--port N] [--no-systemd] [--uninstall [--purge]] [--print-unit]"
}

while [ $# -gt 0 ]; do
  case $1 in
    --prefix | --config-dir | --port)
      [ $# -ge 2 ] || die "$1 needs a value"
      case $1 in
        --prefix) prefix=$2 ;;
        --config-dir) config_dir=$2 ;;
        --port) port=$2 ;;
      esac
      shift 2
      ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --config-dir=*) config_dir=${1#*=}; shift ;;
    --port=*) port=${1#*=}; shift ;;
    --no-systemd) systemd=no; shift ;;
    --uninstall) action=uninstall; shift ;;
    --purge) purge=1; shift ;;
    --print-unit) action=print-unit; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
  esac
done
[ "$purge" = 0 ] || [ "$action" = uninstall ] || die "--purge goes with --uninstall"

# The unit file carries these paths as plain words (no quoting), exactly as service.ts writes them.
check_path() {
  case $2 in
    '') die "$1 cannot be empty" ;;
  esac
  case $2 in
    *[!A-Za-z0-9._/+@:=,-]*) die "$1 \"$2\": use a path of letters, digits and . _ / + @ : = , - only" ;;
  esac
}
absolute() {
  case $1 in
    /*) printf '%s' "$1" ;;
    *) printf '%s/%s' "$(pwd -P)" "$1" ;;
  esac
}
check_path --prefix "$prefix"
prefix=$(absolute "$prefix")
if [ -n "$config_dir" ]; then
  check_path --config-dir "$config_dir"
  config_dir=$(absolute "$config_dir")
fi
if [ -n "$port" ]; then
  case $port in
    *[!0-9]* | '') die "--port \"$port\" is not a number" ;;
  esac
  [ "$port" -ge 1 ] && [ "$port" -le 65535 ] || die "--port $port is not a port (1-65535)"
fi
if [ "$systemd" = auto ]; then
  # sd_booted(3): systemd is running when this directory exists (service.ts asks the same).
  if [ -d "$SYSTEMD_RUN_DIR" ]; then systemd=yes; else systemd=no; fi
fi
is_root() { [ "$(id -u)" = 0 ]; }

# Value of KEY in <prefix>/.lucky-console (lines KEY=VALUE), or empty.
marker_get() {
  sed -n "s/^$1=//p" "$prefix/$MARKER" 2>/dev/null | head -n 1
}

uninstall() {
  [ -f "$prefix/$MARKER" ] || die "$prefix holds no Lucky console installed by this script (no $MARKER)"
  [ -n "$config_dir" ] || config_dir=$(marker_get config_dir)
  if [ -f "$UNIT_FILE" ] && grep -q "^ExecStart=$prefix/node/bin/node " "$UNIT_FILE"; then
    is_root || die "removing $UNIT_FILE needs root: run it with sudo"
    if [ -d "$SYSTEMD_RUN_DIR" ]; then
      systemctl disable --now "$UNIT.service" >/dev/null 2>&1 || say "note: systemctl could not stop $UNIT.service"
    fi
    rm -f "$UNIT_FILE"
    if [ -d "$SYSTEMD_RUN_DIR" ]; then systemctl daemon-reload || true; fi
    say "removed the systemd unit $UNIT_FILE"
  fi
  rm -rf "$prefix/app" "$prefix/node" "$prefix/.new" "$prefix/.old"
  rm -f "$prefix/bin/lucky" "$prefix/install.sh" "$prefix/README.txt" "$prefix/release.txt" "$prefix/$MARKER"
  rmdir "$prefix/bin" 2>/dev/null || true
  if rmdir "$prefix" 2>/dev/null; then
    say "removed $prefix"
  else
    say "removed the program from $prefix (the folder stays: it holds other files)"
  fi
  if [ -n "$config_dir" ]; then
    if [ "$purge" = 1 ]; then
      rm -rf "$config_dir"
      say "removed the config dir $config_dir"
    else
      say "kept the config dir $config_dir (remove it with --uninstall --purge)"
    fi
  fi
}

# The unit for $prefix, $config_dir and $port: what core/system/service.ts renders for the same
# command line (test/release/unit.test.ts compares the two).
unit_text() {
  port_args=
  [ -z "$port" ] || port_args=" -p $port"
  cat <<EOF
[Unit]
Description=Lucky console
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
WorkingDirectory=$prefix/app
ExecStart=$prefix/node/bin/node $prefix/app/packages/server/dist/main.js$port_args -cd $config_dir
Restart=on-failure
RestartSec=3
KillMode=control-group
TimeoutStopSec=15

[Install]
WantedBy=multi-user.target
EOF
}

install_release() {
  src=$(cd "$(dirname "$0")" && pwd -P)
  [ -f "$src/app/packages/server/dist/main.js" ] && [ -x "$src/node/bin/node" ] ||
    die "run the install.sh of an unpacked release archive (app/ and node/ are missing beside it)"
  version=$(sed -n 's/^version=//p' "$src/release.txt")
  arch=$(sed -n 's/^arch=//p' "$src/release.txt")
  case $(uname -m) in
    x86_64 | amd64) here=x64 ;;
    aarch64 | arm64) here=arm64 ;;
    *) here=$(uname -m) ;;
  esac
  [ "$arch" = "$here" ] || die "this archive is for linux-$arch, this machine is $(uname -m): use the linux-$here archive"
  [ -n "$config_dir" ] || config_dir=$(marker_get config_dir)
  [ -n "$config_dir" ] || config_dir=/var/lib/lucky-console
  if [ "$systemd" = yes ] && ! is_root; then
    die "writing the systemd unit needs root: run it with sudo, or pass --no-systemd (with a --prefix and --config-dir you can write)"
  fi
  [ "$src" != "$prefix" ] || die "$prefix is this release itself: run the install.sh of a newly unpacked archive"

  mkdir -p "$prefix" 2>/dev/null || die "cannot create $prefix: run it as root, or choose a --prefix you can write"
  prefix=$(cd "$prefix" && pwd -P)
  if [ ! -f "$prefix/$MARKER" ] && [ -n "$(ls -A "$prefix")" ]; then
    die "$prefix is not empty and holds no Lucky console install: choose another --prefix"
  fi
  old=$(marker_get version)

  # Copy beside, then swap by renames: a failed copy leaves the installed version as it was.
  rm -rf "$prefix/.new" "$prefix/.old"
  mkdir -p "$prefix/.new" "$prefix/.old"
  for d in app node bin; do cp -RP "$src/$d" "$prefix/.new/$d"; done
  for f in install.sh README.txt release.txt; do cp -P "$src/$f" "$prefix/.new/$f"; done
  for d in app node bin install.sh README.txt release.txt; do
    if [ -e "$prefix/$d" ]; then mv "$prefix/$d" "$prefix/.old/$d"; fi
    mv "$prefix/.new/$d" "$prefix/$d"
  done
  rm -rf "$prefix/.new" "$prefix/.old"

  if [ ! -d "$config_dir" ]; then
    (umask 077 && mkdir -p "$config_dir") || die "cannot create the config dir $config_dir"
    chmod 700 "$config_dir"
    say "created the config dir $config_dir"
  fi
  config_dir=$(cd "$config_dir" && pwd -P)
  printf 'version=%s\narch=%s\nconfig_dir=%s\nport=%s\nsystemd=%s\n' \
    "$version" "$arch" "$config_dir" "$port" "$systemd" >"$prefix/$MARKER"
  if [ -n "$old" ] && [ "$old" != "$version" ]; then
    say "upgraded the Lucky console in $prefix from $old to $version"
  else
    say "installed the Lucky console $version in $prefix"
  fi

  port_args=
  [ -z "$port" ] || port_args=" -p $port"
  if [ "$systemd" = yes ]; then
    unit_text >"$UNIT_FILE.tmp"
    mv "$UNIT_FILE.tmp" "$UNIT_FILE"
    systemctl daemon-reload || die "systemctl daemon-reload failed"
    systemctl enable "$UNIT.service" >/dev/null 2>&1 || die "systemctl enable $UNIT.service failed"
    systemctl restart "$UNIT.service" || die "systemctl restart $UNIT.service failed (see: journalctl -u $UNIT)"
    say "started the systemd service $UNIT.service (status: systemctl status $UNIT; log: journalctl -u $UNIT)"
    say "open http://<this machine>:${port:-16601}/ and log in as 666 / 666"
  else
    say "start it with:"
    say "  $prefix/bin/lucky -cd $config_dir$port_args"
    if [ -n "$old" ]; then say "(a console of this install that is running now keeps its version until it is restarted)"; fi
  fi
}

case $action in
  uninstall) uninstall ;;
  print-unit)
    [ -n "$config_dir" ] || config_dir=/var/lib/lucky-console
    unit_text
    ;;
  *) install_release ;;
esac
