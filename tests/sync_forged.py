#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
sync_forged.py FCREDIRECT

A node whose only peer is this script: its socket is bound to the address
the node lists as its peer (no fcredirect runs there), and it crafts
datagrams per lib/sync/fcr_sync_wire.h, sealed as libsodium's crypto_auth
(HMAC-SHA-512-256) with the key app/sync_io.c derives from the key file
(BLAKE2b-256 of its bytes).

  * The node's own HELLOs verify under that key, and their headers read as
    the wire format says: the crafting is right before anything is sent.
  * The restart handshake: an UPDATE of a boot the node has not taken that
    does not echo its challenge is refused (`dropped_unproven`) and
    answered with a HELLO that carries the challenge and echoes ours; the
    same UPDATE echoing it is applied (and acknowledged).
  * Forged (bad tag, another key), truncated (short, tag cut, records
    cut), replayed (same seq, seq 0, another boot of the peer echoing a
    challenge the node has since replaced: a past life), wrong protocol
    version, bad magic, oversized, and a valid datagram from an address
    that is not a peer: each is counted under its `dropped_*` counter and
    none changes `binding list`.
  * Versions: an update older than what the node holds is refused
    (`updates_stale`), and so is one older than a deletion the node has
    applied (a reordered datagram must not bring a deleted binding back).
  * A valid datagram after all that is still applied.
  * The node restarted: the datagram it applied before, sent again, is
    refused (`dropped_unproven`: it echoes the past life's challenge), and
    nothing of it is applied; the peer taken back by echoing the new one.
Ends with "N passed, M failed".
"""

import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sync_lib as sl  # noqa: E402

W = sl.Wire
VLAN = 40
NODE = 0x1234
COUNTERS = ["short", "oversize", "bad_magic", "bad_version", "bad_auth", "replay",
            "malformed", "unknown_peer", "unproven"]


def main():
    fcr = sys.argv[1]
    t = sl.Test("sync-forged", fcr, budget_s=60)
    wire = W(t.key)
    pn, px, py = sl.free_udp_ports(3)
    peer = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    peer.bind(("127.0.0.1", px))  # the address the node lists as its peer
    stranger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    stranger.bind(("127.0.0.1", py))
    node = t.node("n", port=pn, peers=[px])
    node.start()
    dest = ("127.0.0.1", pn)

    def recv(until, timeout=30):
        """Datagrams from the node, until one for which until(d) holds (a
        state, not a delay: the timeout is only a bound for a node that
        never sends it)."""
        got = []
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            peer.settimeout(max(0.001, end - time.monotonic()))
            try:
                d, src = peer.recvfrom(65536)
            except socket.timeout:
                break
            got.append(d)
            if until(d):
                break
        return got

    t.section("the node's own datagrams, read with this test's key")
    hellos = [d for d in recv(lambda d: len(d) >= 40 and d[5] == W.HELLO)
              if len(d) >= 40 and d[5] == W.HELLO]
    st = node.stats()
    h = W.parse_header(hellos[-1]) if hellos else {}
    t.check(hellos and wire.verify(hellos[-1]),
            "its HELLO (%d bytes) verifies: HMAC-SHA-512-256 keyed by BLAKE2b-256 of the key file"
            % (len(hellos[-1]) if hellos else 0))
    t.check(h.get("magic") == b"FCRS" and h.get("version") == 3 and h.get("type") == W.HELLO and
            h.get("boot") == st.get("boot") and "%04x" % h.get("node", 0) == st.get("node") and
            h.get("seq", 0) >= 1 and h.get("nb") == 0 and h.get("challenge", 0) != 0 and
            len(hellos[-1]) == W.HDR_LEN + W.TAG_LEN,
            "its header reads as fcr_sync_wire.h says: FCRS, v3, HELLO, boot %016x, node %s, "
            "seq %s, challenge %016x" % (h.get("boot", 0), st.get("node"), h.get("seq"),
                                         h.get("challenge", 0)), repr(h))
    node_boot = st.get("boot", 0)
    chal = [h.get("challenge", 0)]

    boot = int.from_bytes(os.urandom(8), "big") | 1   # random, as the engine's are
    seq = [0]

    def dgram(recs, seq_=None, boot_=None, type_=W.UPDATE, version=3, magic=b"FCRS", pad=0,
              echo=None, peer_boot=None):
        if seq_ is None:
            seq[0] += 1
            seq_ = seq[0]
        body = b"".join(recs)
        hdr = W.header(type_, W.F_READY, boot if boot_ is None else boot_, NODE, len(recs),
                       seq_, 0, 0, node_boot if peer_boot is None else peer_boot, 0x5eed, chal[0] if echo is None else echo,
                       version=version, magic=magic)
        return wire.seal(hdr + body + b"\0" * pad)

    def vers(n):
        return (n << 16) | NODE

    def binding(i, fcid, v, origin=1):
        return W.rec_binding(VLAN, 0x2100000000000000 | i, fcid, origin, v)

    def binding_del(i, v):
        body = struct.pack(">HQ", VLAN, 0x2100000000000000 | i) + W.varint(v)
        return bytes([4, len(body)]) + body

    def bindings():
        return sl.lines_of(node.query("binding list"), "binding ")

    def send(d, frm=peer):
        """Send; wait until the node has read it; its stats before and after."""
        before = node.stats()
        frm.sendto(d, dest)
        ok, _, out = node.poll("show sync stats", lambda o: sl.parse_sync_stats(o).get(
            "datagrams_received", 0) > before.get("datagrams_received", 0), 30, interval=0.005)
        return before, sl.parse_sync_stats(out)

    t.section("the restart handshake: a new boot must echo the node's challenge")
    b0, b1 = send(dgram([binding(1, 0x010101, vers(1))], echo=0, peer_boot=0))
    t.check(b1.get("dropped_unproven", 0) == b0.get("dropped_unproven", 0) + 1 and
            b1.get("updates_received") == b0.get("updates_received") and not bindings(),
            "an UPDATE of a boot not taken yet, knowing neither the node's boot nor its "
            "challenge (a peer just started): dropped_unproven +1, not read")

    def answer(d):
        return len(d) >= W.HDR_LEN and wire.verify(d) and W.parse_header(d)["echo"] == 0x5eed
    ans = [d for d in recv(answer) if answer(d)]
    ah = W.parse_header(ans[-1]) if ans else {}
    t.check(ans and ah["challenge"] == chal[0],
            "the node answers with its challenge (%016x) and echoes ours" % ah.get("challenge", 0),
            repr(ah))

    t.section("a valid datagram is applied")
    valid = dgram([binding(1, 0x010101, vers(1))])
    b0, b1 = send(valid)
    ok, ms, out = node.poll("binding list", lambda o: len(sl.lines_of(o, "binding ")) == 1, 30)
    t.check(ok and "wwpn 21:00:00:00:00:00:00:01 fcid 0x010101 static" in out,
            "the binding it carries is in `binding list`", out)
    t.check(b1.get("updates_applied", 0) == b0.get("updates_applied", 0) + 1 and
            all(b1.get("dropped_" + c) == b0.get("dropped_" + c) for c in COUNTERS),
            "updates_applied +1, nothing dropped")
    # acks ride on whatever the node sends next (an ACK only when it has
    # nothing else to send): here the start of its bulk resync to us
    def acked(d):
        return len(d) >= W.HDR_LEN and wire.verify(d) and W.parse_header(d)["ack_base"] == 2

    acks = [d for d in recv(acked) if acked(d)]
    ah = W.parse_header(acks[0]) if acks else {}
    t.check(acks and ah["peer_boot"] == boot and ah["challenge"] != chal[0],
            "the node acknowledges it: a sealed datagram (type %s) with ack base 2, our boot "
            "id, and a new challenge (the one echoed is spent)" % ah.get("type"), repr(ah))
    ref = bindings()

    t.section("refused datagrams: each under its counter, none changes `binding list`")
    good2 = dgram([binding(2, 0x010102, vers(2))])
    tampered = bytearray(good2)
    tampered[-1] ^= 0x01
    other_key = W.__new__(W)
    other_key.key = bytes(32)
    bad_key = other_key.seal(good2[:-32])
    tag_cut = good2[:-5]
    # a record whose length byte runs past the end, sealed properly
    cut_rec = dgram([binding(3, 0x010103, vers(3))[:8]])
    cases = [
        ("forged: one bit of the tag flipped", bytes(tampered), "bad_auth", peer),
        ("forged: sealed with another key", bad_key, "bad_auth", peer),
        ("truncated below header + tag", good2[:60], "short", peer),
        ("truncated: the last 5 bytes cut (tag no longer verifies)", tag_cut, "bad_auth", peer),
        ("truncated record: length byte runs past the end (sealed)", cut_rec, "malformed", peer),
        ("replayed: the valid datagram again (same seq)", valid, "replay", peer),
        ("replayed: seq 0", dgram([binding(4, 0x010104, vers(4))], seq_=0), "replay", peer),
        ("replayed: another boot of the peer, echoing the spent challenge (a past life)",
         dgram([binding(5, 0x010105, vers(5))], boot_=boot ^ 0xFF00), "replay", peer),
        ("wrong protocol version (1)", dgram([binding(6, 0x010106, vers(6))], version=1),
         "bad_version", peer),
        ("bad magic", dgram([binding(7, 0x010107, vers(7))], magic=b"FCRX"), "bad_magic", peer),
        ("oversized: more than the 1400-byte setting",
         dgram([binding(8, 0x010108, vers(8))], pad=1500 - 91), "oversize", peer),
        ("valid, but from an address that is not a peer", dgram([binding(9, 0x010109, vers(9))]),
         "unknown_peer", stranger),
    ]
    for what, d, counter, frm in cases:
        b0, b1 = send(d, frm)
        grew = {c: b1.get("dropped_" + c, 0) - b0.get("dropped_" + c, 0) for c in COUNTERS}
        now = bindings()
        t.check(grew[counter] == 1 and sum(grew.values()) == 1 and now == ref and
                b1.get("updates_applied") == b0.get("updates_applied"),
                "%s (%d bytes): dropped_%s +1, bindings unchanged" % (what, len(d), counter),
                "counters grown: %s\nbindings: %s" % ({k: v for k, v in grew.items() if v}, now))

    t.section("versions: stale updates refused")
    b0, b1 = send(dgram([binding(1, 0x010111, vers(50))]))
    t.check(bindings() == ["binding vlan %d wwpn 21:00:00:00:00:00:00:01 fcid 0x010111 static" % VLAN],
            "a newer version moves the binding (fcid 0x010111)", "\n".join(bindings()))
    b0, b1 = send(dgram([binding(1, 0x010122, vers(40))]))
    t.check(b1.get("updates_stale", 0) == b0.get("updates_stale", 0) + 1 and
            "fcid 0x010111" in "".join(bindings()),
            "an older version is refused: updates_stale +1, fcid stays 0x010111",
            "\n".join(bindings()))
    # a deletion, then an update older than the deletion arriving late (as
    # a reordered datagram does): seq 101 overtakes seq 100
    b0, b1 = send(dgram([binding_del(1, vers(70))], seq_=101))
    t.check(not bindings(), "a deletion (version 70) removes it", "\n".join(bindings()))
    b0, b1 = send(dgram([binding(1, 0x010133, vers(60))], seq_=100))
    now = bindings()
    t.check(not now and b1.get("updates_stale", 0) == b0.get("updates_stale", 0) + 1,
            "an update older than that deletion (version 60, sent before it, arriving after it) "
            "is refused: the binding stays deleted, updates_stale +1",
            "bindings now: %s\nupdates_stale %s -> %s, updates_applied %s -> %s" %
            (now, b0.get("updates_stale"), b1.get("updates_stale"),
             b0.get("updates_applied"), b1.get("updates_applied")))

    t.section("the session still works")
    b0, b1 = send(dgram([binding(10, 0x01010a, vers(90))], seq_=102))
    t.check("wwpn 21:00:00:00:00:00:00:0a fcid 0x01010a static" in "".join(bindings()) and
            b1.get("updates_applied", 0) == b0.get("updates_applied", 0) + 1,
            "a valid datagram after all that is applied", "\n".join(bindings()))
    refused = node.logged("fcr.sync: warning:", 3)
    t.check(any("datagrams refused in the last second" in l and "bad_auth" in l
                for l in refused),
            "the log (fcr.sync) reports the refused datagrams by reason, once a second",
            "\n".join(refused))
    st = node.stats()
    t.info("the node's drops: %s" % ", ".join("%s %s" % (c, st.get("dropped_" + c)) for c in COUNTERS))
    rc = node.quit()
    t.check(rc == 0, "the node quits with status 0 (%s)" % rc)

    t.section("the node restarted: what it took before is refused, its new challenge echoed")
    node.start()
    hellos = [d for d in recv(lambda d: len(d) >= W.HDR_LEN and d[5] == W.HELLO and wire.verify(d)
                              and W.parse_header(d)["boot"] != node_boot)
              if len(d) >= W.HDR_LEN and d[5] == W.HELLO]
    h = W.parse_header(hellos[-1]) if hellos else {}
    b0, b1 = send(valid)
    t.check(b1.get("dropped_unproven", 0) == b0.get("dropped_unproven", 0) + 1 and
            b1.get("updates_received", 0) == 0 and not bindings(),
            "the datagram applied before the restart, sent again: dropped_unproven +1, "
            "nothing read, `binding list` empty", "\n".join(bindings()))
    node_boot, chal[0] = h.get("boot", 0), h.get("challenge", 0)
    b0, b1 = send(dgram([binding(11, 0x01010b, vers(95))]))
    ok, ms, out = node.poll("binding list", lambda o: "fcid 0x01010b" in o, 30)
    t.check(ok and b1.get("updates_applied", 0) == 1,
            "the peer echoing the new challenge (%016x) is taken back: its update applied"
            % chal[0], out)
    rc = node.quit()
    peer.close()
    stranger.close()
    t.finish()


if __name__ == "__main__":
    main()
