#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# fcoe-pktgen, the live generator, on its own and driving a forwarder over
# memif (no NIC, no hugepages):
#   - on a net_ring port looped to itself: --count is exact, the warm-up's
#     frames are counted apart, a capture's bad FC CRCs stay bad and its
#     good ones good after stamping, bad options are refused; on a net_pcap
#     port, tshark reads what it sends (FC CRCs, VLAN, S_ID/D_ID);
#   - fcredirect (--pmd-config memif, two memif server ports) with
#     fcoe-pktgen as the client of the same sockets: host->target FCP_DATA
#     of 1,024 flows at 100,000 frames/s out of the generator's port 0,
#     routed by fcredirect to its port 1, back into the generator's port 1.
#     Every frame is accounted for on both sides (fcoe-pktgen's tx, rx and
#     lost against fcredirect's rx, tx and drops), CRCs are good, every
#     frame carries its stamp, latency percentiles are printed; then an
#     fcoe-gen capture replayed (--pcap) with its commands;
#   - dpdk-testpmd io forwarding, the benchmarks' reference, on the same
#     two sockets with the same generator and frames.
# Rates are printed, never asserted (a shared 2-core machine): loss at
# 100,000 frames/s is reported exactly and must be accounted for by the
# forwarder's own counters.
#
# usage: pktgen_memif.sh <fcredirect> <fcoe-gen> <fcoe-pktgen>
set -uo pipefail

FCR=${1:?usage: pktgen_memif.sh <fcredirect> <fcoe-gen> <fcoe-pktgen>}
GEN=${2:?usage: pktgen_memif.sh <fcredirect> <fcoe-gen> <fcoe-pktgen>}
PG=${3:?usage: pktgen_memif.sh <fcredirect> <fcoe-gen> <fcoe-pktgen>}
TESTPMD=${TESTPMD:-dpdk-testpmd}
# the memif profile of this source tree, wherever the build directory is
PMD_CONFIG_DIR=${FCR_PMD_CONFIG_DIR:-$(cd "$(dirname "$0")/.." && pwd)/pmd-config}
RATE=${PG_RATE:-100000}

for x in "$FCR" "$GEN" "$PG"; do
	if [ ! -x "$x" ]; then
		echo "$(basename "$0"): $x is not an executable" >&2
		exit 1
	fi
done
for x in "$TESTPMD" tshark; do
	if ! command -v "$x" >/dev/null; then
		echo "$(basename "$0"): $x not found (Debian packages dpdk, tshark)" >&2
		exit 1
	fi
done

# a forwarder that died must not take the script with it (its FIFO)
trap '' PIPE
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pg-test.XXXXXX")
PIDS=()
cleanup() {
	local p d
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null && sleep 0.5 && kill -9 "$p" 2>/dev/null
	done
	for d in /var/run/dpdk "${XDG_RUNTIME_DIR:-/nonexistent}/dpdk"; do
		[ -d "$d" ] && rm -rf "$d"/pg$$-* 2>/dev/null
	done
	if [ "${PG_KEEP:-0}" = 1 ]; then
		echo "(kept $TMP)"
	else
		rm -rf "$TMP"
	fi
	return 0
}
trap cleanup EXIT

. "$(dirname "$0")/check_lib.sh"

# kv FILE KEY: the value of KEY= on fcoe-pktgen's summary lines
kv() {
	grep '^summary ' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1
}
num() { [[ "${1:-}" =~ ^-?[0-9]+$ ]]; }

# fwd NAME FIELD: from fcredirect's last "show fwd stats": rx, tx, dropped
# (the total line), port0_rx ... port1_tx, or a kind / tables lcore counter
fwd() {
	local log=$TMP/$1.fcr.log
	case $2 in
	rx | tx | dropped)
		grep '^  total ' "$log" | tail -1 |
			awk -v f="$2" '{ for (i = 2; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'
		;;
	port[0-9]_rx | port[0-9]_tx)
		grep "^  port ${2:4:1} " "$log" | tail -1 |
			awk -v f="${2#*_}" '{ for (i = 3; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'
		;;
	*)
		grep -E "^    $2 +[0-9]+" "$log" | tail -1 | awk '{ print $2 }'
		;;
	esac
}

# the memif client side of the two sockets in DIR (fcoe-pktgen)
pg_memif() {
	echo --vdev "net_memif0,role=client,id=0,bsize=2560,socket=$1/fcr-memif0.sock" \
		--vdev "net_memif1,role=client,id=1,bsize=2560,socket=$1/fcr-memif1.sock"
}

# pg NAME [EAL args] -- [fcoe-pktgen options]: run fcoe-pktgen (one lcore)
# in the foreground, output in $TMP/NAME.pg; sets PG_RC
pg() {
	local name=$1
	shift
	PG_RC=0
	timeout 180 "$PG" --no-huge -m 256 --no-pci -l 0 --file-prefix "pg$$-$name-pg" \
		--log-level=lib.eal:error "$@" >"$TMP/$name.pg" 2>&1 || PG_RC=$?
	rm -rf "/var/run/dpdk/pg$$-$name-pg" 2>/dev/null
}

