# SPDX-License-Identifier: BSD-3-Clause
"""End to end over memif: fcoe-pktgen into fcredirect and into dpdk-testpmd.

One generator (fcoe-pktgen, memif client of two sockets, one lcore on CPU 0)
sends FCP_DATA frames of the built-in fabric out of its port 0 and counts
what comes back on its port 1. The forwarder under test is the memif server
of the same two sockets, with its forwarding lcore on CPU 1 and its main
lcore on CPU 0, beside the generator: fcredirect (`--pmd-config` memif, the
fabric's routes, bindings and redirects loaded before `start`) or the
reference, `dpdk-testpmd --forward-mode=io`. The two alternate, run after
run, so both see the same machine.

Per case: the highest rate each forwards (the generator as fast as the port
takes frames; rate = what came back per second, loss beside it), then the
latency at one fixed rate, a fraction of the lower of the two maxima, so
both are measured at the same offered load.
"""

import os
import re
import shutil
import signal
import statistics
import subprocess
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def summary(text):
    """fcoe-pktgen's `summary k=v ...` lines as a dict of strings."""
    out = {}
    for line in text.splitlines():
        if line.startswith("summary "):
            for word in line.split()[1:]:
                if "=" in word:
                    k, v = word.split("=", 1)
                    out[k] = v
    return out


def num(d, k):
    try:
        return float(d.get(k, "nan"))
    except ValueError:
        return float("nan")


