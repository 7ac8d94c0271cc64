#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
fabric_els.py FCREDIRECT

Identities inside link-service payloads on a redirect's legs, judged by
tshark (Wireshark's FC ELS dissector, not fcredirect's reading of FC-LS), on
TAP ports (tests/fabric_lab.py: the test plays the host, the target, the
service node and the FCF; every port's node name from its FLOGI):

  * the VI's FARP-REPLY to the target names the VI as requester by N_Port
    ID, port name and node name: the target sees the host's three;
  * the VI's TPRLO naming itself as third party originator: the target sees
    the host's N_Port ID;
  * the host's RNID goes to the VT; the VT's accept names the VT (its
    common identification data): the host sees the target's port and node
    names;
  * each frame's CRC is good (tshark: fcoe.crc.status).

Root only (TAP interfaces). Ends with "N passed, M failed".
"""

import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fabric_lab as fl  # noqa: E402
import fcoe_frames as ff  # noqa: E402
import sync_lib as sl  # noqa: E402

H, T, VI, VT = 0x2100000000000001, 0x5000000000000001, 0x2f00000000000001, 0x2f00000000000002
FARP_REPLY, TPRLO, RNID = 0x55, 0x24, 0x78


def node(w):
    """The node name fabric_lab's FLOGI gives a port."""
    return w | 1 << 60


def wwn(v):
    return ":".join("%02x" % b for b in v.to_bytes(8, "big"))


def fcid(v):
    return "%02x.%02x.%02x" % (v >> 16, v >> 8 & 0xFF, v & 0xFF)


def tshark_fields(frames, fields):
    """tshark's reading of raw frames: one dict of fields per frame."""
    with tempfile.NamedTemporaryFile(suffix=".pcap", delete=False) as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, b in enumerate(frames):
            f.write(struct.pack("<IIII", i, 0, len(b), len(b)) + b)
        path = f.name
    try:
        args = ["tshark", "-n", "-r", path, "-T", "fields", "-E", "separator=/t",
                "-E", "occurrence=a", "-E", "aggregator=,"]
        for x in fields:
            args += ["-e", x]
        out = subprocess.run(args, capture_output=True, text=True, timeout=60).stdout
    finally:
        os.unlink(path)
    return [dict(zip(fields, line.split("\t"))) for line in out.splitlines()]


def farp(requester, responder, req_wwpn, req_wwnn, resp_wwpn, resp_wwnn):
    p = bytearray(76)
    p[0] = FARP_REPLY
    p[5:8] = requester.to_bytes(3, "big")
    p[9:12] = responder.to_bytes(3, "big")
    p[12:20] = req_wwpn.to_bytes(8, "big")
    p[20:28] = req_wwnn.to_bytes(8, "big")
    p[28:36] = resp_wwpn.to_bytes(8, "big")
    p[36:44] = resp_wwnn.to_bytes(8, "big")
    return bytes(p)


def main():
    t = sl.Test("fabric-els", sys.argv[1], budget_s=240)
    lab = fl.Lab(t, name="fcrel")
    try:
        st = lab.redirected(H, T, VI, VT)
        if st is None:
            return
        h, tg, vi, vt = st

        # the VI's FARP-REPLY and TPRLO to the target, as the host at the target
        vi.send(tg.fcid, farp(vi.fcid, tg.fcid, VI, node(VI), T, node(T)), ox_id=0x6100,
                r_ctl=ff.ELS_REQ, type_=ff.TYPE_ELS)
        page = bytes([0x28, 0, 0x20, 0]) + b"\0" * 9 + vi.fcid.to_bytes(3, "big")
        vi.send(tg.fcid, bytes([TPRLO, 16, 0, 20]) + page, ox_id=0x6101, r_ctl=ff.ELS_REQ,
                type_=ff.TYPE_ELS)
        got = lab.ports[fl.TARGETS].wait(lambda f: f["ox_id"] in (0x6100, 0x6101), count=2)
        t.check(got is not None, "the target gets the VI's FARP-REPLY and TPRLO")
        if got:
            got.sort(key=lambda f: f["ox_id"])
            r = tshark_fields([f["raw"] for f in got],
                              ["fcels.opcode", "fc.s_id", "fcels.portid", "fcels.npname",
                               "fcels.fnname", "fcels.resportid", "fcels.respname",
                               "fcels.prlilo.3rd_party_n_port_id", "fcoe.crc.status"])
            t.check(len(r) == 2 and r[0].get("fcels.portid") == fcid(h.fcid) and
                    r[0].get("fcels.npname") == wwn(H) and
                    r[0].get("fcels.fnname") == wwn(node(H)) and
                    r[0].get("fcels.resportid") == fcid(tg.fcid) and
                    r[0].get("fcels.respname") == wwn(T) and
                    r[0].get("fc.s_id") == fcid(h.fcid),
                    "tshark: the FARP-REPLY names the host as its requester (N_Port ID, port "
                    "and node name), the target as responder as it was", r)
            t.check(len(r) == 2 and r[1].get("fcels.prlilo.3rd_party_n_port_id") ==
                    fcid(h.fcid), "tshark: the TPRLO's third party originator is the host", r)
            t.check(len(r) == 2 and all(x.get("fcoe.crc.status") == "1" for x in r),
                    "tshark: both CRCs good", r)

        # the host's RNID to "the target" reaches the VT; the VT's accept
        # reaches the host as the target's, naming the target
        req = ff.fcoe(ff.fpma(tg.fcid), h.mac, ff.ELS_REQ, tg.fcid, h.fcid, ff.TYPE_ELS, 0x6200,
                      bytes([RNID, 0, 0, 0, 0xDF, 0, 0, 0]))
        lab.ports[fl.HOSTS].send(req)
        got = lab.ports[fl.SN].wait(lambda f: f["ox_id"] == 0x6200)
        t.check(got is not None and got[0]["d_id"] == vt.fcid, "the host's RNID reaches the VT")
        acc = bytearray(24)
        acc[0], acc[5] = ff.LS_ACC, 16
        acc[8:16] = VT.to_bytes(8, "big")
        acc[16:24] = node(VT).to_bytes(8, "big")
        vt.send(h.fcid, bytes(acc), ox_id=0x6200, r_ctl=ff.ELS_REP, type_=ff.TYPE_ELS)
        got = lab.ports[fl.HOSTS].wait(lambda f: f["ox_id"] == 0x6200 and f["r_ctl"] == ff.ELS_REP)
        t.check(got is not None, "the VT's accept reaches the host")
        if got:
            r = tshark_fields([req, got[0]["raw"]],
                              ["fcels.opcode", "fc.s_id", "fcels.npname", "fcels.fnname",
                               "fcoe.crc.status"])
            t.check(len(r) == 2 and r[1].get("fc.s_id") == fcid(tg.fcid) and
                    r[1].get("fcels.npname") == wwn(T) and
                    r[1].get("fcels.fnname") == wwn(node(T)) and
                    r[1].get("fcoe.crc.status") == "1",
                    "tshark: the RNID accept names the target (port and node name), CRC good", r)
        t.check(lab.stat("els_ids") == 3, "els_ids 3: the three payloads rewritten")
    finally:
        lab.close()
    t.finish()


if __name__ == "__main__":
    main()
