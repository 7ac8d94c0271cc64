#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Two workers on two RX queues of port 0 (--config "(0,0,1),(0,1,2)",
# three lcores on the machine's two cores) send the same frames, as a
# multiset per port, as one worker on one queue, and both match the model
# (dp_check.py: in input order with one worker, as multisets with two).
# The capture is dealt to the two queues by flow (dp_check.py split);
# bindings are static, so what a worker learns changes nothing.
#
# A third run learns its bindings from the logins with two workers: the
# capture dealt by flow puts a fabric login's accept (from the FCF's MAC) and
# its request (from the ENode's MAC) on different queues, as RSS or two ports
# would, and the bindings must still be learned. It is replayed a phase at
# a time (dp_lib.sh, fcr_phased): the data only once the logins are
# applied. Two workers time-sliced on one core keep no order between their
# queues, so no number of filler frames could stand for that state. Port 0
# is a fabric port there, so the hosts sit behind port 3 (dp_lib.sh).
#
# usage: dp_workers.sh <fcredirect> <fcoe-gen> [gap]
FCR=${1:?usage: dp_workers.sh <fcredirect> <fcoe-gen> [gap]}
GEN=${2:?usage: dp_workers.sh <fcredirect> <fcoe-gen> [gap]}
GAP=${3:-64}
. "$(dirname "$0")/dp_lib.sh"

echo "== one worker, one queue"
gen wk --flows 64 --redirects 16 --exchanges 6 --bad-crc 50 || true
script "$TMP/wk.cmds" "$TMP/wk.run"
fcr one "$TMP/wk.pcap" "$TMP/wk.run" && judge one wk "$TMP/wk.run"

echo "== two workers, two queues"
python3 "$DP_CHECK" split "$TMP/wk.pcap" "$TMP/wk.q0.pcap" "$TMP/wk.q1.pcap" | sed 's/^/  /'
if fcr two "$TMP/wk.q0.pcap,$TMP/wk.q1.pcap" "$TMP/wk.run" --workers 2; then
	# the logins only confirm the static bindings: what the workers report
	# of them is the third run's business
	judge two wk "$TMP/wk.run" --multiset --bindings commands
	echo "  check: both workers forwarded frames"
	w0=$(sed -n 's/^ *worker 0 (lcore [0-9]*): frames \([0-9]*\),.*/\1/p' "$TMP/two.log" | tail -1)
	w1=$(sed -n 's/^ *worker 1 (lcore [0-9]*): frames \([0-9]*\),.*/\1/p' "$TMP/two.log" | tail -1)
	if [ "${w0:-0}" -gt 0 ] && [ "${w1:-0}" -gt 0 ]; then
		ok "two: worker 0 $w0 frames, worker 1 $w1"
	else
		ko "two: worker 0 '${w0}' frames, worker 1 '${w1}'"
	fi
	echo "== the two runs side by side"
	args=()
	for p in 0 1 2; do
		args+=(--a "$p=$TMP/one.out$p.pcap" --b "$p=$TMP/two.out${p}a.pcap,$TMP/two.out${p}b.pcap")
	done
	python3 "$DP_CHECK" compare --name "one vs two" "${args[@]}" >"$TMP/cmp.out" 2>&1 || true
	grep -v '^dp_check: [0-9]* passed' "$TMP/cmp.out" || true
	n=$(sed -n 's/^dp_check: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$TMP/cmp.out")
	if [ -n "$n" ]; then
		passed=$((passed + ${n% *}))
		failed=$((failed + ${n#* }))
	else
		ko "dp_check.py compare did not finish"
	fi
fi

echo "== two workers, bindings learned from the logins only ($GAP filler frames after them)"
# the fabric's accepts (from the FCF's MAC) and the requests (from each
# ENode's MAC) are dealt to the queues apart, as RSS would: a worker may
# report an accept before the other reports its request
# (port 0 a fabric port: gen routes the hosts to port 3, dp_lib.sh)
FABRIC=0 gen wl --flows 64 --redirects 16 --exchanges 4 --login-gap "$GAP" || true
grep -v '^binding add' "$TMP/wl.cmds" >"$TMP/wl.cfg"
if FABRIC=0 fcr_phased two-learned "$TMP/wl.pcap" "$TMP/wl.cfg" --workers 2; then
	FABRIC=0 judge two-learned wl "$TMP/two-learned.run" --multiset
	echo "  observed: acc_unmatched $(fwd_stat two-learned acc_unmatched), bindings_learned" \
		"$(fwd_stat two-learned bindings_learned), $(grep -m1 'login_to_binding' "$TMP/two-learned.log" | tr -s ' ' | sed 's/^ //')"
fi

echo "== the same, the tables lcore held 20 ms before each burst of events (--tables-delay-us)"
# a starved tables lcore changes nothing: each phase waits for what the one
# before taught to be applied, however long that takes
if FABRIC=0 fcr_phased two-learned-slow "$TMP/wl.pcap" "$TMP/wl.cfg" --workers 2 -- \
	--tables-delay-us 20000; then
	FABRIC=0 judge two-learned-slow wl "$TMP/two-learned-slow.run" --multiset
fi

finish