class Lab:
    """Sockets, file prefixes and logs of one perf run, in a temporary dir."""

    def __init__(self, build, hugepages):
        self.build = build
        self.fcr = os.path.join(build, "app", "fcredirect")
        self.pg = os.path.join(build, "tools", "fcoe-pktgen")
        self.gen = os.path.join(build, "tools", "fcoe-gen")
        self.testpmd = shutil.which("dpdk-testpmd")
        self.hugepages = hugepages
        self.dir = tempfile.mkdtemp(prefix="fcr-perf-e2e.")
        self.n = 0
        self.cmds = {}

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def prefix(self, what):
        self.n += 1
        return "fcrperf%d-%s%d" % (os.getpid(), what, self.n)

    def mem_args(self, mb):
        # With hugepages the EAL maps its memory from hugetlbfs (the flow
        # table too); without, 4 KB pages of anonymous memory.
        if self.hugepages:
            # unlinked once mapped: a process that dies leaves no pages taken
            return ["-m", str(mb), "--no-pci", "--huge-unlink"]
        return ["--no-huge", "-m", str(mb), "--no-pci"]

    def memif_vdevs(self, role, sock_dir):
        out = []
        for i in (0, 1):
            out += ["--vdev", "net_memif%d,role=%s,id=%d,bsize=2560,socket=%s/fcr-memif%d.sock"
                    % (i, role, i, sock_dir, i)]
        return out

    def commands(self, flows, redirected_pct):
        """The fabric's routes, bindings and redirects (fcoe-gen's), the
        service node's route moved to port 1 so its legs come back to the
        generator."""
        key = (flows, redirected_pct)
        if key in self.cmds:
            return self.cmds[key]
        path = os.path.join(self.dir, "fabric-%d-%d.cmds" % key)
        raw = path + ".gen"
        subprocess.run([self.gen, "--out", "/dev/null", "--flows", str(flows),
                        "--redirects", str(flows * redirected_pct // 100),
                        "--exchanges", "1", "--io-sizes", "512",
                        "--commands", raw, "--quiet"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(raw) as f, open(path, "w") as out:
            for line in f:
                line = re.sub(r"^(route add 0x81\S+ port) 2", r"\1 1", line)
                out.write(line)
        os.unlink(raw)
        self.cmds[key] = path
        return path


def _count(path, rx):
    try:
        with open(path, errors="replace") as f:
            return len(rx.findall(f.read()))
    except FileNotFoundError:
        return 0


def _wait_for(path, pattern, proc, timeout, more_than=0):
    """Until `pattern` appears in the file at `path` more than `more_than`
    times (the process alive)."""
    rx = re.compile(pattern, re.M)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if _count(path, rx) > more_than:
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.05)
    return False


class Forwarder:
    """fcredirect or testpmd as the memif server of a socket pair of its
    own, stopped between runs (its forwarding lcore then leaves the CPU:
    testpmd's waits, fcredirect's sleeps), so the two forwarders of a case
    can stay up side by side and a case loads its tables once."""

    def __init__(self, lab, kind, flows, redirected_pct, lcores=None, extra=()):
        self.lab, self.kind = lab, kind
        self.prev_io = 0
        self.sock = tempfile.mkdtemp(dir=lab.dir, prefix=kind + ".")
        self.log = os.path.join(self.sock, "fwd.log")
        self.prefix = lab.prefix(kind)
        logf = open(self.log, "w")
        if kind == "testpmd":
            argv = ["stdbuf", "-oL", lab.testpmd] + lab.mem_args(256) + \
                ["-l", "0,1", "--file-prefix", self.prefix, "--log-level=lib.eal:error"] + \
                lab.memif_vdevs("server", self.sock) + \
                ["--", "-i", "--forward-mode=io", "--total-num-mbufs=8192"]
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=logf,
                                      stderr=subprocess.STDOUT, text=True)
            # its busy cycles per packet, as fcredirect's per frame
            self.send("set record-core-cycles on")
            self.send("show config fwd")
            ready = r"^io packet forwarding"
        else:
            cmds = lab.commands(flows, redirected_pct)
            prof = os.path.join(self.sock, "memif.conf")
            with open(prof, "w") as f:
                f.write("description = perf/run: memif server ports 0 and 1\n")
                f.write("eal = %s\n" % " ".join(lab.mem_args(2048)))
                for v in lab.memif_vdevs("server", self.sock)[1::2]:
                    f.write("eal = --vdev %s\n" % v)
                f.write("rxq = 1\nrxd = 1024\ntxd = 1024\nmtu = 2500\nburst = 32\n"
                        "fcoe_steering = none\n")
            n = max(flows * 2, 65536)
            lc = ["--lcores", lcores] if lcores else ["-l", "0,1"]
            argv = [lab.fcr] + lc + ["--file-prefix", self.prefix,
                    "--log-level=lib.eal:error", "--", "--pmd-config", prof, "-i",
                    "--max-flows", str(max(4 * n, 1 << 20)), "--max-bindings", str(n),
                    "--max-redirects", str(max(flows // 2, 4096)),
                    "--fabric-ports", "0",
                    "--config-dir", os.path.dirname(cmds)] + list(extra)
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=logf,
                                      stderr=subprocess.STDOUT, text=True)
            # all or nothing, as an operator loads a configuration
            self.send("load config " + cmds)
            self.send("show fwd stats")
            ready = r"^  total "
        if not _wait_for(self.log, ready, self.p, 900):
            self.stop()
            raise RuntimeError("%s did not start; its log:\n%s" % (kind, self.tail()))
        if kind != "testpmd" and re.search(r"^error", self.tail(200), re.M):
            self.stop()
            raise RuntimeError("fcredirect refused the fabric's configuration:\n" + self.tail())

    def cycles_rx(self):
        return re.compile(r"CPU cycles/packet=([0-9.]+)" if self.kind == "testpmd" else
                          r"worker 0 \(lcore \d+\): frames \d+, busy cycles/frame ([0-9.]+)")

    def begin(self):
        """Forwarding on, counters from zero."""
        if self.kind != "testpmd":
            self.send("clear fwd stats")
        self.mark = _count(self.log, self.cycles_rx())
        self.send("start")

    def end(self):
        """Forwarding off; the forwarding lcore's busy cycles per frame over
        the run: the cycles of polls that brought frames, over the frames
        (testpmd's `CPU cycles/packet` with record-core-cycles, which its
        stop prints; fcredirect's `busy cycles/frame` of worker 0). The
        `show fwd stats` text after the stop (fcredirect)."""
        self.send("stop")
        if self.kind != "testpmd":
            self.send("show fwd stats")
        rx = self.cycles_rx()
        if not _wait_for(self.log, rx.pattern, self.p, 30, self.mark):
            return float("nan"), ""
        with open(self.log, errors="replace") as f:
            text = f.read()
        if self.kind == "testpmd":
            # testpmd 22.11 clears the cycles at each start but not the
            # packets they are divided by: this run's are the difference
            m = re.findall(r"total cycles=(\d+) / total io packets=(\d+)", text)[-1]
            io = int(m[1])
            cyc = int(m[0]) / (io - self.prev_io) if io > self.prev_io else float("nan")
            self.prev_io = io
            return cyc, ""
        return float(rx.findall(text)[-1]), text.split("Forward statistics")[-1]

    def send(self, line):
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def tail(self, n=15):
        with open(self.log, errors="replace") as f:
            return "".join(f.readlines()[-n:])

    def stop(self):
        self.send("stop")
        self.send("quit")
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(60)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        for d in ("/var/run/dpdk", os.path.expanduser("~/.dpdk")):
            shutil.rmtree(os.path.join(d, self.prefix), ignore_errors=True)


def pg_run(lab, fwd, size, flows, rate, duration, warmup, rxq=1, csv=None):
    """One generator run through the forwarder `fwd` (started for it and
    stopped after it); its summary, with the forwarder's busy cycles per
    frame (`cycles`) and, from fcredirect, its statistics (`stats`). csv:
    fcoe-pktgen's --csv PREFIX (its latency histogram and rates)."""
    prefix = lab.prefix("pg")
    out = os.path.join(fwd.sock, "pg-%s.log" % prefix)
    argv = [lab.pg] + lab.mem_args(512) + ["-l", "0", "--file-prefix", prefix,
                                           "--log-level=lib.eal:error"] + \
        lab.memif_vdevs("client", fwd.sock) + \
        ["--", "--flows", str(flows), "--size", str(size), "--rate", str(int(rate)),
         "--duration", str(duration), "--warmup", str(warmup), "--stats-period", "0",
         "--link-wait", "60", "--drain", "1", "--linger", "2", "--rxq", str(rxq)] + \
        (["--csv", csv] if csv else [])
    fwd.begin()
    with open(out, "w") as f:
        p = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT)
    # The forwarder stops polling before the generator's ports go (DPDK
    # 22.11's memif server can fault when its peer leaves mid-poll).
    _wait_for(out, r"^summary lat_", p, duration + warmup + 120)
    cycles, stats = fwd.end()
    try:
        p.wait(60)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGINT)
        p.wait()
    shutil.rmtree(os.path.join("/var/run/dpdk", prefix), ignore_errors=True)
    with open(out, errors="replace") as f:
        text = f.read()
    s = summary(text)
    if "rx_pps" not in s:
        raise RuntimeError("fcoe-pktgen gave no summary:\n" + text[-2000:])
    s["cycles"], s["stats"] = cycles, stats
    return s


