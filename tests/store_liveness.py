#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
The configuration store when the member a node watches stalls, against a
real 3-member etcd cluster. m3 and node G live in a network namespace of
their own: the members' peer traffic crosses one veth pair, clients'
another, so m3 can be cut off from m1 and m2 (blackhole routes: packets
vanish, connections stay up) while G still reaches every member. Node A
watches m1, G watches m3.

  - m3 paused (SIGSTOP: its TCP stays up, it answers nothing): G says it is
    not current, leaves m3 for another member, catches up, and a redirect A
    added meanwhile is in G's tables; `show config store`, the log and
    /fcr/store say what happened; a write on G commits
  - every member paused: G and A say they are not current, and a write is
    refused at once, naming why; members back: G is current again
  - m3 cut off from the other members (a partition: it still answers its
    clients, from its old state): G leaves it the same way and has A's new
    redirect
  - a node that does not ask (--config-store-stall-ms 0) stays on the
    paused member, as before this check existed: the check is what moves G

Every wait is on a state (a list line, a log line, a counter), with a
deadline only against a hang. The time from A's commit to the redirect
in G's tables is printed, not asserted.

    store_liveness.py <fcredirect>
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

import sync_lib as sl
from etcd_lib import ETCD, Cluster, num, store_status

FCR = sys.argv[1]
PREFIX = "/fcrlive%d/" % os.getpid()
NS = "fcrlive%d" % os.getpid()
PEER_HOST, PEER_NS = "10.231.%d.1" % (os.getpid() % 250), "10.231.%d.2" % (os.getpid() % 250)
CLI_HOST, CLI_NS = "10.232.%d.1" % (os.getpid() % 250), "10.232.%d.2" % (os.getpid() % 250)
IN_NS = ["ip", "netns", "exec", NS]
VETH = "fl%d" % (os.getpid() % 100000)


def ip(*args, ns=False, check=True):
    return subprocess.run((["ip", "-n", NS] if ns else ["ip"]) + list(args),
                          capture_output=True, text=True, check=check)


def namespace_up():
    """The namespace, a veth pair for the members' peer traffic and one for
    clients; addresses PEER_* and CLI_*."""
    ip("netns", "add", NS)
    for side, host, inside in (("p", PEER_HOST, PEER_NS), ("c", CLI_HOST, CLI_NS)):
        ip("link", "add", VETH + side + "h", "type", "veth", "peer", "name", VETH + side + "n")
        ip("link", "set", VETH + side + "n", "netns", NS)
        ip("addr", "add", host + "/24", "dev", VETH + side + "h")
        ip("link", "set", VETH + side + "h", "up")
        ip("addr", "add", inside + "/24", "dev", VETH + side + "n", ns=True)
        ip("link", "set", VETH + side + "n", "up", ns=True)
    ip("link", "set", "lo", "up", ns=True)


def namespace_down():
    for side in ("p", "c"):
        ip("link", "del", VETH + side + "h", check=False)
    ip("netns", "del", NS, check=False)


def partition(on):
    """m3's peer traffic into a black hole, both ways (or back)."""
    verb = "add" if on else "del"
    ip("route", verb, "blackhole", PEER_NS + "/32", check=on)
    ip("route", verb, "blackhole", PEER_HOST + "/32", ns=True, check=on)


def telemetry(node, cmd):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(5)
    try:
        s.connect("/var/run/dpdk/%s/dpdk_telemetry.v2" % node.prefix)
        size = int(json.loads(s.recv(4096).decode()).get("max_output_len", 16384))
        s.send(cmd.encode())
        return json.loads(s.recv(size).decode()).get(cmd) or {}
    except OSError:
        return {}
    finally:
        s.close()


def main():
    t = sl.Test("store-liveness", FCR, budget_s=300)
    if not os.access(ETCD, os.X_OK):
        t.check(False, "etcd is installed (%s; Debian's etcd-server)" % ETCD)
        t.finish()
    namespace_down()
    try:
        namespace_up()
    except subprocess.CalledProcessError as e:
        t.check(False, "a network namespace and veth pairs (as root)", e.stderr)
        t.finish()
    try:
        run(t)
    finally:
        namespace_down()


