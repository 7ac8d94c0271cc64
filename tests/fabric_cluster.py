#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
fabric_cluster.py FCREDIRECT

A cluster of two service nodes on TAP ports (tests/fabric_lab.py: the test
plays the ENodes and the FCF, and each station checks the S_ID, the D_ID
and the MACs of what reaches it). Nodes X and Y, each a VT and two VIs
(two members), form cluster "sme"; hosts H1 and H2 reach target T
through it:

  * both pairs go on one node (its VT), by target, each on a VI of its
    own; `service-node list` says so;
  * the host's frames reach that node's VT, rewritten, from the FCF's MAC
    to the VT's own;
  * that node's VT logs out: its members are unbound, both pairs fail closed;
    after --sn-failover-ms the restartable pair (H1's) moves to the other
    node (a cutover), counted and logged, and its frames reach the other
    VT; the pair that is not restartable (H2's) stays, dropping its frames;
  * the other node's VT hangs (the host's command is never answered): H1's
    member is not answering (a stall is the member's), H1's pair moves to
    the node's other VI; unanswered there too, it has no member up to
    move to: said once (sn_failovers_stuck); the first node's VT logs in
    again: H1's pair moves back to it and H2's is active again;
  * `save config` names the cluster, not the node;
  * a redirect of a cluster with no node on the VLAN is refused.

Root only (TAP interfaces). Ends with "N passed, M failed".
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fabric_lab as fl  # noqa: E402
import fcoe_frames as ff  # noqa: E402
import sync_lib as sl  # noqa: E402

H1, H2, T = 0x2100000000000c01, 0x2100000000000c02, 0x5000000000000c01
XVI, XVT, YVI, YVT = 0x2f000000000000a1, 0x2f000000000000a2, 0x2f000000000000b1, 0x2f000000000000b2
XVI2, YVI2 = 0x2f000000000000a3, 0x2f000000000000b3
FCIDS = {H1: 0x010001, H2: 0x010002, T: 0x410001,
         XVI: 0x810001, XVT: 0x810002, YVI: 0x810003, YVT: 0x810004,
         XVI2: 0x810005, YVI2: 0x810006}
NODES = {XVT: (XVI, XVI2), YVT: (YVI, YVI2)}
FCP_CMND = 0x06
W = fl.wwpn_text


def node_line(lab, vi):
    for line in lab.node.query("service-node list").splitlines():
        if (" vi %s " % W(vi)) in line:
            return line
    return ""


def node_field(line, name):
    m = re.search(r"\b%s (\S+)" % name, line)
    return m.group(1) if m else None


def placed_on(lab, host):
    """(VI, VT) of the member the host's redirect is on now."""
    m = re.search(r" vi (\S+) vt (\S+) ", lab.redirect_line(host))
    return (m.group(1), m.group(2)) if m else (None, None)


def reaches_vt(lab, t, st, vt, ox, what):
    """st's frame to T reaches the SN port for vt: D_ID vt's, S_ID the
    host's, to the VT's MAC from the FCF's."""
    st.send(FCIDS[T], payload=b"\x11" * 64, ox_id=ox)
    got = lab.ports[fl.SN].wait(lambda f: f["ox_id"] == ox)
    f = got[0] if got else None
    t.check(f is not None and f["d_id"] == FCIDS[vt] and f["s_id"] == st.fcid
            and f["dst"] == ff.fpma(FCIDS[vt]) and f["src"] == fl.FCF_MAC,
            what, f)


def main():
    t = sl.Test("fabric-cluster", sys.argv[1], budget_s=240)
    lab = fl.Lab(t, name="fcrcl",
                 extra=["--sn-failover-ms", "500", "--sn-stall-ms", "300"])
    try:
        # the FCF advertises: fcredirect sends the ENodes their frames from its MAC
        lab.ports[fl.FABRIC].send(ff.fip_adv(fl.FCF_MAC, 0x2001000DEC00000A, 1000))
        lab.node.poll("show fcf", lambda o: "0e:fc:00:ff:ff:fe" in o, 10)
        st = {w: lab.login(fl.HOSTS if w in (H1, H2) else fl.TARGETS if w == T else fl.SN,
                           w, FCIDS[w]) for w in FCIDS}
        if None in st.values():
            t.check(False, "every port logs in")
            return
        out = lab.node.query("redirect add vlan 0 host %s target %s cluster sme" % (W(H1), W(T)))
        t.check(out.startswith("error") and "no service node on vlan 0" in out,
                "a cluster with no node: the redirect is refused, said why", out)
        errs = lab.node.cmds([
            "service-node add cluster sme vlan 0 vi %s vt %s" % (W(vi), W(vt))
            for vt, vis in NODES.items() for vi in vis] + [
            "redirect add vlan 0 host %s target %s cluster sme restartable" % (W(H1), W(T)),
            "redirect add vlan 0 host %s target %s cluster sme" % (W(H2), W(T))])
        t.check(not errs, "two service nodes, two redirects of the cluster", errs)
        ok, _, out = lab.node.poll("redirect list", lambda o: o.count(" active ") == 2, 30, 0.05)
        t.check(ok, "both redirects active", out)
        (vi1, vt1), (vi2, vt2) = placed_on(lab, H1), placed_on(lab, H2)
        t.check(vt1 is not None and vt1 == vt2 and vi1 != vi2,
                "both on one node (its VT), each on a VI of its own", out)
        a = XVT if vt1 == W(XVT) else YVT
        b = YVT if a == XVT else XVT
        ok, _, out = lab.node.poll("service-node list",
                                   lambda o: o.count(" up ") == 4, 30, 0.05)
        lines = [node_line(lab, vi) for vi in NODES[a] + NODES[b]]
        t.check(ok and [node_field(x, "pairs") for x in lines] == ["1", "1", "0", "0"],
                "service-node list: four members up, a pair on each of the node's two",
                out)
        reaches_vt(lab, t, st[H1], a, 0x6001, "H1's frame reaches the node's VT, rewritten")

        print("the node's VT logs out")
        t.check(lab.logout(st[a]), "the VT logs out (LOGO, the FCF accepts)")
        ok, _, line = lab.node.poll("redirect list", lambda o: re.search(
            r" vt %s cluster sme restartable active " % W(b), o), 30, 0.05)
        t.check(ok, "after --sn-failover-ms the restartable pair is on the other node, active",
                line)
        t.check(lab.wait_stat("sn_moves", 1) == 1, "sn_moves 1")
        t.check(lab.node.logged("moved from the service node of vi %s to that of vi" % vi1,
                                timeout=10), "logged", lab.node.log_tail())
        t.check(placed_on(lab, H2) == (vi2, vt2) and lab.redirect_counts(H2)[0] == "waiting",
                "the pair that is not restartable stays on its node, waiting (fails closed)",
                lab.redirect_line(H2))
        out = lab.node.query("service-node list")
        t.check(out.count(" unbound ") == 2 and out.count(" up ") == 2 and
                "moved_in 1" in out and "moved_out 1" in out,
                "service-node list: the node's two members unbound, moved_out 1 there, "
                "moved_in 1 on the other", out)
        reaches_vt(lab, t, st[H1], b, 0x6002, "H1's frame reaches the other node's VT")
        nr = lab.stat("redirect_not_ready")
        st[H2].send(FCIDS[T], payload=b"\x22" * 64, ox_id=0x6003)
        t.check(lab.wait_stat("redirect_not_ready", nr + 1) == nr + 1,
                "H2's frame is dropped and counted (redirect_not_ready)")
        t.check(lab.ports[fl.TARGETS].wait(lambda f: f["ox_id"] == 0x6003, timeout=0.5) is None
                and not lab.ports[fl.SN].matching(lambda f: f["ox_id"] == 0x6003),
                "and reaches neither the target nor a service node")

        print("the other node's VT hangs")
        first_vi = placed_on(lab, H1)[0]
        st[H1].send(FCIDS[T], payload=b"\0" * 32, ox_id=0x6004, r_ctl=FCP_CMND)
        got = lab.ports[fl.SN].wait(lambda f: f["ox_id"] == 0x6004)
        t.check(got is not None, "H1's command reaches the VT; it never answers")
        ok, _, line = lab.node.poll(
            "service-node list", lambda o: re.search(r" vi %s vt %s not-answering " % (
                first_vi, W(b)), o), 30, 0.05)
        t.check(ok, "service-node list: H1's member is not answering (its other VI's "
                "member is up: a stall is the member's)", line)
        ok, _, line = lab.node.poll("redirect list", lambda o: re.search(
            r" vi (?!%s)\S+ vt %s cluster sme restartable active " % (first_vi, W(b)), o),
            30, 0.05)
        t.check(ok and lab.wait_stat("sn_moves", 2) == 2,
                "H1's pair moved to the node's other VI (sn_moves 2)", line)
        st[H1].send(FCIDS[T], payload=b"\0" * 32, ox_id=0x6006, r_ctl=FCP_CMND)
        got = lab.ports[fl.SN].wait(lambda f: f["ox_id"] == 0x6006)
        ok, _, out = lab.node.poll("service-node list",
                                   lambda o: o.count(" not-answering ") == 2, 30, 0.05)
        t.check(got is not None and ok, "its next command unanswered there too: both of the "
                "node's members not answering", out)
        t.check(lab.wait_stat("sn_failovers_stuck", 1) == 1,
                "no member up to move H1's pair to: sn_failovers_stuck 1")
        t.check(lab.node.logged("no other node of the cluster is up", timeout=10),
                "logged", lab.node.log_tail())

        print("the first node's VT logs in again")
        st[a] = lab.login(fl.SN, a, FCIDS[a])
        ok, _, out = lab.node.poll(
            "redirect list", lambda o: len(re.findall(r" vt %s cluster sme (restartable )?active "
                                                      r"id" % W(a), o)) == 2, 30, 0.05)
        t.check(st[a] is not None and ok,
                "H1's pair moves to it, H2's is active on it again", out)
        t.check(lab.stat("sn_moves") == 3 and lab.stat("sn_failovers_stuck") == 1,
                "sn_moves 3, sn_failovers_stuck still 1")
        reaches_vt(lab, t, st[H2], a, 0x6005, "H2's frame reaches the node's VT again")

        print("save config")
        path = os.path.join(os.getcwd(), "fabric-cluster-%d.conf" % os.getpid())
        lab.node.query("save config %s" % path)
        try:
            with open(path) as f:
                out = f.read()
            os.unlink(path)
        except OSError as e:
            out = str(e)
        t.check(("service-node add cluster sme vlan 0 vi %s vt %s" % (W(XVI), W(XVT))) in out and
                ("redirect add vlan 0 host %s target %s cluster sme restartable" %
                 (W(H1), W(T))) in out and
                ("redirect add vlan 0 host %s target %s cluster sme\n" % (W(H2), W(T))) in out,
                "save config names the service nodes and the cluster, not the node", out)
        t.check(lab.mbufs_back()[0], "every mbuf back")
    finally:
        lab.close()
    t.finish()


if __name__ == "__main__":
    main()
