#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
trust_attacks.py FCREDIRECT

Fail closed and trust only the fabric, tried from the edge as an attacker
and as a busy fabric would (tests/fabric_lab.py: four TAP ports, the test
plays the ENodes and the FCF; every binding learned from the FCF's
accepts). A host H logs in, its redirect to target T goes through the
service node's VI and VT. After each attack H sends data frames to T, and
the test follows every one: each must reach the service node's port with
D_ID = VT, none the target's port.

  * a forged PLOGI (and a forged PLOGI accept) naming the VT's WWPN, from a
    logged-in station and from a station using the VT's FCID;
  * a forged LOGO of the VT: with the VT's FCID as S_ID, and from a
    logged-in station naming the VT (which a careless FCF accepts); a
    fabric reply sent from an edge port;
  * an N_Port LOGO from H to another target;
  * a flood of new flows filling the flow table, then a redirect added:
    it goes active and its host's frames reach its VT;
  * the VT logging out for real: the redirect waits, H's frames are
    dropped and counted (not_ready), none reaches T; back, they reach the VT;
  * Clear Virtual Links of the VT from a station posing as the FCF (ignored),
    then from the FCF (the VT unbound, H's frames dropped until it is back);
  * a station on the hosts' port sending the VT's FLOGI as the VT logs in
    again (its ENode MAC and OX_ID), before and after the VT's own; an FCF
    granting the VT's WWPN to a station of its own: the VT keeps its path;
  * over FIP: an ENode's MAC on another edge port than the one it logged in
    through (enode_wrong_port); a FIP LOGO from another ENode on the same
    port naming a VN_Port, accepted by the FCF (logouts_refused);
  * the deployment's routes (every FCID to the FCF's port): each ENode's
    FLOGI accept reaches its own port, the redirect works;
  * data racing the login: the tables lcore slowed down (20 ms before
    each burst of events), H sends its data the moment it has its FLOGI
    accept: every frame reaches the VT, before_rule 0.

Root only (TAP interfaces). Ends with "N passed, M failed".
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fabric_lab as fl  # noqa: E402
import fcoe_frames as ff  # noqa: E402
import sync_lib as sl  # noqa: E402

H, T, VI, VT = 0x2100000000000001, 0x5000000000000001, 0x2f00000000000001, 0x2f00000000000002
T2, A, B = 0x5000000000000002, 0x2100000000000009, 0x2f00000000000009
H2, T3, VI2, VT2 = 0x2100000000000002, 0x5000000000000003, 0x2f00000000000003, 0x2f00000000000004
F = dict(H=0x010001, T=0x410001, VI=0x810001, VT=0x810002, T2=0x410002, A=0x010009,
         B=0x810009, H2=0x010002, T3=0x410003, VI2=0x810003, VT2=0x810004)

# an active redirect in `redirect list` (its id, then before_rule: group 1)
ACTIVE = re.compile(r" active(?: \([^)]*\))* id \d+ before_rule (\d+) ")


def redirect_cmd(h, t, vi, vt):
    w = fl.wwpn_text
    return "redirect add vlan 0 host %s target %s vi %s vt %s" % (w(h), w(t), w(vi), w(vt))


class Flow:
    """One host's frames to its target, followed to where they went."""

    def __init__(self, t, lab, host, target, vt):
        self.t, self.lab, self.host, self.target, self.vt = t, lab, host, target, vt
        self.ox = 0x4000 + (host.fcid & 0xFF) * 0x400

    def send(self, n):
        base = self.ox
        self.ox += n
        self.host.data(self.target.fcid, n, base)
        return set(range(base, base + n))

    def _mine(self, oxs):
        return lambda f: f["ox_id"] in oxs and f["s_id"] == self.host.fcid

    def all_reach_vt(self, what, n=8):
        """n frames; every one at the service node's port as host -> VT, none
        at the target's port."""
        oxs = self.send(n)
        got = self.lab.ports[fl.SN].wait(self._mine(oxs), count=n)
        ok = got is not None and all(f["d_id"] == self.vt.fcid for f in got)
        # all n accounted for at the service node: none can be elsewhere
        leaked = self.lab.ports[fl.TARGETS].matching(self._mine(oxs))
        self.t.check(ok and not leaked, "%s: the host's %d frames all reached the VT (D_ID %06x), "
                     "none the target" % (what, n, self.vt.fcid),
                     "at the service node: %s; at the target: %d" %
                     (None if got is None else len(got), len(leaked)))

    def all_dropped(self, what, n, counter_before):
        """n frames, dropped as not ready; none at the target."""
        oxs = self.send(n)
        v = self.lab.wait_stat("redirect_not_ready", counter_before + n)
        leaked = self.lab.ports[fl.TARGETS].matching(self._mine(oxs)) + \
            self.lab.ports[fl.SN].matching(self._mine(oxs))
        self.t.check(v == counter_before + n and not leaked,
                     "%s: the host's %d frames dropped as redirect_not_ready, none sent" % (what, n),
                     "redirect_not_ready %d (want %d), %d sent" % (v, counter_before + n,
                                                                     len(leaked)))


