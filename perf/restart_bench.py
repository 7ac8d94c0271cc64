#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""perf/restart_bench.py: what a state file (--state-file) costs a start.

  perf/restart_bench.py [--build DIR] [--runs N] [--out FILE]

fcredirect on two net_pcap ports (port 0 an edge port, port 1 the fabric
port, --fabric-ports 1), started again and again with a state file of 1,000
and of 100,000 learned bindings (4 VN_Ports an ENode, as NPIV hosts have),
and with none, in turn, N runs each (default 5), in one run of this
program. Port 1 replays one FCoE frame from the FCF to a host, which
needs no binding to pass, so every start forwards it.

What is measured, for each start: from the process's spawn to the answer
of the command that follows `start` and `wait rx 1`, i.e. to the first
frame received and forwarded (an upper bound by the few ms a command
takes). EAL's start-up is in every case alike; the difference against no
state file is the load (read, CRC, checks, sorting for duplicates, the
insert into the tables). The medians, and the ratio to no state file.
Timings are never a failure; a start that does not restore every binding
or forward the frame is.

Writes its figures (perf/run's form) to --out (JSON).
"""

import argparse
import json
import os
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests"))
import state_file as sf  # noqa: E402
VLAN = 100
FCF_MAC = bytes.fromhex("0efc00fffffe")

def node_identity(nports):
    """fcredirect's (app/state_file.c): the host name, the ports' names."""
    return "%s ports %s" % (socket.gethostname()[:100],
                            ",".join("net_pcap%d" % p for p in range(nports)))


def state_file(path, n, node):
    """n learned bindings on edge port 0, 4 an ENode (lib/forward/fcr_state.h)."""
    with open(path, "wb") as f:
        f.write(sf.make([(0x2100000000000000 | i, 0x0efc00 << 24 | (0x010000 + i),
                          VLAN << 48 | 0x020000000000 | (i // 4), 0x010000 + i, VLAN)
                         for i in range(n)], node))
    os.chmod(path, 0o600)


def one_frame(path):
    """A pcap of one FCoE frame (VLAN 100, SOF/EOF, FC header FCF -> a host):
    what the fabric port sends to a host."""
    fc = bytes([0x22, 0x01, 0x00, 0x00, 0x22, 0x00, 0x00, 0x01, 0x01, 0x29, 0x00, 0x00,
                0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00])
    payload = bytes(32)
    crc = 0  # not checked on this path
    frame = (b"\x0e\xfc\x00\x01\x00\x00" + FCF_MAC + b"\x81\x00" +
             struct.pack(">H", 3 << 13 | VLAN) + b"\x89\x06" + bytes(13) + b"\x2e" +
             fc + payload + struct.pack("<I", crc) + b"\x41\x00\x00\x00")
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        f.write(struct.pack("<IIII", 0, 0, len(frame), len(frame)) + frame)


def start_once(build, tmp, name, state):
    """Seconds from spawn to the answer after `wait rx 1`, and the output."""
    args = [os.path.join(build, "app", "fcredirect"), "--no-huge", "-m", "512", "--no-pci",
            "-l", "0,1", "--file-prefix", "rb%d-%s" % (os.getpid(), name),
            "--log-level=lib.eal:error", "--log-level=pmd.net.pcap:error",
            "--vdev", "net_pcap0,tx_pcap=%s/%s.out0.pcap" % (tmp, name),
            "--vdev", "net_pcap1,rx_pcap=%s/one.pcap,tx_pcap=%s/%s.out1.pcap" % (tmp, tmp, name),
            "--", "-i", "--max-flows", "65536", "--max-bindings", "131072",
            "--max-redirects", "1024", "--fabric-ports", "1", "--passthrough", "0:1",
            "--state-file", state]
    cmds = ("route add 0x010000/8 port 0 fpma\nstart\nwait rx 1 60000\n"
            "show port summary all\nstop\nshow fwd stats\nquit\n")
    t0 = time.monotonic()
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    p.stdin.write(cmds)
    p.stdin.close()
    at, out = None, []
    for line in p.stdout:
        out.append(line)
        if at is None and line.startswith("Number of available ports"):
            at = time.monotonic() - t0
    p.wait()
    subprocess.run(["rm", "-rf", "/var/run/dpdk/rb%d-%s" % (os.getpid(), name)])
    return at, "".join(out), p.returncode


def fig(name, value, unit, reference, reference_value):
    return {"bench": "restart", "name": name, "value": value, "unit": unit,
            "reference": reference, "reference_value": reference_value,
            "ratio": value / reference_value if reference_value else None, "spread": None}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", help="the figures as JSON")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    node = node_identity(2)
    cases = [("none", 0), ("1k", 1000), ("100k", 100000)]
    failed = 0
    with tempfile.TemporaryDirectory(prefix="fcr-restart.") as tmp:
        one_frame(os.path.join(tmp, "one.pcap"))
        for name, n in cases:
            if n:
                t0 = time.monotonic()
                state_file(os.path.join(tmp, name + ".state.orig"), n, node)
                size = os.path.getsize(os.path.join(tmp, name + ".state.orig"))
                print("state file of %d bindings: %d bytes (made in %.1f s)"
                      % (n, size, time.monotonic() - t0))
        times = {name: [] for name, _ in cases}
        for r in range(a.runs):
            for name, n in cases:
                st = os.path.join(tmp, name + ".state")
                if os.path.exists(st):
                    os.unlink(st)
                if n:
                    subprocess.run(["cp", "--preserve=mode", st + ".orig", st], check=True)
                at, out, rc = start_once(build, tmp, "%s%d" % (name, r), st)
                restored = "restored %d bindings of %d ENodes" % (n, (n + 3) // 4)
                fwd = [ln for ln in out.splitlines() if ln.strip().startswith("total ")]
                if rc != 0 or at is None or (n and restored not in out) or \
                        not fwd or fwd[-1].split()[4] != "1":
                    print("restart-bench: %s run %d: exit %d, %s" %
                          (name, r, rc, out[-600:]))
                    failed = 1
                    continue
                times[name].append(at * 1000)
    ref = statistics.median(times["none"]) if times["none"] else None
    print()
    print("%-34s %10s %10s %8s" % ("start to first frame forwarded", "median ms", "min ms", "ratio"))
    figures = []
    for name, n in cases:
        v = times[name]
        if not v:
            continue
        med = statistics.median(v)
        label = "no state file" if n == 0 else "state file, %s learned bindings" % name.upper().replace("K", "K")
        print("%-34s %10.1f %10.1f %8s" % (label, med, min(v),
                                          "%.2f" % (med / ref) if ref and n else "-"))
        if n:
            figures.append(fig("start to forwarding, %s bindings restored" % name, med, "ms",
                               "no state file", ref))
            figures.append(fig("load of %s bindings (difference)" % name, med - ref, "ms",
                               "no state file", ref))
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"figures": figures}, f, indent=1)
    return failed


if __name__ == "__main__":
    sys.exit(main())
