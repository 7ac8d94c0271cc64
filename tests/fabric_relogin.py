#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
fabric_relogin.py FCREDIRECT

The self-healing start and the commands around a cutover, on a live fabric
(tests/fabric_lab.py: four TAP ports, the test plays the ENodes and the FCF
on the fabric port 3):

  * an ENode that keeps alive through an edge port, its login never seen
    here (it logged in before fcredirect started), is made to log in again:
    a FIP Clear Virtual Link to its MAC, out of its port, from its FCF's MAC
    with that FCF's name, naming no VN_Port; counted (enode_relogins);
  * an ENode that keeps alive with a "FCF" that advertised only from an
    edge port is never told (fcredirect would speak for a station);
  * `enode relogin <mac>` tells one ENode at once, `enode relogin all` says
    how many it could not tell, an unknown MAC is an error;
  * `redirect add ... when idle` with an exchange open between the host and
    the target waits, and adds once the target's response ends it;
  * a service node that takes the host's command and ends it not
    (--sn-stall-ms 300): `redirect list` says it is not answering,
    `show redirect` too, sn_stalls counts it; its answer ends that
    (sn_answering);
  * the latency the service node adds: that exchange timed on the host's
    side, one of the VI's with the target on the node's (`show redirect`,
    /fcr/latency);
  * `show fip sessions`: a VN_Port logged in over FIP through an edge port
    shows its port, VLAN, ENode MAC, VN_Port MAC, WWPN, FCID, its ENode's
    FCF and an age; one logged in over FCoE shows no ENode; a logout ends
    its session.

