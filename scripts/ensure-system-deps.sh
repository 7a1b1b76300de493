#!/usr/bin/env bash
# Debian packages the test suite drives for real: the browser and its CJK font, oathtool
# (independent TOTP codes), openssl, tar, curl, iproute2, iptables (firewall auto-allow, tested in a
# network namespace), h2load (nghttp2-client: HTTP/2 load through the web service), HAProxy (a
# real PROXY protocol sender in front of the web service), the DNS peers (PowerDNS, BIND 9), and
# the NAT lab (test/natlab: nftables and conntrack on its router, miniupnpd-iptables for UPnP IGD /
# NAT-PMP / PCP, coturn for STUN).
exec bash "$(dirname "$0")/ensure-debian-packages.sh" "the tests" chromium fonts-wqy-microhei oathtool openssl tar curl iproute2 iptables nghttp2-client haproxy pdns-server pdns-backend-sqlite3 sqlite3 bind9 nftables conntrack miniupnpd-iptables coturn
