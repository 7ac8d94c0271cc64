#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
The configuration store over TLS: an etcd member on loopback serving
clients over https only and taking a client only with a certificate of its
CA (--client-cert-auth), certificates made here with openssl.

  - a node given the CA, its certificate and key reads what the store
    holds and writes to it
  - with its own store and a peer (--sync-peer), two nodes: a redirect
    comes to both from the store, and the peer does not send it (route,
    redirect and static binding records are never replicated with a store)
  - refused, each saying why and forwarding nothing: no client certificate,
    a client certificate of another CA, a CA that did not sign the member's
    certificate, plain http to the https member

Every wait is on a state (a list line, a log line, a counter), with a
deadline.

    store_tls.py <fcredirect>
"""
import base64
import os
import sys

import sync_lib as sl
from etcd_lib import ETCD, Cluster, Pki, b64, store_status

FCR = sys.argv[1]
PREFIX = "/fcrtls%d/" % os.getpid()
H, T, VI, VT = ("21:00:00:00:00:00:00:01", "50:00:00:00:00:00:00:01",
                "2f:01:00:00:00:00:00:01", "2f:02:00:00:00:00:00:01")


def main():
    t = sl.Test("store-tls", FCR, budget_s=150)
    if not os.access(ETCD, os.X_OK):
        t.check(False, "etcd is installed (%s; Debian's etcd-server)" % ETCD)
        t.finish()
    pki = Pki(t.tmp)
    c = Cluster(t, PREFIX, n=1, tls=pki)
    t.section("an etcd member serving https, client certificates required")
    c.start(0)
    t.check(c.wait_healthy([0]), "the member answers the test's own TLS client")
    c.txn_put(0, [(PREFIX + "route/any/10000/8", "route add 0x010000/8 port 1 fpma")])
    tls = ["--config-store-cacert", pki.ca, "--config-store-cert", pki.client_cert,
           "--config-store-key", pki.client_key]

    def node(name, opts, **kw):
        return t.node(name, vdevs=["net_null0", "net_null1"],
                      extra=["--config-store", c.url([0])] + opts, **kw)

    t.section("a node with the CA and a certificate of it")
    a = node("a", tls).start()
    ok, _, out = a.poll("route list", lambda o: "0x010000/8 port 1 fpma" in o, 30,
                        interval=0.1)
    t.check(ok, "it reads what the store holds", out)
    out = a.query("route add 0x020000/8 port 1 fpma")
    t.check("error" not in out, "it writes", out)
    r = c.post(0, "/v3/kv/range", {"key": b64(PREFIX + "route/any/20000/8")})
    vals = [base64.b64decode(kv["value"]).decode() for kv in r.get("kvs", [])]
    t.check(vals == ["route add 0x020000/8 port 1 fpma"],
            "the store holds what it wrote", vals)
    st = store_status(a.query("show config store"))
    t.check(st.get("connected", "").startswith("yes"), "it is connected", st)

    t.section("a node and its HA peer, both on the store")
    ports = sl.free_udp_ports(2)
    a.kill()
    a = node("a2", tls, port=ports[0], peers=[ports[1]]).start()
    b = node("b2", tls, port=ports[1], peers=[ports[0]]).start()
    for n in (a, b):
        ok, _ = n.wait_ready(30)
        t.check(ok, "%s: replication is ready (its peer answered)" % n.name)
    out = a.query("binding add vlan 10 wwpn %s fcid 0x010001\n"
                  "binding add vlan 10 wwpn %s fcid 0x010002\n"
                  "binding add vlan 10 wwpn %s fcid 0x010003\n"
                  "binding add vlan 10 wwpn %s fcid 0x010004\n"
                  "redirect add vlan 10 host %s target %s vi %s vt %s" %
                  (H, T, VI, VT, H, T, VI, VT))
    t.check("error" not in out, "A's redirect committed", out)
    ok, _, out = b.poll("redirect list", lambda o: " active" in o, 30, interval=0.1)
    t.check(ok, "it is active on the peer, from the store", out)
    # once both windows have flushed their changes, what went each way is the
    # redirect's flow entries (learned state: their counters), one update
    # each; without the store's split the 2 routes, 4 static bindings and
    # the redirect would have gone too (forwarding is not started: no frame,
    # nothing else learned)
    flow_entries = 6    # FCR_REDIRECT_KEYS, lib/forward/fcr_redirect.h
    for n in (a, b):
        ok, _, out = n.poll("show sync stats",
                            lambda o: sl.parse_sync_stats(o).get("changes_pending") == 0 and
                            sl.parse_sync_stats(o).get("updates_received", 0) >= flow_entries,
                            30, interval=0.05)
        st = sl.parse_sync_stats(out)
        # (a datagram sent again counts its updates again: retransmits)
        t.check(ok and st.get("updates_sent", 0) - st.get("retransmits", 0) == flow_entries and
                st.get("updates_received") == flow_entries,
                "%s: its changes flushed, it sent and received the redirect's %d flow "
                "entries and no configuration (sent %s, received %s)" %
                (n.name, flow_entries, st.get("updates_sent"), st.get("updates_received")),
                out)
    a.kill()
    b.kill()

    t.section("refused, saying why")
    # (the member's alert to a client it refuses reaches libcurl in words
    # that depend on when the connection closed: only the client's own
    # checks have fixed words)
    cases = [
        ("no-cert", ["--config-store-cacert", pki.ca], "no client certificate", ""),
        ("stranger", ["--config-store-cacert", pki.ca, "--config-store-cert",
                      pki.stranger_cert, "--config-store-key", pki.stranger_key],
         "a client certificate of another CA", ""),
        ("other-ca", ["--config-store-cacert", pki.other_ca, "--config-store-cert",
                      pki.client_cert, "--config-store-key", pki.client_key],
         "a CA that did not sign the member's certificate", "SSL certificate problem"),
        ("plain", [], "plain http to the https member",
         "a member serving TLS? give --config-store-cacert"),
    ]
    for name, opts, what, words in cases:
        n = node(name, opts).start()
        said = n.logged("not forwarding until the configuration store is read", timeout=30)
        t.check(said and "no answer yet" not in said[0] and words in said[0],
                "%s: the node does not forward, and says why%s" %
                (what, " (%s)" % words if words else ""), n.log_tail())
        t.info("%s: %s" % (name, said[0] if said else "-"))
        n.kill()
    c.stop(0)
    t.finish()


if __name__ == "__main__":
    main()