def spread(values, med):
    if not values or med == 0:
        return float("nan")
    return (max(values) - min(values)) / med


def case(lab, size, flows, pct, pairs, duration, warmup, lat_fraction, log, csv=None):
    """Both forwarders up (the tables loaded once), alternating pairs of runs
    at full speed, then one latency run each at the same rate; a dict of
    the figures."""
    fwd = {}
    try:
        for kind in ("fcredirect", "testpmd"):
            fwd[kind] = Forwarder(lab, kind, flows, pct)
        # a first run of each, not counted: the first frames through a
        # fresh memif connection and pool fault their pages in
        for kind in fwd:
            pg_run(lab, fwd[kind], size, flows, 0, 1, 0)
        runs = {"fcredirect": [], "testpmd": []}
        for i in range(pairs):
            order = ("fcredirect", "testpmd") if i % 2 == 0 else ("testpmd", "fcredirect")
            for kind in order:
                s = pg_run(lab, fwd[kind], size, flows, 0, duration, warmup)
                runs[kind].append(s)
                log("    %-10s run %d: rx %.3f Mpps, tx %.3f Mpps, lost %s (%s%%), "
                    "%.0f busy cycles/frame"
                    % (kind, i + 1, num(s, "rx_pps") / 1e6, num(s, "tx_pps") / 1e6,
                       s.get("lost"), s.get("loss_pct"), s["cycles"]))
        res = {}
        for kind, ss in runs.items():
            rx = [num(s, "rx_pps") for s in ss]
            med = statistics.median(rx)
            cyc = [s["cycles"] for s in ss]
            cmed = statistics.median(cyc)
            res[kind] = {"rate": med, "spread": spread(rx, med), "rates": rx,
                         "loss_pct": statistics.median(num(s, "loss_pct") for s in ss),
                         "cycles": cmed, "cycles_spread": spread(cyc, cmed)}
        lat_rate = lat_fraction * min(res["fcredirect"]["rate"], res["testpmd"]["rate"])
        for kind in ("testpmd", "fcredirect"):
            s = pg_run(lab, fwd[kind], size, flows, lat_rate, duration, warmup,
                       csv=csv if kind == "fcredirect" else None)
            res[kind]["lat_rate"] = lat_rate
            res[kind]["lat_p50_ns"] = num(s, "lat_p50_ns")
            res[kind]["lat_p99_ns"] = num(s, "lat_p99_ns")
            res[kind]["lat_samples"] = num(s, "lat_samples")
            res[kind]["lat_lost"] = num(s, "lost")
            log("    %-10s at %.3f Mpps: latency p50 %s ns, p99 %s ns, lost %s"
                % (kind, lat_rate / 1e6, s.get("lat_p50_ns"), s.get("lat_p99_ns"),
                   s.get("lost")))
        return res
    finally:
        for f in fwd.values():
            f.stop()


