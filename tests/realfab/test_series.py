#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
Two fcredirect nodes in series between real Linux FCoE endpoints (QEMU
guests) and the Python FCF, both given the same redirect, as a fabric-wide
configuration would give it:

    host, SN (VI, VT) -- node A -- fabric port | series port -- node B -- FCF
                                                     target --/

Node A's fabric port is cabled to node B's series port (--series-ports).
Each leg is rewritten once, by the first node its frame meets: A rewrites
host->target, VI->target and VT->host, B target->host. What one node
rewrote carries the mark, and the other passes it plain: B does not send
A's VI->target frames (host->target now) to the VT again, A does not drop
B's target->VI frames as a hidden pair, and neither learns a binding from
them. The host's data goes through the SN (dm-crypt) and reaches the
target as ciphertext only.

    sudo python3 tests/realfab/test_series.py [build/app/fcredirect]

Ends with "N passed, N failed"; exits non-zero on any failure. Root only.
"""

import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab  # noqa: E402
import fcredirect_joiner as fj  # noqa: E402
import test_fcredirect as tf  # noqa: E402  (the checks every scenario makes)

NEAR = ["sn", "sn-eth1", "initiator"]   # node A's edge ports; the target is B's


def series_count(st):
    return st["kinds"].get("series", 0)


def run(c, binary, timings):
    t0 = time.monotonic()
    J = fj.SeriesJoiner(NEAR, binary)
    A, B = J.a, J.b
    with lab.Lab(joiner=J, modules=["dm_crypt", "ecb", "xts"], binaries=["dmsetup"]) as L:
        try:
            sn = L.add_guest("sn", nics=2)
            tgt = L.add_guest("target")
            host = L.add_guest("initiator")
            vi, vt = sn.nics[0], sn.nics[1]
            fcf = L.start_fcf(zones=[[tgt.wwpn_text]])
            L.join()
            tf.capture_all(L)
            L.boot(tf.APPEND)
            timings["boot"] = time.monotonic() - t0

            t = time.monotonic()
            pt = tf.target_and_sn_up(tgt, sn, host, fcf)
            timings["sn_target_login"] = time.monotonic() - t
            # A never sees the target log in (it does through B alone): the
            # operator tells A where it is
            A.cmd("binding add vlan 0 wwpn %s fcid 0x%s" % (tgt.wwpn_text, pt["fcid"]))
            add = "redirect add vlan 0 host %s target %s vi %s vt %s" % (
                host.wwpn_text, tgt.wwpn_text, vi.wwpn_text, vt.wwpn_text)
            A.cmd(add)
            B.cmd(add)

            t = time.monotonic()
            host.fcoe_up()
            host.wait_online()
            ph = fcf.wait_port(host.wwpn_text, fcp=True, scr=True)
            ra = A.wait_redirect(host.wwpn_text, "active")
            rb = B.wait_redirect(host.wwpn_text, "active")
            timings["host_login_to_active"] = time.monotonic() - t
            c.check("series: the redirect is active on both nodes",
                    ra["state"] == "active" and rb["state"] == "active",
                    "A: %s; B: %s" % (ra["line"], rb["line"]))
            bb = B.bindings()
            c.check("series: B learned the host, the VI and the VT through its series port, "
                    "each at the FCID the fabric gave it",
                    all(bb.get((0, w), ("", ""))[0].lower().endswith(fcf.port(w)["fcid"])
                        for w in (host.wwpn_text, vi.wwpn_text, vt.wwpn_text)), str(bb))

            fcf.set_zones([[vi.wwpn_text, tgt.wwpn_text]])
            sn.wait_guest("d=$(fcr_disk eth0) && [ -n \"$d\" ] && "
                          "[ $(cat /sys/block/$d/size) -gt 0 ]", lab.DEADLINE, "the VI's disk")
            vdisk = sn.run("fcr_disk eth0").strip()
            rp = tgt.run("fcr_rports")
            c.check("series: the target has the host as a remote port (the VI, rewritten by A "
                    "and passed plain by B)",
                    any(l.startswith("0x%016x 0x%s" % (host.wwpn, ph["fcid"]))
                        for l in rp.splitlines()), rp.strip().replace("\n", "; "))

            sn.run("fcr_crypt %s /dev/%s %s" % (tf.CRYPT, vdisk, tf.KEY))
            sn.lio_target([host.wwpn_text], nic=1, dev="/dev/mapper/" + tf.CRYPT)
            fcf.set_zones([[vi.wwpn_text, tgt.wwpn_text], [host.wwpn_text, tgt.wwpn_text]])
            size = host.wait_disk("sda")
            model = host.run("cat /sys/block/sda/device/model").strip()
            c.check("series: the host's LUN is the VT's dm-crypt mapping",
                    size == tf.LUN_MB << 20 and model.startswith("IBLOCK"),
                    "%d bytes, %s" % (size, model))

            t = time.monotonic()
            r = host.write_read_check("sda", tf.SIZE)
            timings["io"] = time.monotonic() - t
            c.check("series: 4 MiB written by the host reads back identical", r["identical"],
                    "md5 expected %s read %s" % (r["md5_expected"], r["md5_read"]))
            nums = tf.sample_numbers(r["start"], tf.SIZE)
            n = tf.found_in_file(tgt, "/tmp/lun0.img", nums)
            c.check("series: the pattern is never found in cleartext in the target's file",
                    n == 0, "%d of %d numbers found" % (n, len(nums)))

            sa, sb = A.fwd_stats(), B.fwd_stats()
            ka, kb = sa["kinds"], sb["kinds"]
            c.check("series: A rewrote host->target, VI->target and VT->host",
                    all(ka.get(x, 0) >= tf.SIZE // 2048 // 2
                        for x in ("host_to_target", "vi_to_target", "vt_to_host")),
                    "A: " + tf.fcr_stats_line(sa))
            c.check("series: B rewrote target->host, and none of A's rewritten frames again",
                    kb.get("target_to_host", 0) > 0 and kb.get("host_to_target", 0) == 0 and
                    kb.get("vi_to_target", 0) == 0 and kb.get("vt_to_host", 0) == 0,
                    "B: " + tf.fcr_stats_line(sb))
            c.check("series: each node passed the other's marked frames plain",
                    series_count(sb) >= tf.SIZE // 2048 and series_count(sa) > 0,
                    "series A %d, B %d" % (series_count(sa), series_count(sb)))
            for name, st in (("A", sa), ("B", sb)):
                c.check("series: node %s dropped nothing but the ends' attempts to reach the "
                        "service node" % name,
                        not {k: v for k, v in st["drops"].items() if k != "redirect_hidden"},
                        tf.fcr_stats_line(st))
            drops = fcf.drops()
            c.check("series: the FCF dropped nothing", not any(drops.values()),
                    str({k: v for k, v in drops.items() if v}))
            for g, ifn in ((tgt, "eth0"), (host, "eth0"), (sn, "eth0"), (sn, "eth1")):
                tf.check_guest_clean(c, g, ifn)
            for g in (tgt, host, sn):
                tf.check_dmesg_clean(c, g)
        except Exception:
            traceback.print_exc()
            c.check("series: runs to its end", False)
            for j in (A, B):
                tf.diagnose(L, j)
        L.failed = c.failed > 0
    timings["series"] = time.monotonic() - t0


if __name__ == "__main__":
    sys.exit(fj.test_main(run))
