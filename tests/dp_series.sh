#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Two fcredirect nodes in series, both with the same redirects (a redirect is
# configured fabric-wide), judged frame by frame by dp_check.py: node A
# forwards fcoe-gen's default fabric (hosts on port 0, targets on 1, the
# service node on 2) and marks every frame it rewrote; the frames A sent on
# its three ports, one capture after the other, are node B's input on its
# port 0, cabled where A's fabric port would be. B must send every frame
# with the mark on plain, as A sent it (the same port, the same bytes),
# count it in `series`, redirect none again, drop none as a hidden pair, and
# end with the redirects and bindings it began with: with port 0 a series
# port (a lab, and a fabric whose FCF is on port 1) and a fabric port (then
# B's hosts sit behind port 3: a frame is never sent back out of the fabric
# port it came in on).
# Without --series-ports B takes them for forgeries: mark_untrusted, every
# one. No timing: A has ended before B starts, and each waits for its whole
# input by count.
#
# usage: dp_series.sh <fcredirect> <fcoe-gen>
FCR=${1:?usage: dp_series.sh <fcredirect> <fcoe-gen>}
GEN=${2:?usage: dp_series.sh <fcredirect> <fcoe-gen>}
. "$(dirname "$0")/dp_lib.sh"

# marked CAPTURE: how many frames carry the mark, as tshark reads them (the
# FCoE header's byte 12, bit 0x01: frame byte 30 under fcoe-gen's tag)
marked() {
	tshark -n -r "$1" -Y 'fcoe && frame[30] & 0x01' -T fields -e frame.number 2>/dev/null | wc -l
}

# lists_kept NAME: run NAME's `redirect list` and `binding list` before
# `start` and after `stop` are the same
lists_kept() {
	local all n
	all=$(grep -E '^(redirect|binding) vlan' "$TMP/$1.log" || true)
	n=$(($(printf '%s\n' "$all" | grep -c .) / 2))
	if [ "$n" -gt 0 ] && [ "$(printf '%s\n' "$all" | head -n "$n")" = "$(printf '%s\n' "$all" | tail -n "$n")" ]; then
		ok "$1: redirect list and binding list as they were before start ($n lines)"
	else
		ko "$1: redirect list or binding list changed (or missing)"
	fi
}

echo "== node A: the default fabric, 4 redirects over static bindings; every rewritten frame marked"
gen a || finish
script "$TMP/a.cmds" "$TMP/a.run"
fcr a "$TMP/a.pcap" "$TMP/a.run" || finish
judge a a "$TMP/a.run" --bindings commands
legs=0
for leg in host_to_target vi_to_target target_to_host vt_to_host; do
	legs=$((legs + $(fwd_stat a "$leg")))
done
nmark=0
for p in 0 1 2; do
	nmark=$((nmark + $(marked "$TMP/a.out$p.pcap")))
done
check "a: the frames with the mark (tshark: $nmark) are the legs' frames ($legs)" \
	"$nmark" -eq "$legs" -a "$legs" -gt 0
mergecap -F pcap -a -w "$TMP/b.pcap" "$TMP/a.out0.pcap" "$TMP/a.out1.pcap" "$TMP/a.out2.pcap"
echo "  node B's input: $(pcap_frames "$TMP/b.pcap") frames, $nmark with the mark"

# the same configuration, its lists printed before start too
{ cat "$TMP/a.cmds"; echo "redirect list"; echo "binding list"; } >"$TMP/b.cfg"
script "$TMP/b.cfg" "$TMP/b.run"
# and with port 0 a fabric port, the hosts' routes to port 3 (dp_lib.sh
# fabric_replay): the same fabric's commands
FABRIC=0 gen a3 || finish
{ cat "$TMP/a3.cmds"; echo "redirect list"; echo "binding list"; } >"$TMP/b3.cfg"
script "$TMP/b3.cfg" "$TMP/b3.run"

# node NAME DESCRIPTION [fcredirect options]: B on A's output, judged; every
# frame with the mark sent plain and counted, no leg taken
node() {
	local name=$1 what=$2 leg hidden run=$TMP/b.run
	shift 2
	fabric_replay && run=$TMP/b3.run
	echo "== node B, $what"
	fcr "$name" "$TMP/b.pcap" "$run" -- "$@" || return 0
	judge "$name" b "$run" --bindings commands --series-ports 0
	check "$name: series $(fwd_stat "$name" series), the $nmark frames with the mark" \
		"$(fwd_stat "$name" series)" -eq "$nmark"
	for leg in host_to_target vi_to_target target_to_host vt_to_host; do
		check "$name: $leg $(fwd_stat "$name" "$leg"): nothing redirected again" \
			"$(fwd_stat "$name" "$leg")" -eq 0
	done
	hidden=$(fwd_stat "$name" redirect_hidden)
	check "$name: redirect_hidden ${hidden:-0}: the hidden pairs A's frames now name pass" \
		"${hidden:-0}" -eq 0
	lists_kept "$name"
}

node b-series "port 0 a series port (a lab): A's frames as A sent them" --series-ports 0
python3 "$DP_CHECK" compare --name b-series \
	--a 0="$TMP/a.out0.pcap" --a 1="$TMP/a.out1.pcap" --a 2="$TMP/a.out2.pcap" \
	--b 0="$TMP/b-series.out0.pcap" --b 1="$TMP/b-series.out1.pcap" --b 2="$TMP/b-series.out2.pcap" \
	>"$TMP/b-series.compare" 2>&1 || true
grep -E '^  (PASS|FAIL)|^        ' "$TMP/b-series.compare" || true
passed=$((passed + $(grep -c '^  PASS' "$TMP/b-series.compare" || true)))
failed=$((failed + $(grep -c '^  FAIL' "$TMP/b-series.compare" || true)))

FABRIC=1 node b-fabric "port 0 a series port, the FCF on port 1: the edge check still applies" \
	--series-ports 0
FABRIC=0 node b-fport "port 0 a fabric port"

echo "== node B, port 0 not a series port: every frame with the mark is a forgery"
if fcr b-edge "$TMP/b.pcap" "$TMP/b.run"; then
	judge b-edge b "$TMP/b.run" --bindings commands
	check "b-edge: mark_untrusted $(fwd_stat b-edge mark_untrusted), the $nmark frames with the mark; series $(fwd_stat b-edge series)" \
		"$(fwd_stat b-edge mark_untrusted)" -eq "$nmark" -a "$(fwd_stat b-edge series)" -eq 0
fi

finish
