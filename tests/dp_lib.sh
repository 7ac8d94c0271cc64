# SPDX-License-Identifier: BSD-3-Clause
#
# Shared by the dataplane integration tests (tests/dp_*.sh): run fcredirect
# on capture files through net_pcap ports (no NIC, no hugepages), judge the
# outputs with dp_check.py (which has tshark read every capture), count
# checks. Source it after setting FCR and GEN:
#
#   FCR=path/to/fcredirect GEN=path/to/fcoe-gen; . "$(dirname "$0")/dp_lib.sh"
#
# Each fcredirect process gets its own --file-prefix (dp<pid>-<case>) and
# its DPDK runtime directory is removed after it; the temporary directory
# goes at exit (kept when DP_KEEP=1, for a look at the captures).
set -euo pipefail

DP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DP_CHECK=$DP_DIR/dp_check.py

for _x in "$FCR" "$GEN"; do
	if [ ! -x "$_x" ]; then
		echo "$(basename "$0"): $_x is not an executable" >&2
		exit 1
	fi
done
for _p in tshark python3; do
	if ! command -v "$_p" >/dev/null; then
		echo "$(basename "$0"): $_p not found" >&2
		exit 1
	fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/dp-test.XXXXXX")
dp_cleanup() {
	local d
	for d in /var/run/dpdk "${XDG_RUNTIME_DIR:-/nonexistent}/dpdk"; do
		[ -d "$d" ] && rm -rf "$d"/dp$$-* 2>/dev/null
	done
	if [ "${DP_KEEP:-0}" = 1 ]; then
		echo "(kept $TMP)"
	else
		rm -rf "$TMP"
	fi
	return 0
}
trap dp_cleanup EXIT

. "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

# fabric_replay: FABRIC names port 0, the port that replays the whole
# fabric (the FCF's replies among it). Then the hosts sit behind port 3, a
# fourth port that only sends: a frame is never sent back out of the fabric
# port it came in on (dropped as fabric_loop).
fabric_replay() {
	case ",${FABRIC:-}," in *,0,*) return 0 ;; esac
	return 1
}

# dp_ports: the ports of a run, 3 too when fabric_replay
dp_ports() {
	if fabric_replay; then echo 0 1 2 3; else echo 0 1 2; fi
}

# gen NAME [fcoe-gen options]: $TMP/NAME.pcap, .list, .cmds (routes,
# bindings, redirects as fcoe-gen prints them); the hosts' routes to port 3
# when fabric_replay (unless the options say --host-port)
gen() {
	local name=$1
	shift
	local -a hp=()
	case " $* " in *" --host-port "*) ;; *) fabric_replay && hp=(--host-port 3) ;; esac
	if ! "$GEN" --out "$TMP/$name.pcap" --list "$TMP/$name.list" \
		--commands "$TMP/$name.cmds" --quiet "${hp[@]}" "$@" 2>"$TMP/$name.gen"; then
		cat "$TMP/$name.gen"
		ko "$name: fcoe-gen $* failed"
		return 1
	fi
	echo "  fcoe-gen $*: $(sed 's/^fcoe-gen: //; s/ file=.*//' "$TMP/$name.gen" |
		tr ' ' '\n' | grep -v '=0$' | tr '\n' ' ')"
}

# pcap_frames FILE: the number of frames in a pcap file
pcap_frames() {
	python3 -c 'import sys
b = open(sys.argv[1], "rb").read()
o, n = 24, 0
while o + 16 <= len(b):
    o += 16 + int.from_bytes(b[o + 8:o + 12], "little")
    n += 1
print(n)' "$1"
}

# script CONFIG OUT: the commands fcredirect runs: CONFIG, then forward the
# whole capture, then the reports dp_check.py reads
script() {
	{
		cat "$1"
		echo "start"
		echo "wait rx @FRAMES@ 120000"
		echo "stop"
		echo "show fwd stats"
		echo "redirect list"
		echo "binding list"
		echo "quit"
	} >"$2"
}