def bindings(lab):
    return sl.lines_of(lab.node.query("binding list"), "binding ")


def attacks(t):
    lab = fl.Lab(t, "at", extra=["--max-flows", "1024", "--max-redirects", "32"])
    # a port whose driver can scatter receives frames of the MTU (2500)
    # longer than an mbuf as chains (mlx5 refuses its RX queues otherwise)
    out = lab.node.query("show port info 0")
    t.check("RX scatter: on" in out and "net_tap" in out,
            "a TAP port (it can scatter) takes the MTU's frames longer than an mbuf as chains",
            out)
    st = {}
    for name, port, w in (("T", 1, T), ("VI", 2, VI), ("VT", 2, VT), ("H", 0, H),
                          ("T2", 1, T2), ("A", 0, A), ("B", 2, B)):
        st[name] = lab.login(port, w, F[name])
    if None in st.values():
        return
    t.check(not lab.node.cmds([redirect_cmd(H, T, VI, VT)]), "redirect H -> T through VI/VT added")
    ok, _, out = lab.node.poll("redirect list",
                               lambda o: any(m.group(1) == "0" for m in ACTIVE.finditer(o)), 10)
    t.check(ok, "the redirect is active, its four ports learned from the FCF's accepts", out)
    before = bindings(lab)
    t.check(len(before) == 7 and all(l.endswith(" learned") for l in before),
            "7 bindings, all learned", "\n".join(before))
    flow = Flow(t, lab, st["H"], st["T"], st["VT"])
    flow.all_reach_vt("before any attack")

    t.section("a forged PLOGI names the VT's WWPN")
    a, b = st["A"], st["B"]
    a.send(F["T2"], payload=ff.sparm(ff.PLOGI, VT, VT | 1 << 60), ox_id=0x501,
           r_ctl=ff.ELS_REQ, type_=ff.TYPE_ELS)
    b.send(F["T"], payload=ff.sparm(ff.PLOGI, VT, VT | 1 << 60), ox_id=0x502,
           r_ctl=ff.ELS_REQ, type_=ff.TYPE_ELS)
    # and an accept naming it, as if T2 answered with the VT's name
    st["T2"].send(F["A"], payload=ff.sparm(ff.LS_ACC, VT, VT | 1 << 60), ox_id=0x501,
                  r_ctl=ff.ELS_REP, type_=ff.TYPE_ELS)
    nl = lab.stat("not_logged_in")
    a.send(F["T"], payload=ff.sparm(ff.PLOGI, VT, VT | 1 << 60), ox_id=0x503,
           r_ctl=ff.ELS_REQ, type_=ff.TYPE_ELS, s_id=F["VT"])
    t.check(lab.wait_stat("not_logged_in", nl + 1) == nl + 1,
            "a PLOGI with the VT's FCID as S_ID from the hosts' port: dropped as not_logged_in")
    got = lab.ports[fl.TARGETS].wait(lambda f: f["ox_id"] == 0x502)
    t.check(got is not None, "the forged PLOGIs of logged-in stations went on (PLOGIs teach nothing)")
    t.check(bindings(lab) == before, "the bindings are unchanged", "\n".join(bindings(lab)))
    flow.all_reach_vt("after the forged PLOGIs")

    t.section("a forged LOGO of the VT")
    nl = lab.stat("not_logged_in")
    a.send(ff.FFFFFE, payload=ff.logo(F["VT"], VT), ox_id=0x601, r_ctl=ff.ELS_REQ,
           type_=ff.TYPE_ELS, s_id=F["VT"])
    t.check(lab.wait_stat("not_logged_in", nl + 1) == nl + 1,
            "a LOGO with the VT's FCID as S_ID from the hosts' port: dropped as not_logged_in")
    # a logged-in station asks the fabric to log the VT out; a careless
    # FCF accepts
    a.send(ff.FFFFFE, payload=ff.logo(F["VT"], VT), ox_id=0x602, r_ctl=ff.ELS_REQ,
           type_=ff.TYPE_ELS)
    req = lab.ports[fl.FABRIC].wait(lambda f: f["ox_id"] == 0x602)
    t.check(req is not None, "A's LOGO naming the VT reached the FCF")
    lab.ports[fl.FABRIC].send(ff.fcoe(a.mac, fl.FCF_MAC, ff.ELS_REP, F["A"], ff.FFFFFE,
                                      ff.TYPE_ELS, 0x602, ff.ls_acc_short(), f_ctl=ff.F_CTL_REPLY))
    t.check(lab.ports[fl.HOSTS].wait(lambda f: f["ox_id"] == 0x602 and f["s_id"] == ff.FFFFFE)
            is not None, "the FCF's accept reached A")
    # a station on the service node's segment plays the fabric
    nl = lab.stat("not_logged_in")
    b.send(F["VT"], payload=ff.ls_acc_short(), ox_id=0x603, r_ctl=ff.ELS_REP, type_=ff.TYPE_ELS,
           s_id=ff.FFFFFE)
    t.check(lab.wait_stat("not_logged_in", nl + 1) == nl + 1,
            "a fabric reply (S_ID FFFFFE) from the service node's port: dropped as not_logged_in")
    t.check(bindings(lab) == before, "the bindings are unchanged", "\n".join(bindings(lab)))
    t.check(lab.stat("logouts") == 0, "no logout applied")
    flow.all_reach_vt("after the forged LOGOs")

    t.section("H logs out of another target (an N_Port LOGO)")
    st["H"].send(F["T2"], payload=ff.logo(F["H"], H), ox_id=0x701, r_ctl=ff.ELS_REQ,
                 type_=ff.TYPE_ELS)
    t.check(lab.ports[fl.TARGETS].wait(lambda f: f["ox_id"] == 0x701) is not None,
            "the LOGO reached T2")
    st["T2"].send(F["H"], payload=ff.ls_acc_short(), ox_id=0x701, r_ctl=ff.ELS_REP,
                  type_=ff.TYPE_ELS)
    t.check(lab.ports[fl.HOSTS].wait(lambda f: f["ox_id"] == 0x701 and f["s_id"] == F["T2"])
            is not None, "T2's accept reached H")
    t.check(bindings(lab) == before, "the bindings are unchanged", "\n".join(bindings(lab)))
    flow.all_reach_vt("after the N_Port LOGO")

    t.section("a flood of new flows fills the table, then a redirect is added")
    for name, port, w in (("H2", 0, H2), ("T3", 1, T3), ("VI2", 2, VI2), ("VT2", 2, VT2)):
        st[name] = lab.login(port, w, F[name])
    if None in (st["H2"], st["T3"], st["VI2"], st["VT2"]):
        return
    full = lab.stat("flow_table_full")
    for i in range(1100):
        a.send(0x210000 | i, ox_id=0x800 + (i & 0xFF))
    t.check(lab.wait_stat("flow_table_full", full + 1, timeout=20) > full,
            "A's new flows filled the flow table (flow_table_full counts)")
    back, now, rest = lab.mbufs_back()
    t.check(back, "with the table full, stop gives every mbuf back (in use %s, at rest %s)"
            % (now, rest))
    t.check(not lab.node.cmds([redirect_cmd(H2, T3, VI2, VT2)]), "redirect H2 -> T3 added")
    ok, _, out = lab.node.poll("redirect list", lambda o: len(ACTIVE.findall(o)) == 2, 10)
    t.check(ok, "it is active: the flood could not take its entries", out)
    Flow(t, lab, st["H2"], st["T3"], st["VT2"]).all_reach_vt("H2 after the flood")
    flow.all_reach_vt("H after the flood")

    t.section("the VT logs out for real: the redirect fails closed")
    t.check(lab.logout(st["VT"]), "the VT logged out (the FCF accepted)")
    ok, _, out = lab.node.poll("redirect list", lambda o: "(waiting for vt" in o, 10)
    t.check(ok, "H's redirect waits for its VT", out)
    flow.all_dropped("while the VT is away", 6, lab.stat("redirect_not_ready"))
    state, br, nr = lab.redirect_counts(H)
    t.check(nr == 6, "redirect list counts them: not_ready %s" % nr)
    st["VT"] = lab.login(2, VT, F["VT"])
    ok, _, out = lab.node.poll("redirect list", lambda o: len(ACTIVE.findall(o)) == 2, 10)
    t.check(ok, "the VT back, the redirect is active again", out)
    flow.vt = st["VT"]
    flow.all_reach_vt("the VT back")

    t.section("Clear Virtual Links: from a station posing as the FCF, then from the FCF")
    vt = st["VT"]
    cvl = ff.fip_cvl(fl.FCF_MAC, fl.FCF_MAC, [(vt.mac, vt.fcid, VT)])
    un = lab.stat("logins_untrusted")
    now = bindings(lab)
    lab.ports[fl.SN].send(cvl)
    t.check(lab.wait_stat("logins_untrusted", un + 1) == un + 1,
            "a CVL of the VT from the service node's port: ignored (logins_untrusted)")
    t.check(bindings(lab) == now, "the bindings are unchanged", "\n".join(bindings(lab)))
    flow.all_reach_vt("after the forged CVL")
    lo = lab.stat("logouts")
    lab.ports[fl.FABRIC].send(cvl)
    t.check(lab.wait_stat("logouts", lo + 1) == lo + 1, "the FCF's CVL of the VT: unbound")
    ok, _, out = lab.node.poll("redirect list", lambda o: "(waiting for vt" in o, 10)
    t.check(ok, "H's redirect waits for its VT", out)
    flow.all_dropped("while the VT's link is cleared", 4, lab.stat("redirect_not_ready"))
    st["VT"] = lab.login(2, VT, F["VT"])
    ok, _, out = lab.node.poll("redirect list", lambda o: len(ACTIVE.findall(o)) == 2, 10)
    t.check(ok, "the VT logged in again, the redirect is active", out)
    flow.vt = st["VT"]
    flow.all_reach_vt("the VT back after its CVL")
    state, br, nr = lab.redirect_counts(H)
    t.check(br == 0, "no frame of H's redirect went directly (before_rule %s)" % br)

    hijack(t, lab, st, flow)
    fip_attacks(t, lab)

    t.section("VLAN discovery: the FCF's notification is learned, a station's is not")
    lab.ports[fl.HOSTS].send(ff.fip_vlan_note(fl.FCF_MAC, st["H"].mac, st["H"].mac, [300]))
    lab.ports[fl.FABRIC].send(ff.fip_vlan_note(st["H"].mac, fl.FCF_MAC, fl.FCF_MAC, [100, 200]))
    ok, _, out = lab.node.poll("show fcf", lambda o: re.search(
        r"^vlan discovery: port %d offers vlans 100 200$" % fl.FABRIC, o, re.M), 10)
    t.check(ok and "port %d offers" % fl.HOSTS not in out and " 300" not in out,
            "show fcf: the FCF's port offers VLANs 100 and 200; nothing from the hosts' port",
            out)
    lab.close()


