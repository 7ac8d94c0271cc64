#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
fabric_fcfs.py FCREDIRECT

Two FCFs on one VLAN (tests/fabric_lab.py: four TAP ports; the test plays
the ENodes on the edge ports and both FCFs, and the target, on the fabric
port 3). The host's ENode chose FCF A, the service node's ENodes (VI, VT)
FCF B; the target is in the fabric. Every frame fcredirect sends is checked
as the endpoint that gets it checks it (FC-BB-5, Linux libfcoe):

  * an ENode takes an FCoE frame only from the MAC of the FCF it logged in
    through, and only to its VN_Port's MAC;
  * an FCF takes a frame only from the VN_Port MAC of its S_ID, and only
    for a VN_Port logged in to it (its own MAC as the destination).

Each redirect leg joins VN_Ports of different FCFs: the host's command to
the VT, the VT's answer to the host, the VI's frame to the target as the
host, the target's frame to the host through the VI. A plain frame keeps
the FCF it was sent to. `show fcf` lists both FCFs with the VN_Ports each
accepted. The host logs in again through FCF B: its frames follow. The
operator's `enode relogin` names each ENode's own FCF. With the VLAN's
FC-MAP given (--vlan-fc-map), an FCF advertising another one is dropped
(fcf_fc_map): no ENode hears it, and fcredirect does not learn it.

Root only (TAP interfaces). Ends with "N passed, M failed".
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fabric_lab as fl  # noqa: E402
import fcoe_frames as ff  # noqa: E402
import sync_lib as sl  # noqa: E402

FCF_A, FCF_B = ff.mac("0e:fc:00:ff:ff:0a"), ff.mac("0e:fc:00:ff:ff:0b")
FCF_OTHER = ff.mac("0e:fc:00:ff:ff:0c")     # of another fabric: FC-MAP 0x0efc05
NAME_A, NAME_B = 0x2001000DEC00000A, 0x2001000DEC00000B
E_HOST, E_VI, E_VT = ff.mac("02:00:00:00:00:11"), ff.mac("02:00:00:00:02:21"), \
    ff.mac("02:00:00:00:02:22")
H, T, VI, VT = 0x2100000000000001, 0x5000000000000001, 0x2f00000000000001, 0x2f00000000000002
FH, FT, FVI, FVT = 0x010001, 0x990001, 0x810001, 0x810002
OTHER = 0x990099          # a target in the fabric with no redirect
ROUTES = fl.ROUTES + ["route add 0x990000/8 port 3 mac 0e:fc:00:ff:ff:0a"]


def mac_text(b):
    return ":".join("%02x" % x for x in b)


def leg(t, lab, what, send_port, s_id, d_id, fcf, recv_port, want_src, want_dst):
    """An FCP frame from s_id to d_id sent on send_port as its sender
    addresses it (an ENode to its FCF fcf, the FCF fcf from itself to the
    D_ID's VN_Port); the frame of its exchange that arrives on recv_port must
    come from want_src to want_dst."""
    ox = lab.ox()
    if send_port == fl.FABRIC:
        dst, src = ff.fpma(d_id), fcf
    else:
        dst, src = fcf, ff.fpma(s_id)
    lab.ports[send_port].send(ff.fcoe(dst, src, ff.FCP_DATA, d_id, s_id, ff.TYPE_FCP, ox,
                                      bytes([ox & 0xFF]) * 64))
    got = lab.ports[recv_port].wait(lambda f: f["ox_id"] == ox)
    if got is None:
        t.check(False, "%s: arrives on port %d" % (what, recv_port))
        return
    f = got[0]
    with lab.ports[recv_port].cv:
        lab.ports[recv_port].frames.remove(f)
    t.check(f["src"] == want_src and f["dst"] == want_dst,
            "%s: from %s to %s" % (what, mac_text(want_src), mac_text(want_dst)),
            "from %s to %s" % (mac_text(f["src"]), mac_text(f["dst"])))


