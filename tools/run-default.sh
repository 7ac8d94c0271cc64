#!/usr/bin/env bash
# The main job on the built-in default, no NIC needed: installs what it
# needs, builds, generates the default FCoE fabric (hosts, targets, a service
# node, FIP logins, FCP traffic, redirected flows), has tshark check every
# frame, and brings fcredirect up on virtual pcap ports fed by that capture.
# Output goes to $FCR_RUN_DIR (default build/run-default/).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FCR_BUILD:-build}
./tools/bootstrap.sh
run=${FCR_RUN_DIR:-$build/run-default}
mkdir -p "$run"

echo "== fcoe-gen: default fabric"
"$build/tools/fcoe-gen" --out "$run/fabric.pcap" --commands "$run/fabric.cmds" \
	--list "$run/fabric.list"
echo "   capture:  $run/fabric.pcap"
echo "   commands: $run/fabric.cmds ($(grep -c '^route' "$run/fabric.cmds") routes," \
	"$(grep -c '^binding' "$run/fabric.cmds") bindings," \
	"$(grep -c '^redirect' "$run/fabric.cmds") redirects)"

echo
echo "== tshark: what is in the capture"
tshark -r "$run/fabric.pcap" -q -z io,phs | sed -n '/^eth/,/^=/p' | sed '$d'
total=$(tshark -r "$run/fabric.pcap" -Y fcoe -T fields -e fcoe.crc.status | wc -l)
good=$(tshark -r "$run/fabric.pcap" -Y 'fcoe.crc.status == 1' -T fields -e frame.number | wc -l)
echo "   FCoE frames: $total, FC CRC good (tshark): $good"
echo "   frames by FC kind:"
tshark -r "$run/fabric.pcap" -Y fcoe -T fields -e fc.r_ctl -e fc.type |
	awk '{k=$1" "$2; n[k]++} END {for (k in n) print k, n[k]}' | sort |
	awk 'BEGIN{name["0x06 0x08"]="fcp_cmnd"; name["0x05 0x08"]="fcp_xfer_rdy";
		   name["0x01 0x08"]="fcp_data"; name["0x07 0x08"]="fcp_rsp";
		   name["0x22 0x01"]="els_request"; name["0x23 0x01"]="els_reply"}
	     {k=$1" "$2; printf "     %-14s %s\n", (k in name ? name[k] : "r_ctl " $1 " type " $2), $3}'

echo
echo "== fcredirect: ports on the capture (virtual pcap ports, no NIC)"
"$build/app/fcredirect" --no-huge -m 512 --no-pci --file-prefix fcr-default \
	--log-level=lib.eal:error \
	--vdev "net_pcap0,rx_pcap=$run/fabric.pcap,tx_pcap=$run/port0-out.pcap" \
	--vdev "net_pcap1,tx_pcap=$run/port1-out.pcap" \
	--vdev "net_pcap2,tx_pcap=$run/port2-out.pcap" -- 2>&1 | grep -v '^TELEMETRY'
