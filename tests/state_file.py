#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""state_file: fcredirect's state file (--state-file; lib/forward/fcr_state.h)
from Python, for the tests and the benchmark: standard library only.

    state_file.py count FILE                 the bindings its header counts (-1: no state file)
    state_file.py patch FILE OFF HEX [NODE]  bytes set at OFF, the node identity
                                             replaced, the length and CRC32C made to agree
"""

import struct
import sys
import time

_TAB = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ (0x82F63B78 if _c & 1 else 0)
    _TAB.append(_c)


def crc32c(b):
    """CRC32C (Castagnoli), as fcr_state_crc: 0xE3069283 for b"123456789"."""
    c = 0xFFFFFFFF
    tab = _TAB
    for x in b:
        c = tab[(c ^ x) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def seal(b):
    """b (a bytearray, its last 4 bytes the CRC's place) with its length and CRC set."""
    b[40:48] = len(b).to_bytes(8, "little")
    b[-4:] = crc32c(b[:-4]).to_bytes(4, "little")
    return b


def make(bindings, node, fka_ms=8000, written=None):
    """A file of bindings, each (wwpn, vn, enode, fcid, vlan); no FCF."""
    recs = b"".join(struct.pack("<QQQIHH", w, vn, en, fcid, vlan, 0)
                    for w, vn, en, fcid, vlan in bindings)
    nodeb = node.encode()
    hdr = struct.pack("<8sIIQIIIIQ16s", b"FCRSTATE", 1, len(nodeb),
                      int(time.time()) if written is None else written,
                      len(bindings), 0, fka_ms, 0, 0, bytes(16))
    return bytes(seal(bytearray(hdr + nodeb + recs + bytes(4))))


def count(path):
    try:
        b = open(path, "rb").read()
    except OSError:
        return -1
    return int.from_bytes(b[24:28], "little") if len(b) >= 64 and b[:8] == b"FCRSTATE" else -1


def patch(path, off, hx, node=None):
    b = bytearray(open(path, "rb").read())
    if node is not None:
        nl = int.from_bytes(b[12:16], "little")
        nodeb = node.encode()
        b[64:64 + nl] = nodeb
        b[12:16] = len(nodeb).to_bytes(4, "little")
    if hx:
        b[off:off + len(hx) // 2] = bytes.fromhex(hx)
    open(path, "wb").write(seal(b))


def main(argv):
    if len(argv) >= 3 and argv[1] == "count":
        print(count(argv[2]))
    elif len(argv) in (5, 6) and argv[1] == "patch":
        patch(argv[2], int(argv[3]), argv[4], argv[5] if len(argv) == 6 else None)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
