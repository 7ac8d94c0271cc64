#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Learned state survives a restart (--state-file, docs/restart.md). Four
# net_pcap ports: port 0 an edge port facing the ENodes (hosts, targets,
# the service node), port 3 the fabric port (--fabric-ports 3) facing the
# FCF, ports 1 and 2 sending only. fcoe-gen's fabric is cut after its FIP
# logins (--login-gap): the logins phase (the ENodes' requests replayed on
# port 0, the FCF's accepts on port 3) and the data phase (PLOGI/PRLI and
# FCP, no fabric login at all).
#
#   learn-quit: one run learns, forwards the data phase, and quits (its
#     last snapshot). A second run with the same --state-file and the data
#     phase alone lists the same bindings before `start`, drops nothing as
#     not_logged_in, and sends exactly the frames the first run sent
#     (dp_check.py compare: tshark's records and the bytes, per port).
#   learn-kill: a run learns, is killed with SIGKILL once the file on disk
#     holds every binding (state_writes counted); the next run restores
#     them and forwards as above.
#   restart-silent: the file's keep-alive period set to 1 s: the restored
#     ENodes, which keep no alive, are timed out after 1.5 periods and
#     their bindings go (how restored state meets the fabric).
#   bad-*: a truncated file, a flipped byte, another format version,
#     another node's file, mode 0644, a file of another user, a symbolic
#     link: each refused with its log line, moved aside to PATH.bad-*,
#     nothing restored, and the program runs and accounts for every frame.
#
# usage: dp_restart.sh <fcredirect> <fcoe-gen>
FCR=${1:?usage: dp_restart.sh <fcredirect> <fcoe-gen>}
# shellcheck disable=SC2034 # dp_lib.sh's
GEN=${2:?usage: dp_restart.sh <fcredirect> <fcoe-gen>}
. "$(dirname "$0")/dp_lib.sh"

# rs_args NAME RX0 RX3 STATE: fcredirect's arguments into FCR_ARGS; RX3
# empty: port 3 sends only. Outputs $TMP/NAME.out<port>.pcap.
rs_args() {
	local name=$1 rx0=$2 rx3=$3 state=$4 p
	local -a vdev
	vdev=(--vdev "net_pcap0,rx_pcap=$rx0,tx_pcap=$TMP/$name.out0.pcap")
	for p in 1 2; do
		vdev+=(--vdev "net_pcap$p,tx_pcap=$TMP/$name.out$p.pcap")
	done
	if [ -n "$rx3" ]; then
		vdev+=(--vdev "net_pcap3,rx_pcap=$rx3,tx_pcap=$TMP/$name.out3.pcap")
	else
		vdev+=(--vdev "net_pcap3,tx_pcap=$TMP/$name.out3.pcap")
	fi
	# shellcheck disable=SC2054 # one EAL argument, a list of lcores
	FCR_ARGS=(--no-huge -m 512 --no-pci -l 0,1 --file-prefix "dp$$-$name"
		--log-level=lib.eal:error --log-level=pmd.net.pcap:error "${vdev[@]}"
		-- -i --max-flows 65536 --max-bindings 65536 --max-redirects 4096
		--fabric-ports 3 --passthrough 0:3 --state-file "$state")
}

# rs_start NAME RX0 RX3 STATE: fcredirect in the background reading
# commands from a FIFO (rs_send); FCR_PID
rs_start() {
	rs_args "$@"
	mkfifo "$TMP/$1.stdin"
	"$FCR" "${FCR_ARGS[@]}" <"$TMP/$1.stdin" >"$TMP/$1.log" 2>&1 &
	FCR_PID=$!
	exec {RS_FD}>"$TMP/$1.stdin"
	trap '' PIPE
}
# shellcheck disable=SC2059 # the callers' formats
rs_send() { { printf "$@" 1>&"$RS_FD"; } 2>/dev/null || true; }
# rs_end NAME: end of input, the exit status in FCR_RC
rs_end() {
	exec {RS_FD}>&-
	trap - PIPE
	FCR_RC=0
	wait "$FCR_PID" || FCR_RC=$?
	fcr_done "$1"
}

# rs_bindings FILE: the learned bindings a state file holds (its header)
rs_bindings() {
	python3 "$DP_DIR/state_file.py" count "$1"
}

# rs_patch FILE OFFSET HEXBYTES [NODE]: bytes set, the node replaced, the
# length and CRC remade
rs_patch() {
	python3 "$DP_DIR/state_file.py" patch "$@"
}

