#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# fcredirect refuses what is wrong and carries on: a wrong command prints
# `error: ...` naming what is wrong and changes nothing (route, redirect
# and binding lists the same before and after; the capture then forwards
# exactly as with the good commands alone, judged by dp_check.py), and the
# program still exits 0 at quit. Routes of a VLAN of its own (route add
# vlan ...) take its frames apart from the routes for every VLAN, and are
# listed, saved and loaded back as they were. A wrong option stops it at
# start with a message naming the option and a non-zero exit status.
#
# usage: dp_commands.sh <fcredirect> <fcoe-gen>
FCR=${1:?usage: dp_commands.sh <fcredirect> <fcoe-gen>}
GEN=${2:?usage: dp_commands.sh <fcredirect> <fcoe-gen>}
. "$(dirname "$0")/dp_lib.sh"

H0=21:00:00:24:ff:00:00:00
T0=50:06:01:60:00:00:00:00
VI0=2f:01:00:0d:ec:00:00:00
VT0=2f:02:00:0d:ec:00:00:00

echo "== wrong commands: an error each, nothing changed, traffic forwarded as configured, exit 0"
gen cmds --flows 8 --redirects 2 --exchanges 4 || true
# each line: the wrong command, then what its error message must name
cat >"$TMP/wrong.txt" <<WRONG
frobnicate now|frobnicate
binding add vlan 100 wwpn 21:00:00:24:ff:00:00:zz fcid 0x010001|wwpn
route add 0x010000/8 port 7 fpma|port 7
route add 0x810000/8 port 3 fpma|port 3
redirect add vlan 100 host $H0 target $T0 vi $H0 vt $VT0|different ports
redirect add vlan 100 host $H0 target $T0 vi $VI0 vt $T0|different ports
route add 0x010000/25 port 0 fpma|prefix
route add 0x810000/8 port 2 mac 02:00:00:00:00|mac
route add vlan 5000 0x010000/8 port 0 fpma|vlan
route add vlan 100 0x810000/8 port 3 fpma|port 3
route del vlan 100 0x010000/8|route del vlan 100 0x010000/8: no such route
route add vlan 100 0x010000/8|incomplete
binding add vlan 5000 wwpn $H0 fcid 0x010000|vlan
binding add vlan 100 wwpn $H0 fcid 0x1000000|fcid
route del 0x990000/8|route del 0x990000/8: no such route
redirect del vlan 100 host 21:00:00:24:ff:00:00:09 target $T0|redirect del vlan 100 host 21:00:00:24:ff:00:00:09 target $T0: no such redirect
binding del vlan 100 wwpn 21:00:00:24:ff:00:00:09|binding del vlan 100 wwpn 21:00:00:24:ff:00:00:09: no such binding
route add|route
show frobs|show
WRONG
{
	cat "$TMP/cmds.cmds"
	echo "route list"
	echo "redirect list"
	echo "binding list"
	echo "# -- wrong commands from here"
	cut -d'|' -f1 "$TMP/wrong.txt"
	echo "# -- end of the wrong commands"
	echo "route list"
	echo "redirect list"
	echo "binding list"
} >"$TMP/cmds.cfg"
script "$TMP/cmds.cfg" "$TMP/cmds.run"
if fcr cmds "$TMP/cmds.pcap" "$TMP/cmds.run"; then
	nwrong=$(wc -l <"$TMP/wrong.txt")
	grep '^error:' "$TMP/cmds.log" >"$TMP/cmds.errors" || true
	echo "  check: one 'error: ...' line per wrong command ($nwrong), none for the good ones"
	if [ "$(wc -l <"$TMP/cmds.errors")" -eq "$nwrong" ]; then
		ok "cmds: $nwrong errors"
	else
		ko "cmds: $(wc -l <"$TMP/cmds.errors") error lines for $nwrong wrong commands"
		sed 's/^/        /' "$TMP/cmds.errors"
	fi
	echo "  check: each error names what is wrong"
	i=0
	bad=0
	while IFS='|' read -r cmd want; do
		i=$((i + 1))
		got=$(sed -n "${i}p" "$TMP/cmds.errors")
		case "$got" in
		*"$want"*) ;;
		*) bad=$((bad + 1)); echo "        '$cmd': '$got' does not name '$want'" ;;
		esac
	done <"$TMP/wrong.txt"
	if [ "$bad" -eq 0 ]; then ok "cmds: every message names its fault"; else ko "cmds: $bad messages miss their fault"; fi
	echo "  check: route, redirect and binding lists the same before and after the wrong commands"
	# the three lists as printed before (first) and after (second) the wrong commands
	awk '/^(route vlan|[0-9]+ routes$|redirect vlan|[0-9]+ redirects,|binding vlan|[0-9]+ bindings$)/' "$TMP/cmds.log" >"$TMP/cmds.lists"
	n=$(wc -l <"$TMP/cmds.lists")
	# the lists are printed three times: before, after, and at the end of the
	# run (redirect and binding lists only)
	half=$(grep -c -e '^route vlan' -e ' routes$' "$TMP/cmds.lists")
	before=$(awk '/ bindings$/ { print NR; exit }' "$TMP/cmds.lists")
	head -n "$before" "$TMP/cmds.lists" >"$TMP/cmds.before"
	tail -n +"$((before + 1))" "$TMP/cmds.lists" | head -n "$before" >"$TMP/cmds.after"
	if [ "$half" -gt 2 ] && [ "$n" -gt "$before" ] && diff "$TMP/cmds.before" "$TMP/cmds.after" >"$TMP/cmds.diff"; then
		ok "cmds: $(grep -c '^route vlan' "$TMP/cmds.before") routes, $(grep -c '^redirect vlan' "$TMP/cmds.before") redirects, $(grep -c '^binding vlan' "$TMP/cmds.before") bindings, unchanged"
	else
		ko "cmds: the lists changed:"
		sed 's/^/        /' "$TMP/cmds.diff" | head -10
	fi
	echo "  check: the capture forwards exactly as the good commands say (dp_check.py with them alone)"
	script "$TMP/cmds.cmds" "$TMP/cmds.good"
	judge cmds cmds "$TMP/cmds.good"
