#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
dp_check: the judge of a fcredirect run on capture files.

    dp_check.py check --pcap IN [--list LIST] --commands CMDS --log LOG \
        --out 0=OUT0[,OUT0b] --out 1=OUT1 --out 2=OUT2 [options]

From the input capture (and fcoe-gen's --list of it) and the commands the
program was given, it computes what every output port must carry, frame by
frame, on an independent model of the forwarder (docs/forwarding.md, docs/trust.md; docs/fcoe.md,
"Frame layout" and "FC-Redirect: the four rules"):

  * FCoE frames are parsed in the order docs/counters.md names the drop reasons; a
    malformed one is dropped under its reason (and the --list kind
    malformed_<reason> must agree).
  * Bindings (VLAN, WWPN) -> FCID come from the commands' `binding add` and
    from the logins in the capture (FLOGI/FDISC and their accepts over FIP or
    FCoE, PLOGI and its accept, LOGO), per --bindings.
  * A redirect whose four ports are bound has four rules keyed by
    (VLAN, S_ID, D_ID): host->target D_ID := VT, VI->target S_ID := host,
    target->host D_ID := VI, VT->host S_ID := target. One that is not
    active but has its host and target bound fails closed: the pair's
    frames (both ways) are dropped as redirect_not_ready.
  * The final D_ID picks the route (longest prefix of the frame's VLAN's
    own routes, else of those for every VLAN): the egress port, the
    destination MAC (FC-MAP || D_ID for fpma, else the route's MAC); the
    source MAC becomes the egress port's MAC. With fabric ports the MACs are
    a fabric's instead: to an edge port from the FCF's MAC (the frame's
    destination if it came from an edge port, its source if from the
    fabric); to a fabric port to the FCF's MAC (kept) from the S_ID's
    VN_Port MAC (kept, or FPMA of a rewritten S_ID). The FC CRC follows the
    rewrite and a bad one stays exactly as bad. A frame in on a fabric port
    whose hop (route or binding) is that same port is dropped as
    fabric_loop: the FCF would send it straight back.
  * FIP and other EtherTypes leave unchanged through the pass-through peer.
  * Every frame a rule rewrote carries the mark (the FCoE header's byte 12,
    bit 0x01; docs/fcoe.md). A frame that comes with it is honoured only on
    a fabric or series port (--series-ports): it matches no rule, teaches
    nothing, goes where a rewritten frame goes, keeps its mark and is counted
    in `series`; on any other port it is dropped as mark_untrusted.

tshark reads the input and every output capture; the expected record of each
output frame is tshark's record of its input frame with the rewritten fields
(VLAN, MACs, S_ID, D_ID, OX_ID, R_CTL, SEQ_CNT, parameter, length, CRC
status). The bytes are compared too (the CRC value of a rewritten frame
included). With one worker each port's frames must come in input order; with
--multiset (several workers) as multisets. --timing loose accepts for every
rewritten frame its plain version instead (learning not yet applied), or,
for the host-target pair's frames, a redirect_not_ready drop (the host and
target learned, the service node not yet), and for a frame the model drops
as redirect_not_ready its plain version (the pair not learned yet); then it
checks the accounting of those frames (`before_rule`, `not_ready`,
`flow_miss`).

The program's own report (LOG: its standard output with `show fwd stats`,
`redirect list`, `binding list`) is checked against the same model: rx, tx
per port, rx == tx + dropped, frames by kind, drops by reason, redirects'
states, bindings, logouts.

    dp_check.py compare --a 0=X0[,X0b] --a 1=... --b 0=Y0 --b 1=...

says whether two runs sent the same frames (tshark records and bytes) on
each port, as multisets.

    dp_check.py split IN OUT0 OUT1 ...

deals the frames of a capture to several captures by flow (VLAN, S_ID,
D_ID; other frames by source MAC, filler frames round robin), keeping each
flow's order: the input of several RX queues.