# pg_bg NAME [EAL args] -- [options]: fcoe-pktgen in the background with
# --linger 3: its links stay up 3 s after its summary. The forwarder is
# stopped in that time (pg_wait): memif resets a port's counters when the
# peer leaves, and DPDK 22.11's memif server can fault when its peer leaves
# while it is polling (seen with testpmd: a segfault in librte_net_memif)
pg_bg() {
	local name=$1
	shift
	timeout 180 "$PG" --no-huge -m 256 --no-pci -l 0 --file-prefix "pg$$-$name-pg" \
		--log-level=lib.eal:error "$@" --linger 3 >"$TMP/$name.pg" 2>&1 &
	PG_PID=$!
	PIDS+=("$PG_PID")
	for _ in $(seq 900); do
		grep -q '^summary lat_' "$TMP/$name.pg" && return 0
		kill -0 "$PG_PID" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}

# pg_wait NAME: fcoe-pktgen's exit; sets PG_RC
pg_wait() {
	PG_RC=0
	wait "$PG_PID" || PG_RC=$?
	rm -rf "/var/run/dpdk/pg$$-$1-pg" 2>/dev/null
}

# show_pg NAME: the lines of fcoe-pktgen worth seeing
show_pg() {
	grep -E '^(fcoe-pktgen:|summary )' "$TMP/$1.pg" | sed 's/^/    /'
}

# check_latency NAME: seven figures printed, > 0, in order
check_latency() {
	local f=$TMP/$1.pg k v prev=0 bad=""
	for k in min p50 p90 p99 p999 max; do
		v=$(kv "$f" "lat_${k}_ns")
		if ! num "$v" || [ "$v" -le 0 ] || [ "$v" -lt "$prev" ]; then
			bad="$bad lat_${k}_ns=$v"
		fi
		num "$v" && prev=$v
	done
	v=$(kv "$f" lat_mean_ns)
	num "$v" && [ "$v" -gt 0 ] || bad="$bad lat_mean_ns=$v"
	if [ -z "$bad" ]; then
		ok "$1: latency p50 $(kv "$f" lat_p50_ns) ns, p90 $(kv "$f" lat_p90_ns), p99 $(kv "$f" lat_p99_ns), p99.9 $(kv "$f" lat_p999_ns), max $(kv "$f" lat_max_ns) (over $(kv "$f" lat_samples) frames; > 0 and in order)"
	else
		ko "$1: latency figures missing, zero or out of order:$bad"
	fi
}

# start_fwd NAME CMDS -- forwarder command...: a forwarder (memif server of
# $TMP/NAME/) in the background, its standard input a FIFO held open on fd
# 7, output in $TMP/NAME.fcr.log; CMDS (a file, may be empty) written first
start_fwd() {
	local name=$1 cmds=$2
	shift 3
	mkfifo "$TMP/$name.in"
	"$@" <"$TMP/$name.in" >"$TMP/$name.fcr.log" 2>&1 &
	FWD_PID=$!
	PIDS+=("$FWD_PID")
	exec 7>"$TMP/$name.in"
	[ -s "$cmds" ] && cat "$cmds" >&7
}

# end_fwd NAME LINES...: send the last commands, close the input, wait
# for the forwarder (30 s at most); sets FWD_RC
end_fwd() {
	local name=$1
	shift
	printf '%s\n' "$@" >&7
	exec 7>&-
	for _ in $(seq 300); do
		kill -0 "$FWD_PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$FWD_PID" 2>/dev/null; then
		kill "$FWD_PID" 2>/dev/null
		sleep 1
		kill -9 "$FWD_PID" 2>/dev/null
		FWD_RC=124
	else
		wait "$FWD_PID"
		FWD_RC=$?
	fi
}

start_fcr() {
	local name=$1 cmds=$2
	mkdir -p "$TMP/$name"
	start_fwd "$name" "$cmds" -- env FCR_MEMIF_DIR="$TMP/$name" FCR_PMD_CONFIG_DIR="$PMD_CONFIG_DIR" \
		"$FCR" -l 0,1 --file-prefix "pg$$-$name-fcr" --log-level=lib.eal:error \
		-- --pmd-config memif -i --max-flows 65536 --max-bindings 65536 --max-redirects 4096 \
		--fabric-ports 0
}

# fcr_run NAME [EAL args] -- [options]: fcoe-pktgen against the running
# fcredirect NAME; fcredirect stops forwarding (and reports) after the
# generator's summary, before the generator leaves; then it quits
fcr_run() {
	local name=$1
	shift
	pg_bg "$name" "$@"
	printf '%s\n' stop "show fwd stats" ${FCR_RUN_MORE:+"$FCR_RUN_MORE"} >&7
	pg_wait "$name"
	end_fwd "$name" quit
	rm -rf "/var/run/dpdk/pg$$-$name-fcr" 2>/dev/null
	check "$name: fcredirect exited 0" "$FWD_RC" -eq 0
	[ "$FWD_RC" -eq 0 ] || tail -5 "$TMP/$name.fcr.log" | sed 's/^/        /'
}

