# SPDX-License-Identifier: BSD-3-Clause
"""
FCoE frames for the live test endpoints (tests/trust_*.py), built and read
from the standards, independently of lib/: FC-BB-5's FCoE encapsulation, the
FC header, ELS FLOGI/PLOGI/LOGO and their accepts, FCP data. Untagged
(VLAN 0); the FC CRC is the IEEE CRC-32 (zlib's) stored least significant
byte first.

Standard library only.
"""

import struct
import zlib

ET_FCOE = 0x8906
SOF_I3, SOF_N3 = 0x2E, 0x36
EOF_N, EOF_T = 0x41, 0x42
FFFFFE = 0xFFFFFE
FC_MAP = 0x0EFC00

ELS_REQ, ELS_REP, FCP_DATA = 0x22, 0x23, 0x01
TYPE_ELS, TYPE_FCP = 0x01, 0x08
LS_ACC, PLOGI, FLOGI, LOGO = 0x02, 0x03, 0x04, 0x05
F_CTL_FIRST = 0x290000   # first sequence of an exchange, end of sequence
F_CTL_REPLY = 0x990000   # exchange responder, last sequence, end of sequence


def mac(s):
    return bytes(int(x, 16) for x in s.split(":"))


def fpma(fcid):
    """FC-MAP || FCID: a VN_Port's MAC."""
    return FC_MAP.to_bytes(3, "big") + fcid.to_bytes(3, "big")


def fcoe(dst, src, r_ctl, d_id, s_id, type_, ox_id, payload, f_ctl=F_CTL_FIRST,
         rx_id=0xFFFF, seq_cnt=0, sof=SOF_I3, eof=EOF_T):
    fill = (-len(payload)) % 4
    fc = struct.pack(">B3sB3sB3sBBHHHI", r_ctl, d_id.to_bytes(3, "big"), 0,
                     s_id.to_bytes(3, "big"), type_, (f_ctl | fill).to_bytes(3, "big"),
                     0, 0, seq_cnt, ox_id, rx_id, 0) + payload + b"\0" * fill
    frame = dst + src + struct.pack(">H", ET_FCOE) + b"\0" * 13 + bytes([sof]) + fc + \
        struct.pack("<I", zlib.crc32(fc) & 0xFFFFFFFF) + bytes([eof, 0, 0, 0])
    return frame + b"\0" * max(0, 60 - len(frame))


def sparm(cmd, wwpn, wwnn):
    """FLOGI/PLOGI/FDISC or their LS_ACC: WWPN at 20, WWNN at 28 (116 bytes)."""
    p = bytearray(116)
    p[0] = cmd
    p[20:28] = wwpn.to_bytes(8, "big")
    p[28:36] = wwnn.to_bytes(8, "big")
    return bytes(p)


def logo(port_id, wwpn):
    return bytes([LOGO, 0, 0, 0, 0]) + port_id.to_bytes(3, "big") + wwpn.to_bytes(8, "big")


def ls_acc_short():
    return bytes([LS_ACC, 0, 0, 0])


def parse(b):
    """(dst, src, r_ctl, d_id, s_id, type, ox_id, payload, crc_good) of an
    untagged FCoE frame, or None."""
    if len(b) < 14 + 14 + 24 + 8 or struct.unpack_from(">H", b, 12)[0] != ET_FCOE:
        return None
    # the frame may carry Ethernet padding after the trailer: find the EOF
    fc_off = 28
    for end in range(len(b), fc_off + 24 + 8 - 1, -1):
        if b[end - 4] in (EOF_N, EOF_T) and b[end - 3:end] == b"\0\0\0":
            fc = b[fc_off:end - 8]
            if len(fc) % 4 == 0 and struct.unpack_from("<I", b, end - 8)[0] == \
                    zlib.crc32(fc) & 0xFFFFFFFF:
                break
    else:
        return None
    r_ctl = b[fc_off]
    d_id = int.from_bytes(b[fc_off + 1:fc_off + 4], "big")
    s_id = int.from_bytes(b[fc_off + 5:fc_off + 8], "big")
    type_ = b[fc_off + 8]
    ox_id = struct.unpack_from(">H", b, fc_off + 16)[0]
    return dict(dst=b[0:6], src=b[6:12], r_ctl=r_ctl, d_id=d_id, s_id=s_id, type=type_,
                ox_id=ox_id, payload=fc[24:])


ET_FIP = 0x8914


