#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
An HA pair of fcredirect nodes taking over under I/O between real Linux
FCoE endpoints (an open-fcoe initiator, a LIO tcm_fc target, fcf.py as the
FCF). Both nodes are cabled alike (fcredirect_joiner.HaJoiner: every link
reaches port N of both through a failover switch, here a bridge whose port
to the standby is down) and replicate with --sync-same-ports. The
initiator and the target log in through node A; node B learns their
bindings from A, with the ports and MACs they logged in from. The host
writes a pattern and reads it back in a loop (test_fcredirect.IoLoop)
while A is killed with SIGKILL and the links move to B:

  h1  B forwards from its first frame: no ENode logs in again (the FCF's
      logins keep their time; B tells no ENode to log in again), no frame
      is dropped for want of a binding or sent back to the FCF, every I/O
      round completes, the host's disk is never offlined or removed, 4 MiB
      written after the takeover read back identical, no frame refused.
      A then comes back as the standby with its state file from before it
      died: it times out none of the restored ENodes while it hears no
      keep-alive (its unbinding would reach B through replication), and B
      keeps every binding. The longest pause the host's loop saw is
      printed (timings: h1_pause).

    sudo python3 tests/realfab/test_ha.py [build/app/fcredirect]

Ends with "N passed, N failed"; exits non-zero on any failure. Root only.
"""

import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab  # noqa: E402
import fcredirect_joiner as fj  # noqa: E402
import test_fcredirect as tf  # noqa: E402

# drops that mean B did not know where a VN_Port is
UNKNOWN = ("not_logged_in", "fabric_loop", "no_route", "no_port", "vn_port_gone")


def run(c, binary, timings):
    t0 = time.monotonic()
    name = "h1"
    J = fj.HaJoiner(binary)
    with lab.Lab(joiner=J) as L:
        try:
            tgt, ini, fcf = tf.plain_rig(L)
            A, B = J.a, J.b
            tf.target_then_host_up(tgt, ini, fcf)
            wwpns = (ini.wwpn_text, tgt.wwpn_text)
            b = A.bindings()
            c.check("%s: A learned both logins" % name,
                    all(b.get((0, w), ("", ""))[1] == "learned" for w in wwpns), str(b))
            B.wait_output("binding list", lambda o: all(w in o for w in wwpns),
                          what="B to have both bindings from A")
            bb = B.bindings()
            c.check("%s: B has both bindings from A, at the same FCIDs" % name,
                    all(bb.get((0, w)) == b.get((0, w)) for w in wwpns),
                    "A %s B %s" % (b, bb))
            before_b = B.fwd_stats()
            if not c.check("%s: B, the standby, forwarded nothing" % name,
                           before_b["total"] is not None and before_b["total"][1] == 0,
                           tf.fcr_stats_line(before_b)):
                for role, pcap in sorted(J.b_captures.items()):
                    print("  what reached B's %s port:\n%s" % (role, lab.sh(
                        "tshark", "-r", pcap, "-c", "20", check=False)))

            loop = tf.IoLoop(ini)
            loop.wait_more(2, "two I/O rounds before the takeover")
            since = {w: fcf.port(w)["since"] for w in wwpns}
            t = time.monotonic()
            J.take_over()
            loop.wait_more(3, "three I/O rounds after the takeover")
            timings[name + "_resume"] = time.monotonic() - t
            again = [w for w, s in since.items() if fcf.port(w)["since"] != s]
            c.check("%s: no port had to log in again" % name, not again, str(again))
            st = B.fwd_stats()
            c.check("%s: B told no ENode to log in again" % name,
                    st["tables"].get("enode_relogins", 0) == 0, str(st["tables"]))
            c.check("%s: B forwarded the host's and the target's frames" % name,
                    st["kinds"].get("plain", 0) > 0, tf.fcr_stats_line(st))
            bad = {k: v for k, v in st["drops"].items() if k in UNKNOWN}
            c.check("%s: B dropped no frame for want of where a VN_Port is" % name,
                    not bad, tf.fcr_stats_line(st))

            # A comes back, as the standby (its links stay down), with its
            # state file from before it died: it restores the bindings, takes
            # B's newer state, and, hearing no keep-alive, times out none of
            # them (that would unbind the stations at B through replication)
            # while 6 keep-alives reach the FCF through B (3 periods each of
            # the two ENodes: past the 1.5 a restored ENode is given)
            A.restart(kill=False)
            st = A.fwd_stats()["tables"]
            c.check("%s: A, back as the standby, restored both bindings from its state file"
                    % name, st.get("state_restored_bindings", 0) == 2, str(st))
            ka0 = fcf.state()["counters"].get("keep_alives", 0)
            lab.wait_for(lambda: fcf.state()["counters"].get("keep_alives", 0) >= ka0 + 6,
                         lab.DEADLINE, "six keep-alives at the FCF after A came back")
            st = A.fwd_stats()["tables"]
            c.check("%s: A timed out no restored ENode while standby" % name,
                    st.get("keepalive_timeouts", 0) == 0 and
                    st.get("keepalive_unbound", 0) == 0, str(st))
            bb2 = B.bindings()
            c.check("%s: B, active, kept both bindings" % name,
                    all(bb2.get((0, w)) == b.get((0, w)) for w in wwpns), str(bb2))
            loop.wait_more(2, "two I/O rounds after A came back")
            tf.check_loop_rode_out(c, name, loop, ini, timings, "takeover")
            drops = fcf.drops()
            c.check("%s: the FCF dropped nothing" % name, not any(drops.values()),
                    str({k: v for k, v in drops.items() if v}))
            for g in (tgt, ini):
                tf.check_dmesg_clean(c, g)
        except Exception:
            traceback.print_exc()
            c.check("%s: runs to its end" % name, False)
            for j in (J.a, J.b):
                if j is not None and j.alive():
                    tf.diagnose(L, j)
        L.failed = c.failed > 0
    timings[name] = time.monotonic() - t0


if __name__ == "__main__":
    sys.exit(fj.test_main(run))