# mbufs_back NAME WHEN: fcredirect's mbufs in use (show mempool) after the
# run as before it, with the command file's `show mempool` before `start`
# as the reference (mbufs in per-lcore caches count as free)
mbufs_back() {
	local name=$1 when=$2 first last
	first=$(sed -nE 's/^mempool fcr_mbufs_s0 .* in use ([0-9]+) .*/\1/p' "$TMP/$name.fcr.log" | head -1)
	last=$(sed -nE 's/^mempool fcr_mbufs_s0 .* in use ([0-9]+) .*/\1/p' "$TMP/$name.fcr.log" | tail -1)
	if num "$first" && num "$last" && [ "$(grep -c '^mempool fcr_mbufs_s0' "$TMP/$name.fcr.log")" -ge 2 ]; then
		check "$name: every mbuf back $when (in use $last, at rest $first)" "$last" -eq "$first"
	else
		ko "$name: no show mempool lines ('$first' '$last')"
	fi
}

# account NAME: fcoe-pktgen's counters against fcredirect's
account() {
	local name=$1 f=$TMP/$1.pg
	local tx rx other lost frx ftx fdrop f0 f1
	tx=$(kv "$f" tx_frames)
	rx=$(kv "$f" rx_frames)
	other=$(kv "$f" rx_other)
	lost=$(kv "$f" lost)
	frx=$(fwd "$name" rx)
	ftx=$(fwd "$name" tx)
	fdrop=$(fwd "$name" dropped)
	f0=$(fwd "$name" port0_tx)
	f1=$(fwd "$name" port1_tx)
	for v in tx rx other lost frx ftx fdrop f0 f1; do
		if ! num "${!v}"; then
			ko "$name: no figure for $v ('${!v}')"
			return 1
		fi
	done
	echo "    fcoe-pktgen: tx $tx, rx $rx on port 1 + $other on port 0, lost $lost;" \
		"fcredirect: rx $frx, tx $ftx (port 0 $f0, port 1 $f1), dropped $fdrop"
	if [ "$lost" -eq 0 ]; then
		ok "$name: no loss: every frame sent came back ($((rx + other)) of $tx)"
	else
		ok "$name: loss at this rate reported exactly: $lost of $tx frames ($(kv "$f" loss_pct)%)"
		grep -A20 'drops by reason' "$TMP/$name.fcr.log" | sed -n '2,/workers:/p' |
			grep -v workers: | sort -u | sed 's/^/        fcredirect drop: /'
	fi
	check "$name: fcredirect received every frame the generator sent (rx $frx == tx_frames $tx)" "$frx" -eq "$tx"
	check "$name: fcredirect rx == tx + dropped ($frx == $ftx + $fdrop)" "$frx" -eq $((ftx + fdrop))
	check "$name: what fcredirect sent on port 1 is what the generator received on its port 1 ($f1 == $rx)" "$f1" -eq "$rx"
	check "$name: what fcredirect sent on port 0 came back as rx_other ($f0 == $other)" "$f0" -eq "$other"
	check "$name: the generator's loss is fcredirect's drops ($lost == $fdrop)" "$lost" -eq "$fdrop"
}

echo "== fcoe-pktgen alone: a net_ring port looped to itself"
ring=(--vdev net_ring0 -- --tx-port 0 --rx-port 0)
pg ring-count "${ring[@]}" --count 5000 --warmup 0.1 --rate 50000 --flows 64
show_pg ring-count
f=$TMP/ring-count.pg
check "ring-count: exit 0" "$PG_RC" -eq 0
check "ring-count: --count 5000 after the warm-up: tx_frames $(kv "$f" tx_frames) == rx_frames $(kv "$f" rx_frames) == 5000" \
	"$(kv "$f" tx_frames)" = 5000 -a "$(kv "$f" rx_frames)" = 5000
check "ring-count: warm-up frames counted apart (rx_warmup $(kv "$f" rx_warmup) > 0), every measured frame stamped (rx_timed $(kv "$f" rx_timed))" \
	"$(kv "$f" rx_warmup)" -gt 0 -a "$(kv "$f" rx_timed)" = 5000

pg ring-short "${ring[@]}" --count 5000 --warmup 0.1 --rate 50000 --flows 64 --size 64 --check-crc
f=$TMP/ring-short.pg
check "ring-short: 64-byte frames (no payload) carry the short stamp: rx_timed $(kv "$f" rx_timed) == 5000, reordered $(kv "$f" rx_reordered), CRC good $(kv "$f" rx_crc_ok) bad $(kv "$f" rx_crc_bad)" \
	"$(kv "$f" rx_timed)" = 5000 -a "$(kv "$f" rx_reordered)" = 0 -a "$(kv "$f" rx_crc_bad)" = 0 -a "$(kv "$f" rx_crc_ok)" -ge 5000