def flogi_from(enode, ox, wwpn):
    """An ENode's FLOGI over FCoE (S_ID 0, to FFFFFE)."""
    return ff.fcoe(fl.FCF_MAC, enode, ff.ELS_REQ, ff.FFFFFE, 0, ff.TYPE_ELS, ox,
                   ff.sparm(ff.FLOGI, wwpn, wwpn | 1 << 60))


def flogi_acc(enode, ox, fcid):
    """The FCF's accept of that FLOGI, granting fcid."""
    return ff.fcoe(enode, fl.FCF_MAC, ff.ELS_REP, fcid, ff.FFFFFE, ff.TYPE_ELS, ox,
                   ff.sparm(ff.LS_ACC, 0x20000000000000fe, 0x10000000000000fe),
                   f_ctl=ff.F_CTL_REPLY, rx_id=0x10)


def hijack(t, lab, st, flow):
    """A station on the hosts' port takes the VT's login as the VT logs in
    again (the same FLOGI: its ENode MAC, its OX_ID), in either order; then
    logs in with the VT's WWPN from an ENode of its own, and an honest FCF
    grants it. The VT keeps its path each time, H's frames reach the VT."""
    vt = st["VT"]
    vt_line = [l for l in bindings(lab) if wwpn_in(l, VT)]
    for first, ox in ((fl.SN, 0x0901), (fl.HOSTS, 0x0902)):
        second = fl.HOSTS if first == fl.SN else fl.SN
        t.section("the VT logs in again; a station on the hosts' port sends its FLOGI too "
                  "(%s first)" % ("the VT" if first == fl.SN else "the station"))
        conflicts = lab.stat("login_conflicts")
        pinned = lab.stat("logins_pinned")
        req = flogi_from(vt.enode, ox, VT)
        lab.ports[first].send(req)
        got = lab.ports[fl.FABRIC].wait(lambda f: f["ox_id"] == ox and f["d_id"] == ff.FFFFFE)
        t.check(got is not None, "the first FLOGI reached the FCF")
        lab.ports[second].send(req)
        t.check(lab.wait_stat("login_conflicts", conflicts + 1) == conflicts + 1,
                "the second request, from another port with the same exchange and ENode: "
                "refused (login_conflicts)")
        t.check(lab.stat("login_conflict port %d" % second) >= 1,
                "counted on the port it came from (login_conflict port %d)" % second)
        lab.ports[fl.FABRIC].send(flogi_acc(vt.enode, ox, F["VT"]))
        acc = lab.ports[fl.SN].wait(lambda f: f["ox_id"] == ox and f["s_id"] == ff.FFFFFE)
        t.check(acc is not None, "the FCF's accept reached the service node's port")
        if first == fl.HOSTS:
            t.check(lab.wait_stat("logins_pinned", pinned + 1) == pinned + 1,
                    "the accept paired with the station's request is not learned: the VT is "
                    "pinned to the service node's port (logins_pinned)")
        t.check(not lab.ports[fl.HOSTS].matching(
            lambda f: f["ox_id"] == ox and f["s_id"] == ff.FFFFFE),
            "no accept reached the hosts' port")
        flow.all_reach_vt("after the attempt (%s first)" % ("the VT" if first == fl.SN
                                                            else "the station"))

    t.section("an honest FCF grants the VT's WWPN to a station on the hosts' port")
    pinned = lab.stat("logins_pinned")
    thief = bytes([0x02, 0, 0, 0, 0x0f, 0x0f])
    lab.ports[fl.HOSTS].send(flogi_from(thief, 0x0903, VT))
    got = lab.ports[fl.FABRIC].wait(lambda f: f["ox_id"] == 0x0903 and f["d_id"] == ff.FFFFFE)
    t.check(got is not None, "its FLOGI reached the FCF")
    lab.ports[fl.FABRIC].send(flogi_acc(thief, 0x0903, 0x010077))
    t.check(lab.wait_stat("logins_pinned", pinned + 1) == pinned + 1,
            "the grant is not learned: the VT is pinned to the service node's port "
            "(logins_pinned)")
    line = lab.redirect_line(H)
    t.check(re.search(r" active \(vt logins elsewhere refused: \d+\) id ", line),
            "redirect list says so, the redirect active", line)
    nl = lab.stat("not_logged_in")
    for i in range(4):
        lab.ports[fl.HOSTS].send(ff.fcoe(ff.fpma(F["T"]), ff.fpma(0x010077), ff.FCP_DATA,
                                         F["T"], 0x010077, ff.TYPE_FCP, 0x0910 + i, b"\0" * 64))
    t.check(lab.wait_stat("not_logged_in", nl + 4) == nl + 4,
            "the granted VN_Port's frames are dropped (not_logged_in)")
    now = [l for l in bindings(lab) if wwpn_in(l, VT)]
    t.check(len(vt_line) == 1 and now == vt_line, "the VT's binding stays: %s" % vt_line,
            "\n".join(now))
    flow.all_reach_vt("after the duplicate grant")
    w = fl.wwpn_text(VT)
    out = lab.node.query("binding pin vlan 0 wwpn %s port 2" % w)
    t.check(out.strip() == "vlan 0 wwpn %s: pinned to port 2 (any ENode)" % w,
            "binding pin: the operator pins the VT to the service node's port", out)
    out = lab.node.query("binding pin vlan 0 wwpn %s port 9\nbinding unpin vlan 0 wwpn "
                         "00:00:00:00:00:00:00:99" % w)
    t.check(out.splitlines() == ["error: port 9 does not exist (4 ports)",
                                 "error: vlan 0 wwpn 00:00:00:00:00:00:00:99: no such binding"],
            "binding pin to a port that does not exist, unpin of an unknown WWPN: errors", out)
    flow.all_reach_vt("after the pin")


