#!/usr/bin/env bash
# Debian packages the benchmarks compare against:
# port forwarding (bench/portforward.mjs): iperf3 (throughput), socat, haproxy and nginx with its stream module
# (the peers), wrk (connection rate); web service (bench/reverseproxy.mjs): nginx and caddy (the peers),
# wrk (HTTP/1.1) and h2load from nghttp2-client (HTTP/2); valgrind (callgrind: instructions per proxied request,
# bench/instructions.mjs); STUN in the NAT lab (bench/stun.mjs): iperf3 and socat as above, the lab's router and
# STUN server (iproute2, nftables, conntrack, coturn) and the C compiler of the shared-port helper (gcc, libc6-dev:
# STUN over TCP); the file services (bench/storage.mjs): nginx with its WebDAV extension module, Apache (mod_dav),
# rclone (serve webdav) and pure-ftpd (the peers), curl (the client of every transfer), openssl (the peer's password hash).
# The benchmarks run every peer by hand, on loopback or in the lab's namespaces, with its config in a temp dir.
exec bash "$(dirname "$0")/ensure-debian-packages.sh" "the benchmarks" iperf3 socat haproxy nginx libnginx-mod-stream wrk caddy nghttp2-client valgrind iproute2 nftables conntrack coturn gcc libc6-dev libnginx-mod-http-dav-ext apache2 rclone pure-ftpd curl openssl
