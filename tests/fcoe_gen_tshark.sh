#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# tshark judges the captures fcoe-gen writes: every FCoE frame has a good FC
# CRC (a bad one exactly where --bad-crc put it), the frame counts are the
# ones the generator reports, FIP frames dissect as FIP, filler frames
# (--login-gap) are what tshark sees of EtherType 0x88b5, and each frame's
# VLAN, S_ID, D_ID, OX_ID and R_CTL are the ones the generator says it wrote
# (its --list). --malformed writes one frame per parser reason of
# lib/frame/fcr_reason.h. Same seed, same bytes; bad options are refused.
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

. "$(dirname "$0")/check_lib.sh"

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

# sum of the summary's counts of the kinds matching a pattern
kinds_sum() {
	{ grep -o " $2=[0-9]*" "$1" || true; } | awk -F= '{ n += $2 } END { print n + 0 }'
}

# Generate one capture and have tshark check it (6 checks).
judge() {
	local name=$1
	shift
	local pcap=$TMP/$name.pcap list=$TMP/$name.list sum=$TMP/$name.sum
	local frames bytes fip gaps total n_fip n_gap n_fc bad size want

	echo "== $name: fcoe-gen $*"
	if ! "$GEN" --out "$pcap" --list "$list" --quiet "$@" 2>"$sum"; then
		cat "$sum"
		ko "$name: fcoe-gen failed, nothing to judge"
		return
	fi
	cat "$sum"
	frames=$(kv "$sum" frames)
	bytes=$(kv "$sum" bytes)
	fip=$(kinds_sum "$sum" 'fip_[a-z_]*')
	gaps=$(kinds_sum "$sum" gap)

	ts "$pcap" -Y fcoe -T fields -e frame.number -e vlan.id -e fc.s_id \
		-e fc.d_id -e fc.ox_id -e fcoe.crc.status -e fc.r_ctl >"$TMP/fcoe.tsv"
	ts "$pcap" -Y fip -T fields -e frame.number -e vlan.id -e fc.s_id \
		-e fc.d_id -e fc.ox_id -e fc.r_ctl >"$TMP/fip.tsv"
	total=$(ts "$pcap" -T fields -e frame.number | wc -l)
	n_fip=$(wc -l <"$TMP/fip.tsv")
	n_gap=$(ts "$pcap" -Y 'eth.type == 0x88b5 || vlan.etype == 0x88b5' -T fields -e frame.number | wc -l)
	# the frames judged one by one: all but filler and malformed ones
	awk '$2 != "gap" && $2 !~ /^malformed_/ { print $1, $2 }' "$list" >"$TMP/fc.kinds"
	n_fc=$(wc -l <"$TMP/fc.kinds")

	echo "  check: FC CRC good on every FCoE frame, bad exactly on the _badcrc ones"
	# frame kind crc-status, for the listed frames tshark dissects as FCoE
	awk -F'\t' 'NR == FNR { kind[$1] = $2; next }
		($1 in kind) { print $1, kind[$1], $6 }' \
		<(tr ' ' '\t' <"$TMP/fc.kinds") "$TMP/fcoe.tsv" >"$TMP/crc.got"
	bad=$(awk '($2 ~ /_badcrc$/) != ($3 == "0") || ($3 != "0" && $3 != "1")' "$TMP/crc.got" | wc -l)
	if [ -s "$TMP/crc.got" ] && [ "$bad" -eq 0 ]; then
		ok "$name: $(wc -l <"$TMP/crc.got") FCoE frames, $(awk '$3 == "0"' "$TMP/crc.got" | wc -l) with the bad CRC --bad-crc asked for, the rest good"
	else
		ko "$name: $bad FCoE frames whose CRC status is not what the list says"
		awk '($2 ~ /_badcrc$/) != ($3 == "0") || ($3 != "0" && $3 != "1")' "$TMP/crc.got" | head -5
	fi

	echo "  check: tshark counts the frames the generator reports"
	if [ "$total" -eq "$frames" ] && [ "$(wc -l <"$list")" -eq "$frames" ]; then
		ok "$name: $total frames"
	else
		ko "$name: generator says $frames frames ($(wc -l <"$list") listed), tshark reads $total"
	fi

	echo "  check: FIP frames dissect as FIP, filler frames are EtherType 0x88b5"
	if [ "$n_fip" -eq "$fip" ] && [ "$n_gap" -eq "$gaps" ]; then
		ok "$name: $n_fip FIP frames, $n_gap filler frames"
	else
		ko "$name: generator says $fip FIP and $gaps filler frames, tshark finds $n_fip and $n_gap"
	fi

	echo "  check: per-frame VLAN, S_ID, D_ID, OX_ID, R_CTL equal the --list"
	# the list's kind stands for an R_CTL; an untagged frame has no vlan.id
	awk '
	BEGIN {
		r["fip_flogi"] = "0x22"; r["fip_flogi_acc"] = "0x23"
		r["els_flogi"] = "0x22"; r["els_flogi_acc"] = "0x23"
		r["fip_fdisc"] = "0x22"; r["fip_fdisc_acc"] = "0x23"
		r["els_fdisc"] = "0x22"; r["els_fdisc_acc"] = "0x23"
		r["fip_logo"] = "0x22"; r["fip_logo_acc"] = "0x23"
		r["els_logo"] = "0x22"; r["els_logo_acc"] = "0x23"
		r["plogi"] = "0x22"; r["plogi_acc"] = "0x23"
		r["prli"] = "0x22"; r["prli_acc"] = "0x23"
		r["fcp_cmnd"] = "0x06"; r["xfer_rdy"] = "0x05"
		r["fcp_data"] = "0x01"; r["fcp_data_badcrc"] = "0x01"
		r["fcp_rsp"] = "0x07"
	}
	$2 != "gap" && $2 !~ /^malformed_/ {
		print $1, $3, $4, $5, $6, ($2 in r) ? r[$2] : "unknown-kind-" $2
	}' "$list" >"$TMP/want.ids"
	{
		awk -F'\t' '{ print $1, ($2 == "" ? "-" : $2), $3, $4, $5, $7 }' "$TMP/fcoe.tsv"
		awk -F'\t' '{ print $1, ($2 == "" ? "-" : $2), $3, $4, $5, $6 }' "$TMP/fip.tsv"
	} | awk 'NR == FNR { want[$1] = 1; next } ($1 in want)' "$TMP/fc.kinds" - |
		sort -n -k1,1 >"$TMP/got.ids"
	if [ -s "$TMP/want.ids" ] && diff -u "$TMP/want.ids" "$TMP/got.ids" >"$TMP/ids.diff"; then
		ok "$name: $n_fc frames match the list"
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

	echo "  check: filler frames are 60 bytes untagged / 64 tagged"
	bad=$(ts "$pcap" -Y 'eth.type == 0x88b5 || vlan.etype == 0x88b5' -T fields -e frame.len -e vlan.id |
		awk -F'\t' '$1 != ($2 == "" ? 60 : 64)' | wc -l)
	if [ "$bad" -eq 0 ]; then
		ok "$name: $n_gap filler frames of the right size"
	else
		ko "$name: $bad filler frames of the wrong size"
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
judge events --login-gap 5 --relogin 3 --logout 2 --bad-crc 7 --malformed
judge events-els --logins els --untagged --login-gap 2 --relogin 2 --relogin-fdisc \
	--logout 1 --bad-crc 3 --redirects 6 --flows 12
judge events-fdisc-fip --relogin 1 --relogin-fdisc --exchanges 1 --flows 2 --redirects 1

echo "== second logins and LOGOs in the list"
echo "  check: --relogin moves the hosts of the first redirected flows to new FCIDs halfway, --logout logs them out after the last round"
"$GEN" --out "$TMP/r.pcap" --list "$TMP/r.list" --commands "$TMP/r.cmds" --quiet \
	--hosts 4 --targets 2 --flows 8 --redirects 6 --exchanges 4 --relogin 6 --logout 1 2>/dev/null
# hosts 0..3 (the hosts of flows 0..5) log in again as 01.00.04..01.00.07;
# host 0 logs out; the commands still bind the first FCIDs
relog=$(awk '$2 == "fip_flogi_acc" && $5 ~ /^01\.00\.0[4-7]$/' "$TMP/r.list" | wc -l)
logo=$(awk '$2 == "fip_logo" && $4 == "01.00.04" && $5 == "ff.ff.fe"' "$TMP/r.list" | wc -l)
old_after=$(awk '$2 == "fip_flogi_acc" && $5 == "01.00.04" { seen = 1; next }
	seen && $2 ~ /^fcp/ && ($4 ~ /^01\.00\.0[0-3]$/ || $5 ~ /^01\.00\.0[0-3]$/)' "$TMP/r.list" | wc -l)
bound=$(grep -c '^binding add vlan 100 wwpn 21:00:00:24:ff:00:00:0[0-3] fcid 0x01000[0-3]$' "$TMP/r.cmds" || true)
if [ "$relog" -eq 4 ] && [ "$logo" -eq 1 ] && [ "$old_after" -eq 0 ] && [ "$bound" -eq 4 ]; then
	ok "4 second logins to 01.00.04-07, then no FCP frame with a first FCID; 1 LOGO of 01.00.04; commands keep the first FCIDs"
else
	ko "second logins $relog (want 4), LOGOs $logo (1), FCP frames on first FCIDs after them $old_after (0), first-FCID bindings $bound (4)"
fi
echo "  check: after the LOGO, host 0's flows have no service node legs; the other redirected flows keep theirs"
after=$(awk '$2 == "fip_logo_acc" { seen = 1; next } seen && $2 ~ /^fcp/' "$TMP/r.list")
sn_h0=$(echo "$after" | awk '$5 == "01.00.04" && $4 ~ /^81\./' | wc -l)
sn_h1=$(echo "$after" | awk '$5 == "01.00.05" && $4 ~ /^81\./' | wc -l)
if [ "$sn_h0" -eq 0 ] && [ "$sn_h1" -gt 0 ]; then
	ok "no VT frame to host 0 after its LOGO, $sn_h1 to host 1"
else
	ko "VT frames to host 0 after its LOGO: $sn_h0 (want 0), to host 1: $sn_h1 (want > 0)"
fi

echo "== malformed frames"
echo "  check: one malformed_<reason> frame per reason lib/frame/fcr_reason.h lists from runt to bad_fill, in that order"
reasons=$(dirname "$0")/../lib/frame/fcr_reason.h
"$GEN" --out "$TMP/m.pcap" --list "$TMP/m.list" --quiet --malformed --exchanges 1 2>/dev/null
got=$(awk '$2 ~ /^malformed_/ { sub(/^malformed_/, "", $2); print $2 }' "$TMP/m.list" | tr '\n' ' ')
if [ -r "$reasons" ]; then
	want=$(sed -n 's/^[[:space:]]*X([A-Z_]*, "\([a-z_]*\)".*/\1/p' "$reasons" |
		sed -n '/^runt$/,/^bad_fill$/p' | grep -v '^not_fcoe$' | tr '\n' ' ')
else
	want="runt trunc_vlan vlan_stacked trunc_fcoe_hdr bad_version bad_reserved bad_sof trunc_fc_hdr no_trailer bad_eof bad_trailer bad_length too_long bad_fill "
fi
if [ "$got" = "$want" ]; then
	ok "14 malformed frames: $got"
else
	ko "malformed kinds '$got', want '$want'"
fi
echo "  check: the too_long frame holds a 2116-byte payload whole (2180 bytes tagged)"
too=$(awk '$2 == "malformed_too_long" { print $1 }' "$TMP/m.list")
len=$(ts "$TMP/m.pcap" -Y "frame.number == ${too:-0}" -T fields -e frame.len -e frame.cap_len)
if [ "$len" = "$(printf '2180\t2180')" ]; then
	ok "frame $too: 2180 bytes on the wire and in the capture"
else
	ko "frame ${too:-?}: lengths '$len', want 2180 2180"
fi

echo "== commands with second logins"
echo "  check: the hosts' routes cover the second FCIDs"
"$GEN" --out "$TMP/rc.pcap" --commands "$TMP/rc.cmds" --quiet --hosts 65535 --targets 1 \
	--flows 4 --redirects 4 --exchanges 0 --relogin 4 2>/dev/null
if grep -q '^route add 0x010000/8 port 0 fpma$' "$TMP/rc.cmds" &&
   grep -q '^route add 0x020000/8 port 0 fpma$' "$TMP/rc.cmds"; then
	ok "65535 hosts and 4 second FCIDs (up to 02.00.02): routes for domains 01 and 02"
else
	ko "routes: $(grep '^route' "$TMP/rc.cmds" | tr '\n' ';')"
fi

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
refuse --login-gap --out "$TMP/x.pcap" --login-gap x
refuse --relogin --out "$TMP/x.pcap" --relogin 5
refuse --relogin --out "$TMP/x.pcap" --relogin 1 --logins none
refuse --logout --out "$TMP/x.pcap" --logout 5
refuse --bad-crc --out "$TMP/x.pcap" --bad-crc 0

finish