# fcr_args NAME IN WORKERS [extra program options]: the program's
# arguments for run NAME into FCR_ARGS: port 0 replaying IN (a capture, or
# with 2 workers two captures IN,IN2 on two RX queues), ports 1 and 2 (and
# 3, the hosts', when fabric_replay) writing only, outputs
# $TMP/NAME.out<port>[ab].pcap.
fcr_args() {
	local name=$1 in=$2 workers=$3 p
	shift 3
	local -a eal vdev app
	# save config and load config read and write the test's folder
	app=(--config-dir "$TMP" "$@")
	# FABRIC=P[,P]: the trust model, those ports facing the fabric
	[ -n "${FABRIC:-}" ] && app+=(--fabric-ports "$FABRIC")
	if [ "$workers" -eq 1 ]; then
		# shellcheck disable=SC2054 # one EAL argument, a list of lcores
		eal=(-l 0,1)
		vdev=(--vdev "net_pcap0,rx_pcap=$in,tx_pcap=$TMP/$name.out0.pcap")
		for p in $(dp_ports); do
			[ "$p" -eq 0 ] && continue
			vdev+=(--vdev "net_pcap$p,tx_pcap=$TMP/$name.out$p.pcap")
		done
	else
		# three lcores on the machine's two cores: main, two workers
		eal=(--lcores "0@0,1@1,2@1")
		local in1=${in%%,*} in2=${in#*,}
		vdev=(--vdev "net_pcap0,rx_pcap=$in1,rx_pcap=$in2,tx_pcap=$TMP/$name.out0a.pcap,tx_pcap=$TMP/$name.out0b.pcap")
		for p in $(dp_ports); do
			[ "$p" -eq 0 ] && continue
			vdev+=(--vdev "net_pcap$p,tx_pcap=$TMP/$name.out${p}a.pcap,tx_pcap=$TMP/$name.out${p}b.pcap")
		done
		app=(--config "(0,0,1),(0,1,2)" "${app[@]}")
	fi
	FCR_ARGS=(--no-huge -m 512 --no-pci "${eal[@]}" --file-prefix "dp$$-$name"
		--log-level=lib.eal:error --log-level=pmd.net.pcap:error "${vdev[@]}"
		-- -i --max-flows 65536 --max-bindings 65536 --max-redirects 4096 "${app[@]}")
}

# fcr_done NAME: after run NAME (FCR_RC set): its DPDK runtime directory
# removed; a failure said. 0 or 1.
fcr_done() {
	rm -rf "/var/run/dpdk/dp$$-$1" 2>/dev/null || true
	if [ "$FCR_RC" -ne 0 ]; then
		ko "$1: fcredirect exited $FCR_RC"
		tail -5 "$TMP/$1.log" | sed 's/^/        /'
		return 1
	fi
}

# fcr NAME IN CMDS [--workers 2] [-- extra program options]: runs fcredirect
# on IN (fcr_args) with the commands CMDS, @FRAMES@ in them the number of
# frames IN holds; standard output and error in $TMP/NAME.log. Sets FCR_RC.
fcr() {
	local name=$1 in=$2 cmds=$3
	shift 3
	local workers=1
	if [ "${1:-}" = "--workers" ]; then
		workers=$2
		shift 2
	fi
	[ "${1:-}" = "--" ] && shift
	fcr_args "$name" "$in" "$workers" "$@"
	FCR_RC=0
	# wait for the whole capture by its count, not for a lull: a loaded
	# machine can pause the replay for longer than any idle time
	local frames=0 f
	for f in ${in//,/ }; do
		frames=$((frames + $(pcap_frames "$f")))
	done
	sed "s/@FRAMES@/$frames/" "$cmds" >"$TMP/$name.cmds.run"
	"$FCR" "${FCR_ARGS[@]}" <"$TMP/$name.cmds.run" >"$TMP/$name.log" 2>&1 || FCR_RC=$?
	fcr_done "$name"
}

# fcr_wait_line NAME PATTERN N: until run NAME's output holds N lines
# matching PATTERN (a state the commands sent so far lead to), while the
# program runs, for at most 120 s. 0, or 1 when it does not come.
fcr_wait_line() {
	local deadline=$((SECONDS + 120))
	while [ "$(grep -cE "$2" "$TMP/$1.log" || true)" -lt "$3" ]; do
		if ! kill -0 "$FCR_PID" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
			ko "$1: no '$2' (the ${3}th) in its output"
			return 1
		fi
		sleep 0.05
	done
}

# fcr_phased NAME CAPTURE CFG [--workers 2] [-- extra program options]: as
# fcr with the configuration CFG, the capture replayed in phases
# (dp_check.py phases: one ends after each run of fcoe-gen's --login-gap
# frames), each only once the one before is wholly applied: after a phase,
# `stop` waits until the workers have sent every frame, and every login
# frame they held waited until the tables lcore applied what it taught.
# Between phases port 0 is stopped, the next phase put where its rx_pcap
# reads (net_pcap opens it again at port start) and its output so far set
# aside (its tx_pcap starts anew); at the end port 0's outputs are one
# capture again. A real fabric needs no such gate: an ENode sends nothing
# before the fabric's accept, which fcredirect holds until it is applied;
# a replay sends on regardless. $TMP/NAME.run: the commands up to the first
# start (for judge). Sets FCR_RC.
fcr_phased() {
	local name=$1 cap=$2 cfg=$3
	shift 3
	local workers=1 k i q frames=0 n fd
	local -a rx outs0 sides
	if [ "${1:-}" = "--workers" ]; then
		workers=$2
		shift 2
	fi
	[ "${1:-}" = "--" ] && shift
	python3 "$DP_CHECK" phases "$cap" "$TMP/$name.ph" >"$TMP/$name.phases"
	sed 's/^/  /' "$TMP/$name.phases"
	k=$(sed -n 's/^dp_check phases: \([0-9]*\) phases.*/\1/p' "$TMP/$name.phases")
	if [ "$workers" -eq 1 ]; then
		rx=("$TMP/$name.rx0.pcap")
		sides=("")
	else
		rx=("$TMP/$name.rx0.pcap" "$TMP/$name.rx1.pcap")
		sides=(a b)
		for i in $(seq 1 "$k"); do
			python3 "$DP_CHECK" split "$TMP/$name.ph.$i.pcap" \
				"$TMP/$name.ph.$i.q0.pcap" "$TMP/$name.ph.$i.q1.pcap" >/dev/null
		done
	fi
	# phase i's capture of queue q
	phase_rx() {
		if [ "$workers" -eq 1 ]; then
			echo "$TMP/$name.ph.$1.pcap"
		else
			echo "$TMP/$name.ph.$1.q$2.pcap"
		fi
	}
	for q in "${!rx[@]}"; do
		cp "$(phase_rx 1 "$q")" "${rx[$q]}"
	done
	fcr_args "$name" "$(IFS=,; echo "${rx[*]}")" "$workers" "$@"
	{ cat "$cfg"; echo "start"; } >"$TMP/$name.run"
	mkfifo "$TMP/$name.stdin"
	FCR_RC=0
	"$FCR" "${FCR_ARGS[@]}" <"$TMP/$name.stdin" >"$TMP/$name.log" 2>&1 &
	FCR_PID=$!
	exec {fd}>"$TMP/$name.stdin"
	# a program that has gone reads nothing more: what is written then is
	# lost, not this script (its exit status says what happened)
	trap '' PIPE
	send() { printf "$@" >&"$fd" 2>/dev/null || true; }
	send '%s\n' "$(cat "$cfg")"
	for i in $(seq 1 "$k"); do
		for q in "${!rx[@]}"; do
			frames=$((frames + $(pcap_frames "$(phase_rx "$i" "$q")")))
		done
		[ "$i" -gt 1 ] && send 'port start 0\n'
		send 'start\nwait rx %s 120000\nstop\n' "$frames"
		[ "$i" -eq "$k" ] && break
		# port 0 stopped, as the port summary says: its files are closed
		send 'port stop 0\nshow port summary all\n'
		fcr_wait_line "$name" '^0 +net_pcap0 .* stopped ' "$i" || break
		for n in "${sides[@]}"; do
			mv "$TMP/$name.out0$n.pcap" "$TMP/$name.out0$n.p$i.pcap"
		done
		for q in "${!rx[@]}"; do
			cp "$(phase_rx $((i + 1)) "$q")" "${rx[$q]}"
		done
	done
	send 'show fwd stats\nredirect list\nbinding list\nquit\n'
	exec {fd}>&-
	trap - PIPE
	wait "$FCR_PID" || FCR_RC=$?
	unset -f phase_rx send
	for n in "${sides[@]}"; do
		outs0=()
		for i in $(seq 1 $((k - 1))); do
			[ -f "$TMP/$name.out0$n.p$i.pcap" ] && outs0+=("$TMP/$name.out0$n.p$i.pcap")
		done
		if [ ${#outs0[@]} -gt 0 ] && [ -f "$TMP/$name.out0$n.pcap" ]; then
			python3 "$DP_CHECK" cat "$TMP/$name.out0$n.all.pcap" "${outs0[@]}" \
				"$TMP/$name.out0$n.pcap"
			mv "$TMP/$name.out0$n.all.pcap" "$TMP/$name.out0$n.pcap"
		fi
	done
	fcr_done "$name"
}

# outs NAME [workers]: the --out arguments of dp_check.py for run NAME
outs() {
	local p
	for p in $(dp_ports); do
		if [ "${2:-1}" -eq 1 ]; then
			printf -- '--out %s ' "$p=$TMP/$1.out$p.pcap"
		else
			printf -- '--out %s ' "$p=$TMP/$1.out${p}a.pcap,$TMP/$1.out${p}b.pcap"
		fi
	done
}

# judge NAME GEN-NAME CMDS [dp_check options]: dp_check.py on run NAME of
# capture GEN-NAME (fcoe-gen's, with its list, or another run's output);
# adds its counts to ours
judge() {
	local name=$1 g=$2 cmds=$3
	shift 3
	local n p f workers=1
	local -a list=()
	case " $* " in *" --multiset "*) workers=2 ;; esac
	[ -f "$TMP/$g.list" ] && list=(--list "$TMP/$g.list")
	# shellcheck disable=SC2046
	python3 "$DP_CHECK" check --name "$name" --pcap "$TMP/$g.pcap" "${list[@]}" \
		--commands "$cmds" --log "$TMP/$name.log" $(outs "$name" "$workers") \
		${FABRIC:+--fabric-ports "$FABRIC"} "$@" \
		>"$TMP/$name.check" 2>&1 || true
	grep -v '^dp_check: [0-9]* passed' "$TMP/$name.check" || true
	n=$(sed -n 's/^dp_check: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$TMP/$name.check")
	if [ -z "$n" ]; then
		ko "$name: dp_check.py did not finish"
		return
	fi
	p=${n% *}
	f=${n#* }
	passed=$((passed + p))
	failed=$((failed + f))
}

# fwd_stat NAME KEY: a number from run NAME's last `show fwd stats`
fwd_stat() {
	awk -v k="$2" '/Forward statistics/ { n = 0; delete v }
		{ if ($1 == k && $2 ~ /^[0-9]+$/) v[k] = $2 }
		END { print (k in v) ? v[k] : "" }' "$TMP/$1.log"
}