def fip_attacks(t, lab):
    """Over FIP: an ENode owns the edge port it logged in through (its MAC
    from another port is dropped before the FCF sees it), and a FIP LOGO
    from another ENode on the same port naming a VN_Port is not honoured,
    even when the FCF accepts it."""
    t.section("over FIP: an ENode owns its port; another ENode cannot log it out")
    e1, e2 = bytes([0x02, 0, 0, 0, 0x0e, 1]), bytes([0x02, 0, 0, 0, 0x0e, 2])
    y, z = 0x2100000000000031, 0x2100000000000032
    t.check(lab.fip_login(fl.HOSTS, e1, y, 0x010031, 0x0b01),
            "ENode 1 on the hosts' port logged Y in over FIP: its accept came back to it")
    t.check(lab.fip_login(fl.HOSTS, e2, z, 0x010032, 0x0b02),
            "ENode 2 on the same port logged Z in over FIP")
    before = [l for l in bindings(lab) if wwpn_in(l, y) or wwpn_in(l, z)]
    t.check(len(before) == 2, "Y and Z learned", "\n".join(bindings(lab)))
    wrong = lab.stat("enode_wrong_port")
    lab.ports[fl.TARGETS].send(ff.fip_ls(fl.FCF_MAC, e1, 1, ff.FIP_DT_FLOGI, ff.ELS_REQ,
                                         ff.FFFFFE, 0, 0x0b03, ff.sparm(ff.FLOGI, y, y | 1 << 60)))
    lab.ports[fl.TARGETS].send(flogi_from(e1, 0x0b04, y))
    t.check(lab.wait_stat("enode_wrong_port", wrong + 2) == wrong + 2,
            "ENode 1's MAC on the targets' port, over FIP and over FCoE: dropped "
            "(enode_wrong_port)")
    refused = lab.stat("logouts_refused")
    lab.ports[fl.HOSTS].send(ff.fip_ls(fl.FCF_MAC, e2, 1, ff.FIP_DT_LOGO, ff.ELS_REQ,
                                       ff.FFFFFE, 0x010031, 0x0b05, ff.logo(0x010031, y),
                                       vn_mac=ff.fpma(0x010031)))
    t.check(lab.ports[fl.FABRIC].wait(lambda f: f["src"] == e2 and f["op"] == 2 and
                                      f["sub"] == 1 and any(d[0] == ff.FIP_DT_LOGO
                                                            for d in f["descs"]),
                                      fip=True) is not None,
            "ENode 2's FIP LOGO naming Y reached the FCF")
    lab.ports[fl.FABRIC].send(ff.fip_ls(e2, fl.FCF_MAC, 2, ff.FIP_DT_LOGO, ff.ELS_REP,
                                        0x010031, ff.FFFFFE, 0x0b05, ff.ls_acc_short(),
                                        f_ctl=ff.F_CTL_REPLY, rx_id=0x11))
    t.check(lab.wait_stat("logouts_refused", refused + 1) == refused + 1,
            "the FCF accepted it; fcredirect did not honour it (logouts_refused)")
    now = [l for l in bindings(lab) if wwpn_in(l, y) or wwpn_in(l, z)]
    t.check(now == before, "Y and Z stay bound", "\n".join(now))


