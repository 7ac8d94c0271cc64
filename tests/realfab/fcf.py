#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
A small FCoE Forwarder (FCF) for tests with real Linux FCoE endpoints: it
answers FIP (FC-BB-5) and the fabric services (FC-LS, FC-GS) that open-fcoe
/ libfc needs, and forwards FCoE frames between the VN_Ports it granted.
Standard library only; one interface, one thread, a raw AF_PACKET socket.

  FIP       unsolicited advertisements (multicast, every FKA period); a
            solicited advertisement (unicast, A and S flags, padded to the
            ENode's Max FCoE Size) answering a solicitation; FLOGI/FDISC
            accept granting FPMA = FC-MAP || FCID; LOGO; keep-alives tracked;
            Clear Virtual Links on demand.
  0xFFFFFC  name server: PLOGI, RNN_ID, RSNN_NN, RSPN_ID, RFT_ID, RFF_ID,
            GPN_FT, GID_FT, GPN_ID, GNN_ID, GID_PN, GFF_ID, GFT_ID.
  0xFFFFFD  fabric controller: SCR; RSCN to registered ports when a port
            comes (its SCR) or goes (LOGO, re-login, CVL), or zoning changes.
  forward   between zoned VN_Ports (hairpin on the one interface): src MAC
            becomes the FCF-MAC, dst MAC the destination's VN_Port MAC.
            A frame whose source MAC is not its S_ID's VN_Port MAC is dropped
            (the VF_Port check) and counted, as are the other drops.

State: `--control PATH` is a UNIX stream socket taking one JSON request per
line ({"cmd": "state"}, {"cmd": "zones", "zones": [[wwpn, ...], ...] | null},
{"cmd": "cvl", "wwpn": W}, {"cmd": "reset_counters"}) and answering one JSON
line. Events are printed to stdout, one line each.

    fcf.py --iface veth0 --mac 0e:fc:00:ff:ff:fe --control /run/fcf.sock

With `--vlan N` it serves VLAN N alone: it sends its frames tagged N
(priority 3) and ignores frames of other VLANs and untagged ones (the
kernel gives a received frame's tag beside its data: PACKET_AUXDATA).

With `--also-fcf MAC:PRIORITY[:down]` (repeatable) it is several FCFs of one
fabric on the VLAN (FC-BB-5: one FC-MAP, one fabric name, one name server
and zoning; each FCF its own FCF-MAC, switch name and priority): an ENode
chooses one (Linux: the best priority among those it heard when it had
none) and logs in through it. Each VN_Port belongs to the FCF it logged in
through: a frame from it must be addressed to that FCF's MAC (else dropped
as wrong_fcf), and a frame to it comes from that FCF's MAC. A `down` FCF
neither advertises nor answers until {"cmd": "fcf_up", "mac": M}.
"""

import argparse
import json
import os
import select
import signal
import socket
import struct
import sys
import time
import zlib

ETH_P_FCOE, ETH_P_FIP, ETH_P_8021Q = 0x8906, 0x8914, 0x8100
SOL_PACKET, PACKET_AUXDATA, TP_STATUS_VLAN_VALID = 263, 8, 0x10
ALL_ENODE_MACS = bytes.fromhex("011018010001")
ALL_FCF_MACS = bytes.fromhex("011018010002")
SOF_I3, SOF_N3 = 0x2E, 0x36
EOF_N, EOF_T = 0x41, 0x42
FID_FLOGI, FID_FCTRL, FID_DIR = 0xFFFFFE, 0xFFFFFD, 0xFFFFFC

# FIP (FC-BB-5 7.8)
OP_DISC, OP_LS, OP_CTRL, OP_VLAN = 1, 2, 3, 4
SC_SOL, SC_ADV = 1, 2            # discovery
SC_REQ, SC_REP = 1, 2            # link service
SC_KA, SC_CVL = 1, 2             # control
FL_FPMA, FL_SPMA, FL_AVAIL, FL_SOL, FL_FPORT = 0x8000, 0x4000, 0x0004, 0x0002, 0x0001
DT_PRI, DT_MAC, DT_MAP_OUI, DT_NAME, DT_FAB, DT_SIZE = 1, 2, 3, 4, 5, 6
DT_FLOGI, DT_FDISC, DT_LOGO, DT_ELP, DT_VN_ID, DT_FKA = 7, 8, 9, 10, 11, 12

# FC-FS / FC-LS / FC-GS
R_CTL_ELS_REQ, R_CTL_ELS_REP = 0x22, 0x23
R_CTL_CT_REQ, R_CTL_CT_REP = 0x02, 0x03
R_CTL_ABTS, R_CTL_BA_ACC = 0x81, 0x84
TYPE_BLS, TYPE_ELS, TYPE_FCP, TYPE_CT = 0x00, 0x01, 0x08, 0x20
F_CTL_REPLY = 0x990000     # responder, last sequence, end sequence, initiative
F_CTL_REQUEST = 0x290000   # first sequence, end sequence, initiative
ELS_LS_RJT, ELS_LS_ACC, ELS_PLOGI, ELS_FLOGI, ELS_LOGO = 0x01, 0x02, 0x03, 0x04, 0x05
ELS_ECHO, ELS_RSCN, ELS_SCR, ELS_FDISC = 0x10, 0x61, 0x62, 0x51
CT_ACC, CT_RJT = 0x8002, 0x8001
NS = dict(GA_NXT=0x0100, GPN_ID=0x0112, GNN_ID=0x0113, GFT_ID=0x0117, GFF_ID=0x011F,
          GID_PN=0x0121, GID_FT=0x0171, GPN_FT=0x0172, RPN_ID=0x0212, RNN_ID=0x0213,
          RFT_ID=0x0217, RSPN_ID=0x0218, RFF_ID=0x021F, RSNN_NN=0x0239, DA_ID=0x0300)
NS_NAMES = {v: k for k, v in NS.items()}
CT_RJT_UNABLE, CT_RJT_NOT_SUPPORTED = 0x09, 0x0B
CT_EXP_PID_NOT_REG, CT_EXP_PN_NOT_REG, CT_EXP_FT_NOT_REG = 0x01, 0x02, 0x07

DROP_REASONS = ("not_for_fcf", "malformed", "bad_crc", "unknown_sid", "vf_port_src_mac",
                "unknown_did", "zone", "send_error", "fip_unknown", "wrong_fcf")


def frame_vlan(b, anc):
    """A received frame's VLAN (its tag's, in its data or given beside by
    the kernel), or None when untagged."""
    if len(b) >= 16 and struct.unpack_from(">H", b, 12)[0] == ETH_P_8021Q:
        return struct.unpack_from(">H", b, 14)[0] & 0xFFF
    for level, kind, d in anc:
        if level == SOL_PACKET and kind == PACKET_AUXDATA and len(d) >= 20:
            status, _, _, _, _, tci = struct.unpack_from("IIIHHH", d)
            if status & TP_STATUS_VLAN_VALID:
                return tci & 0xFFF
    return None


def mac_text(b):
    return ":".join("%02x" % x for x in b)


def mac_bytes(s):
    return bytes(int(x, 16) for x in s.split(":"))


def wwn_text(v):
    return ":".join("%02x" % x for x in v.to_bytes(8, "big"))


def wwn_int(s):
    return int(s.replace(":", ""), 16) if isinstance(s, str) else int(s)


def fc_header(r_ctl, d_id, s_id, type_, f_ctl, ox_id, rx_id, seq_id=0, seq_cnt=0,
              df_ctl=0, param=0, fill=0):
    return struct.pack(">B3sB3sB3sBBHHHI", r_ctl, d_id.to_bytes(3, "big"), 0,
                       s_id.to_bytes(3, "big"), type_, (f_ctl | fill).to_bytes(3, "big"),
                       seq_id, df_ctl, seq_cnt, ox_id, rx_id, param)


def fcoe_frame(dst, src, fc, sof=SOF_I3, eof=EOF_T):
    """FC-BB-5 FCoE PDU around the FC frame (header+payload+fill): version 0,
    SOF, CRC least significant byte first, EOF."""
    f = dst + src + struct.pack(">H", ETH_P_FCOE) + bytes(13) + bytes([sof]) + fc + \
        struct.pack("<I", zlib.crc32(fc) & 0xFFFFFFFF) + bytes([eof, 0, 0, 0])
    return f + bytes(max(0, 60 - len(f)))


def fc_trailer_end(b):
    """Offset just past the EOF trailer's reserved bytes (Ethernet padding
    may follow it), or -1."""
    n = len(b)
    if n >= 60 and b[n - 4] in (EOF_N, EOF_T) and b[n - 3:n] == b"\0\0\0":
        return n
    for end in range(n - 1, 28 + 24 + 8 - 1, -1):
        if b[end - 4] in (EOF_N, EOF_T) and b[end - 3:end] == b"\0\0\0" and (end - 36) % 4 == 0:
            if struct.unpack_from("<I", b, end - 8)[0] == zlib.crc32(b[28:end - 8]) & 0xFFFFFFFF:
                return end
    return -1


def sparm_payload(cmd, wwpn, wwnn, features, r_a_or_seq, e_d_tov, rdfs=2112, class3=True):
    """FLOGI/PLOGI service parameters (FC-LS, 116 bytes)."""
    p = bytearray(116)
    p[0] = cmd
    # common: FC-PH 0x20/0x20, BB credit 0, features, BB_SC/receive size,
    # then R_A_TOV (FLOGI) or total concurrent sequences/rel. offset (PLOGI)
    struct.pack_into(">BBHHHII", p, 4, 0x20, 0x20, 0, features, rdfs, r_a_or_seq, e_d_tov)
    p[20:28] = wwpn.to_bytes(8, "big")
    p[28:36] = wwnn.to_bytes(8, "big")
    if class3:
        # class 3: valid + sequential delivery, receive size, concurrent seqs, open seqs
        struct.pack_into(">HHHHHHBBH", p, 68, 0x8800, 0, 0, rdfs, 0xFF, 0, 0, 1, 0)
    return bytes(p)


class Port:
    def __init__(self, fcid, wwpn, wwnn, enode, mac, fcf):
        self.fcid, self.wwpn, self.wwnn, self.enode, self.mac = fcid, wwpn, wwnn, enode, mac
        self.fcf = fcf                        # the FCF-MAC it logged in through
        self.fc4_types = bytes(32)
        self.fc4_features = {}
        self.spn = self.snn = ""
        self.scr = 0
        self.ns_plogi = False
        self.since = time.time()
        self.last_ka = None

    def has_type(self, t):
        w = struct.unpack_from(">I", self.fc4_types, (t // 32) * 4)[0]
        return bool(w >> (t % 32) & 1)

    def json(self):
        return dict(fcid="%06x" % self.fcid, wwpn=wwn_text(self.wwpn), wwnn=wwn_text(self.wwnn),
                    mac=mac_text(self.mac), enode=mac_text(self.enode), fcf=mac_text(self.fcf),
                    fcp=self.has_type(TYPE_FCP),
                    fcp_features=self.fc4_features.get(TYPE_FCP, 0),
                    scr=self.scr, ns_plogi=self.ns_plogi, symbolic_port_name=self.spn,
                    symbolic_node_name=self.snn, since=self.since,
                    vn_ka_age=None if self.last_ka is None else round(time.time() - self.last_ka, 1))


class Fcf:
    def __init__(self, ifname, mac=None, fc_map=0x0EFC00, switch_name=None,
                 fabric_name=None, priority=128, fka_ms=8000, domain=0x01,
                 assign=None, zones=None, control=None, log=None, enforce_ka=False,
                 lenient_src_mac=False, vlan=None, also=()):
        self.ifname = ifname
        self.vlan = vlan                      # None: untagged frames only
        self.fc_map = fc_map
        self.priority, self.fka_ms, self.domain = priority, fka_ms, domain
        self.assign = dict(assign or {})      # wwpn -> fcid
        self.zones = zones                    # None: everyone with everyone
        self.enforce_ka = enforce_ka
        self.lenient_src_mac = lenient_src_mac
        self.log = log or (lambda s: print(s, flush=True))
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
        for opt, force in ((socket.SO_RCVBUF, 33), (socket.SO_SNDBUF, 32)):
            try:
                self.s.setsockopt(socket.SOL_SOCKET, force, 64 << 20)   # *BUFFORCE
            except OSError:
                self.s.setsockopt(socket.SOL_SOCKET, opt, 64 << 20)
        self.s.bind((ifname, 0))
        # the kernel takes a received frame's 802.1Q tag out of its data
        # and gives it beside (PACKET_AUXDATA)
        self.s.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
        self.mac = mac_bytes(mac) if mac else self.s.getsockname()[4][:6]
        mac48 = int.from_bytes(self.mac, "big")
        self.switch_name = switch_name or (0x1000 << 48 | mac48)
        self.fabric_name = fabric_name or self.switch_name
        # the FCFs this process is: MAC -> name, priority, up (advertising)
        self.fcfs = {self.mac: dict(name=self.switch_name, priority=priority, up=True)}
        for m, pri, up in also:
            self.fcfs[m] = dict(name=0x1000 << 48 | int.from_bytes(m, "big"), priority=pri, up=up)
        self.ports = {}                       # fcid -> Port
        self.enodes = {}                      # mac -> dict
        self.counters = {}
        self.drops = dict.fromkeys(DROP_REASONS, 0)
        self.next_port = 1
        self.next_xid = 1
        self.next_adv = 0.0
        self.ctl = None
        self.ctl_clients = {}
        if control:
            if os.path.exists(control):
                os.unlink(control)
            self.ctl = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.ctl.bind(control)
            self.ctl.listen(8)
        self.stopping = False

    # --- plumbing -----------------------------------------------------------
    def count(self, k, n=1):
        self.counters[k] = self.counters.get(k, 0) + n

    def drop(self, reason, frame=None):
        self.drops[reason] += 1
        if frame is not None and self.drops[reason] <= 8:
            self.log("dropped (%s): dst %s src %s type %s, %d bytes: %s" % (
                reason, mac_text(frame[0:6]), mac_text(frame[6:12]), frame[12:14].hex(),
                len(frame), frame[14:46].hex()))

    def send(self, frame):
        if self.vlan is not None:
            frame = frame[:12] + struct.pack(">HH", ETH_P_8021Q, 3 << 13 | self.vlan) + frame[12:]
        try:
            self.s.send(frame)
            self.count("tx_frames")
        except OSError as e:
            self.drop("send_error")
            self.log("send error %s (%d bytes)" % (e, len(frame)))

    def xid(self):
        x = self.next_xid
        self.next_xid = x % 0xFFFE + 1
        return x

    def zoned(self, a, b):
        if self.zones is None:
            return True
        return any(a in z and b in z for z in self.zones)

    def wk_name(self, fid):
        """Port name of a well-known address: NAA 2, its low 12 bits, our MAC."""
        return (0x2000 | fid & 0xFFF) << 48 | int.from_bytes(self.mac, "big")

    def fpma(self, fcid):
        return (self.fc_map << 24 | fcid).to_bytes(6, "big")

    # --- FIP ----------------------------------------------------------------
    def up(self, mac):
        """mac is one of this fabric's FCFs, advertising."""
        f = self.fcfs.get(mac)
        return f is not None and f["up"]

    def fip(self, dst, op, sub, flags, descs, pad_to=0, src=None):
        d = b"".join(descs)
        body = struct.pack(">BBHBBHH", 0x10, 0, op, 0, sub, len(d) // 4, flags | FL_FPORT) + d
        if len(body) < pad_to:
            body += bytes(pad_to - len(body))
        f = dst + (src or self.mac) + struct.pack(">H", ETH_P_FIP) + body
        return f + bytes(max(0, 60 - len(f)))

    def d_mac(self, m):
        return bytes([DT_MAC, 2]) + m

    def advertisement(self, dst, solicited, pad_to=0, fcf=None):
        fcf = fcf or self.mac
        flags = FL_FPMA | FL_AVAIL | (FL_SOL if solicited else 0)
        descs = [bytes([DT_PRI, 1, 0, self.fcfs[fcf]["priority"]]),
                 self.d_mac(fcf),
                 bytes([DT_NAME, 3, 0, 0]) + self.fcfs[fcf]["name"].to_bytes(8, "big"),
                 bytes([DT_FAB, 4, 0, 0, 0]) + self.fc_map.to_bytes(3, "big") +
                 self.fabric_name.to_bytes(8, "big"),
                 bytes([DT_FKA, 2, 0, 0]) + struct.pack(">I", self.fka_ms)]
        return self.fip(dst, OP_DISC, SC_ADV, flags, descs, pad_to, src=fcf)

    @staticmethod
    def descriptors(body, dl_words):
        out, off, end = [], 10, 10 + dl_words * 4
        if end > len(body):
            return None
        while off < end:
            if off + 2 > end:
                return None
            t, ln = body[off], body[off + 1] * 4
            if ln < 4 or off + ln > end:
                return None
            out.append((t, body[off:off + ln]))
            off += ln
        return out

    def rx_fip(self, b):
        self.count("rx_fip")
        dst, src = b[0:6], b[6:12]
        if not self.up(dst) and dst != ALL_FCF_MACS:
            return self.drop("not_for_fcf", b)
        body = b[14:]
        if len(body) < 10 or body[0] >> 4 != 1:
            return self.drop("malformed")
        op, sub, dl, flags = struct.unpack_from(">HxBHH", body, 2)
        descs = self.descriptors(body, dl)
        if descs is None:
            return self.drop("malformed")
        if op == OP_DISC and sub == SC_SOL:
            return self.rx_solicitation(src, descs, flags)
        if op == OP_LS and sub == SC_REQ and self.up(dst):
            return self.rx_fip_els(src, descs, dst)
        if op == OP_CTRL and sub == SC_KA and self.up(dst):
            return self.rx_keep_alive(src, descs)
        self.drop("fip_unknown")

    def rx_solicitation(self, src, descs, flags):
        if flags & FL_FPORT:
            return      # another FCF's solicitation
        enode = wwnn = None
        size = 0
        for t, d in descs:
            if t == DT_MAC:
                enode = d[2:8]
            elif t == DT_NAME:
                wwnn = int.from_bytes(d[4:12], "big")
            elif t == DT_SIZE:
                size = struct.unpack_from(">H", d, 2)[0]
        if enode is None or not size:
            return self.drop("malformed")
        e = self.enodes.setdefault(enode, dict(mac=mac_text(enode), wwnn=None, max_fcoe_size=0,
                                               last_ka=None, solicitations=0))
        e.update(wwnn=wwn_text(wwnn) if wwnn else None, max_fcoe_size=size)
        e["solicitations"] += 1
        self.count("solicitations")
        # padded to the Max FCoE Size: the ENode's check that frames that big
        # pass; from each FCF of the fabric here
        for m in self.fcfs:
            if self.up(m):
                self.send(self.advertisement(enode, True, pad_to=size, fcf=m))
        self.log("solicitation from %s (max FCoE size %d): solicited advertisement sent"
                 % (mac_text(enode), size))

    def rx_keep_alive(self, src, descs):
        now = time.time()
        enode = None
        for t, d in descs:
            if t == DT_MAC:
                enode = d[2:8]
                if enode in self.enodes:
                    self.enodes[enode]["last_ka"] = now
            elif t == DT_VN_ID:
                fcid = int.from_bytes(d[9:12], "big")
                p = self.ports.get(fcid)
                if p and p.mac == d[2:8]:
                    p.last_ka = now
        self.count("keep_alives")

    def rx_fip_els(self, src, descs, fcf):
        if not descs or descs[0][0] not in (DT_FLOGI, DT_FDISC, DT_LOGO):
            return self.drop("fip_unknown")
        dtype, d = descs[0]
        fc = d[4:]
        if len(fc) < 28:
            return self.drop("malformed")
        h = self.parse_fc(fc)
        mac_desc = next((x[2:8] for t, x in descs[1:] if t == DT_MAC), None)
        if dtype in (DT_FLOGI, DT_FDISC):
            self.fabric_login(src, dtype, h, fcf)
        else:
            self.fip_logo(src, h, mac_desc, fcf)

    def fip_els_reply(self, enode, dtype, fc_reply, mac, fcf):
        # the granted/VN_Port MAC descriptor second: Linux takes it by position
        desc = bytes([dtype, (4 + len(fc_reply)) // 4, 0, 0]) + fc_reply
        self.send(self.fip(enode, OP_LS, SC_REP, FL_FPMA, [desc, self.d_mac(mac)], src=fcf))

    def fabric_login(self, enode, dtype, h, fcf):
        pl = h["payload"]
        if len(pl) < 36:
            return self.drop("malformed")
        wwpn = int.from_bytes(pl[20:28], "big")
        wwnn = int.from_bytes(pl[28:36], "big")
        old = next((p for p in self.ports.values() if p.wwpn == wwpn), None)
        if old:
            self.remove_port(old, "re-login")
        fcid = self.assign.get(wwpn) or self.alloc_fcid()
        p = Port(fcid, wwpn, wwnn, enode, self.fpma(fcid), fcf)
        self.ports[fcid] = p
        self.enodes.setdefault(enode, dict(mac=mac_text(enode), wwnn=None, max_fcoe_size=0,
                                           last_ka=None, solicitations=0))
        acc = sparm_payload(ELS_LS_ACC, self.wk_name(FID_FLOGI), self.fabric_name,
                            0x3000, 10000, 2000)   # F_Port, NPIV accepted; R_A_TOV, E_D_TOV
        fc = fc_header(R_CTL_ELS_REP, fcid, FID_FLOGI, TYPE_ELS, F_CTL_REPLY, h["ox_id"],
                       self.xid()) + acc
        self.fip_els_reply(enode, dtype, fc, p.mac, fcf)
        self.count("flogi" if dtype == DT_FLOGI else "fdisc")
        self.log("login %s wwpn %s from %s: fcid %06x mac %s through FCF %s" % (
            "FLOGI" if dtype == DT_FLOGI else "FDISC", wwn_text(wwpn), mac_text(enode), fcid,
            mac_text(p.mac), mac_text(fcf)))

    def alloc_fcid(self):
        used = set(self.ports) | set(self.assign.values())
        while True:
            fcid = self.domain << 16 | (self.next_port >> 8 & 0xFF) << 8 | self.next_port & 0xFF
            self.next_port = self.next_port % 0xFFFE + 1
            if fcid not in used:
                return fcid

    def fip_logo(self, enode, h, mac, fcf):
        p = self.ports.get(h["s_id"])
        fc = fc_header(R_CTL_ELS_REP, h["s_id"], FID_FLOGI, TYPE_ELS, F_CTL_REPLY, h["ox_id"],
                       self.xid()) + bytes([ELS_LS_ACC, 0, 0, 0])
        self.fip_els_reply(enode, DT_LOGO, fc, mac or (p.mac if p else bytes(6)), fcf)
        if p and p.enode == enode:
            self.remove_port(p, "FIP LOGO")

    def remove_port(self, p, why):
        self.ports.pop(p.fcid, None)
        self.log("logout fcid %06x wwpn %s (%s)" % (p.fcid, wwn_text(p.wwpn), why))
        self.count("logouts")
        self.rscn(p)

    def clear_virtual_link(self, p):
        # in the name of the FCF it logged in through: its ENode ignores another's
        descs = [self.d_mac(p.fcf), bytes([DT_NAME, 3, 0, 0]) +
                 self.fcfs[p.fcf]["name"].to_bytes(8, "big"),
                 bytes([DT_VN_ID, 5]) + p.mac + b"\0" + p.fcid.to_bytes(3, "big") +
                 p.wwpn.to_bytes(8, "big")]
        self.send(self.fip(p.enode, OP_CTRL, SC_CVL, 0, descs, src=p.fcf))
        self.remove_port(p, "CVL")

    # --- FCoE ---------------------------------------------------------------
    @staticmethod
    def parse_fc(fc):
        r_ctl = fc[0]
        f_ctl = int.from_bytes(fc[9:12], "big")
        fill = f_ctl & 3
        return dict(r_ctl=r_ctl, d_id=int.from_bytes(fc[1:4], "big"),
                    s_id=int.from_bytes(fc[5:8], "big"), type=fc[8], f_ctl=f_ctl,
                    seq_id=fc[12], seq_cnt=struct.unpack_from(">H", fc, 14)[0],
                    ox_id=struct.unpack_from(">H", fc, 16)[0],
                    rx_id=struct.unpack_from(">H", fc, 18)[0],
                    payload=fc[24:len(fc) - fill] if fill else fc[24:])

    def rx_fcoe(self, b):
        self.count("rx_fcoe")
        if not self.up(b[0:6]):
            return self.drop("not_for_fcf", b)
        if len(b) < 60 or b[14] >> 4 != 0:
            return self.drop("malformed")
        end = fc_trailer_end(b)
        if end < 0:
            return self.drop("malformed")
        fc = b[28:end - 8]
        if struct.unpack_from("<I", b, end - 8)[0] != zlib.crc32(fc) & 0xFFFFFFFF:
            return self.drop("bad_crc")
        s_id = int.from_bytes(b[33:36], "big")
        d_id = int.from_bytes(b[29:32], "big")
        src = self.ports.get(s_id)
        if src is None:
            return self.drop("unknown_sid")
        if b[6:12] != src.mac:
            if not self.lenient_src_mac:
                return self.drop("vf_port_src_mac")
            self.count("src_mac_not_checked")
        if b[0:6] != src.fcf:
            # another FCF than the one its VN_Port logged in to: not its VF_Port
            return self.drop("wrong_fcf", b)
        if d_id >= 0xFFFFF0:
            return self.rx_well_known(src, b[13], self.parse_fc(fc))
        dst = self.ports.get(d_id)
        if dst is None:
            return self.drop("unknown_did")
        if not self.zoned(src.wwpn, dst.wwpn):
            return self.drop("zone")
        f = dst.mac + dst.fcf + b[12:end]
        self.send(f if len(f) >= 60 else f + bytes(60 - len(f)))
        self.count("forwarded")
        self.count("forwarded_bytes", end - 28)

    def reply(self, p, h, r_ctl, type_, payload):
        fill = (-len(payload)) % 4
        fc = fc_header(r_ctl, p.fcid, h["d_id"], type_, F_CTL_REPLY, h["ox_id"], self.xid(),
                       fill=fill) + payload + bytes(fill)
        self.send(fcoe_frame(p.mac, p.fcf, fc))

    def els_reply(self, p, h, payload):
        self.reply(p, h, R_CTL_ELS_REP, TYPE_ELS, payload)

    def ls_rjt(self, p, h, reason=0x0B, expl=0):
        self.els_reply(p, h, bytes([ELS_LS_RJT, 0, 0, 0, 0, reason, expl, 0]))

    def rx_well_known(self, p, sof, h):
        self.count("to_fabric_services")
        r_ctl, t, pl = h["r_ctl"], h["type"], h["payload"]
        if r_ctl == R_CTL_ABTS and t == TYPE_BLS:
            # answer an abort of a fabric-service exchange: BA_ACC, whole exchange
            ba = struct.pack(">BBHHHHH", 0, 0, 0, h["ox_id"], h["rx_id"], 0, 0xFFFF)
            fc = fc_header(R_CTL_BA_ACC, p.fcid, h["d_id"], TYPE_BLS, F_CTL_REPLY, h["ox_id"],
                           h["rx_id"]) + ba
            self.send(fcoe_frame(p.mac, p.fcf, fc))
            return
        if t == TYPE_ELS and r_ctl == R_CTL_ELS_REP:
            self.count("els_replies_in")   # accepts of our RSCNs
            return
        if t == TYPE_ELS and r_ctl == R_CTL_ELS_REQ and pl:
            return self.rx_els(p, h, pl)
        if t == TYPE_CT and r_ctl == R_CTL_CT_REQ and h["d_id"] == FID_DIR:
            return self.rx_ct(p, h, pl)
        self.count("fabric_services_ignored")

    def rx_els(self, p, h, pl):
        op, d_id = pl[0], h["d_id"]
        if op == ELS_PLOGI and d_id in (FID_DIR, FID_FCTRL):
            if d_id == FID_DIR:
                p.ns_plogi = True
            self.els_reply(p, h, sparm_payload(ELS_LS_ACC, self.wk_name(d_id), self.switch_name,
                                               0x8000, 0x00FF001F, 2000))
        elif op == ELS_SCR and d_id == FID_FCTRL:
            p.scr = pl[7] & 3 if len(pl) >= 8 else 3
            self.els_reply(p, h, bytes([ELS_LS_ACC, 0, 0, 0]))
            self.log("SCR from %06x (function %d)" % (p.fcid, p.scr))
            self.rscn(p)   # the port has finished registering: tell the others
        elif op == ELS_LOGO and d_id == FID_FLOGI:
            self.els_reply(p, h, bytes([ELS_LS_ACC, 0, 0, 0]))
            self.remove_port(p, "LOGO")
        elif op == ELS_LOGO:
            if d_id == FID_DIR:
                p.ns_plogi = False
            self.els_reply(p, h, bytes([ELS_LS_ACC, 0, 0, 0]))
        elif op == ELS_ECHO:
            self.els_reply(p, h, bytes([ELS_LS_ACC, 0, 0, 0]) + pl[4:])
        else:
            self.ls_rjt(p, h)
        self.count("els_%02x" % op)

    def rscn(self, about=None):
        """RSCN about one port (port address format) to every other
        registered port zoned with it; about None: a fabric-format RSCN to
        every registered port (zoning changed: all should rediscover)."""
        page = b"\0" + about.fcid.to_bytes(3, "big") if about else b"\x03\0\0\0"
        payload = bytes([ELS_RSCN, 4]) + struct.pack(">H", 8) + page
        for q in list(self.ports.values()):
            if not q.scr or (about and (q is about or not self.zoned(q.wwpn, about.wwpn))):
                continue
            fc = fc_header(R_CTL_ELS_REQ, q.fcid, FID_FCTRL, TYPE_ELS, F_CTL_REQUEST, self.xid(),
                           0xFFFF) + payload
            self.send(fcoe_frame(q.mac, q.fcf, fc))
            self.count("rscn_sent")
            self.log("RSCN to %06x about %s" % (q.fcid, "%06x" % about.fcid if about else "the fabric"))

    # --- name server --------------------------------------------------------
    def ct_reply(self, p, h, cmd, body=b"", reason=0, expl=0):
        ct = struct.pack(">B3sBBBBHHBBBB", 1, b"\0\0\0", 0xFC, 0x02, 0, 0, cmd, 0, 0,
                         reason, expl, 0) + body
        self.reply(p, h, R_CTL_CT_REP, TYPE_CT, ct)

    def visible(self, p):
        """Ports the requester p may see: itself and those zoned with it."""
        return [q for q in sorted(self.ports.values(), key=lambda q: q.fcid)
                if q is p or self.zoned(p.wwpn, q.wwpn)]

    def rx_ct(self, p, h, pl):
        if len(pl) < 16 or pl[4] != 0xFC or pl[5] != 0x02:
            self.ct_reply(p, h, CT_RJT, reason=CT_RJT_NOT_SUPPORTED)
            return
        cmd = struct.unpack_from(">H", pl, 8)[0]
        a = pl[16:]
        name = NS_NAMES.get(cmd, "0x%04x" % cmd)
        self.count("ns_" + name)

        def fid(off=0):
            return int.from_bytes(a[off + 1:off + 4], "big") if len(a) >= off + 4 else None

        def target(fcid):
            q = self.ports.get(fcid)
            return q if q and (q is p or self.zoned(p.wwpn, q.wwpn)) else None

        changed = True
        if cmd == NS["RNN_ID"] and len(a) >= 12:
            if fid() == p.fcid:
                p.wwnn = int.from_bytes(a[4:12], "big")
            self.ct_reply(p, h, CT_ACC)
        elif cmd == NS["RSNN_NN"] and len(a) >= 9:
            p.snn = a[9:9 + a[8]].decode("latin-1")
            self.ct_reply(p, h, CT_ACC)
        elif cmd == NS["RSPN_ID"] and len(a) >= 5:
            p.spn = a[5:5 + a[4]].decode("latin-1")
            self.ct_reply(p, h, CT_ACC)
        elif cmd == NS["RFT_ID"] and len(a) >= 36:
            p.fc4_types = bytes(a[4:36])
            self.ct_reply(p, h, CT_ACC)
        elif cmd == NS["RFF_ID"] and len(a) >= 8:
            p.fc4_features[a[7]] = a[6]
            self.ct_reply(p, h, CT_ACC)
        elif cmd == NS["RPN_ID"] and len(a) >= 12:
            self.ct_reply(p, h, CT_ACC)
        elif cmd in (NS["GPN_FT"], NS["GID_FT"]) and len(a) >= 4:
            changed = False
            ports = [q for q in self.visible(p) if q.has_type(a[3])]
            if not ports:
                self.ct_reply(p, h, CT_RJT, reason=CT_RJT_UNABLE, expl=CT_EXP_FT_NOT_REG)
                return
            body = b""
            for i, q in enumerate(ports):
                ctl = 0x80 if i == len(ports) - 1 else 0
                body += bytes([ctl]) + q.fcid.to_bytes(3, "big")
                if cmd == NS["GPN_FT"]:
                    body += bytes(4) + q.wwpn.to_bytes(8, "big")
            self.ct_reply(p, h, CT_ACC, body)
        elif cmd in (NS["GPN_ID"], NS["GNN_ID"], NS["GFT_ID"], NS["GFF_ID"]):
            changed = False
            q = target(fid()) if fid() is not None else None
            if q is None:
                self.ct_reply(p, h, CT_RJT, reason=CT_RJT_UNABLE, expl=CT_EXP_PID_NOT_REG)
            elif cmd == NS["GPN_ID"]:
                self.ct_reply(p, h, CT_ACC, q.wwpn.to_bytes(8, "big"))
            elif cmd == NS["GNN_ID"]:
                self.ct_reply(p, h, CT_ACC, q.wwnn.to_bytes(8, "big"))
            elif cmd == NS["GFT_ID"]:
                self.ct_reply(p, h, CT_ACC, q.fc4_types)
            else:
                ff = bytearray(128)
                for t, f in q.fc4_features.items():
                    ff[t // 2] |= (f & 0xF) << (4 if t % 2 == 0 else 0)
                self.ct_reply(p, h, CT_ACC, bytes(ff))
        elif cmd == NS["GID_PN"] and len(a) >= 8:
            changed = False
            w = int.from_bytes(a[0:8], "big")
            q = next((q for q in self.visible(p) if q.wwpn == w), None)
            if q is None:
                self.ct_reply(p, h, CT_RJT, reason=CT_RJT_UNABLE, expl=CT_EXP_PN_NOT_REG)
            else:
                self.ct_reply(p, h, CT_ACC, b"\0" + q.fcid.to_bytes(3, "big"))
        else:
            changed = False
            self.ct_reply(p, h, CT_RJT, reason=CT_RJT_NOT_SUPPORTED)
        if changed:
            self.log("NS %s from %06x" % (name, p.fcid))

    # --- control ------------------------------------------------------------
    def state(self):
        now = time.time()
        enodes = []
        for e in self.enodes.values():
            e = dict(e)
            e["ka_age"] = None if e["last_ka"] is None else round(now - e["last_ka"], 1)
            del e["last_ka"]
            enodes.append(e)
        return dict(mac=mac_text(self.mac), ifname=self.ifname, fc_map="%06x" % self.fc_map,
                    fcfs={mac_text(m): dict(priority=f["priority"], up=f["up"],
                                            name=wwn_text(f["name"]))
                          for m, f in self.fcfs.items()},
                    ports=[p.json() for p in sorted(self.ports.values(), key=lambda p: p.fcid)],
                    enodes=enodes, counters=dict(self.counters), drops=dict(self.drops),
                    zones=None if self.zones is None else [sorted(wwn_text(w) for w in z)
                                                            for z in self.zones])

    def control(self, req):
        cmd = req.get("cmd")
        if cmd == "state":
            return self.state()
        if cmd == "zones":
            z = req.get("zones")
            self.zones = None if z is None else [set(wwn_int(w) for w in zone) for zone in z]
            self.log("zones set: %s" % req.get("zones"))
            self.rscn()
            return dict(ok=True)
        if cmd == "cvl":
            w = wwn_int(req["wwpn"])
            p = next((p for p in self.ports.values() if p.wwpn == w), None)
            if p is None:
                return dict(ok=False, error="no such port")
            self.clear_virtual_link(p)
            return dict(ok=True)
        if cmd == "fcf_up":
            m = mac_bytes(req["mac"])
            if m not in self.fcfs:
                return dict(ok=False, error="no such FCF")
            self.fcfs[m]["up"] = True
            self.log("FCF %s up (priority %d)" % (req["mac"], self.fcfs[m]["priority"]))
            self.send(self.advertisement(ALL_ENODE_MACS, False, fcf=m))
            return dict(ok=True)
        if cmd == "reset_counters":
            self.counters.clear()
            self.drops = dict.fromkeys(DROP_REASONS, 0)
            return dict(ok=True)
        return dict(ok=False, error="unknown command")

    def ctl_read(self, c):
        try:
            data = c.recv(65536)
        except OSError:
            data = b""
        if not data:
            self.ctl_clients.pop(c, None)
            c.close()
            return
        buf = self.ctl_clients[c] + data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                resp = self.control(json.loads(line))
            except Exception as e:    # a bad request must not stop the fabric
                resp = dict(ok=False, error=repr(e))
            try:
                c.sendall(json.dumps(resp).encode() + b"\n")
            except OSError:
                pass
        self.ctl_clients[c] = buf

    # --- loop ---------------------------------------------------------------
    def housekeeping(self, now):
        if now >= self.next_adv:
            for m in self.fcfs:
                if self.up(m):
                    self.send(self.advertisement(ALL_ENODE_MACS, False, fcf=m))
                    self.count("advertisements")
            self.next_adv = now + self.fka_ms / 1000.0
        if self.enforce_ka:
            limit = 2.5 * self.fka_ms / 1000.0
            for p in list(self.ports.values()):
                e = self.enodes.get(p.enode)
                # a login restarts the clock, as at a real FCF: an ENode
                # that logs in again after a reset has sent no keep-alive
                # while it did
                last = max((e or {}).get("last_ka") or 0, p.since)
                if now - last > limit:
                    self.log("keep-alive timeout for ENode %s" % mac_text(p.enode))
                    self.count("ka_timeouts")
                    self.clear_virtual_link(p)

    def run(self):
        self.log("FCF %s on %s fc-map %06x fka %d ms" % (mac_text(self.mac), self.ifname,
                                                        self.fc_map, self.fka_ms))
        self.s.setblocking(False)
        while not self.stopping:
            now = time.time()
            self.housekeeping(now)
            rl = [self.s] + ([self.ctl] if self.ctl else []) + list(self.ctl_clients)
            try:
                r, _, _ = select.select(rl, [], [], max(0.0, min(1.0, self.next_adv - now)))
            except InterruptedError:
                continue
            if self.s in r:
                for _ in range(256):
                    try:
                        b, anc, _, addr = self.s.recvmsg(65535, socket.CMSG_SPACE(32))
                    except BlockingIOError:
                        break
                    if addr[2] == socket.PACKET_OUTGOING or len(b) < 14:
                        continue
                    if frame_vlan(b, anc) != self.vlan:
                        self.count("rx_other_vlan")
                        continue
                    if struct.unpack_from(">H", b, 12)[0] == ETH_P_8021Q:
                        b = b[:12] + b[16:]
                    et = struct.unpack_from(">H", b, 12)[0]
                    if et == ETH_P_FCOE:
                        self.rx_fcoe(b)
                    elif et == ETH_P_FIP:
                        self.rx_fip(b)
            if self.ctl and self.ctl in r:
                c, _ = self.ctl.accept()
                self.ctl_clients[c] = b""
            for c in [c for c in r if c in self.ctl_clients]:
                self.ctl_read(c)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iface", required=True)
    ap.add_argument("--mac", help="FCF-MAC (default: the interface's)")
    ap.add_argument("--fc-map", default="0efc00")
    ap.add_argument("--fka-ms", type=int, default=8000)
    ap.add_argument("--priority", type=int, default=128)
    ap.add_argument("--domain", default="01", help="domain of the FCIDs granted (hex)")
    ap.add_argument("--assign", action="append", default=[], metavar="WWPN=FCID",
                    help="grant this FCID (hex) to this WWPN")
    ap.add_argument("--zone", action="append", metavar="WWPN,WWPN,...",
                    help="a zone; repeat for more (default: everyone zoned with everyone)")
    ap.add_argument("--control", help="UNIX socket for state and commands")
    ap.add_argument("--lenient-src-mac", action="store_true",
                    help="testing: take FCoE frames whatever their source MAC (counted as "
                    "src_mac_not_checked), to see what the ENodes say of the frames returned")
    ap.add_argument("--vlan", type=int, help="serve this VLAN only (frames tagged)")
    ap.add_argument("--also-fcf", action="append", default=[], metavar="MAC:PRIORITY[:down]",
                    help="another FCF of this fabric on the VLAN (repeatable); down: "
                    "silent until the control socket's fcf_up")
    ap.add_argument("--enforce-ka", action="store_true",
                    help="clear the virtual links of an ENode silent for 2.5 FKA periods")
    a = ap.parse_args()
    assign = {}
    for x in a.assign:
        w, f = x.split("=")
        assign[wwn_int(w)] = int(f, 16)
    zones = None if not a.zone else [set(wwn_int(w) for w in z.split(",")) for z in a.zone]
    also = []
    for x in a.also_fcf:
        m, pri, *down = x.rsplit(":", 2) if x.endswith(":down") else x.rsplit(":", 1)
        also.append((mac_bytes(m), int(pri), not down))
    f = Fcf(a.iface, mac=a.mac, fc_map=int(a.fc_map, 16), fka_ms=a.fka_ms, priority=a.priority,
            domain=int(a.domain, 16), assign=assign, zones=zones, control=a.control,
            enforce_ka=a.enforce_ka, lenient_src_mac=a.lenient_src_mac, vlan=a.vlan, also=also)

    def stop(*_):
        f.stopping = True
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    f.run()


if __name__ == "__main__":
    main()