fi
echo "  check: exit status 0 at quit after the errors"
if [ "${FCR_RC:-1}" -eq 0 ]; then ok "cmds: exit 0"; else ko "cmds: exit ${FCR_RC:-?}"; fi

echo "== routes per VLAN: the capture's VLAN (100) has routes of its own; listed, saved, loaded back"
gen vlanroutes --flows 8 --redirects 0 --exchanges 4 || true
# VLAN 100's own: the targets' domain to port 2, host 01.00.01 to a next hop
# on port 1; VLAN 200's for the same FCIDs change nothing here; VLAN 300's
# route comes and goes; every other frame takes the routes for every VLAN
cat >"$TMP/vlanroutes.vlan" <<VLAN
route add vlan 100 0x410000/8 port 2 fpma
route add vlan 100 0x010001/24 port 1 mac 02:00:00:00:01:01
route add vlan 200 0x410000/8 port 0 fpma
route add vlan 200 0x010000/8 port 2 fpma
route add vlan 300 0x990000/8 port 0 fpma
route del vlan 300 0x990000/8
VLAN
{
	cat "$TMP/vlanroutes.cmds" "$TMP/vlanroutes.vlan"
	echo "route list"
	echo "save config $TMP/vlanroutes.saved"
} >"$TMP/vlanroutes.cfg"
script "$TMP/vlanroutes.cfg" "$TMP/vlanroutes.run"
if fcr vlanroutes "$TMP/vlanroutes.pcap" "$TMP/vlanroutes.run"; then
	judge vlanroutes vlanroutes "$TMP/vlanroutes.cfg"
	echo "  check: route list shows each route's VLAN, 'any' for the routes for every VLAN"
	grep '^route vlan' "$TMP/vlanroutes.log" >"$TMP/vlanroutes.routes" || true
	nany=$(grep -c '^route add 0x' "$TMP/vlanroutes.cmds" || true)
	if grep -qx 'route vlan 100 0x410000/8 port 2 fpma' "$TMP/vlanroutes.routes" &&
		grep -qx 'route vlan 100 0x010001/24 port 1 mac 02:00:00:00:01:01' "$TMP/vlanroutes.routes" &&
		grep -qx 'route vlan 200 0x010000/8 port 2 fpma' "$TMP/vlanroutes.routes" &&
		! grep -q 'vlan 300' "$TMP/vlanroutes.routes" &&
		[ "$(grep -c '^route vlan any 0x' "$TMP/vlanroutes.routes")" -eq "$nany" ] &&
		[ "$nany" -gt 0 ]; then
		ok "vlanroutes: 4 routes of VLANs 100 and 200, $nany for every VLAN"
	else
		ko "vlanroutes: route list:"
		sed 's/^/        /' "$TMP/vlanroutes.routes"
	fi
	echo "  check: save config writes them as commands, without a VLAN for every VLAN's"
	if grep -qx 'route add vlan 100 0x410000/8 port 2 fpma' "$TMP/vlanroutes.saved" &&
		[ "$(grep -c '^route add vlan' "$TMP/vlanroutes.saved")" -eq 4 ] &&
		[ "$(grep -c '^route add 0x' "$TMP/vlanroutes.saved")" -eq "$nany" ]; then
		ok "vlanroutes: $(grep -c '^route add' "$TMP/vlanroutes.saved") route lines saved"
	else
		ko "vlanroutes: saved:"
		sed 's/^/        /' "$TMP/vlanroutes.saved"
	fi
	echo "  check: load config of the saved file lists the same routes and forwards the same"
	{
		echo "load config $TMP/vlanroutes.saved"
		echo "route list"
	} >"$TMP/vlanload.cfg"
	script "$TMP/vlanload.cfg" "$TMP/vlanload.run"
	if fcr vlanload "$TMP/vlanroutes.pcap" "$TMP/vlanload.run"; then
		grep '^route vlan' "$TMP/vlanload.log" >"$TMP/vlanload.routes" || true
		if diff "$TMP/vlanroutes.routes" "$TMP/vlanload.routes" >"$TMP/vlanload.diff" &&
			! grep -q '^error:' "$TMP/vlanload.log"; then
			ok "vlanload: the same $(wc -l <"$TMP/vlanload.routes") routes"
		else
			ko "vlanload: the routes differ:"
			sed 's/^/        /' "$TMP/vlanload.diff" | head -10
			grep '^error:' "$TMP/vlanload.log" | sed 's/^/        /' || true
		fi
		judge vlanload vlanroutes "$TMP/vlanroutes.saved"
	fi