def wwpn_in(line, wwpn):
    return (" wwpn %s " % fl.wwpn_text(wwpn)) in line + " "


def race(t):
    lab = fl.Lab(t, "rc", tables_delay_us=20000)
    st = {}
    for name, port, w in (("T", 1, T), ("VI", 2, VI), ("VT", 2, VT)):
        st[name] = lab.login(port, w, F[name])
    if None in st.values():
        return
    t.check(not lab.node.cmds([redirect_cmd(H, T, VI, VT)]), "redirect H -> T added, H not logged in")
    sent = {}

    def at_once(host):
        # a host sends the moment it has its accept, before anything else
        sent["oxs"] = set(range(0x900, 0x900 + 12))
        host.data(F["T"], 12, 0x900)

    st["H"] = lab.login(0, H, F["H"], then=at_once)
    if st["H"] is None:
        return
    got = lab.ports[fl.SN].wait(lambda f: f["ox_id"] in sent["oxs"] and f["s_id"] == F["H"],
                                count=12)
    leaked = lab.ports[fl.TARGETS].matching(lambda f: f["ox_id"] in sent["oxs"])
    t.check(got is not None and all(f["d_id"] == F["VT"] for f in got) and not leaked,
            "the tables lcore 20 ms behind, H's 12 frames sent the moment its accept came all "
            "reached the VT, none the target",
            "at the VT: %s, at the target: %d, drops: %s" %
            (None if got is None else len(got), len(leaked),
             lab.node.query("show fwd stats")))
    state, br, nr = lab.redirect_counts(H)
    t.check(state == "active" and br == 0 and nr == 0,
            "redirect active, before_rule 0, not_ready 0 (%s, %s, %s)" % (state, br, nr))
    hold = [l.strip() for l in lab.node.query("show fwd stats").splitlines() if "login_hold" in l]
    t.info("%s" % (hold[0] if hold else "no login_hold line"))
    t.check(bool(hold), "show fwd stats reports how long logins were held")
    lab.close()