def main():
    t = sl.Test("fabric-fcfs", sys.argv[1], budget_s=120)
    lab = None
    try:
        lab = fl.Lab(t, name="ff", routes=ROUTES,
                     extra=["--passthrough", "0:3,1:3,2:3", "--vlan-fc-map", "0:0x0efc00"])
        fabric = lab.ports[fl.FABRIC]
        fabric.send(ff.fip_adv(FCF_OTHER, 0x2001000DEC00000C, 1000, fc_map=0x0EFC05))
        for m, n in ((FCF_A, NAME_A), (FCF_B, NAME_B)):
            fabric.send(ff.fip_adv(m, n, 1000))
        ok, _, out = lab.node.poll("show fcf", lambda o: all(
            re.search(r"^  fcf %s name " % mac_text(m), o, re.M) for m in (FCF_A, FCF_B)), 10)
        t.check(ok, "show fcf: both FCFs of the VLAN, in the registry", out)
        # sent before A's and B's: on each edge port by the time B's is
        heard = [i for i in (fl.HOSTS, fl.TARGETS, fl.SN)
                 if lab.ports[i].wait(lambda f: f["src"] == FCF_B, fip=True) is None or
                 any(f["src"] == FCF_OTHER for f in list(lab.ports[i].fip))]
        t.check(lab.stat("fcf_fc_map") == 1 and not heard and
                mac_text(FCF_OTHER) not in out and "(--vlan-fc-map)" in out,
                "--vlan-fc-map 0:0x0efc00: the FCF advertising FC-MAP 0x0efc05 is dropped "
                "(fcf_fc_map), heard by no ENode, not learned",
                "fcf_fc_map %d, heard on ports %s; %s" % (lab.stat("fcf_fc_map"), heard, out))

        # the redirect first: its members' logins make it active
        errs = lab.node.cmds([
            "binding add vlan 0 wwpn %s fcid 0x%06x" % (fl.wwpn_text(T), FT),
            "redirect add vlan 0 host %s target %s vi %s vt %s" % (
                fl.wwpn_text(H), fl.wwpn_text(T), fl.wwpn_text(VI), fl.wwpn_text(VT))])
        t.check(not errs, "the target's binding and the redirect", "\n".join(errs))
        t.check(lab.fip_login(fl.HOSTS, E_HOST, H, FH, fcf=FCF_A) and
                lab.fip_login(fl.SN, E_VI, VI, FVI, fcf=FCF_B) and
                lab.fip_login(fl.SN, E_VT, VT, FVT, fcf=FCF_B),
                "the host logs in through FCF A, the VI and the VT through FCF B")
        ok, _, line = lab.node.poll("redirect list", lambda o: " active " in o, 10)
        t.check(ok, "the redirect is active", line)
        ok, _, out = lab.node.poll("show fcf", lambda o: re.search(
            r"^  fcf %s name \S+ vn_ports 1\b.*\n  fcf %s name \S+ vn_ports 2\b" % (
                mac_text(FCF_A), mac_text(FCF_B)), o, re.M), 10)
        t.check(ok, "show fcf: FCF A accepted one VN_Port, FCF B two", out)

        for what, sp, sid, did, fcf, rp, src, dst in (
                ("host -> target, to the VT (an ENode of FCF B)",
                 fl.HOSTS, FH, FT, FCF_A, fl.SN, FCF_B, ff.fpma(FVT)),
                ("VT -> host, as the target (to an ENode of FCF A)",
                 fl.SN, FVT, FH, FCF_B, fl.HOSTS, FCF_A, ff.fpma(FH)),
                ("VI -> target, as the host (to FCF A, the host's)",
                 fl.SN, FVI, FT, FCF_B, fl.FABRIC, ff.fpma(FH), FCF_A),
                ("target -> host, from FCF A to the VI (an ENode of FCF B)",
                 fl.FABRIC, FT, FH, FCF_A, fl.SN, FCF_B, ff.fpma(FVI)),
                ("plain host -> another target: to FCF A as sent",
                 fl.HOSTS, FH, OTHER, FCF_A, fl.FABRIC, ff.fpma(FH), FCF_A)):
            leg(t, lab, what, sp, sid, did, fcf, rp, src, dst)

        # the operator's relogin: each ENode told in its own FCF's name
        for enode, fcf, name in ((E_HOST, FCF_A, NAME_A), (E_VT, FCF_B, NAME_B)):
            port = fl.HOSTS if enode == E_HOST else fl.SN
            out = lab.node.query("enode relogin %s" % mac_text(enode))
            got = lab.ports[port].wait(lambda f: f["op"] == 3 and f["sub"] == 2 and
                                       f["dst"] == enode, fip=True)
            t.check(got is not None and got[0]["src"] == fcf,
                    "enode relogin %s: a Clear Virtual Link from its FCF %s" % (
                        mac_text(enode), mac_text(fcf)),
                    "%s; %s" % (out.strip(), got and mac_text(got[0]["src"])))
            if got is not None:
                with lab.ports[port].cv:
                    lab.ports[port].fip.remove(got[0])

        # the host chooses FCF B when it logs in again: frames to it follow
        t.check(lab.fip_login(fl.HOSTS, E_HOST, H, FH, fcf=FCF_B),
                "the host logs in again, through FCF B")
        leg(t, lab, "VT -> host after the host's login through FCF B",
            fl.SN, FVT, FH, FCF_B, fl.HOSTS, FCF_B, ff.fpma(FH))
        leg(t, lab, "VI -> target as the host, now to FCF B",
            fl.SN, FVI, FT, FCF_B, fl.FABRIC, ff.fpma(FH), FCF_B)
        st = lab.node.query("show fwd stats")
        t.check(lab.stat("fcfs_untracked") == 0, "no FCF left out of the registry", st)
    finally:
        if lab is not None:
            lab.close()
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
