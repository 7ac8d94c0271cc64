#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# tshark judges the captures fcoe-gen writes: every FCoE frame has a good FC
# CRC, the frame counts are the ones the generator reports, FIP frames
# dissect as FIP, and each frame's VLAN, S_ID, D_ID, OX_ID and R_CTL are the
# ones the generator says it wrote (its --list). Same seed, same bytes; bad
# options are refused.
#
# usage: fcoe_gen_tshark.sh <path-to-fcoe-gen>
set -euo pipefail

GEN=${1:?usage: fcoe_gen_tshark.sh <path-to-fcoe-gen>}
if [ ! -x "$GEN" ]; then
	echo "fcoe_gen_tshark: $GEN is not an executable" >&2
	exit 1
fi
if ! command -v tshark >/dev/null; then
	echo "fcoe_gen_tshark: tshark not found (Debian package tshark)" >&2
	exit 1
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/fcoe-gen-tshark.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

passed=0
failed=0

ok() {
	passed=$((passed + 1))
	echo "  PASS: $*"
}

ko() {
	failed=$((failed + 1))
	echo "  FAIL: $*"
}

# value of key=N in the generator's summary line
kv() {
	sed -n "s/.* $2=\([0-9][0-9]*\).*/\1/p" "$1"
}

# tshark over a capture; -n: no name resolution, nothing but the fields
ts() {
	local pcap=$1
	shift
	tshark -n -r "$pcap" "$@" 2>>"$TMP/tshark.err" || true
}

# Generate one capture and have tshark check it (5 checks).
judge() {
	local name=$1
	shift
	local pcap=$TMP/$name.pcap list=$TMP/$name.list sum=$TMP/$name.sum
	local frames bytes fip total n_fcoe n_fip bad size want

	echo "== $name: fcoe-gen $*"
	if ! "$GEN" --out "$pcap" --list "$list" --quiet "$@" 2>"$sum"; then
		cat "$sum"
		ko "$name: fcoe-gen failed, nothing to judge"
		return
	fi
	cat "$sum"
	frames=$(kv "$sum" frames)
	bytes=$(kv "$sum" bytes)
	fip=$(( $(kv "$sum" fip_flogi) + $(kv "$sum" fip_flogi_acc) ))

	ts "$pcap" -Y fcoe -T fields -e frame.number -e vlan.id -e fc.s_id \
		-e fc.d_id -e fc.ox_id -e fcoe.crc.status -e fc.r_ctl >"$TMP/fcoe.tsv"
	ts "$pcap" -Y fip -T fields -e frame.number -e vlan.id -e fc.s_id \
		-e fc.d_id -e fc.ox_id -e fc.r_ctl >"$TMP/fip.tsv"
	total=$(ts "$pcap" -T fields -e frame.number | wc -l)
	n_fcoe=$(wc -l <"$TMP/fcoe.tsv")
	n_fip=$(wc -l <"$TMP/fip.tsv")

	echo "  check: every FCoE frame has fcoe.crc.status == 1"
	bad=$(awk -F'\t' '$6 != "1"' "$TMP/fcoe.tsv" | wc -l)
	if [ "$n_fcoe" -gt 0 ] && [ "$bad" -eq 0 ]; then
		ok "$name: $n_fcoe FCoE frames, all with a good FC CRC"
	else
		ko "$name: $bad of $n_fcoe FCoE frames without a good FC CRC"
		awk -F'\t' '$6 != "1"' "$TMP/fcoe.tsv" | head -5
	fi

	echo "  check: tshark counts the frames the generator reports, all FCoE or FIP"
	if [ "$total" -eq "$frames" ] && [ $((n_fcoe + n_fip)) -eq "$frames" ]; then
		ok "$name: $total frames"
	else
		ko "$name: generator says $frames frames, tshark reads $total ($n_fcoe FCoE + $n_fip FIP)"
	fi

	echo "  check: FIP frames dissect as FIP"
	if [ "$n_fip" -eq "$fip" ]; then
		ok "$name: $n_fip FIP frames"
	else
		ko "$name: generator says $fip FIP frames, tshark's -Y fip finds $n_fip"
	fi

	echo "  check: per-frame VLAN, S_ID, D_ID, OX_ID, R_CTL equal the --list"
	# the list's kind stands for an R_CTL; an untagged frame has no vlan.id
	awk '
	BEGIN {
		r["fip_flogi"] = "0x22"; r["fip_flogi_acc"] = "0x23"
		r["els_flogi"] = "0x22"; r["els_flogi_acc"] = "0x23"
		r["plogi"] = "0x22"; r["plogi_acc"] = "0x23"
		r["prli"] = "0x22"; r["prli_acc"] = "0x23"
		r["fcp_cmnd"] = "0x06"; r["xfer_rdy"] = "0x05"
		r["fcp_data"] = "0x01"; r["fcp_rsp"] = "0x07"
	}
	{ print $1, $3, $4, $5, $6, ($2 in r) ? r[$2] : "unknown-kind-" $2 }
	' "$list" >"$TMP/want.ids"
	{
		awk -F'\t' '{ print $1, ($2 == "" ? "-" : $2), $3, $4, $5, $7 }' "$TMP/fcoe.tsv"
		awk -F'\t' '{ print $1, ($2 == "" ? "-" : $2), $3, $4, $5, $6 }' "$TMP/fip.tsv"
	} | sort -n -k1,1 >"$TMP/got.ids"
	if [ -s "$TMP/want.ids" ] && diff -u "$TMP/want.ids" "$TMP/got.ids" >"$TMP/ids.diff"; then
		ok "$name: $(wc -l <"$TMP/want.ids") frames match the list"
	else
		ko "$name: tshark's IDs differ from the --list (first lines of the diff:)"
		head -12 "$TMP/ids.diff"
	fi

	echo "  check: file size is the pcap header plus 16 bytes per frame plus the frame bytes"
	size=$(stat -c %s "$pcap")
	want=$((24 + 16 * frames + bytes))
	if [ "$size" -eq "$want" ]; then
		ok "$name: $size bytes"
	else
		ko "$name: file has $size bytes, expected $want"
	fi
}

