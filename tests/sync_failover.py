#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
sync_failover.py FCREDIRECT FCOE-GEN

Failover from an active node to a standby that learnt everything by sync:

  * A has the fabric's routes and redirects (no binding: it learns them from
    the FIP logins of the capture). A replay races: its data frames come
    right behind the logins, before A has applied them. So A first replays
    the capture's FIP frames alone, learns every binding and quits; B keeps
    it all. Restarted, A has its state back from B, and only once its
    redirects are `active` does it forward the whole capture (logins and
    data): the reference forwards nothing before its rules, by construction.
  * B has no command at all: routes, learned bindings, redirects and flow
    entries reach it by sync. Its port 0 replays the same fabric's capture
    without the login frames (fcoe-gen --logins none: same FCIDs), but B is
    started only after A has quit.
  * Before B forwards anything its redirects are `active`; then B's output
    on each port is, frame for frame and in order, what A sent for the same
    data frames (tshark: frame length, MACs, VLAN, S_ID, D_ID, OX_ID, R_CTL,
    SEQ_CNT, FC CRC status), from the first frame: no redirected frame
    leaves unrewritten, `before_rule` stays 0, no flow is relearnt
    (`flow_miss` 0: B holds A's flow entries). The hosts sit behind port 3
    (sync_lib.py): port 0, a fabric port, sends no FCoE frame back.

The OX_IDs of the two captures differ by a constant (the FIP logins take
exchange IDs); the offset is read from the two inputs and applied.
Ends with "N passed, M failed".
"""

import collections
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sync_lib as sl  # noqa: E402

FIELDS = ["frame.len", "eth.src", "eth.dst", "eth.type", "vlan.id", "vlan.etype",
          "fc.s_id", "fc.d_id", "fc.ox_id", "fc.r_ctl", "fc.seq_cnt", "fcoe.crc.status"]
F = {n: i for i, n in enumerate(FIELDS)}
# filler frames after the logins: B's capture (no logins) pairs up with A's
# once the FIP and filler frames are out; what orders learning before data
# is the replay of the FIP frames alone, and A's redirects `active` first
GEN_OPTS = ["--login-gap", "64"]


def tshark(path):
    cmd = ["tshark", "-n", "-r", path, "-T", "fields", "-E", "occurrence=f"]
    for f in FIELDS:
        cmd += ["-e", f]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise RuntimeError("tshark -r %s: %s" % (path, p.stderr.strip()[-300:]))
    return [tuple(l.split("\t")) for l in p.stdout.splitlines()]


def fcid(text):
    """tshark's 01.02.03 as fcredirect prints it: 0x010203."""
    return "0x" + text.replace(".", "").lower()


def etype(r):
    return r[F["vlan.etype"]] or r[F["eth.type"]]


def fcoe_only(recs):
    """FCoE frames only: FIP and fcoe-gen's filler frames left out."""
    return [r for r in recs if etype(r) == "0x8906"]


def main():
    fcr, gen = sys.argv[1], sys.argv[2]
    t = sl.Test("sync-failover", fcr, gen, budget_s=90)
    cmds = t.gen_fabric("fab", *GEN_OPTS)
    if cmds is None or t.gen_fabric("nologin", "--logins", "none", *GEN_OPTS) is None:
        t.finish()
    config = [c for c in cmds if c.startswith(("route ", "redirect "))]
    nb_redirects = sum(1 for c in cmds if c.startswith("redirect "))
    nb_bindings = sum(1 for c in cmds if c.startswith("binding "))

    # the two inputs pair up frame by frame once logins and fillers are out
    in_a = fcoe_only(tshark(t.path("fab.pcap")))
    in_b = fcoe_only(tshark(t.path("nologin.pcap")))
    offs = collections.Counter(int(x[F["fc.ox_id"]], 16) - int(y[F["fc.ox_id"]], 16)
                               for x, y in zip(in_a, in_b))
    same = all(x[:F["fc.ox_id"]] == y[:F["fc.ox_id"]] for x, y in zip(in_a, in_b))
    if not t.check(len(in_a) == len(in_b) and len(offs) == 1 and same,
                   "the two captures carry the same %d FCoE frames (OX_IDs %s)" %
                   (len(in_a), dict(offs))):
        t.finish()
    ox_off = next(iter(offs))

    # the capture's FIP frames alone: the logins, and no data behind them
    p = subprocess.run(["tshark", "-n", "-r", t.path("fab.pcap"), "-Y", "fip", "-F", "pcap",
                        "-w", t.path("fip.pcap")], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if not t.check(p.returncode == 0, "tshark writes the capture's FIP frames apart", p.stderr):
        t.finish()

    pa, pb = sl.free_udp_ports(2)
    a = t.node("a", port=pa, peers=[pb], rx=t.path("fip.pcap"))
    b = t.node("b", port=pb, peers=[pa], rx=t.path("nologin.pcap"))
    a.start()
    b.start()
    ok_a, _ = a.wait_ready(10)
    ok_b, _ = b.wait_ready(10)
    t.check(ok_a and ok_b, "A and B ready")

    t.section("A learns the bindings from the FIP logins alone; B only listens")
    errs = a.cmds(config)
    t.check(not errs, "A: %d routes and redirects, no binding" % len(config), "\n".join(errs))
    a.cmd("start")
    ok, ms, out = a.poll("binding list", lambda o: len(sl.lines_of(o, "binding ")) == nb_bindings,
                         30, interval=0.02)
    t.check(ok, "A learned %d bindings from the FIP logins" % nb_bindings, out)
    ok, ms, out = b.poll("binding list", lambda o: len(sl.lines_of(o, "binding ")) == nb_bindings,
                         30, interval=0.02)
    t.check(ok, "B has them by sync", out)
    a.cmd("stop")
    rc = a.quit()
    t.check(rc == 0, "A quits (status %s)" % rc)

    t.section("A, restarted, has its state back from B and forwards the capture with logins")
    a.rx = t.path("fab.pcap")
    a.start()
    ok_a, _ = a.wait_ready(15)
    ok, ms, out = a.poll("redirect list", lambda o: len(sl.redirect_keys(o)) == nb_redirects and
                         all(v[2] == "active" for v in sl.redirect_keys(o).values()),
                         30, interval=0.02)
    t.check(ok_a and ok, "A is ready and its %d redirects are active before it forwards" %
            nb_redirects, out)
    a.cmd("start")
    a.query("wait rx %d 60000" % sl.pcap_frames(a.rx), timeout=70)
    a.cmd("stop")
    st_a = sl.fwd_stats(a.query("show fwd stats"))
    red_a = a.query("redirect list")
    t.check(all(v[2] == "active" for v in sl.redirect_keys(red_a).values()) and
            " before_rule 0 not_ready 0\n" in red_a and "before_rule " not in
            red_a.replace(" before_rule 0 not_ready 0\n", ""),
            "A: every redirect active, no frame forwarded before its rules (the reference is sound)",
            red_a)
    bind_a = sl.lines_of(a.query("binding list"), "binding ")
    t.check(len(bind_a) == nb_bindings and all(l.endswith(" learned") for l in bind_a),
            "A learned %d bindings" % len(bind_a), "\n".join(bind_a))
    fl_a = a.query("show flows")
    keys_a = {k: v[:3] for k, v in sl.flows_of(fl_a).items()}

    t.section("B holds A's state before it forwards anything")
    ok, ms, out = b.poll("binding list", lambda o: sl.lines_of(o, "binding ") == bind_a, 5)
    t.check(ok, "B lists A's %d learned bindings" % len(bind_a), out)
    ok, ms, out = b.poll("show flows", lambda o: {k: v[:3] for k, v in sl.flows_of(o).items()} ==
                         keys_a, 8)
    t.check(ok, "B holds A's %d flow entries (keys, legs, rewrites)" % len(keys_a), out)
    frames_a = {k: v[3] for k, v in sl.flows_of(fl_a).items()}
    # counters travel with the periodic refresh of active flows (5 s)
    ok, ms, out = b.poll("show flows", lambda o: {k: v[3] for k, v in sl.flows_of(o).items()} ==
                         frames_a, 12, interval=0.2)
    got = {k: v[3] for k, v in sl.flows_of(out).items()}
    t.check(ok, "B's flow counters reach A's (%d frames in all) after %.0f ms" %
            (sum(frames_a.values()), ms),
            "\n".join("%s: A %s, B %s" % (k, frames_a[k], got.get(k))
                      for k in sorted(frames_a) if frames_a[k] != got.get(k))[:2000])
    st = a.stats()
    t.check(st.get("changes_pending") == 0 and all(p["inflight"] == 0 for p in st["peers"]),
            "A has nothing pending or unacknowledged for B", a.query("show sync stats"))
    rc = a.quit()
    t.check(rc == 0, "A quits (status %s)" % rc)
    out = b.query("redirect list")
    red_b = sl.redirect_keys(out)
    t.check(len(red_b) == nb_redirects and all(v[2] == "active" for v in red_b.values()),
            "B: its %d redirects are active before it starts" % nb_redirects, out)

    t.section("A has quit: B forwards the same fabric's traffic (no logins)")
    b.cmd("start")
    b.query("wait rx %d 60000" % sl.pcap_frames(b.rx), timeout=70)
    b.cmd("stop")
    st_b = sl.fwd_stats(b.query("show fwd stats"))
    out = b.query("redirect list")
    t.check(all(v[2] == "active" for v in sl.redirect_keys(out).values()) and
            "before_rule " not in out.replace(" before_rule 0 not_ready 0\n", ""),
            "B: no frame of a redirected flow forwarded before its rules (before_rule 0)", out)
    legs = ["host_to_target", "vi_to_target", "target_to_host", "vt_to_host", "plain"]
    t.check(all(st_b.get(k) == st_a.get(k) for k in legs) and st_b.get("host_to_target", 0) > 0,
            "B sent the same frames by kind as A: %s" %
            ", ".join("%s %s" % (k, st_b.get(k)) for k in legs),
            "A: %s" % ", ".join("%s %s" % (k, st_a.get(k)) for k in legs))
    t.check(st_b.get("flow_miss") == 0,
            "B relearnt no flow: flow_miss %s (A had %s)" % (st_b.get("flow_miss"), st_a.get("flow_miss")))
    got = {k: v[3] for k, v in sl.flows_of(b.query("show flows")).items()}
    # B had every entry from its first frame: it counted all the frames of
    # each flow in its capture (A missed the first frames of plain flows,
    # which came before their entries: flow_miss)
    in_count = collections.Counter(
        (r[F["vlan.id"]] or "0", fcid(r[F["fc.s_id"]]), fcid(r[F["fc.d_id"]])) for r in in_b)
    want = {k: v + in_count[k] for k, v in frames_a.items()}
    t.check(got == want,
            "B's flow counters continue from A's: each flow's frames = A's + all its frames "
            "in B's capture (%d in all)" % sum(got.values()),
            "\n".join("%s: A %s, in B's capture %s, B %s" % (k, frames_a[k], in_count[k], got.get(k))
                      for k in sorted(want) if want[k] != got.get(k))[:2000])
    t.check(st_b.get("dropped") == 0 and st_b.get("rx") == st_b.get("tx"),
            "B: rx %s == tx %s, nothing dropped" % (st_b.get("rx"), st_b.get("tx")))
    rc = b.quit()
    t.check(rc == 0, "B quits (status %s)" % rc)

    t.section("B's output, port by port, against A's (tshark)")
    # port 0, the fabric port, sends no FCoE frame back: the hosts' are on port 3
    for port in range(sl.NB_PORTS):
        if port == 0:
            oa = fcoe_only(tshark(a.outpcap(port)))
            ob = fcoe_only(tshark(b.outpcap(port)))
            t.check(not oa and not ob, "port 0 (the fabric port): no FCoE frame sent back "
                    "(A %d, B %d)" % (len(oa), len(ob)))
            continue
        oa = fcoe_only(tshark(a.outpcap(port)))
        ob = fcoe_only(tshark(b.outpcap(port)))
        bad = []
        for i, (x, y) in enumerate(zip(oa, ob)):
            y = list(y)
            y[F["fc.ox_id"]] = "0x%04x" % (int(y[F["fc.ox_id"]], 16) + ox_off)
            if list(x) != y:
                bad.append("frame %d: A %s\n          B %s" % (i + 1, " ".join(x), " ".join(y)))
        t.check(len(oa) == len(ob) and not bad and len(oa) > 0,
                "port %d: B sent the %d FCoE frames A sent, in order, same IDs and rewrites" %
                (port, len(ob)),
                "A sent %d, B %d\n%s" % (len(oa), len(ob), "\n".join(bad[:5])))
        crc = collections.Counter(r[F["fcoe.crc.status"]] for r in ob)
        t.check(set(crc) <= {"1"}, "port %d: FC CRC good on every frame B sent (%s)" %
                (port, dict(crc)))
    t.finish()


if __name__ == "__main__":
    main()