def dist_cycles(stats_text):
    """The distributor's busy cycles per frame from a `show fwd stats`."""
    m = re.search(r"distributor 0 \(lcore \d+\): frames (\d+), busy cycles/frame ([0-9.]+)",
                  stats_text)
    return float(m.group(2)) if m else float("nan")


def distributor_case(lab, size, flows, pct, workers, pairs, duration, warmup, log):
    """One RX queue per port dealt by a distributor (lcore 1, CPU 1) to
    `workers` workers (lcores 2.., sharing CPU 1 with it), against one
    worker polling the queues itself; alternating pairs at full speed."""
    lc = "0@0,1@1," + ",".join("%d@1" % (2 + i) for i in range(workers))
    fwd = {}
    ref, dist, cyc = [], [], []
    try:
        fwd[0] = Forwarder(lab, "fcredirect", flows, pct)
        fwd[1] = Forwarder(lab, "fcredirect", flows, pct, lc,
                           ["--distributor", "(0,0,1),(1,0,1)"])
        pg_run(lab, fwd[0], size, flows, 0, 1, 0)  # not counted, as in case()
        pg_run(lab, fwd[1], size, flows, 0, 1, 0, workers)
        for i in range(pairs):
            for which in ((0, 1) if i % 2 == 0 else (1, 0)):
                if which == 0:
                    s = pg_run(lab, fwd[0], size, flows, 0, duration, warmup)
                    ref.append(num(s, "rx_pps"))
                    log("    1 worker, no distributor run %d: rx %.3f Mpps"
                        % (i + 1, ref[-1] / 1e6))
                else:
                    s = pg_run(lab, fwd[1], size, flows, 0, duration, warmup, workers)
                    dist.append(num(s, "rx_pps"))
                    cyc.append(dist_cycles(s["stats"]))
                    log("    distributor + %d worker(s) run %d: rx %.3f Mpps, lost %s, "
                        "distributor %.0f cycles/frame, reordered %s"
                        % (workers, i + 1, dist[-1] / 1e6, s.get("lost"), cyc[-1],
                           s.get("rx_reordered")))
    finally:
        for f in fwd.values():
            f.stop()
    mr, md = statistics.median(ref), statistics.median(dist)
    return {"workers": workers, "ref": mr, "ref_spread": spread(ref, mr), "rate": md,
            "spread": spread(dist, md), "cycles": statistics.median(cyc)}