# A bad option: exit status 2 and a message that names the option.
refuse() {
	local opt=$1
	shift
	local rc=0

	"$GEN" "$@" >"$TMP/bad.out" 2>"$TMP/bad.err" || rc=$?
	if [ "$rc" -eq 2 ] && grep -q -- "$opt" "$TMP/bad.err"; then
		ok "'$*' refused: $(head -1 "$TMP/bad.err")"
	else
		ko "'$*' exit $rc, message: $(head -1 "$TMP/bad.err")"
	fi
}

judge default
judge els --logins els
judge untagged --logins none --untagged
judge jumbo --max-payload 2112 --io-sizes 65536
judge big --flows 2000 --exchanges 2

echo "== commands of the default fabric"
echo "  check: routes, bindings and redirects for every port, and every FCID on the wire bound"
if "$GEN" --out "$TMP/c.pcap" --commands "$TMP/c.cmds" --quiet 2>/dev/null; then
	routes=$(grep -c '^route add 0x[0-9a-f]\{6\}/8 port [0-9]* fpma$' "$TMP/c.cmds" || true)
	binds=$(grep -c '^binding add vlan 100 wwpn [0-9a-f:]\{23\} fcid 0x[0-9a-f]\{6\}$' "$TMP/c.cmds" || true)
	redirs=$(grep -c '^redirect add vlan 100 host 21:[0-9a-f:]* target 50:[0-9a-f:]* vi 2f:[0-9a-f:]* vt 2f:[0-9a-f:]*$' "$TMP/c.cmds" || true)
	# FCIDs tshark sees (dotted), less the fabric's, all bound by a command
	ts "$TMP/c.pcap" -Y fcoe -T fields -e fc.s_id -e fc.d_id | tr '\t' '\n' |
		grep -v -e '^ff\.ff\.fe$' -e '^00\.00\.00$' | sort -u >"$TMP/seen.ids"
	sed -n 's/^binding add .* fcid 0x\(..\)\(..\)\(..\)$/\1.\2.\3/p' "$TMP/c.cmds" |
		sort -u >"$TMP/bound.ids"
	unbound=$(comm -23 "$TMP/seen.ids" "$TMP/bound.ids" | wc -l)
	if [ "$routes" -eq 3 ] && [ "$binds" -eq 17 ] && [ "$redirs" -eq 4 ] &&
	   [ -s "$TMP/seen.ids" ] && [ "$unbound" -eq 0 ] &&
	   [ "$(wc -l <"$TMP/c.cmds")" -eq 24 ]; then
		ok "3 routes, 17 bindings, 4 redirects; all $(wc -l <"$TMP/seen.ids") FCIDs on the wire bound"
	else
		ko "routes $routes (want 3), bindings $binds (17), redirects $redirs (4), unbound FCIDs $unbound"
	fi
else
	ko "fcoe-gen --commands failed"
fi

echo "== determinism"
echo "  check: the same seed gives the same bytes"
"$GEN" --out "$TMP/s1.pcap" --seed 7 --quiet 2>/dev/null
"$GEN" --out "$TMP/s2.pcap" --seed 7 --quiet 2>/dev/null
"$GEN" --out "$TMP/s3.pcap" --seed 8 --quiet 2>/dev/null
if cmp -s "$TMP/s1.pcap" "$TMP/s2.pcap"; then
	ok "two runs with --seed 7 are byte-identical"
else
	ko "two runs with --seed 7 differ"
fi
echo "  check: a different seed gives different bytes"
if ! cmp -s "$TMP/s1.pcap" "$TMP/s3.pcap"; then
	ok "--seed 8 differs from --seed 7"
else
	ko "--seed 8 wrote the same bytes as --seed 7"
fi

echo "== bad options: exit status 2 and a message naming the option"
refuse --flows --out "$TMP/x.pcap" --flows -3
refuse --max-payload --out "$TMP/x.pcap" --max-payload 3000
refuse --max-payload --out "$TMP/x.pcap" --max-payload 2050
refuse --io-sizes --out "$TMP/x.pcap" --io-sizes 512,,4096
refuse --logins --out "$TMP/x.pcap" --logins plogi
refuse --vlan --out "$TMP/x.pcap" --vlan 4095
refuse --flows --out "$TMP/x.pcap" --hosts 2 --targets 2 --flows 5
refuse --redirects --out "$TMP/x.pcap" --redirects 17
refuse --out --flows 4

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
