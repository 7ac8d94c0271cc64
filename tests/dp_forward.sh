#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# fcredirect forwarding on capture files, judged frame by frame by
# dp_check.py (tshark reads every capture): plain forwarding with fpma and
# MAC routes, the four legs of redirects with static bindings, tagged and
# untagged fabrics with FIP and ELS logins, 2112-byte payloads, bad CRCs
# kept bad through a rewrite, every malformed kind dropped under its
# reason, and with the deployment's routes (the fabric's FCIDs to the FCF's
# fabric port) a frame from the fabric to an FCID that has none of its own
# never sent back out of that port (fabric_loop).
#
# usage: dp_forward.sh <fcredirect> <fcoe-gen>
FCR=${1:?usage: dp_forward.sh <fcredirect> <fcoe-gen>}
GEN=${2:?usage: dp_forward.sh <fcredirect> <fcoe-gen>}
. "$(dirname "$0")/dp_lib.sh"

echo "== plain: no redirect, fpma routes and a /24 route to a next-hop MAC"
if gen plain --redirects 0 --flows 8 --exchanges 6; then
	# host 01.00.01 behind a next hop: the /24 wins over the fpma /8
	{ cat "$TMP/plain.cmds"; echo "route add 0x010001/24 port 0 mac 02:00:00:00:01:01"; } >"$TMP/plain.cfg"
	script "$TMP/plain.cfg" "$TMP/plain.run"
	if fcr plain "$TMP/plain.pcap" "$TMP/plain.run"; then
		judge plain plain "$TMP/plain.run"
		echo "  check: the /24 route's MAC is the destination of every FCoE frame to 01.00.01, fpma for the other hosts"
		n=$(tshark -n -r "$TMP/plain.out0.pcap" -Y 'fcoe && fc.d_id == 01.00.01' -T fields -e eth.dst 2>/dev/null | sort | uniq -c)
		o=$(tshark -n -r "$TMP/plain.out0.pcap" -Y 'fcoe && fc.d_id != 01.00.01' -T fields -e fc.d_id -e eth.dst 2>/dev/null |
			awk -F'\t' '{ split($1, a, "."); if ($2 != "0e:fc:00:" a[1] ":" a[2] ":" a[3]) n++ } END { print n + 0 }')
		if [ "$(echo "$n" | wc -l)" -eq 1 ] && echo "$n" | grep -q ' 02:00:00:00:01:01$' && [ "$o" -eq 0 ]; then
			ok "plain: $(echo "$n" | awk '{ print $1 }') frames to 02:00:00:00:01:01, the others to their FPMA"
		else
			ko "plain: destinations of frames to 01.00.01: $n; $o frames to other hosts not to their FPMA"
		fi
	fi
fi

echo "== static: the default fabric, 4 redirects over static bindings"
if gen static; then
	script "$TMP/static.cmds" "$TMP/static.run"
	fcr static "$TMP/static.pcap" "$TMP/static.run" &&
		judge static static "$TMP/static.run" --bindings commands
	echo "  check: every leg carried frames"
	for leg in host_to_target vi_to_target target_to_host vt_to_host; do
		v=$(fwd_stat static "$leg")
		if [ "${v:-0}" -gt 0 ]; then ok "static: $leg $v"; else ko "static: $leg '${v}'"; fi
	done
fi

echo "== ELS logins, tagged, fabric logins routed to the FCF on port 1"
if gen els --logins els --flows 8 --redirects 3 --exchanges 6; then
	{ cat "$TMP/els.cmds"; echo "route add 0xfffffe/24 port 1 mac 0e:fc:00:ff:ff:fe"; } >"$TMP/els.cfg"
	script "$TMP/els.cfg" "$TMP/els.run"
	fcr els "$TMP/els.pcap" "$TMP/els.run" && judge els els "$TMP/els.run"
fi

echo "== the FCF's port 0 a fabric port, the fabric's FCIDs routed to it (docs/deployment.md): a frame from it to an FCID with no binding and no route of its own is never sent back (fabric_loop)"
# the hosts behind port 3 (dp_lib.sh), the service node on 2, the targets in
# the fabric: no binding, no route but the deployment's two /1 to the FCF
if FABRIC=0 gen loop --redirects 0 --logins none --flows 8 --exchanges 4; then
	{
		grep '^route ' "$TMP/loop.cmds" | grep -v ' 0x41'
		echo "route add 0x000000/1 port 0 fpma"
		echo "route add 0x800000/1 port 0 fpma"
	} >"$TMP/loop.cfg"
	script "$TMP/loop.cfg" "$TMP/loop.run"
	if FABRIC=0 fcr loop "$TMP/loop.pcap" "$TMP/loop.run"; then
		FABRIC=0 judge loop loop "$TMP/loop.run"
		# tshark: the FCoE frames to the targets' domain, in and out of port 0
		to41() {
			tshark -n -r "$1" -Y fcoe -T fields -e fc.d_id 2>/dev/null | grep -c '^41\.' || true
		}
		want=$(to41 "$TMP/loop.pcap")
		got=$(fwd_stat loop fabric_loop)
		check "loop: fabric_loop ${got:-none}, the $want frames from port 0 to the targets" \
			"${got:-0}" -eq "$want" -a "$want" -gt 0
		n=$(to41 "$TMP/loop.out0.pcap")
		check "loop: port 0 sent $n of them back" "$n" -eq 0
	fi