if "$GEN" --out "$TMP/bad.pcap" --list "$TMP/bad.list" --commands /dev/null --quiet \
	--redirects 0 --bad-crc 10 2>/dev/null; then
	n=$(wc -l <"$TMP/bad.list")
	nbad=$(awk '$2 == "fcp_data_badcrc"' "$TMP/bad.list" | wc -l)
	ndata=$(awk '$2 ~ /^fcp_data/' "$TMP/bad.list" | wc -l)
	nfip=$(awk '$2 ~ /^fip_/' "$TMP/bad.list" | wc -l)
	pg ring-crc "${ring[@]}" --pcap "$TMP/bad.pcap" --count $((2 * n)) --check-crc
	show_pg ring-crc
	f=$TMP/ring-crc.pg
	check "ring-crc: the capture's $ndata FCP_DATA frames are the stamped ones" \
		"$(grep -c "$n frames, $ndata stamped" "$f")" -eq 1
	check "ring-crc: two passes, $nbad bad CRCs each, stay bad after stamping (rx_crc_bad $(kv "$f" rx_crc_bad) == $((2 * nbad)))" \
		"$(kv "$f" rx_crc_bad)" = $((2 * nbad))
	check "ring-crc: every other FCoE frame's CRC is good (rx_crc_ok $(kv "$f" rx_crc_ok) == $((2 * (n - nfip - nbad))))" \
		"$(kv "$f" rx_crc_ok)" = $((2 * (n - nfip - nbad)))
	check "ring-crc: rx_timed $(kv "$f" rx_timed) == $((2 * ndata)), rx_untimed $(kv "$f" rx_untimed) == $((2 * (n - ndata)))" \
		"$(kv "$f" rx_timed)" = $((2 * ndata)) -a "$(kv "$f" rx_untimed)" = $((2 * (n - ndata)))
else
	ko "fcoe-gen --bad-crc 10 failed"
fi

echo "== tshark judges what fcoe-pktgen sends (a net_pcap port writing a capture)"
pg cap-fabric --vdev "net_pcap0,tx_pcap=$TMP/cap-fabric.pcap" -- --tx-port 0 --rx-port 0 \
	--flows 64 --size 2048 --count 2000 --stats-period 0 --drain 0.1
check "cap-fabric: fcoe-pktgen exit 0, 2000 frames sent ($(kv "$TMP/cap-fabric.pg" tx_frames))" \
	"$PG_RC" -eq 0 -a "$(kv "$TMP/cap-fabric.pg" tx_frames)" = 2000
tshark -n -r "$TMP/cap-fabric.pcap" -T fields -e vlan.id -e fc.r_ctl -e fc.s_id -e fc.d_id \
	-e fcoe.crc.status -e frame.len >"$TMP/cap-fabric.tsv" 2>/dev/null
check "cap-fabric: tshark: 2000 frames, every one FCP_DATA on VLAN 100, 2048 bytes, FC CRC good" \
	"$(awk -F'\t' '$1 == 100 && $2 == "0x01" && $5 == 1 && $6 == 2048' "$TMP/cap-fabric.tsv" | wc -l)" -eq 2000 \
	-a "$(wc -l <"$TMP/cap-fabric.tsv")" -eq 2000
check "cap-fabric: tshark: 64 host/target pairs, hosts 01.xx.xx to targets 41.xx.xx" \
	"$(awk -F'\t' '$3 ~ /^01\./ && $4 ~ /^41\./ { print $3, $4 }' "$TMP/cap-fabric.tsv" | sort -u | wc -l)" -eq 64
pg cap-short --vdev "net_pcap0,tx_pcap=$TMP/cap-short.pcap" -- --tx-port 0 --rx-port 0 \
	--flows 64 --size 64 --count 1000 --stats-period 0 --drain 0.1
tshark -n -r "$TMP/cap-short.pcap" -T fields -e fc.r_ctl -e fc.s_id -e fc.d_id -e fc.ox_id -e fc.df_ctl \
	-e fcoe.crc.status -e frame.len >"$TMP/cap-short.tsv" 2>/dev/null
check "cap-short: tshark: 1000 short-stamped 64-byte FCP_DATA frames, FC CRC good, DF_CTL 0" \
	"$(awk -F'\t' '$1 == "0x01" && $5 == "0x00" && $6 == 1 && $7 == 64' "$TMP/cap-short.tsv" | wc -l)" -eq 1000
check "cap-short: tshark: each flow keeps its own OX_ID (64 pairs, 64 S_ID/D_ID/OX_ID triples)" \
	"$(cut -f2-4 "$TMP/cap-short.tsv" | sort -u | wc -l)" -eq 64