# rs_lists NAME: the binding lists of run NAME's log, one file each:
# $TMP/NAME.list.1, .2, ... (sorted lines); prints how many
rs_lists() {
	awk -v p="$TMP/$1.list." '/^binding vlan / { b = b $0 "\n"; next }
		/^[0-9]+ bindings$/ { n++; f = p n; printf "%s", b > f; close(f); b = "" ; next }
		{ b = "" } END { print n + 0 }' "$TMP/$1.log"
}

# rs_stat NAME KEY: the last value of KEY in run NAME's `show fwd stats`
rs_stat() {
	fwd_stat "$@"
}

echo "== the fabric: FIP logins (the FCF's accepts on fabric port 3), then data only"
gen fab --flows 16 --redirects 4 --exchanges 4 --login-gap 8 || { finish; exit; }
grep -v '^binding add' "$TMP/fab.cmds" >"$TMP/fab.cfg"
python3 "$DP_CHECK" phases "$TMP/fab.pcap" "$TMP/fab.ph" >/dev/null
# the logins phase: the FCF's frames (its MAC 0e:fc:00:ff:ff:fe) to port 3
python3 - "$TMP/fab.ph.1.pcap" "$TMP/enodes.pcap" "$TMP/fcf.pcap" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
hdr, o, outs = b[:24], 24, [bytearray(b[:24]), bytearray(b[:24])]
while o + 16 <= len(b):
    n = int.from_bytes(b[o + 8:o + 12], "little")
    rec = b[o:o + 16 + n]
    outs[rec[16 + 6:16 + 12] == bytes.fromhex("0efc00fffffe")] += rec
    o += 16 + n
open(sys.argv[2], "wb").write(outs[0])
open(sys.argv[3], "wb").write(outs[1])
PY
cp "$TMP/fab.ph.2.pcap" "$TMP/data.pcap"
n_login=$(($(pcap_frames "$TMP/enodes.pcap") + $(pcap_frames "$TMP/fcf.pcap")))
n_data=$(pcap_frames "$TMP/data.pcap")
n_bind=$(grep -c '^binding add' "$TMP/fab.cmds")
echo "  logins phase: $n_login frames ($(pcap_frames "$TMP/fcf.pcap") from the FCF); data phase: $n_data frames; $n_bind VN_Ports"

# rs_learn NAME STATE: start a run that learns the logins phase (port 0
# replays $TMP/NAME.rx0.pcap, the ENodes' frames); after `stop` every login
# is applied
rs_learn() {
	cp "$TMP/enodes.pcap" "$TMP/$1.rx0.pcap"
	rs_start "$1" "$TMP/$1.rx0.pcap" "$TMP/fcf.pcap" "$2"
	rs_send '%s\n' "$(cat "$TMP/fab.cfg")"
	rs_send 'start\nwait rx %s 120000\nstop\nbinding list\n' "$n_login"
	fcr_wait_line "$1" '^[0-9]+ bindings$' 1
}

# rs_restarted NAME STATE: a run with STATE and the data phase alone:
# `binding list` before `start`, then the data forwarded
rs_restarted() {
	local name=$1
	rs_args "$name" "$TMP/data.pcap" "" "$2"
	{
		echo "binding list"
		cat "${RS_CFG:-$TMP/fab.cfg}"
		printf 'redirect list\nstart\nwait rx %s 120000\nstop\nshow fwd stats\nredirect list\nbinding list\nquit\n' "$n_data"
	} >"$TMP/$name.run"
	FCR_RC=0
	"$FCR" "${FCR_ARGS[@]}" <"$TMP/$name.run" >"$TMP/$name.log" 2>&1 || FCR_RC=$?
	fcr_done "$name"
}