fi

echo "== FIP logins, untagged (VLAN 0)"
if gen fip-untagged --untagged --flows 8 --redirects 3 --exchanges 6; then
	script "$TMP/fip-untagged.cmds" "$TMP/fip-untagged.run"
	fcr fip-untagged "$TMP/fip-untagged.pcap" "$TMP/fip-untagged.run" &&
		judge fip-untagged fip-untagged "$TMP/fip-untagged.run"
fi

echo "== ELS logins, untagged, no route to FFFFFE: the fabric login requests are dropped (no_route)"
if gen els-untagged --logins els --untagged --flows 8 --redirects 3 --exchanges 6; then
	script "$TMP/els-untagged.cmds" "$TMP/els-untagged.run"
	fcr els-untagged "$TMP/els-untagged.pcap" "$TMP/els-untagged.run" &&
		judge els-untagged els-untagged "$TMP/els-untagged.run"
fi

echo "== no route at all: every FCoE frame dropped under no_route, FIP passed through"
if gen noroute --flows 4 --redirects 1 --exchanges 2; then
	grep -v '^route ' "$TMP/noroute.cmds" >"$TMP/noroute.cfg"
	script "$TMP/noroute.cfg" "$TMP/noroute.run"
	fcr noroute "$TMP/noroute.pcap" "$TMP/noroute.run" &&
		judge noroute noroute "$TMP/noroute.run"
fi

echo "== 2112-byte payloads"
if gen jumbo --max-payload 2112 --io-sizes 65536 --flows 4 --redirects 2 --exchanges 4; then
	script "$TMP/jumbo.cmds" "$TMP/jumbo.run"
	if fcr jumbo "$TMP/jumbo.pcap" "$TMP/jumbo.run"; then
		judge jumbo jumbo "$TMP/jumbo.run"
		echo "  check: full-size frames (2176 bytes tagged) went out on every port, CRC good"
		for p in 0 1 2; do
			n=$(tshark -n -r "$TMP/jumbo.out$p.pcap" -Y 'frame.len == 2176 && fcoe.crc.status == 1' \
				-T fields -e frame.number 2>/dev/null | wc -l)
			if [ "$n" -gt 0 ]; then ok "jumbo: port $p: $n frames of 2176 bytes with a good CRC"
			else ko "jumbo: port $p: no 2176-byte frame with a good CRC"; fi
		done
	fi
fi

echo "== bad CRCs: every 5th data frame; rewritten ones stay exactly as bad"
if gen badcrc --bad-crc 5 --flows 8 --redirects 4 --exchanges 6; then
	script "$TMP/badcrc.cmds" "$TMP/badcrc.run"
	if fcr badcrc "$TMP/badcrc.pcap" "$TMP/badcrc.run"; then
		nbad=$(grep -c ' fcp_data_badcrc ' "$TMP/badcrc.list")
		judge badcrc badcrc "$TMP/badcrc.run" --expect-bad-crc "$nbad"
		echo "  check: bad-CRC frames left rewritten (S_ID or D_ID of the service node legs) and bad"
		# frames from or to the service node domain 81 on ports 1 and 0 are rewritten ones
		n=0
		for p in 0 1 2; do
			n=$((n + $(tshark -n -r "$TMP/badcrc.out$p.pcap" -Y 'fcoe.crc.status == 0' \
				-T fields -e fc.s_id -e fc.d_id 2>/dev/null | wc -l)))
		done
		rw=$(tshark -n -r "$TMP/badcrc.out2.pcap" -Y 'fcoe.crc.status == 0' -T fields -e frame.number 2>/dev/null | wc -l)
		if [ "$n" -eq "$nbad" ] && [ "$rw" -gt 0 ]; then
			ok "badcrc: $n bad frames out of $nbad in, $rw of them rewritten toward the service node"
		else
			ko "badcrc: $n bad frames out ($nbad in), $rw toward the service node"
		fi
	fi
fi

echo "== malformed frames: each dropped under its reason, none forwarded"
if gen malformed --malformed --flows 4 --redirects 1 --exchanges 2; then
	script "$TMP/malformed.cmds" "$TMP/malformed.run"
	if fcr malformed "$TMP/malformed.pcap" "$TMP/malformed.run"; then
		judge malformed malformed "$TMP/malformed.run"
		echo "  check: show fwd stats counts 1 under each of the 14 reasons"
		bad=""
		for r in $(awk '$2 ~ /^malformed_/ { sub(/^malformed_/, "", $2); print $2 }' "$TMP/malformed.list"); do
			v=$(fwd_stat malformed "$r")
			[ "$v" = 1 ] || bad="$bad $r=${v:-none}"
		done
		if [ -z "$bad" ]; then ok "malformed: 14 reasons, 1 each"; else ko "malformed:$bad"; fi
		echo "  check: no frame with OX_ID 0xbad0-0xbadd (the malformed ones) was sent"
		n=0
		for p in 0 1 2; do
			n=$((n + $(tshark -n -r "$TMP/malformed.out$p.pcap" -Y 'fc.ox_id >= 0xbad0 && fc.ox_id <= 0xbadd' \
				-T fields -e frame.number 2>/dev/null | wc -l)))
		done
		if [ "$n" -eq 0 ]; then ok "malformed: none sent"; else ko "malformed: $n sent"; fi
	fi
fi

finish