if [ -s "$TMP/bad.list" ]; then
	pg cap-bad --vdev "net_pcap0,tx_pcap=$TMP/cap-bad.pcap" -- --tx-port 0 --rx-port 0 \
		--pcap "$TMP/bad.pcap" --count "$n" --stats-period 0 --drain 0.1
	tshark -n -r "$TMP/cap-bad.pcap" -T fields -e fcoe.crc.status >"$TMP/cap-bad.tsv" 2>/dev/null
	check "cap-bad: tshark: one pass of the capture, stamped: $nbad bad FC CRCs (as in the capture), $((n - nfip - nbad)) good" \
		"$(grep -c '^0$' "$TMP/cap-bad.tsv")" -eq "$nbad" -a "$(grep -c '^1$' "$TMP/cap-bad.tsv")" -eq $((n - nfip - nbad))
fi

echo "  check: bad options are refused (exit 2, a message naming the option)"
for args in "--size 63" "--size 130" "--rate -5" "--burst 0" "--pcap $TMP/bad.pcap --flows 4" \
	"--pcap $TMP/nosuch.pcap" "--tx-port 5" "--bogus"; do
	# shellcheck disable=SC2086 # the options are words
	pg badopt "${ring[@]}" $args
	opt=${args%% *}
	if [ "$PG_RC" -eq 2 ] && grep -q -- "${opt}" "$TMP/badopt.pg"; then
		ok "$args: exit 2, $(grep -m1 -- "$opt" "$TMP/badopt.pg")"
	else
		ko "$args: exit $PG_RC; $(tail -1 "$TMP/badopt.pg")"
	fi
done
pg help "${ring[@]}" --help
check "--help: exit 0 and the usage" "$PG_RC" -eq 0 -a "$(grep -c '^Usage: fcoe-pktgen' "$TMP/help.pg")" -eq 1

echo "== fcredirect over memif: 1,024 host->target flows at $RATE frames/s for 2 s"
printf '%s\n' "route add 0x010000/8 port 0 fpma" "route add 0x410000/8 port 1 fpma" "show mempool" \
	start >"$TMP/fabric.cmds"
start_fcr fcr-fabric "$TMP/fabric.cmds"
# shellcheck disable=SC2046 # pg_memif prints words
FCR_RUN_MORE=$'show mempool\nshow fwd rates' fcr_run fcr-fabric $(pg_memif "$TMP/fcr-fabric") -- --flows 1024 \
	--size 128 --rate "$RATE" --duration 2 --check-crc --stats-period 1 --link-wait 60 --drain 3 \
	--csv "$TMP/fcr-fabric"
show_pg fcr-fabric
f=$TMP/fcr-fabric.pg
check "fcr-fabric: fcoe-pktgen exit 0" "$PG_RC" -eq 0
check "fcr-fabric: frames sent (tx_frames $(kv "$f" tx_frames), tx_pps $(kv "$f" tx_pps), rx_pps $(kv "$f" rx_pps))" \
	"$(kv "$f" tx_frames)" -gt 0
account fcr-fabric
# "sent by kind" counts a frame when the pipeline decides, before the port
# takes it: frames the port then refuses (tx_full) stay in their kind
plain=$(fwd fcr-fabric plain)
txfull=$(fwd fcr-fabric tx_full)
if [ "$plain" = "$(fwd fcr-fabric tx)" ]; then
	ok "fcr-fabric: every frame forwarded plain (plain $plain == fcredirect tx)"
elif [ "$plain" = "$(fwd fcr-fabric rx)" ] && [ "${txfull:-0}" = "$(fwd fcr-fabric dropped)" ]; then
	ok "fcr-fabric: every frame forwarded plain (plain $plain == fcredirect rx; it includes the $txfull the port refused, tx_full)"
else
	ko "fcr-fabric: plain $plain, fcredirect rx $(fwd fcr-fabric rx), tx $(fwd fcr-fabric tx), tx_full ${txfull:-0}"
fi
check "fcr-fabric: 1,024 flow entries ($(fwd fcr-fabric flows_added))" "$(fwd fcr-fabric flows_added)" = 1024
mbufs_back fcr-fabric "after $(fwd fcr-fabric rx) frames and stop"
leg=$(sed -n '/^rates /,/^  drops\/s/p' "$TMP/fcr-fabric.fcr.log" | grep -E '^  leg  plain ' | tail -1)
port1=$(sed -n '/^rates /,/^  drops\/s/p' "$TMP/fcr-fabric.fcr.log" | grep -E '^  port 1 ' | tail -1)
check "fcr-fabric: show fwd rates: the plain leg's frames/s and bits/s ('${leg# }'), port 1's ('${port1# }')" \
	"$(echo "$leg" | grep -cE 'plain +[0-9.]+ [kM]fps [0-9.]+ [kMG]bps')" -eq 1 -a \
	"$(echo "$port1" | grep -cE 'tx [0-9.]+ [kM]fps [0-9.]+ [kMG]bps')" -eq 1