# rs_judge_restart NAME REF: run NAME (restarted) restored every binding at
# once and forwarded the data phase as run REF did
rs_judge_restart() {
	local name=$1 ref=$2 nl rx tx dr nli
	if grep -qE "restored $n_bind bindings of $n_bind ENodes, 0 FCFs, 4 redirects \(4 active\) from .*state \(written [0-9-]+ s ago\)" "$TMP/$name.log"; then
		ok "$name: 'restored $n_bind bindings of $n_bind ENodes, 0 FCFs, 4 redirects (4 active) from ...'"
	else
		ko "$name: no restored line: $(grep -m1 'state file\|restored' "$TMP/$name.log")"
	fi
	check "$name: the 4 restored redirects named by the configuration (none listed as not configured)" \
		"$(grep -c 'restored, not configured yet' "$TMP/$name.log")" -eq 0
	# the configuration names the 4 again: kept, no cutover
	if grep -qE "restored redirects at the start of forwarding: 4 kept as they were, 0 in a cutover begun again, 0 no longer configured" "$TMP/$name.log"; then
		ok "$name: the 4 restored redirects kept as they were"
	else
		ko "$name: $(grep -m1 'restored redirects at the start' "$TMP/$name.log")"
	fi
	nl=$(rs_lists "$name")
	if [ "$nl" -ge 1 ] && [ "$(wc -l <"$TMP/$name.list.1")" -eq "$n_bind" ] &&
		[ "$(grep -c ' learned$' "$TMP/$name.list.1")" -eq "$n_bind" ]; then
		ok "$name: binding list before start: $n_bind learned bindings"
	else
		ko "$name: binding list before start: $(wc -l <"$TMP/$name.list.1" 2>/dev/null) lines"
	fi
	if [ -f "$TMP/$ref.list.1" ] && diff -q <(sort "$TMP/$ref.list.1") <(sort "$TMP/$name.list.1") >/dev/null; then
		ok "$name: the bindings $ref had learned, exactly"
	else
		ko "$name: the bindings differ from what $ref learned"
	fi
	nli=$(grep -E '^ +not_logged_in +[0-9]+' "$TMP/$name.log" | awk '{ print $2 }' | tail -1 || true)
	tx=$(awk '/^  total / { print $5 }' "$TMP/$name.log" | tail -1)
	rx=$(awk '/^  total / { print $3 }' "$TMP/$name.log" | tail -1)
	dr=$(awk '/^  total / { print $7 }' "$TMP/$name.log" | tail -1)
	if [ "${rx:-0}" -eq "$n_data" ] && [ "${dr:-1}" -eq 0 ] && [ -z "$nli" ] &&
		[ "${tx:-0}" -eq "$n_data" ]; then
		ok "$name: $n_data data frames received, $tx sent, none dropped (no not_logged_in)"
	else
		ko "$name: rx '$rx' tx '$tx' dropped '$dr' not_logged_in '${nli}' (want $n_data, $n_data, 0, none)"
	fi
	if [ "$(rs_stat "$name" state_restored_bindings)" = "$n_bind" ]; then
		ok "$name: state_restored_bindings $n_bind"
	else
		ko "$name: state_restored_bindings '$(rs_stat "$name" state_restored_bindings)'"
	fi
	python3 "$DP_CHECK" compare --name "$name" \
		--a "0=$TMP/$ref.out0.pcap" --a "1=$TMP/$ref.out1.pcap" --a "2=$TMP/$ref.out2.pcap" \
		--b "0=$TMP/$name.out0.pcap" --b "1=$TMP/$name.out1.pcap" --b "2=$TMP/$name.out2.pcap" \
		>"$TMP/$name.cmp" 2>&1 || true
	if grep -q '^dp_check: [0-9]* passed, 0 failed' "$TMP/$name.cmp"; then
		ok "$name: every frame as $ref sent it (tshark records and bytes, ports 0-2)"
	else
		ko "$name: its frames differ from $ref's"
		grep -v PASS "$TMP/$name.cmp" | head -8 | sed 's/^/        /'
	fi
}

echo "== learn-quit: learn, forward the data, quit; restart on the data alone"
mkdir -p "$TMP/s1"
S1=$TMP/s1/fcredirect.state
if rs_learn learn "$S1"; then
	# the data phase on the same run: the reference for the restarted runs
	rs_send 'port stop 0\nshow port summary all\n'
	if fcr_wait_line learn '^0 +net_pcap0 .* stopped ' 1; then
		mv "$TMP/learn.out0.pcap" "$TMP/learn.out0.logins.pcap"
		cp "$TMP/data.pcap" "$TMP/learn.rx0.pcap"
		rs_send 'port start 0\nstart\nwait rx %s 120000\nstop\nshow fwd stats\nquit\n' \
			"$((n_login + n_data))"
	fi
fi
rs_end learn
rs_lists learn >/dev/null
check "learn: $n_bind bindings learned" "$(wc -l <"$TMP/learn.list.1" 2>/dev/null || echo 0)" -eq "$n_bind"
check "learn: the state file holds $n_bind bindings after quit" "$(rs_bindings "$S1")" -eq "$n_bind"
check "learn: state_writes counted" "$(rs_stat learn state_writes)" -ge 1
check "learn: mode 0600, no .tmp left" "$(stat -c %a "$S1" 2>/dev/null)" = 600 -a ! -e "$S1.tmp"
cp "$S1" "$TMP/good.state"
rs_restarted restart1 "$S1" && rs_judge_restart restart1 learn