Standard library only; prints PASS/FAIL lines and ends with
"dp_check: N passed, M failed" (exit status 1 when any failed).
"""

import argparse
import collections
import difflib
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

# ---------------------------------------------------------------- constants

ET_VLAN, ET_QINQ, ET_FCOE, ET_FIP = 0x8100, 0x88A8, 0x8906, 0x8914
SOF = {0x28, 0x29, 0x2D, 0x2E, 0x31, 0x35, 0x36, 0x39}
EOF = {0x41, 0x42, 0x44, 0x46, 0x49, 0x4E, 0x4F, 0x50}
FC_MAX_LEN = 24 + 2112
FFFFFE = 0xFFFFFE
MARK_OFF, MARK = 12, 0x01  # the mark: in the FCoE header (lib/frame/fcr_fcoe.h)
LEGS = ["plain", "host_to_target", "vi_to_target", "target_to_host", "vt_to_host"]
REASONS = ["runt", "trunc_vlan", "vlan_stacked", "trunc_fcoe_hdr", "bad_version",
           "bad_reserved", "bad_sof", "trunc_fc_hdr", "no_trailer", "bad_eof",
           "bad_trailer", "bad_length", "too_long", "bad_fill", "no_route",
           "no_port", "fabric_loop", "login_refused", "no_passthrough", "split_header", "redirect_not_ready", "redirect_hidden",
           "tx_full"]
NOT_READY = "redirect_not_ready"
ELS_LS_RJT, ELS_LS_ACC, ELS_PLOGI, ELS_FLOGI, ELS_LOGO, ELS_FDISC = 1, 2, 3, 4, 5, 0x51
FIP_DT_FLOGI, FIP_DT_FDISC, FIP_DT_LOGO, FIP_DT_MAC = 7, 8, 9, 2

TSHARK_FIELDS = ["frame.number", "frame.len", "eth.src", "eth.dst", "eth.type",
                 "vlan.id", "vlan.etype", "fc.s_id", "fc.d_id", "fc.ox_id",
                 "fc.r_ctl", "fc.seq_cnt", "fc.parameter", "fcoe.crc.status"]
F = {name: i for i, name in enumerate(TSHARK_FIELDS)}


# ---------------------------------------------------------------- output

class Report:
    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0

    def check(self, what):
        print("  check: %s" % what)

    def ok(self, msg):
        self.passed += 1
        print("  PASS: %s%s" % (self.name + ": " if self.name else "", msg))

    def ko(self, msg, details=()):
        self.failed += 1
        print("  FAIL: %s%s" % (self.name + ": " if self.name else "", msg))
        for line in details:
            print("        " + line)

    def expect(self, cond, okmsg, komsg, details=()):
        if cond:
            self.ok(okmsg)
        else:
            self.ko(komsg, details)
        return cond

    def end(self):
        print("dp_check: %d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0


def die(msg):
    print("dp_check: error: %s" % msg, file=sys.stderr)
    print("dp_check: 0 passed, 1 failed")
    sys.exit(1)


# ---------------------------------------------------------------- pcap

def read_pcap(path):
    """[bytes] of every frame (the captured bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        die("%s: not a pcap file (%d bytes)" % (path, len(data)))
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        die("%s: not a pcap file (magic %s)" % (path, magic.hex()))
    frames, off = [], 24
    hdr = struct.Struct(end + "IIII")
    while off + 16 <= len(data):
        _, _, caplen, _ = hdr.unpack_from(data, off)
        off += 16
        frames.append(bytes(data[off:off + caplen]))
        off += caplen
    return frames


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            us = i * 2
            f.write(struct.pack("<IIII", 1700000000 + us // 1000000, us % 1000000,
                                len(fr), len(fr)))
            f.write(fr)


def tshark_records(path):
    """tshark's view of every frame: a tuple of TSHARK_FIELDS strings."""
    cmd = ["tshark", "-n", "-r", path, "-T", "fields", "-E", "occurrence=f"]
    for fld in TSHARK_FIELDS:
        cmd += ["-e", fld]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        die("tshark -r %s failed: %s" % (path, p.stderr.strip()[-300:]))
    recs = []
    for line in p.stdout.splitlines():
        recs.append(tuple(line.split("\t")))
    return recs


FILLER_ET = 0x88B5


def is_filler(b):
    """fcoe-gen's --login-gap frames (EtherType 0x88b5, tagged or not)."""
    if len(b) >= 14 and b[12:14] == b"\x88\xb5":
        return True
    return len(b) >= 18 and b[12:14] == b"\x81\x00" and b[16:18] == b"\x88\xb5"


_filler_cache = {}


def filler_record(no, b):
    """A record like tshark's of a filler frame (the same for all the filler
    frames with the same header and length; the frame number is left out)."""
    key = (len(b), b[:18])
    r = _filler_cache.get(key)
    if r is None:
        r = _filler_cache[key] = _filler_record(b)
    return r


def _filler_record(b):
    tagged = b[12:14] == b"\x81\x00"
    r = [""] * len(TSHARK_FIELDS)
    r[F["frame.number"]] = "filler"
    r[F["frame.len"]] = str(len(b))
    r[F["eth.dst"]] = mac_text(b[0:6])
    r[F["eth.src"]] = mac_text(b[6:12])
    r[F["eth.type"]] = "0x8100" if tagged else "0x88b5"
    if tagged:
        r[F["vlan.id"]] = str((b[14] << 8 | b[15]) & 0x0FFF)
        r[F["vlan.etype"]] = "0x88b5"
    return tuple(r)


def records(path, frames):
    """tshark's records of a capture's frames; filler frames (thousands of
    them, nothing for tshark to judge) are left out of tshark's input and
    described here, and compared by their bytes."""
    skip = [is_filler(b) for b in frames]
    if not any(skip):
        return tshark_records(path)
    tmpdir = tempfile.mkdtemp(prefix="dp_check.")
    try:
        tmp = os.path.join(tmpdir, "nofiller.pcap")
        write_pcap(tmp, [b for b, sk in zip(frames, skip) if not sk])
        recs = iter(tshark_records(tmp))
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    out = []
    for i, (b, sk) in enumerate(zip(frames, skip)):
        if sk:
            out.append(filler_record(i + 1, b))
        else:
            r = next(recs, None)
            if r is None:
                die("%s: tshark read fewer frames than the capture holds" % path)
            out.append((str(i + 1),) + tuple(r[1:]))
    return out


def rec_key(rec):
    """A record without the frame number: what must be equal."""
    return rec[1:]


# ---------------------------------------------------------------- text forms

def fcid_dotted(v):
    return "%02x.%02x.%02x" % ((v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)


def mac_text(b):
    return bytes(b).hex(":")


def parse_fcid(s):
    s = s.strip().lower()
    if s.startswith("0x"):
        return int(s, 16) & 0xFFFFFF
    if "." in s:
        a, b, c = s.split(".")
        return int(a, 16) << 16 | int(b, 16) << 8 | int(c, 16)
    return int(s, 0) & 0xFFFFFF


def parse_wwpn(s):
    return int(s.replace(":", "").replace("-", ""), 16)


def parse_mac(s):
    return bytes(int(x, 16) for x in re.split("[:-]", s))


def wwpn_text(v):
    return ":".join("%02x" % ((v >> (8 * (7 - i))) & 0xFF) for i in range(8))


# ---------------------------------------------------------------- the parser

class Frame:
    pass


def be24(b, o):
    return b[o] << 16 | b[o + 1] << 8 | b[o + 2]


def parse(b):
    """(reason, Frame). reason "ok", "not_fcoe" or a drop reason."""
    f = Frame()
    f.vlan, f.tagged, f.ethertype = 0, False, None
    n = len(b)
    if n < 14:
        return "runt", f
    et = b[12] << 8 | b[13]
    off = 14
    if et == ET_VLAN:
        if n < 18:
            return "trunc_vlan", f
        f.tagged = True
        f.vlan = (b[14] << 8 | b[15]) & 0x0FFF
        et = b[16] << 8 | b[17]
        off = 18
        if et in (ET_VLAN, ET_QINQ):
            f.ethertype = et
            return "vlan_stacked", f
    elif et == ET_QINQ:
        f.ethertype = et
        return "vlan_stacked", f
    f.ethertype = et
    f.fcoe_off = off
    if et != ET_FCOE:
        return "not_fcoe", f
    if n < off + 14:
        return "trunc_fcoe_hdr", f
    e = b[off:off + 14]
    if e[0] >> 4:
        return "bad_version", f
    if e[0] & 0x0F or any(e[1:MARK_OFF]) or e[MARK_OFF] & ~MARK:
        return "bad_reserved", f
    f.mark = bool(e[MARK_OFF] & MARK)
    if e[13] not in SOF:
        return "bad_sof", f
    fc = off + 14
    f.fc_off = fc
    if n < fc + 24:
        return "trunc_fc_hdr", f
    if n < fc + 24 + 8:
        return "no_trailer", f
    if b[n - 4] not in EOF:
        return "bad_eof", f
    if b[n - 3] or b[n - 2] or b[n - 1]:
        return "bad_trailer", f
    fc_len = n - 8 - fc
    if fc_len & 3:
        return "bad_length", f
    if fc_len > FC_MAX_LEN:
        return "too_long", f
    f.r_ctl = b[fc]
    f.d_id = be24(b, fc + 1)
    f.s_id = be24(b, fc + 5)
    f.type = b[fc + 8]
    f_ctl = be24(b, fc + 9)
    f.ox_id = b[fc + 16] << 8 | b[fc + 17]
    fill = f_ctl & 3
    if fill > fc_len - 24:
        return "bad_fill", f
    f.fc_len = fc_len
    f.payload = b[fc + 24:fc + 24 + fc_len - 24 - fill]
    f.crc_stored = struct.unpack_from("<I", b, n - 8)[0]
    f.crc_good = f.crc_stored == zlib.crc32(b[fc:fc + fc_len]) & 0xFFFFFFFF
    return "ok", f


class Login:
    """What the snooper reads from a login frame (lib/frame/fcr_login.h's model)."""

    def __init__(self):
        self.kind = None      # flogi fdisc plogi logo acc rjt
        self.answers = None   # FIP replies: flogi fdisc logo
        self.via_fip = False
        self.wwpn = None
        self.wwnn = 0         # a FLOGI or FDISC request's node name
        self.port_id = None
        self.vlan = 0
        self.s_id = self.d_id = self.ox_id = 0
        self.src = self.dst = b""
        self.mac = None       # FIP: the MAC descriptor


def els_payload(r_ctl, p, lg):
    if len(p) < 4:
        return False
    if r_ctl == 0x23:
        if p[0] == ELS_LS_RJT:
            lg.kind = "rjt"
        elif p[0] == ELS_LS_ACC:
            lg.kind = "acc"
            if len(p) >= 36:
                lg.wwpn = int.from_bytes(p[20:28], "big")
        return True
    if r_ctl != 0x22:
        return True
    if p[0] in (ELS_FLOGI, ELS_FDISC, ELS_PLOGI):
        if len(p) < 36:
            return False
        lg.kind = {ELS_FLOGI: "flogi", ELS_FDISC: "fdisc", ELS_PLOGI: "plogi"}[p[0]]
        lg.wwpn = int.from_bytes(p[20:28], "big")
        lg.wwnn = int.from_bytes(p[28:36], "big")
    elif p[0] == ELS_LOGO:
        if len(p) < 16:
            return False
        lg.kind = "logo"
        lg.port_id = be24(p, 5)
        lg.wwpn = int.from_bytes(p[8:16], "big")
    return True


def snoop_fcoe(b, f):
    if f.type != 0x01 or f.r_ctl not in (0x22, 0x23) or not f.crc_good:
        return None
    lg = Login()
    lg.vlan, lg.s_id, lg.d_id, lg.ox_id = f.vlan, f.s_id, f.d_id, f.ox_id
    lg.dst, lg.src = b[0:6], b[6:12]
    if not els_payload(f.r_ctl, f.payload, lg) or lg.kind is None:
        return None
    return lg


def snoop_fip(b, f):
    h = b[f.fcoe_off:]
    if len(h) < 10 or (h[0] >> 4) != 1:
        return None
    op, sub = h[2] << 8 | h[3], h[5]
    if op != 2 or sub not in (1, 2):
        return None
    dlen = (h[6] << 8 | h[7]) * 4
    if dlen > len(h) - 10:
        return None
    lg = Login()
    lg.via_fip = True
    lg.vlan = f.vlan
    lg.dst, lg.src = b[0:6], b[6:12]
    off, seen = 10, 0
    while off < 10 + dlen:
        d = h[off:]
        if len(d) < 2 or d[1] == 0 or d[1] * 4 > 10 + dlen - off:
            return None
        ln = d[1] * 4
        if d[0] in (FIP_DT_FLOGI, FIP_DT_FDISC, FIP_DT_LOGO):
            seen += 1
            if seen > 1 or ln < 28:
                return None
            fc = d[4:ln]
            if fc[0] != (0x22 if sub == 1 else 0x23):
                return None
            lg.d_id, lg.s_id = be24(fc, 1), be24(fc, 5)
            lg.ox_id = fc[16] << 8 | fc[17]
            if not els_payload(fc[0], fc[24:], lg):
                return None
            dk = {FIP_DT_FLOGI: "flogi", FIP_DT_FDISC: "fdisc", FIP_DT_LOGO: "logo"}[d[0]]
            if sub == 2:
                lg.answers = dk
            elif lg.kind != dk:
                return None
        elif d[0] == FIP_DT_MAC and ln >= 8:
            lg.mac = bytes(d[2:8])
        off += ln
    return lg if seen and lg.kind else None


# ---------------------------------------------------------------- tables

class Model:
    """Routes, bindings, redirects and their rules; learning from the
    fabric's login replies on fabric ports (docs/trust.md)."""

    def __init__(self, learn, fabric=(), fc_map=0x0EFC00):
        self.learn = learn and bool(fabric)
        self.fabric = set(fabric)
        self.fc_map = fc_map
        self.static = set()       # (vlan, wwpn) bound by `binding add`
        self.vn = {}              # (vlan, fcid) -> (port or None, mac or None)
        self.untrusted = 0
        self.static_kept = 0
        self.routes = {}          # (vlan or None for every VLAN, prefix, bits) -> (port, mac or None)
        self.bind = {}            # (vlan, wwpn) -> fcid
        self.node = {}            # (vlan, wwpn) -> node name, from its login request
        self.redirects = []       # [vlan, host, target, vi, vt]
        self.pending = {}
        self.rules = {}           # (vlan, s, d) -> (s', d', leg, redirect index)
        self.blocks = {}          # (vlan, s, d) -> redirect index: dropped
        self.hidden = {}          # (vlan, s, d) -> redirect index: target->VI, host->VT
        self.logouts = 0
        self.acc_unmatched = 0
        self.evicted = 0
        self.changes = 0

    # commands
    def command(self, line, use_bindings):
        w = line.split()
        if not w or w[0].startswith("#"):
            return
        if w[:2] in (["route", "add"], ["route", "del"]):
            # route add|del [vlan V] <prefix> ...: without a VLAN, for every VLAN
            vlan = int(w[3]) if w[2] == "vlan" else None
            w = w[:2] + w[4:] if vlan is not None else w
            pfx, bits = w[2].split("/")
            bits = int(bits)
            pfx = parse_fcid(pfx) & ~((1 << (24 - bits)) - 1) & 0xFFFFFF
            if w[1] == "del":
                self.routes.pop((vlan, pfx, bits), None)
            else:
                port = int(w[4])
                mac = parse_mac(w[6]) if w[5] == "mac" else None
                self.routes[(vlan, pfx, bits)] = (port, mac)
        elif w[:2] == ["binding", "add"] and use_bindings:
            self.do_bind(int(w[3]), parse_wwpn(w[5]), parse_fcid(w[7]))
            self.static.add((int(w[3]), parse_wwpn(w[5])))
        elif w[:2] == ["binding", "del"] and use_bindings:
            self.unbind(int(w[3]), parse_wwpn(w[5]))
            self.static.discard((int(w[3]), parse_wwpn(w[5])))
        elif w[:2] == ["redirect", "add"]:
            r = [int(w[3]), parse_wwpn(w[5]), parse_wwpn(w[7]), parse_wwpn(w[9]),
                 parse_wwpn(w[11])]
            for i, old in enumerate(self.redirects):
                if old[:3] == r[:3]:
                    self.redirects[i] = r
                    break
            else:
                self.redirects.append(r)
            self.rebuild()
        elif w[:2] == ["redirect", "del"]:
            key = [int(w[3]), parse_wwpn(w[5]), parse_wwpn(w[7])]
            self.redirects = [r for r in self.redirects if r[:3] != key]
            self.rebuild()

    def do_bind(self, vlan, wwpn, fcid, vn=(None, None)):
        old = self.bind.get((vlan, wwpn))
        if old == fcid:
            self.vn[(vlan, fcid)] = vn
            return
        for k, v in list(self.bind.items()):
            if k[0] == vlan and v == fcid and k[1] != wwpn:
                del self.bind[k]
                self.static.discard(k)
                self.evicted += 1
        if old is not None:
            self.vn.pop((vlan, old), None)
        self.bind[(vlan, wwpn)] = fcid
        self.vn[(vlan, fcid)] = vn
        self.changes += 1
        self.rebuild()

    def unbind(self, vlan, wwpn):
        old = self.bind.pop((vlan, wwpn), None)
        if old is not None:
            self.vn.pop((vlan, old), None)
            self.changes += 1
            self.rebuild()
            return True
        return False

    def allows(self, vlan, s_id, d_id, src, in_port):
        """The edge ACL: a VN_Port that logged in through in_port from src,
        a static binding, or a fabric login request."""
        if s_id == 0 and d_id == FFFFFE:
            return True
        vn = self.vn.get((vlan, s_id))
        if vn is None:
            return False
        port, mac = vn
        return (port is None or port == in_port) and (mac is None or mac == src)

    def state(self, r):
        f = [self.bind.get((r[0], w)) for w in r[1:]]
        return f

    def rebuild(self):
        rules, hidden = {}, {}
        for i, r in enumerate(self.redirects):
            f = self.state(r)
            if None in f:
                continue
            h, t, vi, vt = f
            v = r[0]
            mine = {(v, h, t): (h, vt, 1, i), (v, vi, t): (h, t, 2, i),
                    (v, t, h): (t, vi, 3, i), (v, vt, h): (t, h, 4, i)}
            # the ends never reach the service node (FCR_LEG_HIDDEN)
            hide = {(v, t, vi): i, (v, h, vt): i}
            if any(k in rules or k in hidden for k in list(mine) + list(hide)):
                continue  # conflict: the first redirect keeps the keys
            rules.update(mine)
            hidden.update(hide)
        self.rules = rules
        self.hidden = hidden
        # fail closed: a redirect not active whose host and target are bound
        blocks = {}
        for i, r in enumerate(self.redirects):
            if self.active(i):
                continue
            h, t = self.state(r)[:2]
            if h is None or t is None:
                continue
            for k in ((r[0], h, t), (r[0], t, h)):
                if k not in rules and k not in blocks:
                    blocks[k] = i
        self.blocks = blocks

    def active(self, i):
        return any(v[3] == i for v in self.rules.values())

    def egress(self, vlan, d_id, by_login):
        """The (port, mac) a frame leaves by: with fabric ports, what came
        from the fabric or was rewritten goes where its D_ID's VN_Port
        logged in, if through an edge port (docs/trust.md); else the route."""
        if by_login and self.fabric:
            port, mac = self.vn.get((vlan, d_id), (None, None))
            if port is not None and mac is not None and port not in self.fabric:
                return (port, mac)
        return self.route(vlan, d_id)

    def vn_hop(self, vlan, d_id):
        """Does what comes from the fabric to d_id go where its VN_Port
        logged in (egress's first way)?"""
        port, mac = self.vn.get((vlan, d_id), (None, None))
        return bool(self.fabric) and port is not None and mac is not None \
            and port not in self.fabric

    def leg_subst(self, rule, f):
        """(old FCID, new FCID, old WWPN, new WWPN, old node name, new node
        name) of a rule's leg: the member its header stops naming and the
        one it names now (node names 0 where not known)."""
        r = self.redirects[rule[3]]
        host, target, vi, vt = r[1], r[2], r[3], r[4]
        old, new = {1: (target, vt), 2: (vi, host), 3: (host, vi), 4: (vt, target)}[rule[2]]
        nn = (self.node.get((r[0], old), 0), self.node.get((r[0], new), 0))
        if rule[1] != f.d_id:
            return (f.d_id, rule[1], old, new) + nn
        return (f.s_id, rule[0], old, new) + nn

    def route(self, vlan, d_id):
        """The longest prefix of the VLAN's own routes, else of the routes
        for every VLAN (docs/forwarding.md: Routes)."""
        for v in (vlan, None):
            best = None
            for (rv, pfx, bits), hop in self.routes.items():
                mask = ~((1 << (24 - bits)) - 1) & 0xFFFFFF
                if rv == v and d_id & mask == pfx and (best is None or bits > best[0]):
                    best = (bits, hop)
            if best is not None:
                return best[1]
        return None

    # learning (the tables lcore's model)
    def fpma(self, fcid):
        return bytes([(self.fc_map >> 16) & 0xFF, (self.fc_map >> 8) & 0xFF,
                      self.fc_map & 0xFF]) + fcid.to_bytes(3, "big")

    def learn_one(self, v, wwpn, fcid, vn, wwnn=0):
        if (v, wwpn) in self.static:
            if self.bind.get((v, wwpn)) != fcid:
                self.static_kept += 1
            return
        for k, f in self.bind.items():
            if k[0] == v and f == fcid and k[1] != wwpn and k in self.static:
                self.static_kept += 1
                return
        self.do_bind(v, wwpn, fcid, vn)
        if wwnn:
            self.node[(v, wwpn)] = wwnn

    def logout(self, v, wwpn, fcid, req_port):
        if self.bind.get((v, wwpn)) != fcid:
            return
        port = self.vn.get((v, fcid), (None, None))[0]
        if port is not None and port != req_port:
            return
        if (v, wwpn) in self.static:
            self.static_kept += 1
            return
        self.unbind(v, wwpn)
        self.logouts += 1

    def login(self, lg, in_port):
        """A fabric login frame (FCoE to or from FFFFFE, or FIP)."""
        if not self.learn:
            return
        v = lg.vlan
        key = (v, lg.ox_id, lg.src if lg.kind not in ("acc", "rjt") else lg.dst)
        reply = (lg.answers is not None) if lg.via_fip else lg.s_id == FFFFFE
        if lg.kind in ("flogi", "fdisc", "logo"):
            if reply:
                return
            p = self.pending.pop(key, None)
            if p is not None and p[0] == "accept":
                self.acc_unmatched -= 1
                if lg.kind == "logo":
                    self.logout(v, lg.wwpn, lg.port_id, in_port)
                else:
                    self.learn_one(v, lg.wwpn, p[1], (in_port, p[2]), lg.wwnn)
                return
            if lg.kind == "logo" and not lg.via_fip and lg.port_id != lg.s_id:
                return  # a port logs out only itself
            self.pending[key] = ("logo" if lg.kind == "logo" else "login", lg.wwpn,
                                 lg.port_id, in_port, lg.wwnn)
        elif lg.kind in ("acc", "rjt"):
            if not reply:
                return
            if in_port not in self.fabric:
                self.untrusted += 1
                return
            mac = lg.mac if lg.via_fip and lg.mac is not None else self.fpma(lg.d_id)
            p = self.pending.pop(key, None)
            if p is None or p[0] == "accept":
                if lg.kind == "acc":
                    self.acc_unmatched += 1
                    self.pending[key] = ("accept", lg.d_id, mac)
                return
            if lg.kind == "rjt":
                return
            if p[0] == "logo":
                self.logout(v, p[1], p[2], p[3])
            elif lg.via_fip or lg.wwpn is not None:
                self.learn_one(v, p[1], lg.d_id, (p[3], mac), p[4])


# ---------------------------------------------------------------- the program's report

def parse_log(path):
    """The last `show fwd stats` block, the last `redirect list`, the last
    `binding list`, the port MACs and the number of ports."""
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    st = None
    blocks = []
    cur = None
    for ln in lines:
        if "Forward statistics" in ln:
            cur = []
            continue
        if cur is not None:
            if ln.startswith("-----"):
                blocks.append(cur)
                cur = None
            else:
                cur.append(ln)
    if blocks:
        st = {"rx": {}, "tx": {}, "kind": {}, "drop": {}, "tables": {}}
        sect = None
        for ln in blocks[-1]:
            m = re.match(r"\s+port (\d+)\s+rx (\d+)\s+tx (\d+)", ln)
            if m:
                st["rx"][int(m.group(1))] = int(m.group(2))
                st["tx"][int(m.group(1))] = int(m.group(3))
                continue
            m = re.match(r"\s+total\s+rx (\d+)\s+tx (\d+)\s+dropped (\d+)\s+\(rx (\S+) tx", ln)
            if m:
                st["total"] = tuple(int(m.group(i)) for i in (1, 2, 3))
                st["balance"] = m.group(4)
                continue
            if ln.strip() == "sent by kind:":
                sect = "kind"
                continue
            if ln.strip() == "drops by reason:":
                sect = "drop"
                continue
            if ln.strip() == "workers:":
                sect = "workers"
                continue
            if ln.strip() == "tables lcore:":
                sect = "tables"
                continue
            m = re.match(r"\s+(\w+)\s+(\d+)", ln)
            if m and sect in ("kind", "drop", "tables"):
                st[sect][m.group(1)] = int(m.group(2))
    redirects = None
    bindings = None
    for i, ln in enumerate(lines):
        if re.match(r"\d+ redirects, \d+ active", ln):
            redirects = []
            j = i - 1
            while j >= 0 and lines[j].startswith("redirect vlan"):
                redirects.insert(0, lines[j])
                j -= 1
        if re.match(r"\d+ bindings$", ln):
            bindings = []
            j = i - 1
            while j >= 0 and lines[j].startswith("binding vlan"):
                bindings.insert(0, lines[j])
                j -= 1
    macs = {}
    nports = None
    for ln in lines:
        m = re.match(r"(\d+)\s+\S+\s+\S+\s+([0-9a-f]{2}(:[0-9a-f]{2}){5})\s", ln)
        if m:
            macs[int(m.group(1))] = parse_mac(m.group(2))
        m = re.match(r"fcredirect: (\d+) port\(s\), (\d+) worker", ln)
        if m:
            nports = int(m.group(1))
    return st, redirects, bindings, macs, nports


# ---------------------------------------------------------------- the model run

class Expect:
    """What one input frame must become."""

    def __init__(self, no, kind):
        self.no, self.kind = no, kind
        self.port = self.rec = self.data = self.leg = self.drop = self.alt = None
        self.rule_key = self.redirect = None
        self.fcoe = False      # looked up in the flow table
        self.key = None        # its (vlan, s_id, d_id)
        self.removed = ()      # rule keys gone after this frame (logins)
        self.may_drop = False  # loose: may be dropped as not ready
        self.held = False      # a fabric login frame: sent once applied
        self.series = False    # came with the mark: plain, no rule


def port_files(specs):
    out = {}
    for s in specs or []:
        p, files = s.split("=", 1)
        out[int(p)] = [x for x in files.split(",") if x]
    return out


def els_ids(pl, r_ctl, subst):
    """An ELS payload on a redirect leg with the old N_Port's identities
    (FCID, WWPN) replaced by the new one's wherever FC-LS puts them
    (docs/fcoe.md, "Identities inside payloads")."""
    fold, fnew, wold, wnew, nold, nnew = subst
    o = bytearray(pl)
    n = len(o)

    def fcid(off):
        if off + 3 <= n and be24(o, off) == fold:
            o[off:off + 3] = fnew.to_bytes(3, "big")
            return True
        return False

    def wwpn(off, node_off=None):
        if wold and off + 8 <= n and int.from_bytes(o[off:off + 8], "big") == wold:
            o[off:off + 8] = wnew.to_bytes(8, "big")
            # the node name beside it, when both are known
            if node_off is not None and nold and nnew and node_off + 8 <= n and \
                    int.from_bytes(o[node_off:node_off + 8], "big") == nold:
                o[node_off:node_off + 8] = nnew.to_bytes(8, "big")
            return True
        return False

    def pages(size):
        end = min(int.from_bytes(o[2:4], "big"), n)
        for off in range(4, end - size + 1, size):
            if o[off + 2] & 0x20:
                fcid(off + 13)

    if n < 4:
        return pl
    if r_ctl == 0x22:
        cmd = o[0]
        if cmd in (ELS_PLOGI, 0x50):
            wwpn(20, 28)
        elif cmd == 0x52:
            wwpn(8, 16)
            fcid(25)
        elif cmd == ELS_LOGO:
            fcid(5)
            wwpn(8)
        elif cmd in (0x12, 0x13, 0x06, 0x08, 0x0F):
            fcid(5)
        elif cmd in (0x54, 0x55):          # FARP-REQ, FARP-REPLY
            fcid(5)
            fcid(9)
            wwpn(12, 20)
            wwpn(28, 36)
        elif cmd == 0x24 and o[1] == 16:   # TPRLO: third party originators
            pages(16)
    elif r_ctl == 0x23 and o[0] == ELS_LS_ACC:
        if n >= 116:
            wwpn(20, 28)
        elif n == 28:
            if wwpn(8, 16):
                fcid(25)
        elif o[1] == 16:                   # a TPRLO's (or PRLI's) pages
            pages(16)
        elif n >= 24 and o[5] == 16 and wwpn(8, 16):
            pass                           # RNID's common identification data
        elif n >= 24:
            fcid(9)
            fcid(13)
    return bytes(o)


def rewrite_bytes(b, f, port_mac, dst_mac, s_id, d_id, subst=None):
    o = bytearray(b)
    o[0:6] = dst_mac
    o[6:12] = port_mac
    if f is not None and (s_id != f.s_id or d_id != f.d_id):
        fc = f.fc_off
        old = zlib.crc32(bytes(o[fc:fc + f.fc_len])) & 0xFFFFFFFF
        o[fc + 1:fc + 4] = d_id.to_bytes(3, "big")
        o[fc + 5:fc + 8] = s_id.to_bytes(3, "big")
        o[fc - 14 + MARK_OFF] |= MARK
        if subst is not None and f.type == 0x01 and f.payload:
            o[fc + 24:fc + 24 + len(f.payload)] = els_ids(f.payload, f.r_ctl, subst)
        new = zlib.crc32(bytes(o[fc:fc + f.fc_len])) & 0xFFFFFFFF
        struct.pack_into("<I", o, len(o) - 8, f.crc_stored ^ old ^ new)
    return bytes(o)


def rewrite_rec(rec, port_mac, dst_mac, s_id, d_id):
    r = list(rec)
    r[F["eth.src"]] = mac_text(port_mac)
    r[F["eth.dst"]] = mac_text(dst_mac)
    if s_id is not None:
        r[F["fc.s_id"]] = fcid_dotted(s_id)
        r[F["fc.d_id"]] = fcid_dotted(d_id)
    return tuple(r)


def run_model(args, rep):
    frames = read_pcap(args.pcap)
    inrecs = records(args.pcap, frames)
    kinds = []
    if args.list is None:
        # not fcoe-gen's capture (another node's output): no frame malformed
        kinds = ["frame"] * len(frames)
    else:
        with open(args.list) as fl:
            for ln in fl:
                w = ln.split()
                if w:
                    kinds.append(w[1])
    rep.check("the input: pcap, tshark and --list agree on the frames")
    if not rep.expect(len(frames) == len(inrecs) == len(kinds),
                      "%d input frames" % len(frames),
                      "pcap has %d frames, tshark reads %d, the list %d"
                      % (len(frames), len(inrecs), len(kinds))):
        return None

    st, redirect_lines, binding_lines, macs, nports = parse_log(args.log)
    if nports is None:
        nports = args.ports
    for p in range(nports):
        macs.setdefault(p, bytes([0x02, 0x70, 0x63, 0x61, 0x70, p]))
    peer = {}
    if args.passthrough:
        for pair in args.passthrough.split(","):
            a, b = (int(x) for x in pair.split(":"))
            peer[a], peer[b] = b, a
    else:
        for p in range(32):
            peer[p] = p ^ 1

    fabric = set(int(x) for x in args.fabric_ports.split(",")) if args.fabric_ports else set()
    series = set(int(x) for x in args.series_ports.split(",")) if args.series_ports else set()
    edge = bool(fabric) and args.in_port not in fabric
    m = Model(learn=args.bindings in ("both", "logins"), fabric=fabric, fc_map=args.fc_map)
    with open(args.commands) as fc:
        for ln in fc:
            if ln.strip() in ("start",):
                break
            m.command(ln, use_bindings=args.bindings in ("both", "commands"))
    m.changes = 0
    initial_rules = dict(m.rules)
    activated = {}     # redirect index -> input frame whose login completed it

    def loops(hop):
        """A frame in on a fabric port is never sent back out of it (the
        FCF would send it straight back): dropped as fabric_loop."""
        return hop is not None and hop[0] == args.in_port and args.in_port in fabric

    def egress_macs(b, hop, s_in, s_id, d_id):
        """(source, destination) MACs of a frame leaving by route hop
        (docs/trust.md: a fabric's MACs)."""
        dst = hop[1] if hop[1] is not None else m.fpma(d_id)
        if not fabric:
            return macs[hop[0]], dst
        from_fabric = args.in_port in fabric
        if hop[0] not in fabric:
            # the FCF's MAC, as the ENode addressed it or the FCF sent it
            return (b[6:12] if from_fabric else b[0:6]), dst
        return (b[6:12] if s_id == s_in else m.fpma(s_id)), b[0:6]

    exp = []
    parse_disagree = []
    for i, b in enumerate(frames):
        e = Expect(i + 1, kinds[i])
        reason, f = parse(b)
        want = kinds[i][len("malformed_"):] if kinds[i].startswith("malformed_") else None
        if want is not None and want != reason or want is None and reason not in ("ok", "not_fcoe"):
            parse_disagree.append("frame %d: the list says %s, the parser model says %s"
                                  % (i + 1, kinds[i], reason))
        lg = None
        if reason == "not_fcoe":
            if f.ethertype == ET_FIP and fabric:
                lg = snoop_fip(b, f)
            out = peer.get(args.in_port)
            if out is None or out >= nports:
                e.drop = "no_passthrough"
            else:
                e.port, e.leg = out, "passthrough"
                e.rec, e.data = inrecs[i], b
        elif reason != "ok":
            e.drop = reason
        elif f.mark and args.in_port not in fabric | series:
            e.drop = "mark_untrusted"
        elif edge and not m.allows(f.vlan, f.s_id, f.d_id, b[6:12], args.in_port):
            e.drop = "not_logged_in"
        else:
            # fabric login frames only, and only with fabric ports; none
            # with the mark (rewritten upstream: it teaches nothing)
            if f.type == 0x01 and fabric and FFFFFE in (f.s_id, f.d_id) and not f.mark:
                lg = snoop_fcoe(b, f)
            key = (f.vlan, f.s_id, f.d_id)
            # the mark: not looked up, so no rule, hidden pair or block
            e.fcoe, e.key, e.series = not f.mark, key, f.mark
            rule = None if f.mark else m.rules.get(key)
            s_id, d_id, leg = (rule[0], rule[1], LEGS[rule[2]]) if rule else (f.s_id, f.d_id, "plain")
            if rule:
                e.rule_key, e.redirect = key, rule[3]
                # the pair's legs: dropped while only host and target are learned
                e.may_drop = rule[2] in (1, 3)
            hop = m.egress(f.vlan, d_id, args.in_port in fabric or rule is not None or f.mark)
            if key in m.hidden and not f.mark:
                e.drop = "redirect_hidden"
            elif key in m.blocks and not f.mark:
                e.drop, e.rule_key, e.redirect = NOT_READY, key, m.blocks[key]
                if hop is not None and hop[0] < nports and not loops(hop):
                    src, dst = egress_macs(b, hop, f.s_id, s_id, d_id)
                    # what it is if the pair is not learned yet
                    e.alt = (hop[0], rewrite_rec(inrecs[i], src, dst, s_id, d_id),
                             rewrite_bytes(b, f, src, dst, s_id, d_id))
            elif hop is None:
                e.drop = "no_route"
            elif hop[0] >= nports:
                e.drop = "no_port"
            elif loops(hop):
                e.drop = "fabric_loop"
            else:
                port = hop[0]
                src, dst = egress_macs(b, hop, f.s_id, s_id, d_id)
                e.port, e.leg = port, leg
                e.rec = rewrite_rec(inrecs[i], src, dst, s_id, d_id)
                e.data = rewrite_bytes(b, f, src, dst, s_id, d_id,
                                       m.leg_subst(rule, f) if rule else None)
                if rule:
                    # what it is if the rule is not there yet
                    phop = m.egress(f.vlan, f.d_id, args.in_port in fabric)
                    if phop is not None and phop[0] < nports and not loops(phop):
                        psrc, pdst = egress_macs(b, phop, f.s_id, f.s_id, f.d_id)
                        e.alt = (phop[0], rewrite_rec(inrecs[i], psrc, pdst, f.s_id, f.d_id),
                                 rewrite_bytes(b, f, psrc, pdst, f.s_id, f.d_id))
        # the login server's reply to an FCID with no VN_Port hop yet (a
        # login's accept): sent once applied where the login bound it, else
        # as routed, never back into the fabric port; as the FCF addressed it
        reply_wait = (lg is not None and reason == "ok" and args.in_port in fabric
                      and f.s_id == FFFFFE and not m.vn_hop(f.vlan, f.d_id))
        routed = e.port if e.drop is None else None
        if lg is not None:
            # held until the tables lcore applied it: sent, but maybe later
            e.held = e.port is not None
            before = m.rules
            blocked = m.blocks
            m.login(lg, args.in_port)
            if reply_wait:
                vp = m.vn.get((f.vlan, f.d_id), (None, None))[0] \
                    if lg.kind == "acc" and lg.wwpn is not None else None
                port = vp if vp is not None and vp != args.in_port else routed
                if port is None:
                    e.drop, e.port = "login_refused", None
                else:
                    e.drop, e.port, e.leg = None, port, "plain"
                    e.rec, e.data = inrecs[i], b
                e.held = e.port is not None
            if m.rules is not before:
                e.removed = [k for k in list(before) + list(blocked)
                             if k not in m.rules and k not in m.blocks]
                now = set(v[3] for v in m.rules.values())
                for ri in now - set(v[3] for v in before.values()):
                    activated.setdefault(ri, i + 1)
        exp.append(e)

    rep.check("every malformed_<reason> frame of the list is that reason to a parser "
              "following docs/counters.md's order, and no other frame is malformed")
    rep.expect(not parse_disagree,
               "%d malformed frames, all named alike" % sum(1 for k in kinds if k.startswith("malformed_")),
               "%d frames where the list and the parser model disagree" % len(parse_disagree),
               parse_disagree[:5])
    return dict(frames=frames, exp=exp, model=m, st=st, redirect_lines=redirect_lines,
                binding_lines=binding_lines, macs=macs, nports=nports,
                initial_rules=initial_rules, activated=activated)


# ---------------------------------------------------------------- comparisons

def load_outputs(outs, nports):
    got = {}
    for p in range(nports):
        recs, datas = [], []
        for path in outs.get(p, []):
            if not os.path.exists(path):
                die("output capture %s of port %d does not exist" % (path, p))
            fr = read_pcap(path)
            rc = records(path, fr)
            if len(fr) != len(rc):
                die("%s: pcap has %d frames, tshark reads %d" % (path, len(fr), len(rc)))
            recs += rc
            datas += fr
        got[p] = list(zip(recs, datas))
    return got


def show(rec):
    """A record as a short line: what tshark says of it."""
    return "len %s %s -> %s vlan %s %s -> %s ox %s r_ctl %s seq %s par %s crc %s" % (
        rec[F["frame.len"]], rec[F["eth.src"]], rec[F["eth.dst"]], rec[F["vlan.id"]] or "-",
        rec[F["fc.s_id"]] or "-", rec[F["fc.d_id"]] or "-", rec[F["fc.ox_id"]] or "-",
        rec[F["fc.r_ctl"]] or "-", rec[F["fc.seq_cnt"]] or "-", rec[F["fc.parameter"]] or "-",
        rec[F["fcoe.crc.status"]] or "-")


def first_diff(a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return i
    return min(len(a), len(b))


def compare_ordered(rep, port, want, got):
    """want: [Expect]; got: [(rec, bytes)]. Returns the first differences,
    aligned as diff does (missing, extra, changed frames)."""
    wk = [(rec_key(e.rec), e.data) for e in want]
    gk = [(rec_key(r), d) for r, d in got]
    if wk == gk:
        return []
    bad = []

    def changed(i, j):
        w, g = want[i], got[j]
        if rec_key(w.rec) != rec_key(g[0]):
            bad.append("port %d frame %d (input frame %d %s) differs:" % (port, j + 1, w.no, w.kind))
            bad.append("    want %s" % show(w.rec))
            bad.append("    got  %s" % show(g[0]))
        else:
            bad.append("port %d frame %d (input frame %d %s): tshark agrees, the bytes differ "
                       "from offset %d (of %d)" % (port, j + 1, w.no, w.kind,
                                                   first_diff(w.data, g[1]), len(g[1])))

    if len(wk) + len(gk) > 400000:
        ops = [("replace", 0, len(wk), 0, len(gk))]
    else:
        ops = difflib.SequenceMatcher(None, wk, gk, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        n = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for k in range(n):
            if wk[i1 + k] != gk[j1 + k]:
                changed(i1 + k, j1 + k)
            if len(bad) >= 12:
                return bad
        for i in range(i1 + n, i2):
            w = want[i]
            bad.append("port %d: missing after frame %d: input frame %d %s: %s"
                       % (port, j1 + n, w.no, w.kind, show(w.rec)))
            if len(bad) >= 12:
                return bad
        for j in range(j1 + n, j2):
            bad.append("port %d frame %d: extra: %s" % (port, j + 1, show(got[j][0])))
            if len(bad) >= 12:
                return bad
    return bad


def compare_multiset(want_pairs, got_pairs):
    cw = collections.Counter((rec_key(r), d) for r, d in want_pairs)
    cg = collections.Counter((rec_key(r), d) for r, d in got_pairs)
    missing = cw - cg
    extra = cg - cw
    return missing, extra


def matching_loose(exp, got, nports):
    """One worker, learning maybe late: each frame is its rewritten self,
    (alt) its plain self, or, for the pair's frames, dropped as not ready.
    Matched in input order against each port's queue. A pair frame whose
    plain self is at the head may still have been dropped: a VI -> target
    frame rewritten to the host's S_ID is byte for byte the host's plain
    frame. So each such choice is a choice point: when the matching fails
    further on, it goes back to the last one and takes the drop instead
    (bounded). Returns (late, early, bad): the frames that went plain
    instead of rewritten or dropped, the frames dropped instead of
    rewritten."""
    frames = [e for e in exp if e.port is not None or e.alt is not None]
    ptr = {p: 0 for p in range(nports)}
    how = [None] * len(frames)   # "expected", "plain", "drop"
    choices = []                 # (i, ptr copy): plain taken, drop untried
    i = steps = 0
    first_bad = None

    def at_head(port, rec, data):
        q = got[port]
        return ptr[port] < len(q) and rec_key(q[ptr[port]][0]) == rec_key(rec) and \
            q[ptr[port]][1] == data

    while i < len(frames):
        steps += 1
        e = frames[i]
        droppable = e.drop == NOT_READY or e.may_drop
        if e.port is not None and at_head(e.port, e.rec, e.data):
            ptr[e.port] += 1
            how[i] = "expected"
        elif e.alt is not None and at_head(e.alt[0], e.alt[1], e.alt[2]):
            if droppable and steps < 200000:
                choices.append((i, dict(ptr)))
            ptr[e.alt[0]] += 1
            how[i] = "plain"
        elif droppable:
            how[i] = "drop"
        else:
            if first_bad is None:
                first_bad = (e, dict(ptr))
            if choices and steps < 200000:
                i, saved = choices.pop()
                ptr.clear()
                ptr.update(saved)
                how[i] = "drop"
                i += 1
                continue
            e, at = first_bad
            bad = ["input frame %d %s: neither rewritten nor plain at the head of its port"
                   % (e.no, e.kind),
                   "    rewritten: port %d %s" % (e.port, show(e.rec))]
            if e.alt:
                bad.append("    plain:     port %d %s" % (e.alt[0], show(e.alt[1])))
            q = got[e.port]
            bad.append("    port %d has: %s" % (e.port, show(q[at[e.port]][0])
                                                if at[e.port] < len(q) else "nothing more"))
            return [], [], bad
        i += 1
    late = [e for e, h in zip(frames, how) if h == "plain"]
    early = [e for e, h in zip(frames, how) if h == "drop" and e.drop != NOT_READY]
    bad = []
    for p in range(nports):
        if ptr[p] != len(got[p]):
            bad.append("port %d: %d frames more than the input explains, first: %s"
                       % (p, len(got[p]) - ptr[p], show(got[p][ptr[p]][0])))
    return late, early, bad


# ---------------------------------------------------------------- check

def cmd_check(args):
    rep = Report(args.name)
    r = run_model(args, rep)
    if r is None:
        return rep.end()
    exp, m, st, nports = r["exp"], r["model"], r["st"], r["nports"]
    outs = port_files(args.out)
    got = load_outputs(outs, nports)

    # fabric login frames wait for the tables lcore: on their port, but not in
    # input order; taken out here and checked as a multiset
    rep.check("held fabric login frames: each sent on its port, as it came or with its MACs")
    missing_held = []
    nheld = 0
    held_on = collections.Counter()
    for p in range(nports):
        hw = collections.Counter((rec_key(e.rec), e.data) for e in exp if e.held and e.port == p)
        nheld += sum(hw.values())
        held_on[p] = sum(hw.values())
        rest = []
        for rec, data in got[p]:
            k = (rec_key(rec), data)
            if hw[k] > 0:
                hw[k] -= 1
            else:
                rest.append((rec, data))
        got[p] = rest
        missing_held += ["port %d: missing %s" % (p, show(("",) + k[0])) for k, n in hw.items() if n > 0]
    rep.expect(not missing_held, "%d held login frames, all sent" % nheld,
               "%d held login frames not sent" % len(missing_held), missing_held[:5])
    exp_all = exp
    exp = [e for e in exp if not e.held]

    want_by_port = collections.defaultdict(list)
    for e in exp:
        if e.port is not None:
            want_by_port[e.port].append(e)

    late = []
    early = []
    if args.timing == "loose":
        rep.check("every frame comes out rewritten, or plain when its rule was not there yet, "
                  "or dropped as not ready when only the pair was learned, "
                  "on the port of its final D_ID, in input order per port")
        late, early, bad = matching_loose(exp, got, nports)
        rep.expect(not bad, "%d frames accounted for, %d of them plain for want of a rule, "
                   "%d dropped as not ready" % (sum(len(got[p]) for p in got), len(late), len(early)),
                   "the outputs do not follow the input", bad[:14])
        late_ids = set(id(e) for e in late) | set(id(e) for e in early)
        keys_rewritten = set()
        after = 0
        for e in exp:
            if e.rule_key is None:
                continue
            if id(e) in late_ids:
                if e.rule_key in keys_rewritten:
                    after += 1
            elif e.port is not None:
                keys_rewritten.add(e.rule_key)
        rep.check("once a flow's frames are rewritten, none of its later frames goes plain "
                  "or is dropped as not ready")
        rep.expect(after == 0, "no plain or dropped frame after a rewritten one of the same flow",
                   "%d frames plain or dropped after their flow was already rewritten" % after)
    else:
        for p in range(nports):
            want = want_by_port.get(p, [])
            if args.multiset:
                rep.check("port %d: the frames expected, as a multiset (%d output file(s))"
                          % (p, len(outs.get(p, []))))
                missing, extra = compare_multiset([(e.rec, e.data) for e in want], got[p])
                det = []
                for (k, d), n in list(missing.items())[:5]:
                    det.append("missing x%d: %s" % (n, show(("",) + k)))
                for (k, d), n in list(extra.items())[:5]:
                    det.append("extra   x%d: %s" % (n, show(("",) + k)))
                rep.expect(not missing and not extra, "port %d: %d frames, none missing, none extra"
                           % (p, len(got[p])),
                           "port %d: %d missing, %d extra (of %d expected, %d sent)"
                           % (p, sum(missing.values()), sum(extra.values()), len(want), len(got[p])), det)
            else:
                rep.check("port %d: every frame expected, in input order, tshark's fields and the bytes"
                          % p)
                bad = compare_ordered(rep, p, want, got[p])
                rep.expect(not bad, "port %d: %d frames as expected" % (p, len(want)),
                           "port %d: %d frames expected, %d sent; first differences:"
                           % (p, len(want), len(got[p])), bad)

    # CRC: good unless it came bad
    rep.check("FC CRC (tshark): good on every FCoE frame sent, except the ones that came bad, "
              "which stay bad")
    bad_in = sum(1 for e in exp if e.port is not None and e.rec[F["fcoe.crc.status"]] == "0")
    n_fcoe = 0
    for p in range(nports):
        for rec, _ in got[p]:
            crc = rec[F["fcoe.crc.status"]]
            if crc == "":
                continue
            n_fcoe += 1
    bad_out = sum(1 for p in range(nports) for rec, _ in got[p] if rec[F["fcoe.crc.status"]] == "0")
    rep.expect(bad_out == bad_in, "%d FCoE frames out, %d with a bad CRC as they came in"
               % (n_fcoe, bad_out),
               "%d frames out with a bad CRC, %d came in bad" % (bad_out, bad_in))
    if args.expect_bad_crc is not None:
        rep.expect(bad_in == args.expect_bad_crc, "the %d bad-CRC frames of the input were all sent"
                   % bad_in, "%d bad-CRC frames sent, %d expected" % (bad_in, args.expect_bad_crc))

    # ------------------------------------------------ the program's report
    if st is None:
        rep.ko("no `show fwd stats` in %s" % args.log)
        return rep.end()
    legs = collections.Counter()
    drops = collections.Counter()
    tx = collections.Counter()
    for e in exp_all:
        if e.drop:
            drops[e.drop] += 1
        elif e.port is not None:
            tx[e.port] += 1
            legs[e.leg] += 1
    for e in late:
        if e.drop == NOT_READY:
            drops[NOT_READY] -= 1
        else:
            legs[e.leg] -= 1
            tx[e.port] -= 1
        legs["plain"] += 1
        tx[e.alt[0]] += 1
    for e in early:
        legs[e.leg] -= 1
        tx[e.port] -= 1
        drops[NOT_READY] += 1
    nframes = len(exp_all)

    rep.check("show fwd stats: rx == tx + dropped, and the program says so")
    t = st.get("total", (0, 0, 0))
    rep.expect(t[0] == t[1] + t[2] and st.get("balance") == "==",
               "rx %d == tx %d + dropped %d" % t,
               "rx %d, tx %d, dropped %d, the program prints '%s'" % (t + (st.get("balance"),)))
    rep.check("show fwd stats: rx of port %d is the input, tx per port is what the captures hold"
              % args.in_port)
    det = []
    okp = st["rx"].get(args.in_port) == nframes and t[0] == nframes
    for p in range(nports):
        if st["tx"].get(p) != tx[p] or st["tx"].get(p) != len(got[p]) + held_on[p]:
            okp = False
            det.append("port %d: tx %s, expected %d, the capture has %d"
                       % (p, st["tx"].get(p), tx[p], len(got[p])))
    rep.expect(okp, "rx %d; tx %s" % (nframes, " ".join("%d:%d" % (p, tx[p]) for p in range(nports))),
               "rx %s (input %d), tx per port:" % (st["rx"].get(args.in_port), nframes), det)

    rep.check("show fwd stats: frames by kind (plain, the four legs, passthrough)")
    det = []
    for k in LEGS + ["passthrough"]:
        if st["kind"].get(k, 0) != legs[k]:
            det.append("%s: %s, expected %d" % (k, st["kind"].get(k), legs[k]))
    rep.expect(not det, " ".join("%s %d" % (k, legs[k]) for k in LEGS + ["passthrough"]),
               "frames by kind differ", det)

    rep.check("show fwd stats: series counts the frames that came with the mark, sent plain")
    want_series = sum(1 for e in exp_all if e.series and e.port is not None)
    rep.expect(st["kind"].get("series") == want_series, "series %d" % want_series,
               "series %s, expected %d" % (st["kind"].get("series"), want_series))

    rep.check("show fwd stats: drops by reason")
    det = []
    for k in set(drops) | set(st["drop"]):
        if st["drop"].get(k, 0) != drops[k] and (k in st["drop"] or drops[k] != 0):
            det.append("%s: %s, expected %d" % (k, st["drop"].get(k, 0), drops[k]))
    rep.expect(not det, ("dropped: " + " ".join("%s %d" % kv for kv in sorted(drops.items())))
               if drops else "no drop", "drops differ", det)

    # flow_miss: the first frames of each flow without an entry
    lower, upper = flow_miss_bounds(exp_all, r["initial_rules"], late)
    fm = st["kind"].get("flow_miss", -1)
    rep.check("show fwd stats: flow_miss at least the plain flows' first frames (%d)" % lower)
    rep.expect(lower <= fm, "flow_miss %d >= %d" % (fm, lower),
               "flow_miss %d < %d" % (fm, lower))
    rep.check("show fwd stats: flow_miss counts plain frames sent only (docs/counters.md: Frames by kind), "
              "at most %d" % upper)
    rep.expect(fm <= upper, "flow_miss %d <= %d" % (fm, upper),
               "flow_miss %d > %d plain frames: frames dropped after the lookup (%s) are "
               "counted as flow misses" % (fm, upper, ", ".join(
                   "%s %d" % (k, drops[k]) for k in ("no_route", "no_port", "fabric_loop") if drops[k]) or "none"))

    w = st["tables"]
    rep.check("tables lcore: no event lost, LOGOs applied, every fabric accept matched")
    det = []
    if w.get("events_lost", 0) != 0:
        det.append("events_lost %d" % w["events_lost"])
    if m.learn and w.get("logouts") != m.logouts:
        det.append("logouts %s, expected %d" % (w.get("logouts"), m.logouts))
    if m.learn and (w.get("logins_static_kept") != m.static_kept or
                    w.get("logins_untrusted") != m.untrusted):
        det.append("logins_static_kept %s, logins_untrusted %s, expected %d, %d"
                   % (w.get("logins_static_kept"), w.get("logins_untrusted"),
                      m.static_kept, m.untrusted))
    if m.learn and w.get("acc_unmatched") != m.acc_unmatched:
        det.append("acc_unmatched %s, expected %d (every fabric login accept in the capture "
                   "follows its request; a LOGO's accept is no fabric login's)"
                   % (w.get("acc_unmatched"), m.acc_unmatched))
    rep.expect(not det, "events_lost 0, logouts %s, acc_unmatched %s"
               % (w.get("logouts"), w.get("acc_unmatched")), "tables lcore counters differ", det)

    # redirects
    rep.check("redirect list: each redirect active or waiting as its bindings say")
    rl = r["redirect_lines"]
    det = []
    before = {}
    not_ready = {}
    if rl is None:
        det.append("no `redirect list` output")
    else:
        seen = {}
        for ln in rl:
            mm = re.match(r"redirect vlan (\d+) host (\S+) target (\S+) vi (\S+) vt (\S+) (\w+).*before_rule (\d+)", ln)
            if not mm:
                det.append("cannot read: " + ln)
                continue
            key = (int(mm.group(1)), parse_wwpn(mm.group(2)), parse_wwpn(mm.group(3)))
            seen[key] = mm.group(6)
            before[key] = int(mm.group(7))
            nr = re.search(r" not_ready (\d+)$", ln)
            not_ready[key] = int(nr.group(1)) if nr else None
        for i, red in enumerate(m.redirects):
            key = tuple(red[:3])
            want = "active" if m.active(i) else "waiting"
            if seen.get(key) != want:
                det.append("vlan %d host %s target %s: %s, expected %s"
                           % (key[0], wwpn_text(key[1]), wwpn_text(key[2]), seen.get(key), want))
        if len(seen) != len(m.redirects):
            det.append("%d redirects listed, %d configured" % (len(seen), len(m.redirects)))
    nact = sum(1 for i in range(len(m.redirects)) if m.active(i))
    rep.expect(not det, "%d redirects, %d active" % (len(m.redirects), nact),
               "redirect list differs", det)

    rep.check("redirect list: not_ready counts the frames of each redirect dropped while it "
              "was not active")
    late_ids = set(id(e) for e in late)
    want_nr = collections.Counter()
    for e in exp:
        if e.drop == NOT_READY and id(e) not in late_ids:
            want_nr[tuple(m.redirects[e.redirect][:3])] += 1
    for e in early:
        want_nr[tuple(m.redirects[e.redirect][:3])] += 1
    det = ["host %s: not_ready %s, expected %d" % (wwpn_text(k[1]), not_ready.get(k), want_nr[k])
           for k in sorted(set(want_nr) | set(not_ready)) if not_ready.get(k) != want_nr[k]]
    if args.timing == "loose":
        # a VI -> target frame rewritten to the host's S_ID is byte for byte
        # the host's plain frame: which redirect's frame was the one dropped
        # can be told only in sum
        got_nr = sum(v or 0 for v in not_ready.values())
        det = [] if got_nr == sum(want_nr.values()) else \
            ["not_ready %d in all, expected %d" % (got_nr, sum(want_nr.values()))]
    rep.expect(not det, "not_ready %d in all" % sum(want_nr.values()),
               "not_ready differs", det)

    rep.check("redirect list: before_rule counts the frames of each redirect that went plain "
              "before its rule")
    late_by = collections.Counter()
    for e in late:
        red = m.redirects[e.redirect]
        late_by[tuple(red[:3])] += 1
    det = []
    total_before = sum(before.values())
    if args.timing == "loose":
        for key in set(late_by) | set(before):
            if before.get(key, 0) > late_by[key]:
                det.append("host %s: before_rule %d but only %d frames went plain"
                           % (wwpn_text(key[1]), before.get(key, 0), late_by[key]))
        missed = sum(late_by.values()) - total_before
        if missed > max(fm, 0):
            det.append("%d plain frames neither in before_rule nor in flow_miss (%d)" % (missed, fm))
        rep.expect(not det, "%d frames went plain before their rule: %d counted in before_rule, "
                   "the other %d found no flow entry (flow_miss %d)"
                   % (sum(late_by.values()), total_before, sum(late_by.values()) - total_before, fm),
                   "before_rule does not account for the plain frames", det)
        rep.check("redirect list: before_rule of each redirect is the number of its frames that "
                  "went plain before its rules (docs/commands.md: redirect list)")
        det = ["host %s: before_rule %d, %d frames went plain"
               % (wwpn_text(k[1]), before.get(k, 0), late_by[k])
               for k in sorted(set(late_by) | set(before)) if before.get(k, 0) != late_by[k]]
        rep.expect(not det, "before_rule exact: %d in all" % total_before,
                   "before_rule misses the frames that found no flow entry at all", det)
    else:
        rep.expect(total_before == 0, "before_rule 0 everywhere: every rule came before its frames",
                   "before_rule %d: %s" % (total_before, ", ".join(
                       "host %s %d" % (wwpn_text(k[1]), v) for k, v in before.items() if v)))

    rep.check("binding list: the bindings the model ends with")
    bl = r["binding_lines"]
    if bl is None:
        rep.ko("no `binding list` output")
    else:
        listed = {}
        for ln in bl:
            mm = re.match(r"binding vlan (\d+) wwpn (\S+) fcid (\S+)", ln)
            if mm:
                listed[(int(mm.group(1)), parse_wwpn(mm.group(2)))] = parse_fcid(mm.group(3))
        want = dict(m.bind) if args.bindings != "commands" else None
        if want is None:
            rep.ok("not checked with --bindings commands (learning is not modelled)")
        else:
            det = []
            for k in set(want) | set(listed):
                if want.get(k) != listed.get(k):
                    det.append("vlan %d wwpn %s: listed %s, expected %s" % (
                        k[0], wwpn_text(k[1]),
                        fcid_dotted(listed[k]) if k in listed else "none",
                        fcid_dotted(want[k]) if k in want else "none"))
            rep.expect(not det, "%d bindings" % len(want), "bindings differ", det[:8])

    if args.summary:
        # learning latency: per redirect, the input frame whose login completed
        # it, its last frame that went plain and its first rewritten one
        with open(args.summary, "w") as sf:
            sf.write("late %d\nbefore_rule %d\nflow_miss %d\n" % (len(late), total_before, fm))
            late_ids = set(id(e) for e in late)
            for ri, at in sorted(r["activated"].items()):
                mine = [e for e in exp if e.redirect == ri and e.port is not None]
                lt = [e.no for e in mine if id(e) in late_ids]
                rw = [e.no for e in mine if id(e) not in late_ids]
                sf.write("redirect %d host %s: bound at input frame %d; %d frames plain (last %s), "
                         "first rewritten %s\n" % (ri, wwpn_text(m.redirects[ri][1]), at, len(lt),
                                                   lt[-1] if lt else "-", rw[0] if rw else "-"))
    return rep.end()


def flow_miss_bounds(exp, initial_rules, late):
    """flow_miss counts the plain frames sent with no flow entry yet. Lower
    bound: a run of frames on a key with no entry starts with a miss (the
    tables lcore then adds a plain entry: assumed at once); a rule brings its entry,
    a rule removed takes it away; a dropped frame's miss may add the entry
    too, so a run that starts with a drop proves nothing. Upper bound: every
    plain frame sent."""
    late_set = set(id(e) for e in late)
    entry = set(initial_rules)
    lower = upper = 0
    for e in exp:
        if e.fcoe:
            if e.rule_key is not None and id(e) not in late_set:
                entry.add(e.key)
            elif e.key not in entry:
                if e.port is not None:
                    lower += 1
                entry.add(e.key)
            if e.port is not None and (e.rule_key is None or id(e) in late_set):
                upper += 1
        for k in e.removed:
            entry.discard(k)
    return lower, upper


# ---------------------------------------------------------------- compare, split

def cmd_compare(args):
    rep = Report(args.name)
    a, b = port_files(args.a), port_files(args.b)
    ports = sorted(set(a) | set(b))
    for p in ports:
        rep.check("port %d: the same frames in both runs (as multisets)" % p)
        ga = load_outputs({p: a.get(p, [])}, p + 1)[p]
        gb = load_outputs({p: b.get(p, [])}, p + 1)[p]
        missing, extra = compare_multiset(ga, gb)
        det = ["only in the first x%d: %s" % (n, show(("",) + k)) for (k, d), n in list(missing.items())[:4]]
        det += ["only in the second x%d: %s" % (n, show(("",) + k)) for (k, d), n in list(extra.items())[:4]]
        rep.expect(not missing and not extra, "port %d: %d frames in both" % (p, len(ga)),
                   "port %d: %d frames only in the first run, %d only in the second"
                   % (p, sum(missing.values()), sum(extra.values())), det)
    return rep.end()


def cmd_split(args):
    frames = read_pcap(args.input)
    outs = [[] for _ in args.outputs]
    rr = 0
    for b in frames:
        if is_filler(b):
            # no flow: round robin, so every queue gets its share of a gap
            outs[rr % len(outs)].append(b)
            rr += 1
            continue
        reason, f = parse(b)
        if reason == "ok":
            key = b"%d.%d.%d" % (f.vlan, f.s_id, f.d_id)
        else:
            key = b[6:12]
        outs[zlib.crc32(key) % len(outs)].append(b)
    for path, fr in zip(args.outputs, outs):
        write_pcap(path, fr)
    print("dp_check split: %s" % ", ".join("%s %d" % (os.path.basename(p), len(fr))
                                          for p, fr in zip(args.outputs, outs)))
    return 0


def cmd_phases(args):
    """The capture in phases: a phase ends after each run of fcoe-gen's
    --login-gap frames, so a test replays the next only once what the one
    before taught the program is applied (a state, not a gap's length)."""
    frames = read_pcap(args.input)
    phases, cur, in_gap = [], [], False
    for b in frames:
        filler = is_filler(b)
        if in_gap and not filler:
            phases.append(cur)
            cur = []
        cur.append(b)
        in_gap = filler
    if cur:
        phases.append(cur)
    for i, fr in enumerate(phases, 1):
        write_pcap("%s.%d.pcap" % (args.prefix, i), fr)
    print("dp_check phases: %d phases: %s" % (len(phases), " ".join(str(len(fr)) for fr in phases)))
    return 0


def cmd_cat(args):
    """One capture of several, in order (a port's output over phases)."""
    frames = []
    for path in args.inputs:
        frames += read_pcap(path)
    write_pcap(args.output, frames)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="judge one run")
    c.add_argument("--pcap", required=True, help="the capture replayed")
    c.add_argument("--list", help="fcoe-gen's --list of it (none: no frame of the "
                   "capture is malformed)")
    c.add_argument("--commands", required=True, help="the commands the program ran (up to start)")
    c.add_argument("--log", required=True, help="the program's standard output")
    c.add_argument("--out", action="append", required=True, metavar="P=FILE[,FILE]",
                   help="output capture(s) of port P")
    c.add_argument("--bindings", choices=["both", "commands", "logins"], default="both",
                   help="bindings from the commands, from the logins in the capture, or both (default)")
    c.add_argument("--timing", choices=["exact", "loose"], default="exact",
                   help="exact: learned bindings apply before the next frame; loose: a rewritten "
                        "frame may go plain instead (learning late)")
    c.add_argument("--multiset", action="store_true", help="several workers: compare as multisets")
    c.add_argument("--in-port", type=int, default=0, help="the port that received the capture")
    c.add_argument("--fabric-ports", help="P,... as the program's --fabric-ports (learning, the "
                   "edge ACL and held login frames)")
    c.add_argument("--series-ports", help="P,... as the program's --series-ports (frames "
                   "with the mark honoured there too)")
    c.add_argument("--ports", type=int, default=3, help="ports, when the log does not say")
    c.add_argument("--passthrough", help="P:Q,... as the program's --passthrough")
    c.add_argument("--fc-map", type=lambda s: int(s, 0), default=0x0EFC00)
    c.add_argument("--expect-bad-crc", type=int, help="how many bad-CRC frames must be sent")
    c.add_argument("--summary", help="write late/before_rule/flow_miss numbers here")
    c.add_argument("--name", default="", help="prefix of the PASS/FAIL lines")
    c.set_defaults(func=cmd_check)
    c = sub.add_parser("compare", help="two runs sent the same frames")
    c.add_argument("--a", action="append", required=True, metavar="P=FILE[,FILE]")
    c.add_argument("--b", action="append", required=True, metavar="P=FILE[,FILE]")
    c.add_argument("--name", default="")
    c.set_defaults(func=cmd_compare)
    c = sub.add_parser("split", help="deal a capture to several by flow")
    c.add_argument("input")
    c.add_argument("outputs", nargs="+")
    c.set_defaults(func=cmd_split)
    c = sub.add_parser("phases", help="cut a capture after each run of --login-gap frames")
    c.add_argument("input")
    c.add_argument("prefix", help="phase N goes to PREFIX.N.pcap")
    c.set_defaults(func=cmd_phases)
    c = sub.add_parser("cat", help="one capture of several, in order")
    c.add_argument("output")
    c.add_argument("inputs", nargs="+")
    c.set_defaults(func=cmd_cat)
    args = ap.parse_args()
    sys.exit(args.func(args))


if __name__ == "__main__":
    main()
