#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
sync_propagation.py FCREDIRECT FCOE-GEN

Two fcredirect processes on loopback replicate their tables:
  * a route, a binding and a redirect added on A appear on B exactly as A
    lists them (the delay from A's command to B listing it is printed; the
    window is 50 ms, so about two windows at most is expected — reported, not
    asserted: tests never assert on time); a change (new next hop, new FCID)
    replaces them; deletions on A disappear from B;
  * A replays a capture with FIP logins and has no binding command: the
    bindings it learns appear on B as `learned`, B's redirects become active
    from them, and B holds A's flow entries (same keys, same legs);
  * an object created and deleted inside one window is never sent.
Ends with "N passed, M failed".
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sync_lib as sl  # noqa: E402

WINDOW_MS = 50


def main():
    fcr, gen = sys.argv[1], sys.argv[2]
    t = sl.Test("sync-propagation", fcr, gen, budget_s=90)
    cmds = t.gen_fabric("fab")
    if cmds is None:
        t.finish()
    pa, pb = sl.free_udp_ports(2)
    a = t.node("a", port=pa, peers=[pb], rx=t.path("fab.pcap"))
    b = t.node("b", port=pb, peers=[pa])
    a.start()
    b.start()

    t.section("both nodes come up and resync each other")
    ok_a, ms_a = a.wait_ready(10)
    ok_b, ms_b = b.wait_ready(10)
    t.check(ok_a and ok_b, "A and B report ready (A after %.0f ms, B after %.0f ms)" % (ms_a, ms_b),
            a.query("show sync stats") + b.query("show sync stats"))
    sa = a.stats()
    t.check(any(p["state"] == "up" and p["ready"] for p in sa["peers"]),
            "A sees B up and ready", a.query("show sync stats"))

    delays = []

    def appears(what, cmd_a, list_cmd, prefix):
        """Run cmd_a on A; poll B's list until it lists what A lists."""
        a.cmd(cmd_a)
        want = sl.lines_of(a.query(list_cmd), prefix)
        ok, ms, out = b.poll(list_cmd, lambda o: sl.lines_of(o, prefix) == want, 5)
        delays.append((what, ms))
        t.check(ok, "%s: B lists what A lists after %.1f ms (%s)" %
                (what, ms, "within two windows" if ms <= 2 * WINDOW_MS else
                 "more than two windows of %d ms" % WINDOW_MS),
                "A:\n%s\nB:\n%s" % ("\n".join(want), out))
        return ok

    t.section("configuration added on A appears on B")
    h, tg, vi, vt = (sl.wwpn(0x2100, 0x990001), sl.wwpn(0x5006, 0x990002),
                     sl.wwpn(0x2f01, 0x990003), sl.wwpn(0x2f02, 0x990004))
    appears("route add (mac next hop)", "route add 0x220000/16 port 1 mac 0e:fc:00:aa:bb:cc",
            "route list", "route ")
    appears("route add (fpma)", "route add 0x230000/16 port 2 fpma", "route list", "route ")
    appears("route add (one VLAN's, the same prefix)", "route add vlan 7 0x220000/16 port 0 fpma",
            "route list", "route ")
    appears("binding add", "binding add vlan 7 wwpn %s fcid 0x220001" % h,
            "binding list", "binding ")
    appears("redirect add (waiting for its target)",
            "redirect add vlan 7 host %s target %s vi %s vt %s" % (h, tg, vi, vt),
            "redirect list", "redirect ")
    a.cmd("binding add vlan 7 wwpn %s fcid 0x230001" % tg)
    a.cmd("binding add vlan 7 wwpn %s fcid 0x230002" % vi)
    appears("three more bindings: the redirect becomes active on B too",
            "binding add vlan 7 wwpn %s fcid 0x230003" % vt, "redirect list", "redirect ")
    out = b.query("redirect list")
    t.check(" active" in out, "B derived the redirect's rules: active", out)
    fl = sl.flows_of(b.query("show flows"))
    legs = sorted(v[0] for v in fl.values())
    t.check(legs == ["hidden", "hidden", "host_to_target", "target_to_host", "vi_to_target",
                     "vt_to_host"],
            "B installed the four rules of the redirect and its two hidden pairs",
            b.query("show flows"))

    t.section("changes on A replace what B holds")
    appears("route changed (new port and MAC)", "route add 0x220000/16 port 2 mac 0e:fc:00:dd:ee:ff",
            "route list", "route ")
    appears("binding moved to a new FCID", "binding add vlan 7 wwpn %s fcid 0x220009" % h,
            "binding list", "binding ")
    # host 0x220009 (was 0x220001), target 0x230001, VI 0x230002, VT 0x230003
    want = {("7", "0x220009", "0x230001"): ("host_to_target", "0x220009", "0x230003"),
            ("7", "0x230002", "0x230001"): ("vi_to_target", "0x220009", "0x230001"),
            ("7", "0x230001", "0x220009"): ("target_to_host", "0x230001", "0x230002"),
            ("7", "0x230003", "0x220009"): ("vt_to_host", "0x230001", "0x220009"),
            ("7", "0x230001", "0x230002"): ("hidden", "0x230001", "0x230002"),
            ("7", "0x220009", "0x230003"): ("hidden", "0x220009", "0x230003")}

    def rules(o):
        return {k: v[:3] for k, v in sl.flows_of(o).items()}
    ok, ms, out = b.poll("show flows", lambda o: rules(o) == want and sl.flows_count(o) == 6, 5)
    t.check(ok, "B rebuilt the rules for the new FCID: `show flows` lists the four new rules, "
            "the two hidden pairs, and only them", out)

    t.section("deletions on A disappear from B")
    appears("redirect del", "redirect del vlan 7 host %s target %s" % (h, tg),
            "redirect list", "redirect ")
    ok, ms, out = b.poll("show flows", lambda o: not sl.flows_of(o) and sl.flows_count(o) == 0, 5)
    t.check(ok, "B removed the redirect's rules: `show flows` lists none", out)
    appears("binding del", "binding del vlan 7 wwpn %s" % h, "binding list", "binding ")
    for w in (tg, vi, vt):
        a.cmd("binding del vlan 7 wwpn %s" % w)
    ok, ms, out = b.poll("binding list", lambda o: not sl.lines_of(o, "binding "), 5)
    t.check(ok, "the other three bindings went too", out)
    appears("route del", "route del 0x220000/16", "route list", "route ")
    t.check("route vlan 7 0x220000/16 port 0 fpma" in b.query("route list"),
            "B keeps VLAN 7's route of the same prefix")
    appears("route del (one VLAN's)", "route del vlan 7 0x220000/16", "route list", "route ")
    appears("route del (the last)", "route del 0x230000/16", "route list", "route ")
    st = b.stats()
    t.check(st.get("updates_refused", 1) == 0 and st.get("updates_stale", 1) == 0,
            "B refused nothing, found nothing stale", b.query("show sync stats"))

    t.section("bindings A learns from FIP logins appear on B as learned")
    routes = [c for c in cmds if c.startswith("route ")]
    redirects = [c for c in cmds if c.startswith("redirect ")]
    nb_bind = sum(1 for c in cmds if c.startswith("binding "))
    errs = a.cmds(routes + redirects)
    t.check(not errs, "A takes the fabric's routes and redirects (no binding)", "\n".join(errs))
    a.cmd("start")
    a.query("wait rx %d 60000" % sl.pcap_frames(a.rx), timeout=70)
    a.cmd("stop")
    bind_a = sl.lines_of(a.query("binding list"), "binding ")
    t.check(len(bind_a) == nb_bind and all(l.endswith(" learned") for l in bind_a),
            "A learned the fabric's %d bindings (%d)" % (nb_bind, len(bind_a)), "\n".join(bind_a))
    ok, ms, out = b.poll("binding list", lambda o: sl.lines_of(o, "binding ") == bind_a, 5)
    t.check(ok, "B lists A's %d bindings, each `learned` (%.0f ms after A's stop)" % (len(bind_a), ms),
            out)
    red_a = sl.lines_of(a.query("redirect list"), "redirect ")
    ok, ms, out = b.poll("redirect list", lambda o: sl.lines_of(o, "redirect ") == red_a, 5)
    red_b = sl.redirect_keys(out)
    t.check(len(red_b) == len(redirects) and all(v[2] == "active" for v in red_b.values()),
            "B's %d redirects are active, from the learned bindings" % len(redirects), out)
    rt_a = sl.lines_of(a.query("route list"), "route ")
    t.check(sl.lines_of(b.query("route list"), "route ") == rt_a, "B lists A's routes")
    fl_a = sl.flows_of(a.query("show flows"))
    ok, ms, out = b.poll("show flows", lambda o: {k: v[:3] for k, v in sl.flows_of(o).items()} ==
                         {k: v[:3] for k, v in fl_a.items()}, 8)
    fl_b = sl.flows_of(out)
    t.check(ok, "B holds A's %d flow entries: same keys, legs and rewrites (B has %d)" %
            (len(fl_a), len(fl_b)),
            "only on A: %s\nonly on B: %s" % (sorted(set(fl_a) - set(fl_b))[:10],
                                                sorted(set(fl_b) - set(fl_a))[:10]))
    st = b.stats()
    t.check(all(st.get("dropped_" + r, 1) == 0 for r in
                ("short", "oversize", "bad_magic", "bad_version", "bad_auth", "replay",
                 "malformed", "unknown_peer")),
            "B dropped no datagram", b.query("show sync stats"))

    t.section("created and deleted inside one window: nothing sent")
    # a 60 s window starting now, so that both changes fall in it
    a.cmd("set sync window 60000")
    a.query("sleep %d" % (2 * WINDOW_MS))
    before = a.stats()
    a.cmds(["route add 0x330000/16 port 1 fpma", "route del 0x330000/16"])
    after = a.stats()
    t.check(after.get("changes_cancelled", 0) == before.get("changes_cancelled", 0) + 1,
            "A: changes_cancelled %d -> %d" % (before.get("changes_cancelled", 0),
                                               after.get("changes_cancelled", 0)),
            a.query("show sync stats"))
    t.check(after.get("updates_sent") == before.get("updates_sent"),
            "A sent no update for it", a.query("show sync stats"))
    ok, ms, out = b.poll("route list", lambda o: "0x330000/16" in o, 0.3)
    t.check(not ok, "B never lists it")
    # back to the default window: the next change goes out within it, not
    # at the end of the 60 s window begun before
    a.cmd("set sync window %d" % WINDOW_MS)
    a.cmd("route add 0x340000/16 port 1 fpma")
    ok, ms, out = b.poll("route list", lambda o: "0x340000/16" in o, 5)
    t.check(ok, "after `set sync window %d`, a change reaches B in %.0f ms (the 60 s window "
            "begun before must not hold it back)" % (WINDOW_MS, ms),
            "A: %s" % "".join(l for l in a.query("show sync stats").splitlines(True)
                              if "pending" in l or "unsent" in l))

    for what, ms in delays:
        t.info("propagation %-58s %6.1f ms" % (what, ms))
    ms = sorted(d[1] for d in delays)
    t.info("propagation delay over %d changes: min %.1f ms, median %.1f ms, max %.1f ms "
           "(window %d ms)" % (len(ms), ms[0], ms[len(ms) // 2], ms[-1], WINDOW_MS))
    rc_a, rc_b = a.quit(), b.quit()
    t.check(rc_a == 0 and rc_b == 0, "both quit with status 0 (%s, %s)" % (rc_a, rc_b))
    t.finish()


if __name__ == "__main__":
    main()
