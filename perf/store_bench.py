#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""perf/store_bench.py: the configuration store at scale, on a real 3-member
etcd cluster on loopback (data on /dev/shm: the figures are fcredirect's
and the gateway's, not a disk's fsync).

  perf/store_bench.py [--build DIR] [--redirects N] [--samples K]

  1. N redirects (default 100,000) and their 4N bindings are written to the
     store (transactions of 128 puts).
  2. A fresh node loads them: the time from its start to its tables holding
     revision R (the node's own split: the read, the apply), and its peak
     memory (VmHWM) against a node with the same capacities on an empty
     prefix, started in the same run.
     The reference, in the same run: a node without a store given the same
     objects as a start-up file (--cmdline-file, applied as one step like
     `load config`), from its start to its first answer.
  3. Commit-to-active latency: K redirects (default 200) added one at a
     time by a transaction the benchmark sends itself; for each, the time
     from sending it to each watching node having applied its revision
     (the node notes the wall clock when it did; same machine, same clock),
     with 1 node watching, then with 3. Every redirect is checked active on
     every node at the end (`redirects_active`). The reference: the same
     transaction's own round trip (sent to etcd's reply), so the ratio is
     what the watch and the apply add to the commit.

Prints the tables; writes perf/results-store.json (its "figures" in
perf/run's form: bench, name, value, unit, reference, reference_value,
ratio). --out names another file.
"""

import argparse
import json
import os
import re
import sys
import tempfile
import time
import urllib.request

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests"))
import sync_lib as sl  # noqa: E402
from etcd_lib import Cluster, b64, store_status  # noqa: E402

VLAN = 10


def wwpn_text(w):
    return ":".join("%02x" % (w >> (56 - 8 * i) & 0xFF) for i in range(8))


def members(i):
    base = 0x21000000_00000000, 0x50000000_00000000, 0x2f010000_00000000, 0x2f020000_00000000
    return [b | i for b in base]


def binding_kv(prefix, w, fcid):
    return (prefix + "binding/%d/%x/0" % (VLAN, w),
            "binding add vlan %d wwpn %s fcid 0x%06x" % (VLAN, wwpn_text(w), fcid))


def redirect_kv(prefix, i):
    h, t, vi, vt = members(i)
    return (prefix + "redirect/%d/%x/%x" % (VLAN, h, t),
            "redirect add vlan %d host %s target %s vi %s vt %s" %
            (VLAN, wwpn_text(h), wwpn_text(t), wwpn_text(vi), wwpn_text(vt)))


def vm(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def fig(name, value, unit, reference, reference_value):
    return {"bench": "store", "name": name, "value": value, "unit": unit,
            "reference": reference, "reference_value": reference_value,
            "ratio": value / reference_value if reference_value else None, "spread": None}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--redirects", type=int, default=100000)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--out", default=os.path.join(TOP, "perf", "results-store.json"))
    a = ap.parse_args()
    fcr = os.path.join(a.build, "app", "fcredirect")
    n, k = a.redirects, a.samples
    os.environ.setdefault("TMPDIR", "/dev/shm")
    tempfile.tempdir = os.environ["TMPDIR"]
    t = sl.Test("store-bench", fcr, budget_s=3600)
    prefix = "/bench%d/" % os.getpid()
    c = Cluster(t, prefix)
    for i in range(3):
        c.start(i)
    if not c.wait_healthy([0, 1, 2]):
        t.check(False, "the members are healthy")
        t.finish()
    cap = ["--max-redirects", str(n + k + 16), "--max-bindings", str(4 * (n + k) + 64),
           "--max-flows", str(1 << max(16, (6 * (n + k + 17)).bit_length()))]
    # the tables for that many take more than the tests' 512 MB
    sl.EAL_COMMON = ["2048" if x == "512" else x for x in sl.EAL_COMMON]

    t.section("writing %d redirects and %d bindings to the store" % (n, 4 * (n + k)))
    t0 = time.monotonic()
    batch, rev = [], 0
    startup = open(t.path("startup.cmds"), "w")
    for i in range(n + k):
        for j, w in enumerate(members(i)):
            batch.append(binding_kv(prefix, w, 0x010000 + 4 * i + j))
        if i < n:
            batch.append(redirect_kv(prefix, i))
        for _, line in batch[-5 if i < n else -4:]:
            startup.write(line + "\n")
        if len(batch) >= 120:
            rev = c.txn_put(0, batch)
            batch = []
    if batch:
        rev = c.txn_put(0, batch)
    startup.close()
    objects = 4 * (n + k) + n
    t.info("%d objects written in %.1f s, revision %d" % (objects, time.monotonic() - t0, rev))

    def node(name, pfx):
        return t.node(name, vdevs=["net_null0", "net_null1"],
                      extra=["--config-store", c.url([0, 1, 2]).replace(prefix, pfx)] + cap)

    def applied(nd, at_least, timeout=600):
        nd.query("show config store", timeout)  # answered once the first read is in
        ok, _, out = nd.poll("show config store",
                             lambda o: int(store_status(o).get("applied revision", "0 ")
                                           .split()[0]) >= at_least, timeout, interval=0.05)
        return ok, store_status(out)

    def active(nd):
        out = nd.query("show fwd stats", 600)
        mm = re.search(r"redirects_active\s+(\d+) of (\d+)", out)
        return int(mm.group(1)) if mm else -1

    t.section("the reference: the same objects from a start-up file, no store")
    s0 = time.monotonic()
    f1 = t.node("file", vdevs=["net_null0", "net_null1"],
                extra=["--cmdline-file", t.path("startup.cmds")] + cap).start()
    nb = active(f1)  # answered once the file is applied
    file_s = time.monotonic() - s0
    t.check(nb == n, "the start-up file's node: %d redirects active" % n, nb)
    f1.quit()

    t.section("a fresh node loads them")
    ref = node("empty", "/bench-empty%d/" % os.getpid()).start()
    ok, _ = applied(ref, 1, 60)
    ref_hwm = vm(ref.p.pid, "VmHWM")
    ref.quit()
    s0 = time.monotonic()
    a1 = node("a", prefix).start()
    ok, st = applied(a1, rev)
    load_s = time.monotonic() - s0
    t.check(ok, "node A holds revision %d" % rev, st)
    hwm = vm(a1.p.pid, "VmHWM")
    split = a1.logged("read whole at revision")
    m = re.search(r"(\d+) objects \(read (\d+) ms, applied (\d+) ms\)", split[-1] if split else "")
    stats = a1.query("show fwd stats")
    mm = re.search(r"redirects_active\s+(\d+) of (\d+)", stats)
    t.check(mm and int(mm.group(1)) == n, "A: %d redirects active" % n,
            mm.group(0) if mm else stats[-400:])

    commit_ms = {1: [], 3: []}  # the transactions' round trips, by nodes watching

    def latency(nodes):
        lat = {nd.name: [] for nd in nodes}
        commits = commit_ms[len(nodes)]
        for i in range(n, n + k):
            key, val = redirect_kv(prefix, i)
            t_send = time.time()
            r = c.txn_put(0, [(key, val)])
            commits.append((time.time() - t_send) * 1000.0)
            for nd in nodes:
                ok, st = applied(nd, r, 30)
                if not ok:
                    t.check(False, "%s applied revision %d" % (nd.name, r), st)
                    return lat
                at = float(st["applied revision"].split("(at ")[1].rstrip(")"))
                lat[nd.name].append((at - t_send) * 1000.0)
        return lat

    def clear_samples():
        # the samples' redirects away again, so each run adds the same K
        for i in range(n, n + k):
            key, _ = redirect_kv(prefix, i)
            c.post(0, "/v3/kv/deleterange", {"key": b64(key)})

    t.section("commit-to-active latency, 1 node watching")
    lat1 = latency([a1])
    clear_samples()
    t.section("commit-to-active latency, 3 nodes watching")
    b1 = node("b", prefix).start()
    c1 = node("c", prefix).start()
    for nd in (b1, c1):
        ok, _ = applied(nd, rev)
        t.check(ok, "%s loaded" % nd.name)
    rev_now = c.revision(0)
    for nd in (a1, b1, c1):
        applied(nd, rev_now)
    lat3 = latency([a1, b1, c1])
    for nd in (a1, b1, c1):
        out = nd.query("show fwd stats")
        mm = re.search(r"redirects_active\s+(\d+) of (\d+)", out)
        t.check(mm and int(mm.group(1)) == n + k, "%s: %d redirects active" % (nd.name, n + k),
                mm.group(0) if mm else "")

    all3 = [v for name in lat3 for v in lat3[name]]
    last3 = [max(x) for x in zip(*lat3.values())]
    rows = [
        ("fresh node: start to revision applied", "%.2f s" % load_s),
        ("  of it, the read (range requests of 20,000 keys)", "%s ms" % (m.group(2) if m else "?")),
        ("  of it, the apply (tables lcore)", "%s ms" % (m.group(3) if m else "?")),
        ("peak memory (VmHWM), loaded", "%.0f MB" % (hwm / 1e6)),
        ("peak memory, same capacities, empty prefix", "%.0f MB" % (ref_hwm / 1e6)),
        ("  the load's own", "%.0f MB" % ((hwm - ref_hwm) / 1e6)),
        ("commit-to-active, 1 node watching, p50 / p99", "%.1f / %.1f ms" %
         (pct(lat1["a"], 50), pct(lat1["a"], 99))),
        ("commit-to-active, 3 nodes watching, p50 / p99 (every node)", "%.1f / %.1f ms" %
         (pct(all3, 50), pct(all3, 99))),
        ("  the last node of each commit, p50 / p99", "%.1f / %.1f ms" % (
            pct(last3, 50), pct(last3, 99))),
        ("reference: the same objects from a start-up file, start to answer", "%.2f s" % file_s),
        ("reference: the transaction's own round trip, 1 / 3 nodes watching, p50 / p99",
         "%.1f / %.1f, %.1f / %.1f ms" % (pct(commit_ms[1], 50), pct(commit_ms[1], 99),
                                          pct(commit_ms[3], 50), pct(commit_ms[3], 99))),
    ]
    what = "%d redirects + %d bindings" % (n, 4 * (n + k))
    figures = [
        fig("%s: fresh node, start to revision applied" % what, load_s, "s",
            "the same objects from a start-up file, no store", file_s),
        fig("%s: peak memory (VmHWM) loaded" % what, hwm / 1e6, "MB",
            "same capacities, empty prefix", ref_hwm / 1e6)]
    for p in (50, 99):
        for label, v, w in (("1 node watching", lat1["a"], 1),
                            ("3 nodes watching, every node", all3, 3),
                            ("3 nodes watching, the last of each commit", last3, 3)):
            figures.append(fig("commit-to-active p%d, %s" % (p, label), pct(v, p), "ms",
                               "the transaction's round trip", pct(commit_ms[w], p)))
    print("\n%d redirects, %d bindings (%d objects), %d samples, 3 etcd members\n" %
          (n, 4 * (n + k), objects, k))
    print("| figure | value |\n|---|---:|")
    for name, v in rows:
        print("| %s | %s |" % (name, v))
    with open(a.out, "w") as f:
        json.dump({"figures": figures, "redirects": n, "objects": objects, "samples": k,
                   "load_s": load_s, "file_load_s": file_s, "commit_ms": commit_ms,
                   "read_ms": int(m.group(2)) if m else None,
                   "apply_ms": int(m.group(3)) if m else None,
                   "vmhwm_loaded": hwm, "vmhwm_empty": ref_hwm,
                   "latency_1_ms": lat1["a"], "latency_3_ms": lat3}, f)
    for i in range(3):
        c.stop(i)
    t.finish()


if __name__ == "__main__":
    main()
