#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
sync_clock.py FCREDIRECT CLOCK_SHIFT_SO

Replication across restarts whatever the clocks say. Node B is restarted
three times with its wall clock shifted by tests/clock_shift.c (LD_PRELOAD):
an hour behind, a day behind, ten minutes ahead. Each time:
  * the shim was in effect (it says so in a file on its first reading);
  * B says `ready` (its resync from A complete) and holds A's whole state;
  * A counts B restarted (`peer_restarts` +1) and refused nothing of it as a
    replay (`dropped_replay` unchanged): what proves the restart is B
    echoing A's challenge, not a boot id from B's clock;
  * neither refuses an update (`updates_refused`, `updates_ahead_of_clock`
    0): A's versions, a day ahead of B's clock, are taken;
  * a route B is then given reaches A and wins over the one A had.
Ends with "N passed, M failed".
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sync_lib as sl  # noqa: E402

def preload(fcr, shim):
    """The shim, after the sanitizer's runtime when the build has one (ASan
    must come first in the list of libraries loaded)."""
    import subprocess
    out = subprocess.run(["ldd", fcr], capture_output=True, text=True).stdout
    libs = [l.split("=>")[1].split()[0] for l in out.splitlines()
            if "=>" in l and ("libasan" in l or "libubsan" in l) and "/" in l]
    return ":".join(libs + [shim])


SHIFTS = [(-3600, "an hour behind"), (-86400, "a day behind"), (600, "ten minutes ahead")]


def main():
    fcr, shim = sys.argv[1], os.path.abspath(sys.argv[2])
    t = sl.Test("sync-clock", fcr, budget_s=120)
    pa, pb = sl.free_udp_ports(2)
    a = t.node("a", port=pa, peers=[pb])
    b = t.node("b", port=pb, peers=[pa])
    a.start()
    b.start()
    ok = a.wait_ready(10)[0] and b.wait_ready(10)[0]
    t.check(ok, "A and B ready")
    errs = a.cmds(sl.fabric(6))
    t.check(not errs, "A: 3 routes, 24 bindings, 6 redirects", "\n".join(errs))
    sl.converge(t, a, b, "B holds A's state")

    for n, (shift, what) in enumerate(SHIFTS):
        t.section("B restarted with its clock %s (%+d s)" % (what, shift))
        before = a.stats()
        rc = b.quit()
        said = t.path("shift%d.log" % n)
        b.env = {"LD_PRELOAD": preload(fcr, shim), "FCR_CLOCK_SHIFT_S": str(shift),
                 "FCR_CLOCK_SHIFT_LOG": said}
        b.start()
        ok, ms = b.wait_ready(20)
        try:
            with open(said) as f:
                shim_said = f.read().strip()
        except OSError:
            shim_said = ""
        t.check(rc == 0 and shim_said == "wall clock shifted by %d s" % shift,
                "B quit (status %s) and started again, its wall clock %+d s (the shim: %r)"
                % (rc, shift, shim_said))
        t.check(ok, "B says ready after %.0f ms" % ms, b.query("show sync stats"))
        sa = sl.state(a)
        sb = sl.state(b)
        t.check(sb == sa, "B holds A's whole state: %d routes, %d bindings, %d redirects, "
                "%s flows" % (len(sb["routes"]), len(sb["bindings"]), len(sb["redirects"]),
                              sb["flows"]), sl.diff(sa, sb))
        ok, ms, out = a.poll("show sync stats", lambda o: sl.parse_sync_stats(o).get(
            "peer_restarts", 0) == before.get("peer_restarts", 0) + 1, 10)
        after = sl.parse_sync_stats(out)
        t.check(ok and after.get("dropped_replay") == before.get("dropped_replay"),
                "A: peer_restarts %s -> %s, dropped_replay %s -> %s (dropped_unproven %s -> %s: "
                "the handshake)" % (before.get("peer_restarts"), after.get("peer_restarts"),
                                    before.get("dropped_replay"), after.get("dropped_replay"),
                                    before.get("dropped_unproven"),
                                    after.get("dropped_unproven")), out)
        route = "route add 0x55%02x00/16 port 2 fpma" % n
        a.cmd("route add 0x55%02x00/16 port 0 fpma" % n)
        sl.converge(t, a, b, "B has A's new route 0x55%02x00/16 port 0" % n,
                    until=lambda s: any("0x55%02x00/16 port 0" % n in r for r in s["routes"]))
        b.cmd(route)
        want = "route vlan any 0x55%02x00/16 port 2 fpma" % n
        ok, ms, out = a.poll("route list", lambda o: want in o, 10)
        t.check(ok, "B's change of that route (port 2) reaches A and wins there (%.0f ms)" % ms,
                out)
        sa, sb = a.stats(), b.stats()
        t.check(all(s.get(k) == 0 for s in (sa, sb)
                    for k in ("updates_refused", "updates_ahead_of_clock")),
                "neither refuses an update (A: refused %s ahead %s; B: refused %s ahead %s)" %
                (sa.get("updates_refused"), sa.get("updates_ahead_of_clock"),
                 sb.get("updates_refused"), sb.get("updates_ahead_of_clock")))
    a.quit()
    b.quit()
    t.finish()


if __name__ == "__main__":
    main()