fi

echo "== idle flows expire (--flow-idle 1): plain entries go, the redirects' rules stay"
gen idle --flows 8 --redirects 2 --exchanges 4 || true
{
	cat "$TMP/idle.cmds"
	echo "start"
	echo "wait rx @FRAMES@ 120000"
	echo "stop" # prints the forward statistics
	echo "show redirect paths"
	echo "sleep 3500"
	echo "show fwd stats"
	echo "redirect list"
	echo "quit"
} >"$TMP/idle.run"
if fcr idle "$TMP/idle.pcap" "$TMP/idle.run" -- --flow-idle 1; then
	# stop's statistics and show fwd stats (and quit's): flows before and after
	flows=$(awk '$1 == "flows" && $2 ~ /^[0-9]+$/ { print $2 }' "$TMP/idle.log" | tr '\n' ' ')
	expired=$(fwd_stat idle flows_expired)
	active=$(grep -c ' active id [0-9]* before_rule' "$TMP/idle.log" || true)
	set -- $flows
	if [ "$#" -ge 2 ] && [ "$1" -gt "$2" ] && [ "$2" -eq $((6 * active)) ] &&
		[ "${expired:-0}" -eq $(($1 - $2)) ] && [ "$active" -eq 2 ]; then
		ok "idle: flows $1 -> $2 (the 4 rules and 2 hidden pairs of each of $active active redirects), flows_expired $expired"
	else
		ko "idle: flows '$flows', flows_expired '${expired:-}', active redirects $active"
	fi
	# show redirect paths: each redirect's members in path order, its legs'
	# frames adding up to what show fwd stats counts by kind
	paths=$(sed -n '/^redirect path /,/^[0-9]* redirect paths$/p' "$TMP/idle.log")
	np=$(echo "$paths" | grep -c '^redirect path vlan [0-9]*: active$')
	order=$(echo "$paths" | awk '$1 == "host" || ($1 == "->" && ($2 == "vt" || $2 == "vi" || $2 == "target")) { printf "%s ", ($1 == "->" ? $2 : $1) }')
	legsum=$(echo "$paths" | awk '$1 == "host_to_target" { s += $(NF - 1) } END { print s + 0 }')
	h2t=$(awk '/Forward statistics/ { v = "" } $1 == "host_to_target" && $2 ~ /^[0-9]+$/ { v = $2 } /^----------------------------------------------------------------$/ && v != "" { print v; exit }' "$TMP/idle.log")
	if [ "$np" -eq 2 ] && [ "$order" = "host vt vi target host vt vi target " ] &&
		[ "$(echo "$paths" | tail -1)" = "2 redirect paths" ] && [ "$legsum" -gt 0 ] &&
		[ "$legsum" = "$h2t" ]; then
		ok "show redirect paths: 2 redirects as host -> vt -> vi -> target, host_to_target frames $legsum == show fwd stats' $h2t"
	else
		ko "show redirect paths: $np paths, order '$order', host_to_target $legsum vs $h2t"
		echo "$paths" | head -20 | sed 's/^/        /'
	fi
fi