echo "== learn-kill: learn, SIGKILL once the file holds it all; restart on the data alone"
mkdir -p "$TMP/s2"
S2=$TMP/s2/fcredirect.state
if rs_learn learnk "$S2"; then
	# wait on the state: state_writes counted and the file holding them all
	deadline=$((SECONDS + 60))
	while :; do
		rs_send 'show fwd stats\n'
		w=$(rs_stat learnk state_writes)
		[ "${w:-0}" -ge 1 ] && [ "$(rs_bindings "$S2")" -eq "$n_bind" ] && break
		if [ "$SECONDS" -ge "$deadline" ] || ! kill -0 "$FCR_PID" 2>/dev/null; then
			ko "learnk: state_writes '$w', the file holds $(rs_bindings "$S2") bindings"
			break
		fi
		sleep 0.05
	done
	kill -9 "$FCR_PID" 2>/dev/null
fi
exec {RS_FD}>&-
trap - PIPE
wait "$FCR_PID" 2>/dev/null || true
rm -rf "/var/run/dpdk/dp$$-learnk"
check "learnk: killed with SIGKILL, the file holds $n_bind bindings" "$(rs_bindings "$S2")" -eq "$n_bind"
rs_restarted restart2 "$S2" && rs_judge_restart restart2 learn

echo "== restart-unconfigured: the configuration no longer names the 4 restored redirects"
mkdir -p "$TMP/s4"
cp "$TMP/good.state" "$TMP/s4/fcredirect.state"
chmod 600 "$TMP/s4/fcredirect.state"
grep -v '^redirect add' "$TMP/fab.cfg" >"$TMP/fab-plain.cfg"
RS_CFG=$TMP/fab-plain.cfg rs_restarted unconfigured "$TMP/s4/fcredirect.state"
if grep -qE "restored redirects at the start of forwarding: 0 kept as they were, 0 in a cutover begun again, 4 no longer configured removed through a cutover" "$TMP/unconfigured.log"; then
	ok "unconfigured: the 4 restored redirects removed when forwarding started"
else
	ko "unconfigured: $(grep -m1 'restored redirects at the start' "$TMP/unconfigured.log")"
fi
check "unconfigured: before start, the 4 listed as restored, not configured yet" \
	"$(grep -c '^redirect vlan.*(restored, not configured yet)' "$TMP/unconfigured.log")" -eq 4
check "unconfigured: after start, no redirect left (the only list lines, 4, before start)" \
	"$(grep -c '^redirect vlan' "$TMP/unconfigured.log")" -eq 4
check "unconfigured: state_redirects_removed 4" "$(rs_stat unconfigured state_redirects_removed)" -eq 4

echo "== restart-silent: restored ENodes that do not keep alive are timed out (keep-alive period 1 s in the file)"
mkdir -p "$TMP/s3"
S3=$TMP/s3/fcredirect.state
cp "$TMP/good.state" "$S3"
chmod 600 "$S3"
rs_patch "$S3" 32 e8030000 # fka_ms 1000
rs_start silent "$TMP/data.pcap" "" "$S3"
rs_send 'binding list\n'
if fcr_wait_line silent '^[0-9]+ bindings$' 1; then
	# wait on the state: every ENode timed out (nothing kept alive)
	deadline=$((SECONDS + 60))
	while :; do
		rs_send 'show fwd stats\n'
		k=$(rs_stat silent keepalive_timeouts)
		[ "${k:-0}" -ge "$n_bind" ] && break
		if [ "$SECONDS" -ge "$deadline" ] || ! kill -0 "$FCR_PID" 2>/dev/null; then
			break
		fi
		sleep 0.05
	done
	rs_send 'binding list\nshow fwd stats\nquit\n'
fi
rs_end silent
rs_lists silent >/dev/null
check "silent: $n_bind bindings restored, then every ENode timed out (keepalive_timeouts $(rs_stat silent keepalive_timeouts), keepalive_unbound $(rs_stat silent keepalive_unbound))" \
	"$(wc -l <"$TMP/silent.list.1")" -eq "$n_bind" -a "$(rs_stat silent keepalive_timeouts)" = "$n_bind" \
	-a "$(rs_stat silent keepalive_unbound)" = "$n_bind"
check "silent: no binding left, and the state file says so after quit" \
	"$(wc -l <"$TMP/silent.list.2")" -eq 0 -a "$(rs_bindings "$S3")" -eq 0

# ---------------------------------------------------------------------
# Bad files: each refused, moved aside, nothing restored, the run goes on.

