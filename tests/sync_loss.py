#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
sync_loss.py FCREDIRECT

Replication over a bad path: tests/sync_relay.py sits between A and B and
drops, duplicates and reorders 20% of the datagrams each way (fixed seed).

  1. A holds a few hundred redirects and their bindings before B exists;
     B joins through the relay and gets them by bulk resync. When B first
     says `ready` it must hold all of them (docs/sync.md: a node reports
     `not ready (resyncing)` until a peer has sent it a complete bulk); then
     it converges anyway.
  2. A few hundred more redirects and bindings added on A converge on B.
  3. Churn: rounds of redirects added on A and deleted in the next window;
     B must end up with exactly A's redirects (none of the deleted ones
     brought back by a reordered datagram).
  4. A's `show sync stats` shows retransmits > 0, B's dropped_replay > 0
     (the duplicates), and the relay did drop, duplicate and reorder.
The relay's seed is 1 (SYNC_SEED=N picks another; the datagrams' fates
also depend on timing, so a seed does not fix them exactly).
Ends with "N passed, M failed".
"""

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sync_lib as sl  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VLAN = 10


def ports(i):
    """(host, target, vi, vt) WWPNs and FCIDs of redirect i."""
    return [(sl.wwpn(0x2100, i), 0x010000 + i), (sl.wwpn(0x5006, i % 16), 0x410000 + i % 16),
            (sl.wwpn(0x2f01, i), 0x810000 + i), (sl.wwpn(0x2f02, i % 16), 0x820000 + i % 16)]


def config(lo, hi):
    """Bindings of the four ports of redirects lo..hi-1 and the redirects."""
    lines, seen = [], set()
    for i in range(lo, hi):
        for w, f in ports(i):
            if w not in seen:
                seen.add(w)
                lines.append("binding add vlan %d wwpn %s fcid 0x%06x" % (VLAN, w, f))
    for i in range(lo, hi):
        h, tg, vi, vt = (w for w, _ in ports(i))
        lines.append("redirect add vlan %d host %s target %s vi %s vt %s" % (VLAN, h, tg, vi, vt))
    return lines


def main():
    fcr = sys.argv[1]
    t = sl.Test("sync-loss", fcr, budget_s=100)
    pa, pb, ra, rb = sl.free_udp_ports(4)
    relay = sl.spawn([sys.executable, os.path.join(HERE, "sync_relay.py"), "--a", str(pa),
                      "--ra", str(ra), "--b", str(pb), "--rb", str(rb), "--seed", os.environ.get("SYNC_SEED", "1"),
                      "--drop", "0.2", "--dup", "0.2", "--reorder", "0.2",
                      "--duration", "80"],
                     stdout=subprocess.PIPE)
    a = t.node("a", port=pa, peers=[ra])
    b = t.node("b", port=pb, peers=[rb])
    a.start()

    t.section("1. B joins a loaded A through the lossy relay: bulk resync")
    errs = a.cmds(config(0, 300), timeout=60)
    red_a = sl.lines_of(a.query("redirect list"), "redirect ")
    bind_a = sl.lines_of(a.query("binding list"), "binding ")
    t.check(not errs and len(red_a) == 300, "A: 300 redirects, %d bindings" % len(bind_a),
            "\n".join(errs[:5]))
    b.start()
    ok, ms = b.wait_ready(30)
    t.check(ok, "B reports ready through the relay (after %.0f ms)" % ms, b.query("show sync stats"))
    red_b = sl.lines_of(b.query("redirect list"), "redirect ")
    bind_b = sl.lines_of(b.query("binding list"), "binding ")
    t.check(red_b == red_a and bind_b == bind_a,
            "B, when it first says ready, holds A's state: %d of %d redirects, %d of %d bindings" %
            (len(set(red_b) & set(red_a)), len(red_a), len(set(bind_b) & set(bind_a)), len(bind_a)))
    ok, ms, out = b.poll("redirect list", lambda o: sl.lines_of(o, "redirect ") == red_a, 20,
                         interval=0.1)
    ok2, ms2, out2 = b.poll("binding list", lambda o: sl.lines_of(o, "binding ") == bind_a, 20,
                            interval=0.1)
    t.check(ok and ok2, "then B converges: A's 300 redirects (%.0f ms) and %d bindings" %
            (ms, len(bind_a)),
            "redirects: %d on B; bindings: %d on B" % (len(sl.lines_of(out, "redirect ")),
                                                       len(sl.lines_of(out2, "binding "))))

    t.section("2. 200 more redirects and their bindings added on A")
    errs = a.cmds(config(300, 500), timeout=60)
    t0 = time.monotonic()
    red_a = sl.lines_of(a.query("redirect list"), "redirect ")
    bind_a = sl.lines_of(a.query("binding list"), "binding ")
    ok, ms, out = b.poll("redirect list", lambda o: sl.lines_of(o, "redirect ") == red_a, 20,
                         interval=0.1)
    ok2, ms2, out2 = b.poll("binding list", lambda o: sl.lines_of(o, "binding ") == bind_a, 20,
                            interval=0.1)
    t.check(not errs and len(red_a) == 500 and ok and ok2,
            "B converges on A's 500 redirects and %d bindings (%.0f ms)" %
            (len(bind_a), (time.monotonic() - t0) * 1000),
            "redirects on B: %d, bindings on B: %d" % (len(sl.lines_of(out, "redirect ")),
                                                       len(sl.lines_of(out2, "binding "))))
    out = b.query("redirect list")
    t.check(sum(1 for v in sl.redirect_keys(out).values() if v[2] == "active") == 500,
            "B derived every redirect's rules: 500 active", out[-300:])

    t.section("3. churn: redirects added on A, deleted in the next window")
    churn = []
    for rnd in range(30):
        lines = []
        for k in range(10):
            i = 10000 + rnd * 10 + k
            h, tg, vi, vt = sl.wwpn(0x2100, i), sl.wwpn(0x5006, i), sl.wwpn(0x2f01, i), sl.wwpn(0x2f02, i)
            lines.append((h, tg, vi, vt))
        errs = a.cmds(["redirect add vlan %d host %s target %s vi %s vt %s" % ((VLAN,) + x)
                       for x in lines])
        a.query("sleep 70")  # the next window: they have been sent
        errs += a.cmds(["redirect del vlan %d host %s target %s" % (VLAN, x[0], x[1]) for x in lines])
        a.query("sleep 20")
        churn += errs
    t.check(not churn, "A: 300 redirects added and deleted in 30 rounds", "\n".join(churn[:5]))
    red_a = sl.lines_of(a.query("redirect list"), "redirect ")
    ok, ms, out = b.poll("redirect list", lambda o: sl.lines_of(o, "redirect ") == red_a, 15,
                         interval=0.1)
    extra = sorted(set(sl.lines_of(out, "redirect ")) - set(red_a))
    missing = sorted(set(red_a) - set(sl.lines_of(out, "redirect ")))
    t.check(ok, "B ends with exactly A's %d redirects (%d deleted ones back on B, %d missing)" %
            (len(red_a), len(extra), len(missing)), "\n".join(extra[:5] + missing[:5]))

    t.section("4. counters")
    sa, sb = a.stats(), b.stats()
    t.check(sa.get("retransmits", 0) > 0, "A: retransmits %s > 0" % sa.get("retransmits"))
    t.check(sb.get("dropped_replay", 0) > 0,
            "B: dropped_replay %s > 0 (the duplicated datagrams)" % sb.get("dropped_replay"))
    t.check(all(sb.get("dropped_" + r, 1) == 0 for r in ("short", "oversize", "bad_magic",
                                                         "bad_version", "bad_auth", "malformed",
                                                         "unknown_peer")),
            "B: no other drop (the relay forwards datagrams intact)", b.query("show sync stats"))
    t.info("A: datagrams_sent %s retransmits %s resyncs_sent %s; B: datagrams_received %s "
           "updates_applied %s updates_stale %s dropped_replay %s" %
           (sa.get("datagrams_sent"), sa.get("retransmits"), sa.get("resyncs_sent"),
            sb.get("datagrams_received"), sb.get("updates_applied"), sb.get("updates_stale"),
            sb.get("dropped_replay")))
    rc_a, rc_b = a.quit(), b.quit()
    t.check(rc_a == 0 and rc_b == 0, "both quit with status 0 (%s, %s)" % (rc_a, rc_b))
    rs = sl.stop_helper(relay)
    for line in rs.splitlines():
        t.info(line)
    t.check("relay: done" in rs and all(
        ("%s 0 " % w) not in rs.split("relay a->b:")[1].split("\n")[0] + " "
        for w in ("dropped", "duplicated", "reordered")),
        "the relay dropped, duplicated and reordered A's datagrams", rs)
    t.finish()


if __name__ == "__main__":
    main()