echo "== fcredirect over memif: a TX ring nobody reads (the generator polls port 0 only)"
start_fcr fcr-txfull "$TMP/fabric.cmds"
# shellcheck disable=SC2046
FCR_RUN_MORE="show mempool" fcr_run fcr-txfull $(pg_memif "$TMP/fcr-txfull") -- --flows 64 \
	--size 128 --rate 0 --count 20000 --tx-port 0 --rx-port 0 --stats-period 0 --link-wait 60 \
	--drain 1
check "fcr-txfull: fcoe-pktgen exit 0" "$PG_RC" -eq 0
check "fcr-txfull: port 1's ring filled: the frames it refused counted tx_full ($(fwd fcr-txfull tx_full)), rx == tx + dropped ($(fwd fcr-txfull rx) == $(fwd fcr-txfull tx) + $(fwd fcr-txfull dropped))" \
	"$(fwd fcr-txfull tx_full)" -gt 0 -a "$(fwd fcr-txfull rx)" -eq $(($(fwd fcr-txfull tx) + $(fwd fcr-txfull dropped)))
mbufs_back fcr-txfull "after $(fwd fcr-txfull tx_full) frames refused by a full TX ring and stop"
check "fcr-fabric: every frame received has a good FC CRC (rx_crc_ok $(kv "$f" rx_crc_ok) == rx_frames $(kv "$f" rx_frames), rx_crc_bad $(kv "$f" rx_crc_bad))" \
	"$(kv "$f" rx_crc_ok)" = "$(kv "$f" rx_frames)" -a "$(kv "$f" rx_crc_bad)" = 0
check "fcr-fabric: every frame carries its stamp through fcredirect (rx_timed $(kv "$f" rx_timed), rx_untimed $(kv "$f" rx_untimed), reordered $(kv "$f" rx_reordered))" \
	"$(kv "$f" rx_timed)" = "$(kv "$f" rx_frames)" -a "$(kv "$f" rx_untimed)" = 0 -a "$(kv "$f" rx_reordered)" = 0
check "fcr-fabric: progress lines printed" "$(grep -c '^period t=' "$f")" -ge 1
check_latency fcr-fabric
nhist=$(grep -c '^hist ' "$f")
hsum=$(awk '$1 == "hist" && $3 == "ns" { s += $(NF - 1) } END { print s + 0 }' "$f")
check "fcr-fabric: the latency histogram as text: $nhist lines, their frames add up to lat_samples ($hsum == $(kv "$f" lat_samples))" \
	"$nhist" -ge 2 -a "$hsum" = "$(kv "$f" lat_samples)"
csvsum=$(awk -F, 'NR > 1 { s += $3 } END { print s + 0 }' "$TMP/fcr-fabric-latency.csv" 2>/dev/null)
rows=$(($(wc -l <"$TMP/fcr-fabric-rates.csv" 2>/dev/null || echo 1) - 1))
check "fcr-fabric: --csv: the histogram's buckets ($csvsum frames) and a row a period ($rows)" \
	"${csvsum:-0}" = "$(kv "$f" lat_samples)" -a "$rows" -ge 1
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
	/usr/bin/python3 "$(dirname "$0")/../perf/plot-latency" "$TMP/fcr-fabric" "$TMP/latency.png" \
		--title "fcoe-pktgen through fcredirect (memif)" >"$TMP/plot.log" 2>&1
	check "fcr-fabric: perf/plot-latency draws them (a PNG of $(stat -c %s "$TMP/latency.png" 2>/dev/null) bytes)" \
		"$(head -c 4 "$TMP/latency.png" 2>/dev/null | tail -c 3)" = PNG
else
	echo "  info: no python3-matplotlib: perf/plot-latency not tried"
fi

echo "== the distributor: one RX queue per port dealt to two workers (lcores sharing CPU 1)"
# lcore 1 receives both ports' queue 0 and deals by (VLAN, S_ID, D_ID) to the
# workers on lcores 2 and 3; each worker sends on its own TX queue, so the
# generator polls two RX queues per port (a memif server's TX queue reaches
# only the client's RX queue of the same number)
mkdir -p "$TMP/fcr-dist"
start_fwd fcr-dist "$TMP/fabric.cmds" -- env FCR_MEMIF_DIR="$TMP/fcr-dist" FCR_PMD_CONFIG_DIR="$PMD_CONFIG_DIR" \
	"$FCR" --lcores '0@0,1@1,2@1,3@1' --file-prefix "pg$$-fcr-dist-fcr" --log-level=lib.eal:error \
	-- --pmd-config memif -i --max-flows 65536 --max-bindings 65536 --max-redirects 4096 \
	--fabric-ports 0 --distributor '(0,0,1),(1,0,1)'