# bad NAME "what" PATTERN: a run whose state file $TMP/NAME/fcredirect.state
# was made bad: refused with PATTERN in its log line, moved aside, nothing
# restored, every frame accounted for
bad() {
	local name=$1 what=$2 pat=$3 dir=$TMP/$1 nl rx tx dr
	echo "== $name: $what"
	rs_restarted "$name" "$dir/fcredirect.state" || return 0
	if grep -qE "fcr.main: error: state file $dir/fcredirect.state refused: $pat; moved aside to $dir/fcredirect.state.bad-[0-9]{8}T[0-9]{6}Z, nothing restored" "$TMP/$name.log"; then
		ok "$name: refused: $(grep -m1 -o 'refused: [^;]*' "$TMP/$name.log")"
	else
		ko "$name: no refusal line for '$pat': $(grep -m1 'state file' "$TMP/$name.log")"
	fi
	check "$name: one state-file line" "$(grep -c 'state file' "$TMP/$name.log")" -eq 1
	check "$name: the file kept aside as fcredirect.state.bad-*" \
		"$(find "$dir" -maxdepth 1 -name 'fcredirect.state.bad-*' | wc -l)" -eq 1
	nl=$(rs_lists "$name")
	check "$name: nothing restored (0 bindings before start, state_restored_bindings 0)" \
		"$nl" -ge 1 -a "$(wc -l <"$TMP/$name.list.1")" -eq 0 -a \
		"$(rs_stat "$name" state_restored_bindings)" = 0
	tx=$(awk '/^  total / { print $5 }' "$TMP/$name.log" | tail -1)
	rx=$(awk '/^  total / { print $3 }' "$TMP/$name.log" | tail -1)
	dr=$(awk '/^  total / { print $7 }' "$TMP/$name.log" | tail -1)
	check "$name: ran on: rx $rx == tx $tx + dropped $dr, the unknown VN_Ports' frames dropped as not_logged_in" \
		"${rx:-0}" -eq "$n_data" -a "$((tx + dr))" -eq "$n_data" -a \
		"$(grep -cE '^ +not_logged_in +[1-9]' "$TMP/$name.log")" -ge 1
	check "$name: a new state file written at quit (mode 0600)" \
		"$(stat -c %a "$dir/fcredirect.state" 2>/dev/null)" = 600
}

mkbad() { # NAME: $TMP/NAME/fcredirect.state, a copy of the good file
	mkdir -p "$TMP/$1"
	cp "$TMP/good.state" "$TMP/$1/fcredirect.state"
	chmod 600 "$TMP/$1/fcredirect.state"
}
sz=$(stat -c %s "$TMP/good.state")

mkbad bad-truncated
truncate -s $((sz - 7)) "$TMP/bad-truncated/fcredirect.state"
bad bad-truncated "the file cut short by 7 bytes" "truncated or extended: its header says $sz bytes, the file has $((sz - 7))"

mkbad bad-flipped
python3 -c 'import sys
p, o = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read()); b[o] ^= 0x10; open(p, "wb").write(b)' \
	"$TMP/bad-flipped/fcredirect.state" $((sz / 2))
bad bad-flipped "one byte flipped in a record" "checksum mismatch: CRC32C 0x[0-9a-f]+ stored, 0x[0-9a-f]+ computed"

mkbad bad-version
rs_patch "$TMP/bad-version/fcredirect.state" 8 04000000
bad bad-version "format version 4 (a later program's)" "format version 4, this program reads versions 1 to 3"

mkbad bad-node
rs_patch "$TMP/bad-node/fcredirect.state" 0 "" "otherhost ports net_pcap0,net_pcap1,net_pcap2,net_pcap3"
bad bad-node "written by another node (checksum right)" "written by another node \('otherhost ports net_pcap0,net_pcap1,net_pcap2,net_pcap3'; this node is '[^']+'\)"

mkbad bad-mode
chmod 644 "$TMP/bad-mode/fcredirect.state"
bad bad-mode "mode 0644" "mode 0644: its group or others may read or write it \(0600 wanted\)"

mkbad bad-owner
if chown nobody "$TMP/bad-owner/fcredirect.state" 2>/dev/null; then
	bad bad-owner "owned by another user (nobody)" "owned by uid [0-9]+, not by this process's \([0-9]+\)"
else
	echo "== bad-owner: not run (chown needs root)"
fi

mkdir -p "$TMP/bad-link"
ln -s "$TMP/good.state" "$TMP/bad-link/fcredirect.state"
bad bad-link "a symbolic link to a good file" "a symbolic link"
check "bad-link: the file it pointed to is untouched" "$(rs_bindings "$TMP/good.state")" -eq "$n_bind"

finish
