#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
sync_restart.py FCREDIRECT

  1. Restart of a peer: B quits and starts again at once (a new boot id).
     It says `not ready (resyncing)` until A's bulk resync is complete (when
     the test catches it), then `ready`, with A's whole state back: routes,
     bindings, redirects (active: rules derived again) and flow entries —
     no more and no fewer than A holds. A counts it (`peer_restarts`,
     `resyncs_sent`).
  2. B down for longer than the dead interval (3.5 s): A marks it down, and
     B gets everything back when it returns, including what A changed while
     it was away.
  3. A restarts and is given a change before it has heard from B (B is
     frozen with SIGSTOP meanwhile): that change, the latest, must win over
     the older copy B holds, on both nodes.
  4. B unreachable longer than the dead interval (frozen with SIGSTOP: a
     partition, not a restart) while A deletes a redirect, a binding and a
     route: when it is back, B drops them too and does not bring them back
     to A.
  5. Three nodes in a full mesh (each lists the two others): configuration
     added on different nodes converges on all three; a route set
     concurrently to different values on two nodes ends the same on all
     three; a deletion on the third node removes it everywhere.
Ends with "N passed, M failed".
"""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sync_lib as sl  # noqa: E402

VLAN = 20


def main():
    fcr = sys.argv[1]
    t = sl.Test("sync-restart", fcr, budget_s=100)
    pa, pb, pc = sl.free_udp_ports(3)
    a = t.node("a", port=pa, peers=[pb])
    b = t.node("b", port=pb, peers=[pa])
    a.start()
    b.start()
    ok = a.wait_ready(10)[0] and b.wait_ready(10)[0]
    t.check(ok, "A and B ready")

    t.section("1. B restarts at once")
    errs = a.cmds(sl.fabric(12))
    # host 0 logs in again elsewhere: its redirect's rules are rebuilt on
    # A, the four old rule entries deleted
    errs += a.cmds(["binding add vlan %d wwpn %s fcid 0x0100a0" % (VLAN, sl.wwpn(0x2100, 0))])
    t.check(not errs, "A: 3 routes, 48 bindings, 12 redirects, one host moved", "\n".join(errs))
    sa = sl.state(a)
    t.check(sa["flows"] == 72 and all(l.endswith(" active") for l in sa["redirects"]),
            "A: 12 active redirects, 72 entries: 4 rules and 2 hidden pairs each "
            "(`show flows` counts %s)" % sa["flows"])
    sl.converge(t, a, b, "B holds A's state")
    before = a.stats()
    boot1 = b.stats().get("boot")
    rc = b.quit()
    t.check(rc == 0, "B quits (status %s)" % rc)
    b.start()
    seen = []
    end = time.monotonic() + 10
    while time.monotonic() < end:
        st = b.stats()
        seen.append(st.get("ready"))
        if st.get("ready") == 1:
            break
    first = "not ready" if seen and seen[0] == 0 else "ready"
    t.check(seen and seen[-1] == 1, "B restarted (boot %016x -> %016x): said `%s` first, then "
            "`ready` (%d polls)" % (boot1 or 0, st.get("boot", 0), first, len(seen)))
    t.check(st.get("boot", 0) not in (0, boot1), "the new boot id differs from the old one")
    if first == "ready":
        t.info("B's `not ready` phase was too short to catch")
    got = sl.state(b)
    t.check(got == sa, "B, as soon as it says ready, holds A's whole state: %d routes, "
            "%d bindings, %d redirects, %s flows (A counts %s)" %
            (len(got["routes"]), len(got["bindings"]), len(got["redirects"]), got["flows"],
             sa["flows"]), sl.diff(sa, got))
    sl.rules_only(t, [(a, sl.state(a)), (b, sl.state(b))])
    after = a.stats()
    t.check(after.get("peer_restarts", 0) == before.get("peer_restarts", 0) + 1,
            "A: peer_restarts %s -> %s" % (before.get("peer_restarts"), after.get("peer_restarts")))
    t.check(after.get("resyncs_sent", 0) >= before.get("resyncs_sent", 0) + 1,
            "A: resyncs_sent %s -> %s" % (before.get("resyncs_sent"), after.get("resyncs_sent")))
    sb = b.stats()
    said = a.logged("fcr.sync: peer 127.0.0.1:%d" % pb)
    t.check(any(l.endswith(") up") for l in said) and any("restarted" in l for l in said),
            "A's log (fcr.sync) says B came up and restarted", a.log_tail())
    t.check(b.logged("fcr.sync: this node has the peers' state", 5),
            "B's log says when it has the peers' state", b.log_tail())
    t.check(sb.get("resyncs_received", 0) >= 1 and sb.get("updates_refused") == 0,
            "B: resyncs_received %s, updates_refused %s" % (sb.get("resyncs_received"),
                                                            sb.get("updates_refused")))

    t.section("2. B away longer than the dead interval; A changes meanwhile")
    rc = b.quit()
    ok, ms, out = a.poll("show sync stats",
                         lambda o: any(p["state"] == "down" for p in sl.parse_sync_stats(o)["peers"]),
                         8, interval=0.1)
    t.check(ok, "A marks B down after %.0f ms of silence" % ms, out)
    t.check(a.logged("fcr.sync: warning: peer 127.0.0.1:%d" % pb, 2),
            "and its log says so (fcr.sync: warning: peer ... down)", a.log_tail())
    errs = a.cmds(["redirect del vlan %d host %s target %s" % (VLAN, sl.wwpn(0x2100, 1), sl.wwpn(0x5006, 1)),
                   "binding del vlan %d wwpn %s" % (VLAN, sl.wwpn(0x2100, 2)),
                   "route add 0x420000/16 port 2 mac 0e:fc:00:42:00:01"])
    t.check(not errs, "A, while B is away: a redirect and a binding deleted, a route added",
            "\n".join(errs))
    before = a.stats()
    b.start()
    ok, ms = b.wait_ready(10)
    t.check(ok, "B back, ready after %.0f ms" % ms)
    sl.converge(t, a, b, "B holds A's state, with what changed while it was away", 5)
    ok, ms, out = a.poll("show sync stats",
                         lambda o: any(p["state"] == "up" and p["ready"]
                                       for p in sl.parse_sync_stats(o)["peers"]), 5)
    t.check(ok, "A sees B up and ready again", out)
    after = a.stats()
    t.check(after.get("resyncs_sent", 0) >= before.get("resyncs_sent", 0) + 1,
            "A: resyncs_sent %s -> %s" % (before.get("resyncs_sent"), after.get("resyncs_sent")))
    a.quit()
    b.quit()

    t.section("3. a change made on a restarted node before it has heard from its peer")
    # B is frozen (SIGSTOP) while A restarts and the operator changes a
    # route on A; then B runs again. A's change is the latest word: it must
    # win over the older state B holds, on both nodes.
    pa, pb = sl.free_udp_ports(2)
    a = t.node("ra", port=pa, peers=[pb])
    b = t.node("rb", port=pb, peers=[pa])
    a.start()
    b.start()
    ok = a.wait_ready(10)[0] and b.wait_ready(10)[0]
    errs = a.cmds(sl.fabric(4) + ["route add 0x550000/16 port 0 fpma"])
    sl.converge(t, a, b, "B holds A's state (route 0x550000/16 port 0)")
    rc = a.quit()
    os.kill(b.p.pid, signal.SIGSTOP)
    try:
        a.start()
        a.cmd("route add 0x550000/16 port 2 fpma")
        out = a.query("route list")
    finally:
        os.kill(b.p.pid, signal.SIGCONT)
    t.check(not errs and rc == 0 and "route vlan any 0x550000/16 port 2 fpma" in out,
            "A restarted (B frozen meanwhile) and was told: route 0x550000/16 port 2", out)
    ok = a.wait_ready(10)[0] and b.wait_ready(10)[0]
    end = time.monotonic() + 5
    while True:
        ra = [l for l in sl.lines_of(a.query("route list"), "route ") if "0x550000" in l]
        rb = [l for l in sl.lines_of(b.query("route list"), "route ") if "0x550000" in l]
        if (ra == rb and ra == ["route vlan any 0x550000/16 port 2 fpma"]) or time.monotonic() > end:
            break
        time.sleep(0.05)
    t.check(ok and ra == rb == ["route vlan any 0x550000/16 port 2 fpma"],
            "after the resync both say port 2: the change made after B's state is not undone "
            "by it (A: %s, B: %s)" % (ra, rb),
            "A's versions restart from a Lamport counter of 0 on a restart: "
            "B's older copy carries a greater version")
    a.quit()
    b.quit()

    t.section("4. B unreachable (frozen) longer than the dead interval while A deletes")
    pa, pb = sl.free_udp_ports(2)
    a = t.node("pa", port=pa, peers=[pb])
    b = t.node("pb", port=pb, peers=[pa])
    a.start()
    b.start()
    ok = a.wait_ready(10)[0] and b.wait_ready(10)[0]
    errs = a.cmds(sl.fabric(4) + ["route add 0x550000/16 port 0 fpma"])
    sl.converge(t, a, b, "B holds A's state")
    os.kill(b.p.pid, signal.SIGSTOP)
    try:
        ok, ms, out = a.poll("show sync stats", lambda o: any(
            p["state"] == "down" for p in sl.parse_sync_stats(o)["peers"]), 8, interval=0.1)
        errs += a.cmds(["redirect del vlan %d host %s target %s" %
                        (VLAN, sl.wwpn(0x2100, 1), sl.wwpn(0x5006, 1)),
                        "binding del vlan %d wwpn %s" % (VLAN, sl.wwpn(0x2100, 2)),
                        "route del 0x550000/16"])
        a.query("sleep %d" % 150)  # three windows: the deletions are flushed (to no one)
        want = sl.state(a)
    finally:
        os.kill(b.p.pid, signal.SIGCONT)
    t.check(ok and not errs, "A marked B down and deleted a redirect, a binding and a route")
    ok, ms, out = a.poll("show sync stats", lambda o: any(
        p["state"] == "up" and p["ready"] for p in sl.parse_sync_stats(o)["peers"]), 8)
    # once B holds what A holds, B has sent A its state: a stale copy
    # taken back by A would be in both
    sl.converge(t, a, b, "B has the deletions made while it was unreachable",
             until=lambda s: s == want)
    got_a = sl.state(a)
    t.check(got_a == want, "A keeps its deletions: B's stale copies do not come back to A",
            sl.diff(want, got_a))
    a.quit()
    b.quit()

    t.section("5. three nodes, full mesh")
    pa, pb, pc = sl.free_udp_ports(3)
    n = {"a": t.node("ma", port=pa, peers=[pb, pc]), "b": t.node("mb", port=pb, peers=[pa, pc]),
         "c": t.node("mc", port=pc, peers=[pa, pb])}
    for x in n.values():
        x.start()
    ok = all(x.wait_ready(10)[0] for x in n.values())
    t.check(ok, "three nodes ready")
    ok, ms, out = n["a"].poll("show sync stats", lambda o: sum(
        p["state"] == "up" for p in sl.parse_sync_stats(o)["peers"]) == 2, 5)
    t.check(ok, "A sees both others up", out)
    h, tg, vi, vt = (sl.wwpn(0x2100, 0x77), sl.wwpn(0x5006, 0x77), sl.wwpn(0x2f01, 0x77),
                     sl.wwpn(0x2f02, 0x77))
    errs = n["a"].cmds(["route add 0x010000/8 port 0 fpma", "route add 0x410000/8 port 1 fpma"])
    errs += n["b"].cmds(["binding add vlan 30 wwpn %s fcid 0x010077" % h,
                         "binding add vlan 30 wwpn %s fcid 0x410077" % tg,
                         "route add 0x810000/8 port 2 fpma"])
    errs += n["c"].cmds(["binding add vlan 30 wwpn %s fcid 0x810077" % vi,
                         "binding add vlan 30 wwpn %s fcid 0x810078" % vt,
                         "redirect add vlan 30 host %s target %s vi %s vt %s" % (h, tg, vi, vt)])
    t.check(not errs, "routes on A, bindings on B and C, a redirect on C", "\n".join(errs))

    def everything(s):
        return len(s["routes"]) == 3 and len(s["bindings"]) == 4 and \
            len(s["redirects"]) == 1 and s["redirects"][0].endswith(" active") and s["flows"] == 6
    s = sl.converge(t, n["a"], n["b"], "B holds what A holds", until=everything)
    sl.converge(t, n["a"], n["c"], "C holds what A holds", until=everything)
    t.check(len(s["routes"]) == 3 and len(s["bindings"]) == 4 and len(s["redirects"]) == 1 and
            s["redirects"][0].endswith(" active") and s["flows"] == 6,
            "all of it: 3 routes, 4 bindings, the redirect active with its 4 rules and 2 hidden "
            "pairs everywhere",
            "\n".join(s["routes"] + s["bindings"] + s["redirects"]))
    # concurrent changes of one route: both written before either window ends
    n["a"].write("route add 0x220000/16 port 1 fpma\n")
    n["b"].write("route add 0x220000/16 port 2 fpma\n")

    def the_route(s):
        return any(r.startswith("route vlan any 0x220000/16") for r in s["routes"])
    s = sl.converge(t, n["a"], n["b"], "a route set on A and on B at once: A and B agree",
                 until=the_route)
    sl.converge(t, n["a"], n["c"], "... and C agrees", until=the_route)
    t.info("the concurrent route ended as: %s" %
           [r for r in s["routes"] if r.startswith("route vlan any 0x220000/16")])
    errs = n["c"].cmds(["route del 0x220000/16",
                        "redirect del vlan 30 host %s target %s" % (h, tg)])
    t.check(not errs, "C deletes the route and the redirect", "\n".join(errs))

    def gone(s):
        return not the_route(s) and not s["redirects"] and s["flows"] == 0
    s = sl.converge(t, n["c"], n["a"], "gone from A", until=gone)
    sl.converge(t, n["c"], n["b"], "gone from B", until=gone)
    t.check(not [r for r in s["routes"] if "0x220000" in r] and not s["redirects"] and
            s["flows"] == 0, "no such route, no redirect, no rule left")
    for x in n.values():
        st = x.stats()
        t.check(st.get("updates_refused") == 0 and all(
            st.get("dropped_" + r) == 0 for r in ("short", "oversize", "bad_magic", "bad_version",
                                                  "bad_auth", "replay", "malformed",
                                                  "unknown_peer")),
            "%s: nothing refused or dropped (stale: %s)" % (x.name, st.get("updates_stale")),
            x.query("show sync stats"))
    t.finish()


if __name__ == "__main__":
    main()