# shellcheck disable=SC2046
FCR_RUN_MORE="show lcores" fcr_run fcr-dist $(pg_memif "$TMP/fcr-dist") -- --flows 1024 --size 128 \
	--rate $((RATE / 2)) --duration 2 --check-crc --stats-period 0 --link-wait 60 --drain 3 --rxq 2
show_pg fcr-dist
f=$TMP/fcr-dist.pg
check "fcr-dist: fcoe-pktgen exit 0" "$PG_RC" -eq 0
account fcr-dist
check "fcr-dist: fcredirect says 2 workers and 1 distributor" \
	"$(grep -c '2 worker(s), 1 distributor(s)' "$TMP/fcr-dist.fcr.log")" -eq 1
w0=$(grep -E '^    worker 0 ' "$TMP/fcr-dist.fcr.log" | tail -1 | sed -E 's/.*frames ([0-9]+),.*/\1/')
w1=$(grep -E '^    worker 1 ' "$TMP/fcr-dist.fcr.log" | tail -1 | sed -E 's/.*frames ([0-9]+),.*/\1/')
dd=$(grep -E '^    distributor 0 ' "$TMP/fcr-dist.fcr.log" | tail -1 | sed -E 's/.*frames ([0-9]+),.*/\1/')
dfull=$(grep -E '^    distributor 0 ' "$TMP/fcr-dist.fcr.log" | tail -1 | sed -E 's/.*distributor_full ([0-9]+).*/\1/')
if num "$w0" && num "$w1" && num "$dd" && num "$dfull"; then
	check "fcr-dist: both workers forwarded (worker 0: $w0, worker 1: $w1 frames), each under 3/4 of the total" \
		"$w0" -gt $((dd / 4)) -a "$w1" -gt $((dd / 4))
	check "fcr-dist: the distributor received every frame fcredirect did (frames $dd == rx $(fwd fcr-dist rx)), and the workers got all it did not drop ($w0 + $w1 + $dfull)" \
		"$dd" = "$(fwd fcr-dist rx)" -a $((w0 + w1 + dfull)) = "$dd"
else
	ko "fcr-dist: no worker or distributor lines ('$w0' '$w1' '$dd' '$dfull')"
fi
check "fcr-dist: show lcores: lcore 1 the distributor, lcores 2 and 3 workers ($(grep -cE '^[23] +worker ' "$TMP/fcr-dist.fcr.log"))" \
	"$(grep -cE '^1 +distributor +[0-9]+' "$TMP/fcr-dist.fcr.log")" -eq 1 -a \
	"$(grep -cE '^[23] +worker ' "$TMP/fcr-dist.fcr.log")" -eq 2
check "fcr-dist: every flow's frames in order through two workers (rx_reordered $(kv "$f" rx_reordered)), every frame stamped, CRCs good" \
	"$(kv "$f" rx_reordered)" = 0 -a "$(kv "$f" rx_timed)" = "$(kv "$f" rx_frames)" -a "$(kv "$f" rx_crc_bad)" = 0

echo "  check: a queue cannot be both a worker's and a distributor's"
FCR_MEMIF_DIR="$TMP/fcr-dist" FCR_PMD_CONFIG_DIR="$PMD_CONFIG_DIR" timeout 60 "$FCR" --lcores '0@0,1@1,2@1' \
	--file-prefix "pg$$-dist-bad" --log-level=lib.eal:error -- --pmd-config memif \
	--config '(0,0,1)' --distributor '(0,0,2)' </dev/null >"$TMP/dist-bad.log" 2>&1
rc=$?
rm -rf "/var/run/dpdk/pg$$-dist-bad" 2>/dev/null
check "--config (0,0,1) with --distributor (0,0,2): exit 2, '$(grep -m1 -o "queue 0 of port 0 is a distributor's" "$TMP/dist-bad.log")'" \
	"$rc" -eq 2 -a "$(grep -c "queue 0 of port 0 is a distributor's" "$TMP/dist-bad.log")" -ge 1

