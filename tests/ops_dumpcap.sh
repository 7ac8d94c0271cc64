#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Live capture: dpdk-dumpcap (a DPDK secondary process) captures a port of a
# running fcredirect; tshark checks what it caught. Secondary processes share
# the primary's hugepage memory, so this test reserves 2 MB hugepages for
# itself (as root) and gives them back. Ends with "N passed, M failed".
#   ops_dumpcap.sh <fcredirect> <fcoe-gen>
set -uo pipefail
fcr=$1 gen=$2
tmp=$(mktemp -d /tmp/ops-dumpcap.XXXXXX)
prefix=opsdump$$
pass=0 fail=0
old_hp=$(cat /proc/sys/vm/nr_hugepages)
pid=""
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	# the pages' files of this test's processes, should one have died
	for m in $(awk '$3 == "hugetlbfs" {print $2}' /proc/mounts); do
		rm -f "$m/$prefix"map_* 2>/dev/null
	done
	echo "$old_hp" >/proc/sys/vm/nr_hugepages 2>/dev/null
	rm -rf "$tmp" "/var/run/dpdk/$prefix"
}
trap cleanup EXIT
check() { # check <ok 0/1> <what>
	if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "  PASS: $2"; else fail=$((fail + 1)); echo "  FAIL: $2"; fi
}

echo "hugepages for the primary and the capture process"
# free memory fragments after a long uptime: compact it first
sync
echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
echo 1 >/proc/sys/vm/compact_memory 2>/dev/null
used=$(($(awk '/HugePages_Total/ {print $2}' /proc/meminfo) - $(awk '/HugePages_Free/ {print $2}' /proc/meminfo)))
need=$((old_hp + used + 128))
echo "$need" >/proc/sys/vm/nr_hugepages 2>/dev/null
got=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
[ "$got" -ge 96 ]; check $? "96 free 2 MB hugepages or more ($got)"
if ! grep -q hugetlbfs /proc/mounts; then
	mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages
fi
grep -q hugetlbfs /proc/mounts; check $? "hugetlbfs mounted"

# memory placed where processes map their libraries: show config says a
# capture process may not map it, and what to start fcredirect with
line=$(printf 'show config\nquit\n' | timeout 60 "$fcr" -m 64 --no-pci -l 0,1 \
	--file-prefix "$prefix" --log-level=lib.eal:error --base-virtaddr 0x7e8000000000 \
	--vdev net_ring0 --vdev net_ring1 -- -i --max-flows 4096 --max-bindings 4096 \
	--max-redirects 256 2>&1 | grep -m1 "^live capture:")
echo "$line" | grep -q "at risk: this process's memory lies at 0x7e8.*--base-virtaddr 0x300000000000"
check $? "show config: memory among the libraries' addresses puts live capture at risk ($line)"

"$gen" --out "$tmp/fabric.pcap" --commands "$tmp/fabric.cmds" --quiet 2>/dev/null
mkfifo "$tmp/in"
# memory at an address no library takes, in a sanitizer build too (whose
# shadow holds EAL's usual low one): dpdk-dumpcap maps it at the same place
"$fcr" -m 128 --no-pci -l 0,1 --file-prefix "$prefix" --log-level=lib.eal:error \
	--base-virtaddr 0x300000000000 \
	--vdev "net_pcap0,rx_pcap=$tmp/fabric.pcap,infinite_rx=1" \
	--vdev "net_pcap1,tx_iface=lo" --vdev "net_pcap2,tx_iface=lo" \
	-- -i --max-flows 65536 --max-bindings 65536 --max-redirects 4096 \
	<"$tmp/in" >"$tmp/fcr.out" 2>&1 &
pid=$!
exec 3>"$tmp/in" # standard input stays open until the test ends the program
cat "$tmp/fabric.cmds" >&3
echo start >&3
for _ in $(seq 1 300); do # a state; the bound only against a hang
	grep -q "tables lcore on lcore" "$tmp/fcr.out" && break
	sleep 0.2
done
grep -q "tables lcore on lcore" "$tmp/fcr.out"; check $? "fcredirect runs on hugepages, replaying the capture in a loop"

echo "show config" >&3
for _ in $(seq 1 300); do
	grep -q "^live capture:" "$tmp/fcr.out" && break
	sleep 0.2
done
line=$(grep -m1 "^live capture:" "$tmp/fcr.out")
echo "$line" | grep -q "available: dpdk-dumpcap --file-prefix $prefix -i <port name> ([0-9]* MB free"
check $? "show config: live capture available, how to start it ($line)"

# a capture running: its pool in show mempool, with what it takes
timeout 60 dpdk-dumpcap --file-prefix "$prefix" -i net_pcap1 -c 100000000 -w /dev/null \
	>"$tmp/dumpcap-bg.out" 2>&1 &
dc=$!
for _ in $(seq 1 300); do
	echo "show mempool" >&3
	sleep 0.2
	grep -q "^mempool capture_" "$tmp/fcr.out" && break
done
kill -INT "$dc" 2>/dev/null
wait "$dc" 2>/dev/null
pool=$(grep -m1 "^mempool capture_" "$tmp/fcr.out")
mb=$(echo "$pool" | sed -nE 's/.*, ([0-9.]+) MB\)$/\1/p')
[ -n "$mb" ] && awk -v m="$mb" 'BEGIN { exit !(m > 0 && m <= 11) }'
check $? "dpdk-dumpcap's pool, in show mempool while it runs, takes ${mb:-?} MB, within the 11 MB show config counts ($pool)"

timeout 60 dpdk-dumpcap --file-prefix "$prefix" -i net_pcap1 -c 300 -w "$tmp/live.pcapng" \
	>"$tmp/dumpcap.out" 2>&1
check $? "dpdk-dumpcap captured port 1 (net_pcap1) live"
n=$(tshark -r "$tmp/live.pcapng" -T fields -e frame.number 2>/dev/null | wc -l)
[ "$n" -ge 300 ]; check $? "the capture holds at least the 300 frames asked for ($n)"
nf=$(tshark -r "$tmp/live.pcapng" -Y fcoe -T fields -e frame.number 2>/dev/null | wc -l)
good=$(tshark -r "$tmp/live.pcapng" -Y 'fcoe.crc.status == 1' -T fields -e frame.number 2>/dev/null | wc -l)
[ "$nf" -gt 0 ] && [ "$good" -eq "$nf" ]; check $? "every FCoE frame caught has a good FC CRC ($good of $nf)"
wrong=$(tshark -r "$tmp/live.pcapng" -Y fcoe -T fields -e fc.d_id 2>/dev/null | grep -vc '^41\.')
[ "$wrong" -eq 0 ]; check $? "port 1 carries frames to the targets' domain only (others: $wrong)"
src=$(tshark -r "$tmp/live.pcapng" -Y fcoe -T fields -e eth.src 2>/dev/null | sort -u)
[ "$src" = "02:70:63:61:70:01" ]; check $? "with port 1's MAC as source ($src)"

kill -TERM "$pid" 2>/dev/null
for _ in $(seq 1 300); do # its exit, bounded only against a hang
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.2
done
if kill -0 "$pid" 2>/dev/null; then
	echo "  fcredirect still runs 60 s after SIGTERM; its stacks:"
	gdb -p "$pid" -batch -ex "thread apply all bt" 2>/dev/null | grep "^#" | head -40
	kill -KILL "$pid"
fi
wait "$pid"
rc=$?
pid=""
[ "$rc" = 0 ]; check $? "SIGTERM stops fcredirect cleanly (exit $rc)"
grep -q "Forward statistics" "$tmp/fcr.out"; check $? "and it prints its summary"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
