#!/usr/bin/env bash
# The main job on the built-in default, no NIC needed: installs what it
# needs, builds, generates the default FCoE fabric (hosts, targets, a service
# node, FIP logins, FCP traffic, redirected flows), runs fcredirect on three
# virtual pcap ports fed by that capture, and has tshark check what came out.
# Output goes to $FCR_RUN_DIR (default build/run-default/).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FCR_BUILD:-build}
./tools/bootstrap.sh
run=${FCR_RUN_DIR:-$build/run-default}
mkdir -p "$run"
rm -f "$run"/*.pcap

echo "== fcoe-gen: the default fabric"
"$build/tools/fcoe-gen" --out "$run/fabric.pcap" --commands "$run/fabric.cmds" \
	--list "$run/fabric.list"
echo "   $(grep -c '^route' "$run/fabric.cmds") routes," \
	"$(grep -c '^binding' "$run/fabric.cmds") bindings," \
	"$(grep -c '^redirect' "$run/fabric.cmds") redirects -> $run/fabric.cmds"

{
	cat "$run/fabric.cmds"
	echo "start"
	echo "wait idle 300"
	echo "redirect list"
	echo "show redirect paths"
	echo "quit"
} >"$run/run.cmds"

echo
echo "== fcredirect: port 0 replays the whole capture (the hosts', the targets', the service node's"
echo "   and the FCF's frames alike: so only port 0 counts rx); ports 1 (targets) and 2 (service"
echo "   node) only send, each into its own capture"
"$build/app/fcredirect" --no-huge -m 512 --no-pci -l 0,1 --file-prefix fcr-default \
	--log-level=lib.eal:error --log-level=pmd.net.pcap:error \
	--vdev "net_pcap0,rx_pcap=$run/fabric.pcap,tx_pcap=$run/port0-out.pcap" \
	--vdev "net_pcap1,tx_pcap=$run/port1-out.pcap" \
	--vdev "net_pcap2,tx_pcap=$run/port2-out.pcap" \
	-- -i --max-flows 65536 --max-bindings 65536 --max-redirects 4096 \
	<"$run/run.cmds" 2>&1 | grep -v -e '^TELEMETRY' -e 'MTU 2500 not set' |
	tee "$run/fcredirect.log" | sed '/^redirect path /,/^[0-9]* redirect paths$/d'

echo
echo "== tshark: the output captures"
for p in 0 1 2; do
	f="$run/port$p-out.pcap"
	fcoe=$(tshark -r "$f" -Y fcoe -T fields -e frame.number 2>/dev/null | wc -l)
	good=$(tshark -r "$f" -Y 'fcoe.crc.status == 1' -T fields -e frame.number 2>/dev/null | wc -l)
	fip=$(tshark -r "$f" -Y fip -T fields -e frame.number 2>/dev/null | wc -l)
	echo "   $f: $fcoe FCoE frames ($good with a good FC CRC), $fip FIP frames"
done
echo "   frames to the service node (port 2) by S_ID -> D_ID:"
tshark -r "$run/port2-out.pcap" -Y fcoe -T fields -e fc.s_id -e fc.d_id 2>/dev/null |
	sort | uniq -c | sort -k2 | head -8 | sed 's/^/     /'

echo
echo "== FC-Redirect as paths: host -> VT -> service node -> VI -> target (show redirect paths)"
sed -n '/^redirect path /,/^[0-9]* redirect paths$/p' "$run/fcredirect.log" | sed 's/^/   /'