echo "== fcredirect over memif: an fcoe-gen capture replayed (--pcap), its commands"
if "$GEN" --out "$TMP/fab.pcap" --list "$TMP/fab.list" --commands "$TMP/fab.gen" --quiet \
	--redirects 0 2>/dev/null; then
	n=$(wc -l <"$TMP/fab.list")
	ndata=$(awk '$2 == "fcp_data"' "$TMP/fab.list" | wc -l)
	{ cat "$TMP/fab.gen"; echo start; } >"$TMP/fab.cmds"
	start_fcr fcr-pcap "$TMP/fab.cmds"
	# shellcheck disable=SC2046
	fcr_run fcr-pcap $(pg_memif "$TMP/fcr-pcap") -- --pcap "$TMP/fab.pcap" --rate $((RATE / 2)) \
		--duration 1 --check-crc --stats-period 0 --link-wait 60 --drain 3
	show_pg fcr-pcap
	f=$TMP/fcr-pcap.pg
	check "fcr-pcap: fcoe-pktgen exit 0" "$PG_RC" -eq 0
	check "fcr-pcap: the capture's $n frames loaded, its $ndata FCP_DATA frames stamped" \
		"$(grep -c "$n frames, $ndata stamped" "$f")" -eq 1
	account fcr-pcap
	check "fcr-pcap: FIP passed through (passthrough $(fwd fcr-pcap passthrough)), logins snooped ($(fwd fcr-pcap login_frames_snooped))" \
		"$(fwd fcr-pcap passthrough)" -gt 0 -a "$(fwd fcr-pcap login_frames_snooped)" -gt 0
	check "fcr-pcap: stamped and other frames both came back (rx_timed $(kv "$f" rx_timed), rx_untimed $(kv "$f" rx_untimed)), no bad CRC ($(kv "$f" rx_crc_bad))" \
		"$(kv "$f" rx_timed)" -gt 0 -a "$(kv "$f" rx_untimed)" -gt 0 -a "$(kv "$f" rx_crc_bad)" = 0
	check_latency fcr-pcap
else
	ko "fcoe-gen failed"
fi

echo "== dpdk-testpmd io forwarding over the same memif sockets, same generator and frames"
: >"$TMP/none.cmds"
testpmd_ref() {
	rm -rf "$TMP/testpmd" "$TMP/testpmd.in"
	mkdir -p "$TMP/testpmd"
	start_fwd testpmd "$TMP/none.cmds" -- stdbuf -oL "$TESTPMD" --no-huge -m 256 --no-pci -l 0,1 \
		--file-prefix "pg$$-testpmd-tp" --log-level=lib.eal:error \
		--vdev "net_memif0,role=server,id=0,bsize=2560,socket=$TMP/testpmd/fcr-memif0.sock" \
		--vdev "net_memif1,role=server,id=1,bsize=2560,socket=$TMP/testpmd/fcr-memif1.sock" \
		-- -i --forward-mode=io --auto-start --total-num-mbufs=8192
	# shellcheck disable=SC2046
	pg_bg testpmd $(pg_memif "$TMP/testpmd") -- --flows 1024 --size 128 \
		--rate "$RATE" --duration 2 --stats-period 0 --link-wait 60 --drain 3
	printf '%s\n' "show port stats all" stop >&7 2>/dev/null
	pg_wait testpmd
	end_fwd testpmd quit 2>/dev/null
	rm -rf "/var/run/dpdk/pg$$-testpmd-tp" 2>/dev/null
}
# The reference, not the thing under test: Debian's testpmd can panic in
# DPDK 22.11's interrupt thread as its memif server starts ("PANIC in
# eal_intr_thread_main(): Error adding fd ... epoll_ctl") on a loaded
# machine; that crash, and only that one, gets another try. (Writing to
# the input of a testpmd that died must not end this script.)
trap '' PIPE
for attempt in 1 2 3; do
	testpmd_ref
	if [ "$FWD_RC" -ne 0 ] && grep -q 'PANIC in eal_intr_thread_main' "$TMP/testpmd.fcr.log" &&
		[ "$attempt" -lt 3 ]; then
		echo "    testpmd panicked in DPDK's interrupt thread at start (attempt $attempt); again"
		continue
	fi
	break
done
show_pg testpmd
f=$TMP/testpmd.pg
check "testpmd: fcoe-pktgen exit 0" "$PG_RC" -eq 0
check "testpmd: testpmd exited 0" "$FWD_RC" -eq 0
[ "$FWD_RC" -eq 0 ] || grep -v '^ *$' "$TMP/testpmd.fcr.log" | tail -8 | sed 's/^/        /'
tx=$(kv "$f" tx_frames)
rx=$(kv "$f" rx_frames)
lost=$(kv "$f" lost)
# testpmd's NIC statistics: port 0's RX-packets, port 1's TX-packets
trx=$(awk '/NIC statistics for port 0 /{ p = 1 } p && /RX-packets:/{ print $2; exit }' "$TMP/testpmd.fcr.log")
ttx=$(awk '/NIC statistics for port 1 /{ p = 1 } p && /TX-packets:/{ print $2; exit }' "$TMP/testpmd.fcr.log")
echo "    fcoe-pktgen: tx $tx, rx $rx, lost $lost; testpmd: port 0 rx $trx, port 1 tx $ttx"
if num "$lost" && [ "$lost" -eq 0 ]; then
	ok "testpmd: no loss: rx_frames $rx == tx_frames $tx"
elif num "$lost"; then
	ok "testpmd: loss at this rate reported exactly: $lost of $tx frames"
else
	ko "testpmd: no summary"
fi
check "testpmd: testpmd received every frame sent ($trx == $tx) and sent what the generator received ($ttx == $rx)" \
	"${trx:-x}" = "$tx" -a "${ttx:-x}" = "$rx"
check_latency testpmd

finish