echo "== a new VI for an existing redirect; show redirect <id>"
# static bindings, no fabric port: nobody to tell, so the new VI's rules
# go in at once (no cutover); show redirect names the members and says so.
# The commands wait on states (the lines), never on time.
VI1=2f:01:00:0d:ec:00:00:99
cat "$TMP/cmds.cmds" >"$TMP/newvi.cmds"
cat >>"$TMP/newvi.cmds" <<CMDS
binding add vlan 100 wwpn $VI1 fcid 0x810099
redirect list
redirect add vlan 100 host $H0 target $T0 vi $VI1 vt $VT0
redirect list
show redirect 999
show redirect x
CMDS
script "$TMP/newvi.cmds" "$TMP/newvi.run0"
# show redirect of the changed one, by the id its redirect list line gives
if fcr newvi "$TMP/cmds.pcap" "$TMP/newvi.run0"; then
	id=$(grep "^redirect vlan 100 host $H0 target $T0 vi $VI1 " "$TMP/newvi.log" | head -1 |
		sed -n 's/.* id \([0-9]*\) before_rule.*/\1/p')
	if [ -n "$id" ] && grep -q "^redirect vlan 100 host $H0 target $T0 vi $VI1 vt $VT0 active" "$TMP/newvi.log"; then
		ok "newvi: redirect add with another VI replaced it, active, id $id"
	else
		ko "newvi: no active redirect line with the new VI"
	fi
	if grep -q '^error: no redirect 999 (`redirect list` gives' "$TMP/newvi.log" &&
		[ "$(grep -c '^error:' "$TMP/newvi.log")" -eq 2 ]; then
		ok "newvi: show redirect of an unknown id and a malformed one: an error each"
	else
		ko "newvi: errors: $(grep '^error:' "$TMP/newvi.log" | tr '\n' ' ')"
	fi
	{ cat "$TMP/newvi.cmds"; echo "show redirect $id"; } >"$TMP/newvi2.cmds"
	script "$TMP/newvi2.cmds" "$TMP/newvi2.run"
	if fcr newvi2 "$TMP/cmds.pcap" "$TMP/newvi2.run" &&
		grep -q "^redirect $id vlan 100: active$" "$TMP/newvi2.log" &&
		grep -q "^  vi      $VI1  fcid 810099$" "$TMP/newvi2.log" &&
		grep -q "^  cutover: none$" "$TMP/newvi2.log"; then
		ok "newvi: show redirect $id: active, the new VI, no cutover"
	else
		ko "newvi: show redirect $id: $(sed -n "/^redirect $id vlan/,/cutover/p" "$TMP/newvi2.log" | tr '\n' '|')"
	fi
fi

echo "== wrong options: refused at start, non-zero exit, a message naming the option"
gen opts --flows 2 --redirects 0 --exchanges 1 || true
printf 'quit\n' >"$TMP/quit.cmds"
refuse() {
	local name=$1 want=$2
	shift 2
	local rc=0
	"$FCR" --no-huge -m 512 --no-pci -l 0,1 --file-prefix "dp$$-$name" --log-level=lib.eal:error \
		--vdev "net_pcap0,rx_pcap=$TMP/opts.pcap,tx_pcap=$TMP/$name.out0.pcap" \
		--vdev "net_pcap1,tx_pcap=$TMP/$name.out1.pcap" -- -i "$@" \
		<"$TMP/quit.cmds" >"$TMP/$name.log" 2>&1 || rc=$?
	rm -rf "/var/run/dpdk/dp$$-$name" 2>/dev/null || true
	msg=$(grep -v -e '^TELEMETRY' -e 'MTU' "$TMP/$name.log" | grep -m1 -- "$want" || true)
	if [ "$rc" -ne 0 ] && [ -n "$msg" ] && ! grep -q 'Forward statistics' "$TMP/$name.log"; then
		ok "'$*' refused (exit $rc): $msg"
	else
		ko "'$*': exit $rc, message: $(grep -v '^TELEMETRY' "$TMP/$name.log" | head -2 | tr '\n' ' ')"
	fi
}
refuse opt-maxflows --max-flows --max-flows x
refuse opt-config --config --config "(9,0,1)"
refuse opt-config-lcore --config --config "(0,0,7)"
refuse opt-config-syntax --config --config "(0,0)"
refuse opt-burst --burst --burst 0
refuse opt-passthrough --passthrough --passthrough 0:99
refuse opt-fcmap --fc-map --fc-map 0x1000000
refuse opt-vlanfcmap-vlan "VLAN below 4096" --vlan-fc-map 4096:0x0efc00
refuse opt-vlanfcmap-map "24-bit FC-MAP" --vlan-fc-map 100:0x1000000
refuse opt-unknown bogus --bogus
refuse opt-flowidle --flow-idle --flow-idle -1

finish