Root only (TAP interfaces). Ends with "N passed, M failed".
"""

import json
import os
import re
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fabric_lab as fl  # noqa: E402
import fcoe_frames as ff  # noqa: E402
import sync_lib as sl  # noqa: E402

FCF_NAME = 0x2001000DEC0000FE
ENODE = ff.mac("02:00:00:00:00:07")
ROGUE_FCF = ff.mac("0e:fc:00:ff:ff:01")
ENODE2 = ff.mac("02:00:00:00:01:08")
H, T, VI, VT = 0x2100000000000001, 0x5000000000000001, 0x2f00000000000001, 0x2f00000000000002
FCP_CMND, FCP_RSP = 0x06, 0x07


def mac_text(b):
    return ":".join("%02x" % x for x in b)


def is_cvl_to(mac):
    return lambda f: f["op"] == 3 and f["sub"] == 2 and f["dst"] == mac


class KeepAlive:
    """An ENode keeping alive (every 0.2 s, its period as the test's FCF
    advertises 1 s; fcredirect's own wait counts time, not keep-alives)
    until stopped."""

    def __init__(self, port, enode, fcf):
        self.stopped = threading.Event()
        self.th = threading.Thread(target=self.run, args=(port, ff.fip_ka(enode, fcf)),
                                   daemon=True)
        self.th.start()

    def run(self, port, frame):
        while not self.stopped.is_set():
            port.send(frame)
            self.stopped.wait(0.2)

    def stop(self):
        self.stopped.set()
        self.th.join()


def self_heal(t, lab):
    print("self-healing start")
    p0, fabric = lab.ports[fl.HOSTS], lab.ports[fl.FABRIC]
    fabric.send(ff.fip_adv(fl.FCF_MAC, FCF_NAME, 1000))
    lab.ports[fl.TARGETS].send(ff.fip_adv(ROGUE_FCF, 0x2001000DEC000001, 1000))
    t.check(lab.node.poll("show fcf", lambda o: mac_text(fl.FCF_MAC) in o, 10)[0],
            "the FCF's advertisement on the fabric port is seen (show fcf)")
    ka = KeepAlive(p0, ENODE, fl.FCF_MAC)
    rogue = KeepAlive(lab.ports[fl.TARGETS], ENODE2, ROGUE_FCF)
    try:
        got = p0.wait(is_cvl_to(ENODE), timeout=60, fip=True)
        t.check(got is not None, "an ENode keeping alive with no login seen is sent a "
                "Clear Virtual Link on its port")
        if got:
            f = got[0]
            descs = dict((d[0], d[1]) for d in f["descs"])
            t.check(f["src"] == fl.FCF_MAC and descs.get(2, b"")[2:8] == fl.FCF_MAC and
                    int.from_bytes(descs.get(4, b"\0" * 12)[4:12], "big") == FCF_NAME,
                    "in the name of its own FCF: its MAC as source and descriptor, its "
                    "switch name", str(f))
            t.check(11 not in descs, "naming no VN_Port: the whole ENode logs in again",
                    str(f["descs"]))
        t.check(lab.stat("enode_relogins") >= 1, "counted: enode_relogins")
        n0 = len([f for f in p0.fip if is_cvl_to(ENODE)(f)])
        out = lab.node.query("enode relogin %s" % mac_text(ENODE))
        t.check("1 ENode(s) made to log in again" in out, "enode relogin <mac>", out)
        t.check(p0.wait(is_cvl_to(ENODE), timeout=10, fip=True, count=n0 + 1) is not None,
                "and its Clear Virtual Link goes out")
        out = lab.node.query("enode relogin all")
        t.check(re.search(r"1 not: their FCF is not known", out) is not None,
                "enode relogin all: the ENode of the edge station's 'FCF' cannot be told", out)
        t.check(not [f for f in lab.ports[fl.TARGETS].fip if is_cvl_to(ENODE2)(f)],
                "nor was it ever: an ENode whose FCF advertised only from an edge port")
        out = lab.node.query("enode relogin 02:00:00:00:09:09")
        t.check(out.startswith("error:"), "enode relogin of an unknown MAC: an error", out)
    finally:
        ka.stop()
        rogue.stop()


def when_idle(t, lab):
    print("redirect add ... when idle")
    h = lab.login(fl.HOSTS, H, 0x010001)
    tg = lab.login(fl.TARGETS, T, 0x410001)
    vi = lab.login(fl.SN, VI, 0x810001)
    vt = lab.login(fl.SN, VT, 0x810002)
    if None in (h, tg, vi, vt):
        return
    ox = 0x3000
    h.send(tg.fcid, payload=b"\0" * 32, ox_id=ox, r_ctl=FCP_CMND)
    got = lab.ports[fl.TARGETS].wait(lambda f: f["ox_id"] == ox and f["r_ctl"] == FCP_CMND)
    t.check(got is not None, "the host's command reaches the target: one exchange open")
    add = "redirect add vlan 0 host %s target %s vi %s vt %s when idle" % tuple(
        fl.wwpn_text(w) for w in (H, T, VI, VT))
    res = {}

    def run():
        res["out"] = lab.node.query(add, timeout=60)
    th = threading.Thread(target=run, daemon=True)
    th.start()
    # a wrong product adds at once; a right one never before the response
    th.join(0.5)
    t.check(th.is_alive(), "the add waits while the exchange is open")
    tg.send(h.fcid, payload=b"\0" * 32, ox_id=ox, r_ctl=FCP_RSP)
    th.join(30)
    t.check(not th.is_alive() and not res.get("out", "x").startswith("error"),
            "once the target's response ends it, the redirect is added", res.get("out"))
    state, _, _ = lab.redirect_counts(H)
    t.check(state == "active", "and is active", lab.redirect_line(H))
    return h, tg, vi, vt


def sn_liveness(t, lab, h, tg, vt):
    print("a service node that does not answer")
    ox = 0x3200
    h.send(tg.fcid, payload=b"\0" * 32, ox_id=ox, r_ctl=FCP_CMND)
    got = lab.ports[fl.SN].wait(lambda f: f["ox_id"] == ox and f["r_ctl"] == FCP_CMND)
    t.check(got is not None, "the host's command reaches the VT's port (the redirect)")
    ok, _, line = lab.node.poll("redirect list",
                                lambda o: "(service node not answering)" in o, 30, 0.05)
    t.check(ok, "no end from the VT for --sn-stall-ms: redirect list says the service node "
            "is not answering", line)
    t.check(lab.stat("sn_stalls") == 1, "counted once: sn_stalls 1")
    out = lab.node.query("show redirect 0")
    t.check("service node: NOT ANSWERING" in out, "show redirect says so", out)
    vt.send(h.fcid, payload=b"\0" * 32, ox_id=ox, r_ctl=FCP_RSP)
    ok, _, line = lab.node.poll("redirect list",
                                lambda o: "(service node not answering)" not in o, 30, 0.05)
    t.check(ok and lab.wait_stat("sn_answering", 1) == 1,
            "its response ends it: answering again (sn_answering 1)", line)
    out = lab.node.query("show redirect 0")
    t.check("service node: answering" in out, "show redirect: answering", out)


def sn_latency(t, lab, h, tg, vi, vt):
    """The exchange above timed on the host's side; one of the VI's with
    the target on the node's: `show redirect` and /fcr/latency count them."""
    print("the latency the service node adds")
    ox = 0x3300
    vi.send(tg.fcid, payload=b"\0" * 32, ox_id=ox, r_ctl=FCP_CMND)
    got = lab.ports[fl.TARGETS].wait(lambda f: f["ox_id"] == ox and f["r_ctl"] == FCP_CMND)
    t.check(got is not None, "the VI's command reaches the target (as the host)")
    tg.send(h.fcid, payload=b"\0" * 32, ox_id=ox, r_ctl=FCP_RSP)
    got = lab.ports[fl.SN].wait(lambda f: f["ox_id"] == ox and f["r_ctl"] == FCP_RSP)
    t.check(got is not None, "the target's response reaches the VI")
    ok, _, out = lab.node.poll("show redirect 0", lambda o: "vi side    1 exchanges" in o,
                               30, 0.05)
    t.check(ok and "host side  1 exchanges" in out and "added      mean" in out,
            "show redirect: one exchange timed on each side, and what the node adds", out)
    lat = telemetry(lab.node.prefix, "/fcr/latency")
    r = (lat or {}).get("redirect0") or {}
    t.check(r.get("host") == fl.wwpn_text(H) and
            sum(r.get("host_%d" % b, 0) for b in range(15)) == 1 and
            sum(r.get("vi_%d" % b, 0) for b in range(15)) == 1 and
            len(lat.get("bounds_us", [])) == 14,
            "/fcr/latency: the redirect's bins, one exchange a side", repr(lat))


def telemetry(prefix, cmd):
    """One telemetry command's answer from fcredirect's socket."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(10)
    try:
        s.connect("/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix)
        size = int(json.loads(s.recv(4096).decode()).get("max_output_len", 16384))
        s.send(cmd.encode())
        return json.loads(s.recv(size).decode()).get(cmd)
    finally:
        s.close()


SESSION = 0x2100000000000077


def session_line(lab, wwpn):
    """The show fip sessions line of wwpn, split in columns, or None."""
    for l in lab.node.query("show fip sessions").splitlines():
        if (" %s " % fl.wwpn_text(wwpn)) in l:
            return l
    return None


def sessions(t, lab):
    print("show fip sessions")
    ka = KeepAlive(lab.ports[fl.HOSTS], ENODE, fl.FCF_MAC)
    try:
        t.check(lab.fip_login(fl.HOSTS, ENODE, SESSION, 0x010077),
                "an ENode on the hosts' port logs a VN_Port in over FIP")
        line, _, _ = lab.node.poll("show fip sessions",
                                   lambda o: fl.wwpn_text(SESSION) in o, 10)
        want = re.compile(r"^0 +0 +%s +%s +%s +01\.00\.77 +%s +\d+s$" % (
            mac_text(ENODE), mac_text(ff.fpma(0x010077)), fl.wwpn_text(SESSION),
            mac_text(fl.FCF_MAC)))
        got = session_line(lab, SESSION)
        t.check(line and got is not None and want.match(got) is not None,
                "its session: port 0, VLAN 0, the ENode's MAC, the VN_Port's FPMA MAC, "
                "WWPN, FCID, the FCF, an age", lab.node.query("show fip sessions"))
        h = session_line(lab, H)
        t.check(h is not None and " - (no FIP) " in h,
                "a VN_Port that logged in over FCoE (no FIP): no ENode MAC", h)
        out = lab.node.query("show fip sessions")
        t.check(out.splitlines()[0].split() == ["port", "vlan", "enode", "mac", "vn_port",
                                                 "mac", "wwpn", "fcid", "fcf", "mac", "age"]
                and re.search(r"^\d+ sessions$", out, re.M) is not None,
                "a header and a count", out)
        st = fl.Station(lab, fl.HOSTS, SESSION, ENODE)
        st.fcid = 0x010077
        t.check(lab.logout(st), "the VN_Port logs out (the FCF accepts)")
        t.check(lab.node.poll("show fip sessions",
                              lambda o: fl.wwpn_text(SESSION) not in o, 10)[0],
                "and its session is gone", lab.node.query("show fip sessions"))
    finally:
        ka.stop()


def main():
    t = sl.Test("fabric-relogin", sys.argv[1], budget_s=240)
    lab = fl.Lab(t, extra=["--sn-stall-ms", "300", "--sn-recover", "1"])
    try:
        self_heal(t, lab)
        st = when_idle(t, lab)
        if st:
            sn_liveness(t, lab, st[0], st[1], st[3])
            sn_latency(t, lab, *st)
        sessions(t, lab)
    finally:
        lab.close()
    t.finish()


if __name__ == "__main__":
    main()