def fip_vlan_note(dst, src, fcf_mac, vlans):
    """FIP VLAN notification (FC-BB-5 VLAN discovery) to an ENode: the FCF's
    MAC, then a VLAN descriptor per FCoE VLAN it offers."""
    d = bytes([2, 2]) + fcf_mac
    for v in vlans:
        d += bytes([14, 1]) + struct.pack(">H", v)
    h = struct.pack(">BBHBBHH", 0x10, 0, 0x0004, 0, 0x02, len(d) // 4, 0)
    frame = dst + src + struct.pack(">H", ET_FIP) + h + d
    return frame + b"\0" * max(0, 60 - len(frame))


def fip_cvl(src, fcf_mac, vn_ports, switch_name=0x1000000000000001):
    """FIP Clear Virtual Links (FC-BB-5) to ALL-ENode-MACs: the FCF's MAC and
    name, then a Vx_Port identification per (mac, fcid, wwpn) cleared."""
    d = bytes([2, 2]) + fcf_mac
    d += bytes([4, 3, 0, 0]) + switch_name.to_bytes(8, "big")
    for vmac, fcid, wwpn in vn_ports:
        d += bytes([11, 5]) + vmac + b"\0" + fcid.to_bytes(3, "big") + wwpn.to_bytes(8, "big")
    h = struct.pack(">BBHBBHH", 0x10, 0, 0x0003, 0, 0x02, len(d) // 4, 0)
    frame = mac("01:10:18:01:00:02") + src + struct.pack(">H", ET_FIP) + h + d
    return frame + b"\0" * max(0, 60 - len(frame))


ALL_ENODE_MACS = mac("01:10:18:01:00:01")


def fip_adv(fcf_mac, switch_name, fka_ms, fc_map=FC_MAP, priority=128):
    """FIP discovery advertisement (FC-BB-5), unsolicited, to ALL-ENode-MACs:
    priority, the FCF's MAC, its FC-MAP, switch name and FKA_ADV_Period;
    available for logins, FPMA."""
    d = bytes([1, 1, 0, priority])
    d += bytes([2, 2]) + fcf_mac
    d += bytes([3, 2, 0, 0, 0]) + fc_map.to_bytes(3, "big")
    d += bytes([4, 3, 0, 0]) + switch_name.to_bytes(8, "big")
    d += bytes([12, 2, 0, 0]) + fka_ms.to_bytes(4, "big")
    flags = 0x8000 | 0x0004   # FP (FPMA), A (available for login)
    h = struct.pack(">BBHBBHH", 0x10, 0, 0x0001, 0, 0x02, len(d) // 4, flags)
    frame = ALL_ENODE_MACS + fcf_mac + struct.pack(">H", ET_FIP) + h + d
    return frame + b"\0" * max(0, 60 - len(frame))


def fip_ka(enode_mac, fcf_mac):
    """An ENode's FIP keep-alive to the FCF it chose: its MAC descriptor."""
    d = bytes([2, 2]) + enode_mac
    h = struct.pack(">BBHBBHH", 0x10, 0, 0x0003, 0, 0x01, len(d) // 4, 0)
    frame = fcf_mac + enode_mac + struct.pack(">H", ET_FIP) + h + d
    return frame + b"\0" * max(0, 60 - len(frame))


FIP_DT_FLOGI, FIP_DT_LOGO = 7, 9


def fip_ls(dst, src, sub, dtype, r_ctl, d_id, s_id, ox_id, payload, vn_mac=b"\0" * 6,
           f_ctl=F_CTL_FIRST, rx_id=0xFFFF):
    """A FIP link service frame (FC-BB-5): subcode 1 a request from an ENode,
    2 the FCF's reply; an ELS descriptor (7 FLOGI, 9 LOGO) carrying the FC
    header and the ELS, then a MAC descriptor (requested: zero for FPMA;
    granted in an accept; the VN_Port's in a LOGO)."""
    fc = struct.pack(">B3sB3sB3sBBHHHI", r_ctl, d_id.to_bytes(3, "big"), 0,
                     s_id.to_bytes(3, "big"), TYPE_ELS, f_ctl.to_bytes(3, "big"),
                     0, 0, 0, ox_id, rx_id, 0) + payload
    fc += b"\0" * ((-len(fc)) % 4)
    d = bytes([dtype, (4 + len(fc)) // 4, 0, 0]) + fc
    d += bytes([2, 2]) + vn_mac
    h = struct.pack(">BBHBBHH", 0x10, 0, 0x0002, 0, sub, len(d) // 4, 0x8000)
    frame = dst + src + struct.pack(">H", ET_FIP) + h + d
    return frame + b"\0" * max(0, 60 - len(frame))


def parse_fip(b):
    """(dst, src, op, sub, descs: [(type, bytes)]) of an untagged FIP frame,
    or None."""
    if len(b) < 24 or struct.unpack_from(">H", b, 12)[0] != ET_FIP:
        return None
    op, sub, dlen = struct.unpack_from(">H", b, 16)[0], b[19], struct.unpack_from(">H", b, 20)[0]
    descs, off, end = [], 24, min(len(b), 24 + 4 * dlen)
    while off + 2 <= end and b[off + 1] != 0:
        n = 4 * b[off + 1]
        descs.append((b[off], bytes(b[off:off + n])))
        off += n
    return dict(dst=bytes(b[0:6]), src=bytes(b[6:12]), op=op, sub=sub, descs=descs)
