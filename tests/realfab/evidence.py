#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
The no-redirect scenario (a LIO target and an open-fcoe initiator through
fcredirect and the FCF) run once per fcredirect build given, for the
record: not a pass/fail test. For each build it waits until the initiator
sees the target's LUN, or until its kernel refuses the frames it gets
("wrong source mac address", logged with fcoe.debug_logging=3), with a
deadline, and writes the evidence: the guests' FCoE kernel log lines and
fc_host state, fcredirect's `show fwd stats`, the FCF's drops and log.
When the initiator sees its LUN, it writes 4 MiB and reads them back.

    sudo python3 tests/realfab/evidence.py OLD/app/fcredirect NEW/app/fcredirect \\
        --out /tmp/realfab-before.txt

PATH or PATH@fabric: the routes of the rig (0x000000/1 and 0x800000/1 to
the fabric port, fpma). PATH@stations: what a build that sends every frame
by the routes needs to reach each station: the FCF pins the stations'
FCIDs, a /24 route (fpma) to each one's edge port, the rest to the fabric
port to the FCF-MAC. PATH@lenient: the same with an FCF that takes frames
whatever their source MAC (fcf.py --lenient-src-mac), so that its answers
reach the ENodes and show what they say of them.
"""

import argparse
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab  # noqa: E402
import fcredirect_joiner as fj  # noqa: E402

KERNEL_LINES = re.compile(r"fcoe|libfc|host\d|scsi|sd |sda|FIP|wrong source", re.I)


FCIDS = {"target": 0x010001, "initiator": 0x010002}


def run(binary, routes, out):
    def w(s=""):
        out.write(s + "\n")
        out.flush()
        print(s, flush=True)
    w("=" * 78)
    w("fcredirect %s, routes: %s" % (binary, routes))
    j = fj.FcredirectJoiner(binary)
    t0 = time.monotonic()
    with lab.Lab(joiner=j) as L:
        tgt = L.add_guest("target")
        ini = L.add_guest("initiator")
        if routes in ("stations", "lenient"):
            # edge ports 0 and 1 in the order the guests were added; fabric port 2
            fcf = L.start_fcf(assign={tgt.wwpn_text: FCIDS["target"],
                                      ini.wwpn_text: FCIDS["initiator"]},
                              extra=["--lenient-src-mac"] if routes == "lenient" else [])
            j.routes = ["route add 0x%06x/24 port %d fpma" % (FCIDS[g.name], i)
                        for i, g in enumerate((tgt, ini))] + \
                ["route add 0x000000/1 port 2 mac %s" % lab.FCF_MAC,
                 "route add 0x800000/1 port 2 mac %s" % lab.FCF_MAC]
        else:
            fcf = L.start_fcf()
        L.join()
        w("routes: %s" % "; ".join(l for l in j.query("route list").splitlines()))
        w("command line: %s" % open(os.path.join(L.dir, "fcredirect.cmdline")).read().strip())
        L.boot("fcoe.debug_logging=3")
        tgt.lio_target([ini.wwpn_text], size_mb=16)
        tgt.fcoe_up()
        ini.fcoe_up()

        def settled():
            if ini.run_rc("[ -b /dev/sda ]")[0] == 0:
                return "the initiator sees sda"
            n = int(ini.run("dmesg | grep -c 'wrong source mac' || true").strip() or 0)
            if n >= 3 and ini.run_rc("grep -qx Online /sys/class/fc_host/host*/port_state")[0]:
                return "the initiator refuses the frames it gets (%d 'wrong source mac')" % n
            return None
        try:
            outcome = lab.wait_for(settled, lab.DEADLINE, "the initiator's sda or its refusals", 1)
        except lab.LabError as e:
            outcome = str(e)
        w("after %.0f s: %s" % (time.monotonic() - t0, outcome))
        if outcome == "the initiator sees sda":
            r = ini.write_read_check("sda", 4 << 20)
            on_target = tgt.run("head -c %d /tmp/lun0.img | md5sum" % (4 << 20)).split()[0]
            w("4 MiB written and read back: %s (md5 expected %s, read %s, target's file %s)" % (
                "identical" if r["identical"] else "DIFFERENT", r["md5_expected"], r["md5_read"],
                on_target))
        for g in (tgt, ini):
            w("---- %s (%s): fc_host" % (g.name, g.mac))
            w(g.run("fcr_fc_state").strip())
            s = g.stats()
            w("fc_host statistics: " + " ".join("%s=%s" % (k, s[k]) for k in
                                                ("tx_frames", "rx_frames", "error_frames",
                                                 "invalid_crc_count") if k in s))
            w("---- %s: kernel log (FCoE lines)" % g.name)
            lines = [l for l in g.run("dmesg", 30).splitlines()
                     if KERNEL_LINES.search(l) and "skb_info" not in l]
            wrong = [l for l in lines if "wrong source mac" in l]
            rest = [l for l in lines if "wrong source mac" not in l]
            for l in rest[-15:]:
                w(l)
            if wrong:
                w("%d lines 'wrong source mac address', the first and last:" % len(wrong))
                w(wrong[0])
                w(wrong[-1])
        w("---- fcredirect: show fwd stats")
        w(j.query("show fwd stats").rstrip())
        w("---- fcredirect: binding list")
        w(j.query("binding list").rstrip())
        w("---- FCF: drops, ports")
        st = fcf.state()
        w("drops %s; counters %s" % (json.dumps(st["drops"]), json.dumps(st["counters"])))
        for p in st["ports"]:
            w("port %s wwpn %s mac %s enode %s fcp %s" % (p["fcid"], p["wwpn"], p["mac"], p["enode"],
                                                          p["fcp"]))
        w("---- FCF log (tail)")
        for l in open(fcf.log_path).readlines()[-15:]:
            w(l.rstrip())
        w("---- fcredirect log")
        j.errf.flush()
        for l in open(j.err_path).readlines()[-15:]:
            w(l.rstrip())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1].strip())
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--out", default="/tmp/realfab-before.txt")
    a = ap.parse_args()
    with open(a.out, "w") as out:
        for b in a.binaries:
            path, _, routes = b.partition("@")
            run(fj.fcredirect_binary(path), routes or "fabric", out)
    print("evidence in %s" % a.out)


if __name__ == "__main__":
    main()