# docs/deployment.md's routes: every FCID to the FCF's port
DEPLOYMENT_ROUTES = ["route add 0x000000/1 port 3 fpma", "route add 0x800000/1 port 3 fpma"]


def deployment_routes(t):
    """With the deployment's routes an ENode's first FLOGI over FCoE gets its
    accept on its own port (its route leads back into the FCF), and a
    redirect works; a frame from the FCF to an FCID nobody logged in with
    is dropped as a loop, not sent back."""
    lab = fl.Lab(t, "dr", routes=DEPLOYMENT_ROUTES)
    st = {}
    for name, port, w in (("T", 1, T), ("VI", 2, VI), ("VT", 2, VT), ("H", 0, H)):
        st[name] = lab.login(port, w, F[name])
        t.check(st[name] is not None and
                not lab.ports[fl.FABRIC].matching(lambda f: f["s_id"] == ff.FFFFFE),
                "%s's accept reached its own port, not back into the FCF's" % name)
    if None in st.values():
        lab.close()
        return
    t.check(not lab.node.cmds([redirect_cmd(H, T, VI, VT)]), "redirect H -> T through VI/VT added")
    ok, _, out = lab.node.poll("redirect list",
                               lambda o: any(m.group(1) == "0" for m in ACTIVE.finditer(o)), 10)
    t.check(ok, "the redirect is active", out)
    Flow(t, lab, st["H"], st["T"], st["VT"]).all_reach_vt("with the deployment's routes")
    loops = lab.stat("fabric_loop")
    lab.ports[fl.FABRIC].send(ff.fcoe(ff.fpma(0x010099), fl.FCF_MAC, ff.FCP_DATA, 0x010099,
                                      F["T"], ff.TYPE_FCP, 0x0a01, b"\0" * 64))
    t.check(lab.wait_stat("fabric_loop", loops + 1) == loops + 1,
            "a frame from the FCF to an FCID nobody logged in with: dropped (fabric_loop)")
    lab.close()


def main():
    fcr = sys.argv[1]
    t = sl.Test("trust-attacks", fcr, budget_s=150)
    if os.geteuid() != 0:
        print("trust-attacks: needs root (TAP interfaces)")
        t.check(False, "running as root")
        t.finish()
    t.section("attacks from the edge")
    attacks(t)
    t.section("the deployment's routes: every FCID to the FCF")
    deployment_routes(t)
    t.section("data racing the login, the tables lcore starved")
    race(t)
    t.finish()


if __name__ == "__main__":
    main()
