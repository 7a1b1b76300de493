#!/bin/sh
# Lucky console launcher (installed as <prefix>/bin/lucky): runs the console on the Node that
# came with the release, never the machine's. Works through a symlink (e.g. /usr/local/bin/lucky).
set -eu
self=$(readlink -f "$0")
home=$(dirname "$(dirname "$self")")
exec "$home/node/bin/node" "$home/app/packages/server/dist/main.js" "$@"
