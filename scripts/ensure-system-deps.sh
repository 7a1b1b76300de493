#!/usr/bin/env bash
# Debian packages the test suite drives for real: the browser and its CJK font, oathtool
# (independent TOTP codes), openssl, tar, curl, iproute2, iptables (firewall auto-allow, tested in a
# network namespace), h2load (nghttp2-client: HTTP/2 load through the web service), HAProxy (a
# real PROXY protocol sender in front of the web service), the DNS peers (PowerDNS, BIND 9), a
# C compiler with libc headers for the shared-port helper (scripts/build-native.mjs; STUN over TCP),
# coturn (a real STUN server, RFC 5780 capable on two addresses, for the STUN client), and the NAT
# lab's router (test/natlab: nftables and conntrack; miniupnpd-iptables for UPnP IGD / NAT-PMP / PCP),
# and the file services' clients and peers: litmus (the WebDAV suite), rclone (a WebDAV client),
# lftp (an FTP/FTPS client; curl is the other), Apache with mod_dav (a remote WebDAV storage),
# pebble with pebble-challtestsrv (a test ACME CA and its DNS peer, for the ACME client), and for
# Wake-on-LAN iputils-ping (the ICMP online check without a raw socket of our own) and OpenSSH
# (the client runs the SSH shutdown; the server is its peer in test/wol.ssh.test.ts).
exec bash "$(dirname "$0")/ensure-debian-packages.sh" "the tests" chromium fonts-wqy-microhei oathtool openssl tar curl iproute2 iptables nghttp2-client haproxy pdns-server pdns-backend-sqlite3 sqlite3 bind9 gcc libc6-dev binutils coturn nftables conntrack miniupnpd-iptables litmus rclone lftp apache2 pebble iputils-ping openssh-client openssh-server
