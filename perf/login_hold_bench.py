#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
login_hold_bench.py FCREDIRECT [--logins N] [--hogs N]

What holding fabric login frames until the tables lcore has applied them
costs an ENode: the time from the FCF sending a FLOGI accept to the ENode
receiving it through fcredirect, against the same path for a frame that is
not held (an FCP frame from the fabric to the same ENode), alternating, in
the same run, on the live TAP fabric of tests/fabric_lab.py (root). With
--hogs N (default 2) that many busy loops share the machine, as the issue
asks ("measured under load"). Prints p50/p99 of both and their ratio, and
fcredirect's own login_hold line (arrival to release inside fcredirect).
Exits non-zero only when a frame does not arrive.

Standard library only.
"""

import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import fabric_lab as fl  # noqa: E402
import fcoe_frames as ff  # noqa: E402
import sync_lib as sl  # noqa: E402


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p / 100))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fcr")
    ap.add_argument("--logins", type=int, default=300)
    ap.add_argument("--hogs", type=int, default=2)
    a = ap.parse_args()
    t = sl.Test("login-hold-bench", a.fcr, budget_s=600)
    hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(a.hogs)]
    try:
        lab = fl.Lab(t, "lh", extra=["--max-bindings", "4096"])
        held, plain = [], []
        host_port = lab.ports[fl.HOSTS]
        for i in range(a.logins):
            fcid = 0x010100 + i
            wwpn = 0x2100000000100000 + i
            enode = bytes([0x02, 0, 0, 1, i >> 8 & 0xFF, i & 0xFF])
            ox = 0x2000 + i
            lab.ports[fl.HOSTS].send(ff.fcoe(fl.FCF_MAC, enode, ff.ELS_REQ, ff.FFFFFE, 0,
                                             ff.TYPE_ELS, ox, ff.sparm(ff.FLOGI, wwpn, wwpn)))
            if lab.ports[fl.FABRIC].wait(lambda f: f["ox_id"] == ox and f["r_ctl"] == ff.ELS_REQ) \
                    is None:
                t.check(False, "FLOGI %d reached the FCF" % i)
                break
            # the reference first: a frame from the fabric to the same
            # domain, not held
            t0 = time.monotonic()
            lab.ports[fl.FABRIC].send(ff.fcoe(ff.fpma(fcid), fl.FCF_MAC, ff.FCP_DATA, fcid,
                                              0xFFFFFD, ff.TYPE_FCP, 0x6000 + i, b"\0" * 64))
            got = host_port.wait(lambda f: f["ox_id"] == 0x6000 + i and f["d_id"] == fcid)
            t1 = host_port.arrival(got[0]) if got else None
            t2 = time.monotonic()
            lab.ports[fl.FABRIC].send(ff.fcoe(enode, fl.FCF_MAC, ff.ELS_REP, fcid, ff.FFFFFE,
                                              ff.TYPE_ELS, ox, ff.sparm(ff.LS_ACC, 1, 1),
                                              f_ctl=ff.F_CTL_REPLY))
            acc = host_port.wait(lambda f: f["ox_id"] == ox and f["s_id"] == ff.FFFFFE)
            if got is None or acc is None:
                t.check(False, "login %d: the frames arrived" % i)
                break
            plain.append((t1 - t0) * 1e6)
            held.append((host_port.arrival(acc[0]) - t2) * 1e6)
        stats = lab.node.query("show fwd stats")
        line = [l.strip() for l in stats.splitlines() if "login_hold" in l]
        lab.close()
    finally:
        for h in hogs:
            h.kill()
    if held:
        print("%d logins, %d busy loops beside; microseconds from the FCF's send to the "
              "ENode's receive (TAP and Python included):" % (len(held), a.hogs))
        print("| frame | p50 | p99 | max |")
        print("|---|---:|---:|---:|")
        print("| FCP frame, not held (reference) | %.0f | %.0f | %.0f |" %
              (pct(plain, 50), pct(plain, 99), max(plain)))
        print("| FLOGI accept, held until applied | %.0f | %.0f | %.0f |" %
              (pct(held, 50), pct(held, 99), max(held)))
        print("held / reference: p50 %.2fx, p99 %.2fx; added p50 %.0f us, p99 %.0f us" %
              (pct(held, 50) / pct(plain, 50), pct(held, 99) / pct(plain, 99),
               pct(held, 50) - pct(plain, 50), pct(held, 99) - pct(plain, 99)))
        print("inside fcredirect: %s" % (line[0] if line else "no login_hold line"))
        print("machine load: %s" % open("/proc/loadavg").read().strip())
        t.check(len(held) == a.logins, "every login and reference frame arrived")
    t.finish()


if __name__ == "__main__":
    main()
