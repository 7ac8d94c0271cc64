#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# fcredirect learning bindings from the logins it forwards, judged frame by
# frame by dp_check.py: redirects with no `binding add` at all (FIP and ELS
# logins), a second login that moves a host to a new FCID (the rules follow
# it), a LOGO that takes the rules away (the flows fall back to plain
# forwarding). fcoe-gen's --login-gap puts filler frames after each login
# phase, and the capture is replayed a phase at a time (dp_lib.sh,
# fcr_phased): the next phase only once fcredirect has sent every frame of
# the one before and applied what its logins taught, as a real fabric's
# causality would have it (an ENode sends nothing before the fabric's
# accept, which fcredirect holds until it is applied). Then every frame is
# exact, however the machine is loaded: a state, not a gap's length, orders
# them. The filler frames (default 64; the third argument) only mark where
# a phase ends. Without phases (learned-nogap) the frames of a flow may go
# plain until the rule is in: every frame must still come out either
# rewritten or plain, and the plain ones be accounted for (before_rule,
# flow_miss); the numbers are printed. Port 0 is a fabric port, so the hosts
# sit behind port 3 (gen's routes): a frame is never sent back out of the
# fabric port it came in on.
#
# usage: dp_learning.sh <fcredirect> <fcoe-gen> [gap]
FCR=${1:?usage: dp_learning.sh <fcredirect> <fcoe-gen> [gap]}
GEN=${2:?usage: dp_learning.sh <fcredirect> <fcoe-gen> [gap]}
GAP=${3:-64}
. "$(dirname "$0")/dp_lib.sh"
# port 0 replays the whole fabric, the FCF's replies among it: a fabric port;
# the hosts sit behind port 3 (dp_lib.sh fabric_replay)
FABRIC=0

# case NAME DESCRIPTION [strip] -- fcoe-gen options -- dp_check options
learn_case() {
	local name=$1 what=$2 strip=$3
	shift 3
	local -a gopt=() copt=()
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do gopt+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	copt=("$@")
	echo "== $name: $what"
	gen "$name" "${gopt[@]}" || return 0
	if [ "$strip" = strip ]; then
		grep -v '^binding add' "$TMP/$name.cmds" >"$TMP/$name.cfg"
	else
		cp "$TMP/$name.cmds" "$TMP/$name.cfg"
	fi
	fcr_phased "$name" "$TMP/$name.pcap" "$TMP/$name.cfg" || return 0
	judge "$name" "$name" "$TMP/$name.run" "${copt[@]}"
	echo "  observed: $(grep -m1 'login_to_binding' "$TMP/$name.log" | tr -s ' ' | sed 's/^ //')"
}

learn_case learned-fip "no binding configured: all learned from FIP logins, $GAP filler frames after them" \
	strip --flows 16 --redirects 4 --exchanges 8 --login-gap "$GAP"
learn_case learned-els "no binding configured, ELS logins, untagged" \
	strip --logins els --untagged --flows 16 --redirects 4 --exchanges 8 --login-gap "$GAP"

echo "== learned-nogap: no binding configured and no gap: learning races the traffic"
gen learned-nogap --flows 16 --redirects 4 --exchanges 8 || true
grep -v '^binding add' "$TMP/learned-nogap.cmds" >"$TMP/learned-nogap.cfg"
script "$TMP/learned-nogap.cfg" "$TMP/learned-nogap.run"
if fcr learned-nogap "$TMP/learned-nogap.pcap" "$TMP/learned-nogap.run"; then
	judge learned-nogap learned-nogap "$TMP/learned-nogap.run" --timing loose \
		--summary "$TMP/learned-nogap.sum"
	if [ -f "$TMP/learned-nogap.sum" ]; then
		rl=$(grep -c '^redirect vlan .* active id [0-9]* before_rule' "$TMP/learned-nogap.log" || true)
		echo "  observed: frames of redirected flows that went plain: $(awk '$1 == "late" { print $2 }' "$TMP/learned-nogap.sum")," \
			"before_rule $(awk '$1 == "before_rule" { print $2 }' "$TMP/learned-nogap.sum")," \
			"flow_miss $(awk '$1 == "flow_miss" { print $2 }' "$TMP/learned-nogap.sum"); redirects active at the end: $rl of 4"
		grep '^redirect ' "$TMP/learned-nogap.sum" | sed 's/^/  observed: /'
	fi
	echo "  observed: $(grep -m1 'login_to_binding' "$TMP/learned-nogap.log" | tr -s ' ' | sed 's/^ //')"
fi

learn_case relogin "learned; hosts of 2 redirected flows log in again with a new FCID halfway" \
	strip --flows 16 --redirects 4 --exchanges 8 --relogin 2 --login-gap "$GAP"
learn_case relogin-fdisc-els "learned over ELS, untagged; the second login is an FDISC; 10 redirects over 8 hosts" \
	strip --logins els --untagged --flows 16 --redirects 10 --exchanges 6 --relogin 10 --relogin-fdisc --login-gap "$GAP"
learn_case logout "learned; hosts of 2 redirected flows send LOGO; one more round after" \
	strip --flows 16 --redirects 4 --exchanges 6 --logout 2 --login-gap "$GAP"
learn_case static-events "static bindings of the first FCIDs; a second login and a LOGO leave them (the operator's word)" \
	keep --flows 16 --redirects 4 --exchanges 6 --relogin 2 --logout 2 --login-gap "$GAP"
learn_case logout-els "learned over ELS (LOGO to FFFFFE, dropped for want of a route), a second login first" \
	strip --logins els --flows 16 --redirects 4 --exchanges 6 --relogin 1 --logout 2 --login-gap "$GAP"

echo "  check: after the LOGOs, the logged-out hosts' redirects wait and their flows went plain"
n=logout
if [ -f "$TMP/$n.log" ]; then
	w=$(grep -c '^redirect vlan .* waiting (waiting for host' "$TMP/$n.log" || true)
	lo=$(fwd_stat "$n" logouts)
	if [ "$w" -eq 2 ] && [ "${lo:-0}" -eq 2 ]; then
		ok "$n: 2 redirects waiting for their host, logouts 2"
	else
		ko "$n: $w redirects waiting for their host (want 2), logouts '${lo}' (want 2)"
	fi
fi
echo "  check: static bindings outlive the second logins and the LOGOs"
n=static-events
if [ -f "$TMP/$n.log" ]; then
	a=$(grep -c '^redirect vlan .* active id [0-9]* before_rule' "$TMP/$n.log" || true)
	lo=$(fwd_stat "$n" logouts)
	k=$(fwd_stat "$n" logins_static_kept)
	# the LOGOs name the FCIDs of the second logins, never applied: stale
	if [ "$a" -eq 4 ] && [ "${lo:-0}" -eq 0 ] && [ "${k:-0}" -eq 2 ]; then
		ok "$n: 4 redirects active, logouts 0, logins_static_kept 2 (the second logins)"
	else
		ko "$n: $a redirects active (want 4), logouts '${lo}' (want 0), logins_static_kept '${k}' (want 2)"
	fi
fi

finish