def run(t):
    c = Cluster(t, PREFIX, hosts=[(CLI_HOST, PEER_HOST, []), (CLI_HOST, PEER_HOST, []),
                                  (CLI_NS, PEER_NS, IN_NS)])
    t.section("a 3-member etcd cluster, m3 in a namespace of its own")
    for i in range(3):
        c.start(i)
    t.check(c.wait_healthy([0, 1, 2]), "the three members are healthy")
    m3 = "%s:%d" % (CLI_NS, c.client[2])

    a = t.node("a", vdevs=["net_null0", "net_null1"],
               extra=["--config-store", c.url([0, 1, 2]), "--config-store-node", "a"]).start()
    g = t.node("g", vdevs=["net_null0", "net_null1"], wrap=IN_NS,
               extra=["--config-store", c.url([2, 0, 1]), "--config-store-node", "g"]).start()

    def current(n, timeout=30):
        return n.poll("show config store", lambda o: "current:           yes" in o, timeout,
                      interval=0.1)

    def redirect_on(n, host, timeout=60):
        return n.poll("redirect list", lambda o: host in o, timeout, interval=0.05)

    ok, _, out = current(g)
    t.check(ok and m3 in store_status(out).get("connected", ""), "G watches m3 and says it is current", out)
    t.check(current(a)[0], "A is current")

    def nodes_are(n, names, timeout=30):
        """n's show config store lists exactly these nodes."""
        def pred(o):
            listed = [l.split()[0] for l in o.splitlines() if l.startswith("    ")]
            return sorted(listed) == sorted(names)
        return n.poll("show config store", pred, timeout, interval=0.1)

    t.section("the nodes of the store")
    ok, _, out = nodes_are(a, ["a", "g"])
    t.check(ok and "nodes:             2 (this one: a)" in out,
            "A lists the two nodes, itself included", out)
    out = a.query("route add 0x090000/8 port 1 fpma")
    t.check("applied on every node of the store (2) at revision" in out,
            "A's write answers once both nodes applied it", out)

    def redirect(i):
        return ("redirect add vlan 10 host 21:00:00:00:00:00:00:%02x target "
                "50:00:00:00:00:00:00:%02x vi 2f:01:00:00:00:00:00:%02x vt "
                "2f:02:00:00:00:00:00:%02x" % (i, i, i, i),
                "21:00:00:00:00:00:00:%02x" % i)

    def added_reaches(g, i, what):
        """A adds redirect i; its answer says both nodes applied it, and
        it is in g's tables (the time from the command to there printed)."""
        line, host = redirect(i)
        t0 = time.monotonic()
        out = a.query(line)
        t.check("applied on every node of the store (2)" in out,
                "A adds %s; the answer says both nodes applied it" % what, out)
        ok, _, out = redirect_on(g, host)
        t.check(ok, "the redirect is in G's tables", out)
        t.info("from A's command to the redirect in G's tables: %.2f s" %
               (time.monotonic() - t0))

    t.section("m3 paused")
    t.check(c.not_leader(2), "m3 is not the leader")
    c.stop(2, signal.SIGSTOP)
    added_reaches(g, 1, "a redirect")
    t.check(g.logged("not current: %s did not confirm it is current within 1000 ms" % m3,
                     timeout=10), "G logged that m3 did not confirm it is current",
            g.log_tail())
    ok, _, out = current(g)
    st = store_status(out)
    t.check(ok and m3 not in st.get("connected", "") and
            "members left for not confirming: 1" in out,
            "G watches another member now, is current, and counts m3 left", out)
    tel = telemetry(g, "/fcr/store")
    t.check(tel.get("current") == 1 and tel.get("stalls") == 1,
            "/fcr/store says current 1, stalls 1", tel)
    out = g.query("route add 0x0a0000/8 port 1 fpma")
    t.check("error" not in out, "a write on G commits with m3 paused", out)
    ok, _, out = a.poll("route list", lambda o: "0x0a0000/8" in o, 30, interval=0.05)
    t.check(ok, "and reaches A", out)

    t.section("every member paused")
    for i in (0, 1):
        c.stop(i, signal.SIGSTOP)
    for n in (g, a):
        ok, _, out = n.poll("show config store", lambda o: "current:           NO" in o, 30,
                            interval=0.1)
        t.check(ok and "forwarding goes on with revision" in out,
                "%s says it is not current, and forwards on" % n.name.upper(), out)
    ok, _, out = g.poll("show config store", lambda o: "did not confirm" in o and
                        num(store_status(o), "applied revision") > 0, 30, interval=0.1)
    t0 = time.monotonic()
    ok, _, out = g.poll("route add 0x0b0000/8 port 1 fpma",
                        lambda o: "no member answers" in o, 30, interval=0.2)
    t.check(ok and "configuration store is unreachable" in out,
            "a write on G is refused without trying the members, saying why", out)
    t.info("the refused write answered within %.2f s" % (time.monotonic() - t0))
    tel = telemetry(a, "/fcr/store")
    t.check(tel.get("current") == 0 and tel.get("not_current_for_ms", 0) > 0,
            "/fcr/store on A says current 0", tel)
    for i in (0, 1, 2):
        c.stop(i, signal.SIGCONT)
    ok, _, out = current(g)
    t.check(ok, "members back: G is current again", out)
    t.check(g.logged("current: ", timeout=10), "and logs it", g.log_tail())
    ok, _, out = g.poll("route add 0x0b0000/8 port 1 fpma", lambda o: "error" not in o, 30,
                        interval=0.5)
    t.check(ok, "G's write commits again", out)

    t.section("m3 cut off from m1 and m2")
    g.quit()
    g = t.node("g2", vdevs=["net_null0", "net_null1"], wrap=IN_NS,
               extra=["--config-store", c.url([2, 0, 1]), "--config-store-node", "g"]).start()
    ok, _, out = current(g)
    t.check(ok and m3 in store_status(out).get("connected", ""), "G (started again) watches m3 and is current", out)
    t.check(c.not_leader(2), "m3 is not the leader")
    partition(True)
    added_reaches(g, 2, "a second redirect")
    t.check(g.logged("not current: %s did not confirm" % m3, timeout=10),
            "G logged that m3 did not confirm it is current", g.log_tail())
    ok, _, out = current(g)
    t.check(ok and m3 not in store_status(out).get("connected", ""),
            "G watches another member and is current", out)
    partition(False)

    t.section("a node that does not ask")
    ok, _, _ = current(g)
    # m3 back from its partition makes the others elect a leader again (its
    # term moved on): H starts once that is over, or its first read is
    # answered "leader changed" and it moves off m3 before the test begins
    t.check(c.wait_healthy([0, 1, 2]) and c.not_leader(2),
            "the cluster is whole again, m3 not its leader")
    h = t.node("h", vdevs=["net_null0", "net_null1"], wrap=IN_NS,
               extra=["--config-store", c.url([2, 0, 1]), "--config-store-node", "h",
                      "--config-store-stall-ms", "0"]).start()
    ok, _, out = nodes_are(a, ["a", "g", "h"])
    t.check(ok, "A lists H", out)
    ok, _, out = h.poll("show config store", lambda o: "connected:         yes" in o and
                        m3 in store_status(o).get("connected", ""), 30, interval=0.1)
    t.check(ok and "not asked (--config-store-stall-ms 0)" in out,
            "H watches m3 and says it does not ask", out)
    t.check(c.not_leader(2), "m3 is not the leader")
    c.stop(2, signal.SIGSTOP)
    line, host = redirect(3)
    out = a.query(line, timeout=30)
    t.check("error" not in out and re.search(r"warning: committed to the store at revision "
                                             r"\d+ and applied here, but after 5.0 s not on 1 "
                                             r"of the 3 nodes: h \(applied \d+\)", out),
            "A adds a third redirect; the answer names H, which has not applied it", out)
    ok, _, _ = redirect_on(g, host)
    t.check(ok, "G (which asks) has it", g.log_tail())
    out = h.query("redirect list")
    t.check(host not in out and m3 in h.query("show config store"),
            "H, still on the paused m3, does not: the check is what moves a node", out)
    c.stop(2, signal.SIGCONT)
    ok, _, _ = redirect_on(h, host)
    t.check(ok, "m3 back: H has it")
    ok, _, out = a.poll("show config store", lambda o: "behind" not in o and
                        num(store_status(o), "applied revision") > 0, 30, interval=0.1)
    t.check(ok, "and A lists no node behind", out)

    t.section("nodes that stop")
    h.quit()
    ok, _, out = nodes_are(a, ["a", "g"])
    t.check(ok, "H quit: its key went with it (its lease revoked), A lists A and G", out)
    g.kill()
    ok, _, out = nodes_are(a, ["a"])
    t.check(ok, "G killed: it drops out when its lease expires", out)
    out = a.query("route add 0x0c0000/8 port 1 fpma")
    t.check("applied on every node of the store (1)" in out,
            "A's write answers at once again", out)

    for i in range(3):
        c.stop(i)
    t.finish()


if __name__ == "__main__":
    main()
