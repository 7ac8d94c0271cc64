#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
fabric_multipath.py FCREDIRECT

The paths of a redirected pair that no redirect steers, on TAP ports
(tests/fabric_lab.py: the test plays the ENodes and the FCF). A host node
with two ports and a target node with two log in (the node names in their
FLOGIs); one path (host port 1 -> target port 1) is redirected:

  * the host's second port talking to the target's first goes plain (no
    redirect names it): fcredirect finds it a path of the redirected
    pair's nodes: `redirect list` says so on the redirect, the counter
    multipath_unredirected counts its flows, a warning names it once;
  * a flow between other nodes' ports (the service node's VI with the
    target) is not such a path;
  * that path redirected too (its own VI and VT): the next pass over the
    flows finds none, and `redirect list` says nothing more;
  * `redirect del ... paths` removes both redirects of the nodes at once.

Root only (TAP interfaces). Ends with "N passed, M failed".
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fabric_lab as fl  # noqa: E402
import sync_lib as sl  # noqa: E402

HN, TN = 0x2000000000000a11, 0x2000000000000b22
H1, H2, T1, T2 = 0x2100000000000a01, 0x2100000000000a02, 0x5000000000000b01, 0x5000000000000b02
VI, VT, VI2, VT2 = 0x2f00000000000001, 0x2f00000000000002, 0x2f00000000000003, 0x2f00000000000004


def main():
    t = sl.Test("fabric-multipath", sys.argv[1], budget_s=240)
    lab = fl.Lab(t, name="fcrmp")
    try:
        h1 = lab.login(fl.HOSTS, H1, 0x010001, wwnn=HN)
        h2 = lab.login(fl.HOSTS, H2, 0x010002, wwnn=HN)
        t1 = lab.login(fl.TARGETS, T1, 0x410001, wwnn=TN)
        t2 = lab.login(fl.TARGETS, T2, 0x410002, wwnn=TN)
        vi = lab.login(fl.SN, VI, 0x810001)
        lab.login(fl.SN, VT, 0x810002)
        lab.login(fl.SN, VI2, 0x810003)
        lab.login(fl.SN, VT2, 0x810004)
        if None in (h1, h2, t1, t2, vi):
            t.check(False, "every port logs in")
            return
        lab.add_redirect(H1, T1, VI, VT, "host port 1 -> target port 1 redirected")

        print("a path of the same nodes left plain")
        h2.send(t1.fcid, payload=b"\0" * 64, ox_id=0x5100)
        got = lab.ports[fl.TARGETS].wait(lambda f: f["ox_id"] == 0x5100)
        t.check(got is not None and got[0]["s_id"] == h2.fcid,
                "host port 2's frame reaches target port 1 plain (no redirect names it)")
        ok, _, line = lab.node.poll(
            "redirect list", lambda o: "(paths not redirected: 1: 0x010002>0x410001)" in o,
            30, 0.05)
        t.check(ok, "redirect list: the redirect says a path of its nodes is not redirected",
                line)
        t.check(lab.stat("multipath_unredirected") == 1, "multipath_unredirected 1")
        t.check(lab.node.logged("no redirect steers", timeout=10), "and a warning",
                lab.node.log_tail())
        vi.send(t2.fcid, payload=b"\0" * 64, ox_id=0x5101)
        t1.send(h2.fcid, payload=b"\0" * 64, ox_id=0x5102)
        ok, _, line = lab.node.poll("redirect list",
                                    lambda o: "(paths not redirected: 2:" in o, 30, 0.05)
        t.check(ok and lab.stat("multipath_unredirected") == 2,
                "its answer is one more; the VI's flow to the other target port is not one "
                "(multipath_unredirected 2)", line)
        t.check(len(lab.node.logged("no redirect steers")) == 1, "the warning once a group")

        print("that path redirected too")
        lab.node.query("redirect add vlan 0 host %s target %s vi %s vt %s" %
                       tuple(fl.wwpn_text(w) for w in (H2, T1, VI2, VT2)))
        ok, _, out = lab.node.poll(
            "redirect list", lambda o: o.count(" active ") == 2 and "not redirected" not in o,
            30, 0.05)
        t.check(ok, "both active; the next pass over the flows finds no plain path", out)

        print("redirect del ... paths")
        out = lab.node.query("redirect del vlan 0 host %s target %s paths" %
                             (fl.wwpn_text(H1), fl.wwpn_text(T1)))
        t.check("2 redirect(s) of the host's and the target's nodes removed" in out,
                "removes the pair's every redirect at once", out)
        out = lab.node.query("redirect list")
        t.check("0 redirects" in out, "none left", out)
        out = lab.node.query("redirect del vlan 0 host %s target %s paths" %
                             (fl.wwpn_text(H1), fl.wwpn_text(T1)))
        t.check(out.startswith("error"), "again: an error (no such redirect)", out)
    finally:
        lab.close()
    t.finish()


if __name__ == "__main__":
    main()
