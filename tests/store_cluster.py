#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
The configuration store against a real etcd cluster: three members on
loopback started here, three fcredirect nodes (A, B, C), each given the
members in another order (so they watch different members).

  - a redirect and its bindings configured on A are active on B and C
  - two nodes change one route at once: C writes while its member is
    paused, so it has not seen B's change; B's wins, C's is refused naming
    the value in the store, and C then shows B's
  - C's watch falls behind a compaction (its member paused, then killed):
    C reads the store whole again and has every change, without the route
    deleted meanwhile
  - with that member dead, a change on B reaches A and C
  - every member stopped: A and C keep their configuration, a command is
    refused saying the store is unreachable; members back: a change made
    then reaches every node
  - a node restarted after a compaction has the whole configuration
  - a node whose tables cannot hold the store's redirects (--max-redirects
    1, two in the store) forwards nothing, every frame counted
    store_refused, and forwards again once the second is deleted
  - authentication on: a node with the password reads and writes, one with
    a wrong one says why and waits, one without cannot write

Every wait is on a state (a list line, a counter), with a deadline.

    store_cluster.py <fcredirect>
"""
import os
import signal
import struct
import sys

import fcoe_frames as ff
import sync_lib as sl
from etcd_lib import ETCD, Cluster, num, store_status

FCR = sys.argv[1]
PREFIX = "/fcr%d/" % os.getpid()
H, T, VI, VT = ("21:00:00:00:00:00:00:01", "50:00:00:00:00:00:00:01",
                "2f:01:00:00:00:00:00:01", "2f:02:00:00:00:00:00:01")
H2, T2, VI2, VT2 = ("21:00:00:00:00:00:00:02", "50:00:00:00:00:00:00:02",
                    "2f:01:00:00:00:00:00:02", "2f:02:00:00:00:00:00:02")


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for fr in frames:
            f.write(struct.pack("<IIII", 0, 0, len(fr), len(fr)) + fr)


def main():
    t = sl.Test("store-cluster", FCR, budget_s=240)
    if not os.access(ETCD, os.X_OK):
        t.check(False, "etcd is installed (%s; Debian's etcd-server)" % ETCD)
        t.finish()
    c = Cluster(t, PREFIX)
    t.section("a 3-member etcd cluster on loopback")
    for i in range(3):
        c.start(i)
    t.check(c.wait_healthy([0, 1, 2]), "the three members are healthy")

    def node(name, order, extra=()):
        return t.node(name, vdevs=["net_null0", "net_null1"],
                      extra=["--config-store", c.url(order)] + list(extra))

    a = node("a", [0, 1, 2]).start()
    b = node("b", [1, 2, 0]).start()
    # C stays on its member when it is paused (it does not ask whether it
    # is current): its view then stays behind, for the conflict and the
    # compaction below. store-liveness tries the asking.
    cc = node("c", [2, 0, 1], ["--config-store-stall-ms", "0"]).start()

    def routes(n):
        return sorted(l for l in n.query("route list").splitlines() if l.startswith("route "))

    def same_on(nodes, cmd, pred, what, timeout=30):
        bad = []
        for n in nodes:
            ok, _, out = n.poll(cmd, pred, timeout, interval=0.05)
            if not ok:
                bad.append("%s: %s" % (n.name, out))
        return t.check(not bad, what, "\n".join(bad))

    t.section("a redirect configured on A")
    out = a.query("binding add vlan 10 wwpn %s fcid 0x010001\n"
                  "binding add vlan 10 wwpn %s fcid 0x010002\n"
                  "binding add vlan 10 wwpn %s fcid 0x010003\n"
                  "binding add vlan 10 wwpn %s fcid 0x010004\n"
                  "redirect add vlan 10 host %s target %s vi %s vt %s\n"
                  "route add 0x010000/8 port 1 fpma" % (H, T, VI, VT, H, T, VI, VT))
    t.check("error" not in out, "A's commands committed", out)
    same_on([a, b, cc], "redirect list", lambda o: " active" in o,
            "the redirect is active on A, B and C")
    same_on([b, cc], "route list", lambda o: "0x010000/8 port 1 fpma" in o,
            "A's route is on B and C")

    w0 = num(store_status(a.query("show config store")), "writes")
    out = a.query("route add 0x010000/8 port 1 fpma")
    w1 = num(store_status(a.query("show config store")), "writes")
    t.check("error" not in out and w1 == w0,
            "the same line again: no error, and nothing written (writes %d -> %d)" % (w0, w1),
            out)

    t.section("two nodes change one route at once")
    t.check(c.not_leader(2), "m3 is not the leader")
    c.stop(2, signal.SIGSTOP)   # C's member: C's view stops where it is
    out = b.query("route add 0x010000/8 port 0 mac 0e:fc:00:00:00:0b")
    t.check("error" not in out, "B's change committed", out)
    out = cc.query("route add 0x010000/8 port 0 mac 0e:fc:00:00:00:0c", timeout=40)
    t.check("changed in the store since this node read it" in out and
            "0e:fc:00:00:00:0b" in out and "nothing was written" in out,
            "C's change is refused: the route moved since C read it, and the answer "
            "says what the store holds", out)
    c.stop(2, signal.SIGCONT)
    same_on([a, b, cc], "route list", lambda o: "mac 0e:fc:00:00:00:0b" in o,
            "B's change is on every node; C's is on none")
    st = store_status(cc.query("show config store"))
    t.check(st.get("writes", "").startswith("0 ") and "conflicts 1" in st.get("writes", ""),
            "C counts the conflict, and no write", st)

    t.section("C's watch falls behind a compaction")
    a.cmd("route add 0x070000/8 port 1 fpma")
    same_on([cc], "route list", lambda o: "0x070000/8 port 1 fpma" in o, "C has 0x070000/8")
    t.check(c.not_leader(2), "m3 is not the leader")
    c.stop(2, signal.SIGSTOP)
    for k in range(5):
        a.cmd("route add 0x0%d0000/8 port 1 fpma" % (k + 2))
    a.cmd("route del 0x070000/8")   # gone from the store while C is behind
    c.compact(0)
    c.stop(2)                   # killed: C's watch moves to another member
    same_on([cc], "route list", lambda o: "0x060000/8 port 1 fpma" in o,
            "C has every change made while it was behind")
    st = store_status(cc.query("show config store"))
    t.check(st.get("full reads", "").startswith("2"),
            "C read the store whole again (full reads 2)", st)
    t.check(routes(cc) == routes(a) and not any("0x070000/8" in r for r in routes(cc)),
            "C's routes are A's: the one deleted meanwhile is gone", "\n".join(routes(cc)))

    t.section("one member dead")
    out = b.query("route del 0x020000/8")
    t.check("error" not in out, "B's deletion committed with a member dead", out)
    same_on([a, cc], "route list", lambda o: "0x020000/8" not in o,
            "the deletion reached A and C")

    t.section("every member stopped")
    before = routes(a)
    c.stop(0)
    c.stop(1)
    same_on([a], "show config store", lambda o: "connected:         no" in o,
            "A sees the store gone")
    out = a.query("route add 0x090000/8 port 1 fpma", timeout=60)
    t.check("configuration store is unreachable" in out and
            "forwarding goes on" in out, "a command on A is refused, saying why", out)
    t.check(routes(a) == before and routes(cc) == before,
            "A and C keep the configuration they had", "\n".join(routes(a)))
    for i in range(3):
        c.start(i)
    t.check(c.wait_healthy([0, 1, 2]), "the members are back")
    ok, _, out = b.poll("route add 0x0a0000/8 port 1 fpma",
                        lambda o: "error" not in o, 60, interval=0.5)
    t.check(ok, "a change on B commits once the store answers", out)
    same_on([a, cc], "route list", lambda o: "0x0a0000/8 port 1 fpma" in o,
            "it reaches A and C", timeout=60)

    t.section("a node restarted after a compaction")
    cc.quit()
    a.cmd("route add 0x0b0000/8 port 1 fpma")
    # more keys than one page of a whole read (20,000), written from outside
    for base in range(0, 20400, 120):
        last = c.txn_put(0, [(PREFIX + "binding/20/%x/0" % (0x2200000000000000 | i),
                       "binding add vlan 20 wwpn 22:00:00:00:00:00:%02x:%02x fcid 0x%06x" %
                       (i >> 8, i & 0xFF, 0x200000 + i)) for i in range(base, base + 120)])
    c.compact(0)
    cc.start()
    same_on([cc], "route list", lambda o: "0x0b0000/8" in o, "C started again has it")
    same_on([cc, a], "show config store",
            lambda o: num(store_status(o), "applied revision") >= last,
            "C and A have applied the store up to the last of them")
    counts = [n.query("binding list", timeout=120).rstrip().splitlines()[-1] for n in (cc, a)]
    t.check(counts == ["20404 bindings"] * 2,
            "and the 20,400 bindings written from outside (two pages of a whole read), "
            "as A has them from its watch", counts)
    t.check(routes(cc) == routes(a), "C's routes are A's", "\n".join(routes(cc)))
    same_on([cc], "redirect list", lambda o: " active" in o, "and the redirect, active")

    t.section("a node whose tables refuse a redirect of the store")
    out = a.query("redirect add vlan 10 host %s target %s vi %s vt %s" % (H2, T2, VI2, VT2))
    t.check("error" not in out, "A adds a second redirect", out)
    # F holds one redirect (--max-redirects 1); port 0, a fabric port,
    # replays one FCP frame to a routed domain without end
    frames = t.path("plain.pcap")
    write_pcap(frames, [ff.fcoe(ff.fpma(0x030005), ff.mac("0e:fc:00:ff:ff:fe"), ff.FCP_DATA,
                                0x030005, 0x0b0001, ff.TYPE_FCP, 1, bytes(64))])
    f = t.node("f", vdevs=["net_pcap0,rx_pcap=%s,infinite_rx=1,tx_pcap=/dev/null" % frames,
                           "net_null1"],
               extra=["--config-store", c.url([0, 1, 2]), "--max-redirects", "1"]).start()
    f.cmd("start")
    ok, _, out = f.poll("show config store", lambda o: "forwarding:        no" in o, 30,
                        interval=0.1)
    t.check(ok and "redirect: table full" in out,
            "F refuses one of the two redirects and says it forwards nothing", out)
    ok, _, out = f.poll("show fwd stats",
                        lambda o: sl.fwd_stats(o).get("store_refused", 0) >= 1000, 30,
                        interval=0.1)
    st = sl.fwd_stats(out)
    t.check(ok and st.get("tx") == 0,
            "every frame F receives is dropped as store_refused (%d), none sent (tx %s)" %
            (st.get("store_refused", 0), st.get("tx")), out)
    t.check(f.logged("not forwarding: 1 redirect(s) of the store refused here", timeout=10),
            "F logs why it does not forward", f.log_tail())
    out = a.query("redirect del vlan 10 host %s target %s" % (H2, T2))
    t.check("error" not in out, "A deletes the second redirect", out)
    ok, _, out = f.poll("show config store", lambda o: "forwarding:        yes" in o, 30,
                        interval=0.1)
    t.check(ok, "F holds every redirect of the store now, and says so", out)
    ok, _, out = f.poll("show fwd stats", lambda o: sl.fwd_stats(o).get("tx", 0) >= 1000,
                        30, interval=0.1)
    t.check(ok, "and forwards again (tx %s)" % sl.fwd_stats(out).get("tx"), out)
    t.check(f.logged("forwarding again", timeout=10), "F logs that it forwards again", f.log_tail())
    f.kill()

    t.section("authentication on")
    c.post(0, "/v3/auth/user/add", {"name": "root", "password": "s3cret"})
    c.post(0, "/v3/auth/user/grant", {"user": "root", "role": "root"})
    c.post(0, "/v3/auth/enable", {})
    d = t.node("d", vdevs=["net_null0", "net_null1"],
               extra=["--config-store", c.url([0, 1, 2]),
                      "--config-store-user", "root:s3cret"]).start()
    ok, _, out = d.poll("route list", lambda o: "0x0b0000/8" in o, 30, interval=0.2)
    t.check(ok and routes(d) == routes(a), "a node with the user's password reads it all",
            out)
    out = d.query("route add 0x0c0000/8 port 1 fpma")
    t.check("error" not in out and "0x0c0000/8" in d.query("route list"),
            "and writes", out)
    e = t.node("e", vdevs=["net_null0", "net_null1"],
               extra=["--config-store", c.url([0, 1, 2]),
                      "--config-store-user", "root:wrong"]).start()
    found = e.logged("authentication failed", timeout=30)
    t.check(found, "a wrong password: the node says why and does not start forwarding",
            e.log_tail())
    e.kill()
    out = b.query("route add 0x0d0000/8 port 1 fpma")
    t.check("error" in out and "0x0d0000/8" not in b.query("route list"),
            "a node without the user's password cannot write", out)

    for i in range(3):
        c.stop(i)
    t.finish()


if __name__ == "__main__":
    main()
