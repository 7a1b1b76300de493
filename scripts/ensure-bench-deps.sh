#!/usr/bin/env bash
# Debian packages the port-forwarding benchmark (bench/portforward.mjs) compares against:
# iperf3 (throughput), socat, haproxy and nginx with its stream module (the peers), wrk (connection rate).
# The benchmark runs every peer by hand on loopback with its config in a temp dir.
exec bash "$(dirname "$0")/ensure-debian-packages.sh" "the benchmarks" iperf3 socat haproxy nginx libnginx-mod-stream wrk
