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
            return ["-m", str(mb), "--no-pci"]
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


def _wait_for(path, pattern, proc, timeout):
    """Until `pattern` appears in the file at `path` (the process alive)."""
    rx = re.compile(pattern, re.M)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open(path, errors="replace") as f:
                if rx.search(f.read()):
                    return True
        except FileNotFoundError:
            pass
        if proc.poll() is not None:
            return False
        time.sleep(0.1)
    return False


class Forwarder:
    """fcredirect or testpmd as the memif server of a fresh socket pair."""

    def __init__(self, lab, kind, flows, redirected_pct, lcores=None, extra=()):
        self.lab, self.kind = lab, kind
        self.sock = tempfile.mkdtemp(dir=lab.dir, prefix=kind + ".")
        self.log = os.path.join(self.sock, "fwd.log")
        self.prefix = lab.prefix(kind)
        logf = open(self.log, "w")
        if kind == "testpmd":
            argv = ["stdbuf", "-oL", lab.testpmd] + lab.mem_args(1024) + \
                ["-l", "0,1", "--file-prefix", self.prefix, "--log-level=lib.eal:error"] + \
                lab.memif_vdevs("server", self.sock) + \
                ["--", "-i", "--forward-mode=io", "--total-num-mbufs=8192"]
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=logf,
                                      stderr=subprocess.STDOUT, text=True)
            self.send("start")
            ready = r"^testpmd> "
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
                    "--cmdline-file", cmds, "--fabric-ports", "0"] + list(extra)
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=logf,
                                      stderr=subprocess.STDOUT, text=True)
            self.send("start")
            self.send("show fwd stats")
            ready = r"^  total "
        if not _wait_for(self.log, ready, self.p, 600):
            self.stop()
            raise RuntimeError("%s did not start; its log:\n%s" % (kind, self.tail()))

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
            self.p.wait(30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        for d in ("/var/run/dpdk", os.path.expanduser("~/.dpdk")):
            shutil.rmtree(os.path.join(d, self.prefix), ignore_errors=True)


def pg_run(lab, fwd, size, flows, rate, duration, warmup, rxq=1):
    """One generator run against the running forwarder `fwd`; its summary."""
    prefix = lab.prefix("pg")
    out = os.path.join(fwd.sock, "pg-%s.log" % prefix)
    argv = [lab.pg] + lab.mem_args(512) + ["-l", "0", "--file-prefix", prefix,
                                           "--log-level=lib.eal:error"] + \
        lab.memif_vdevs("client", fwd.sock) + \
        ["--", "--flows", str(flows), "--size", str(size), "--rate", str(int(rate)),
         "--duration", str(duration), "--warmup", str(warmup), "--stats-period", "0",
         "--link-wait", "60", "--drain", "1", "--linger", "2", "--rxq", str(rxq)]
    with open(out, "w") as f:
        p = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT)
    # The forwarder stops polling before the generator's ports go (DPDK
    # 22.11's memif server can fault when its peer leaves mid-poll).
    _wait_for(out, r"^summary lat_", p, duration + warmup + 120)
    fwd.send("stop")
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
    return s


def one(lab, kind, size, flows, pct, rate, duration, warmup, lcores=None, extra=(),
        stats=None, rxq=1):
    """One run on a fresh forwarder; its `show fwd stats` appended to
    stats (a list) when given."""
    fwd = Forwarder(lab, kind, flows, pct, lcores, extra)
    try:
        s = pg_run(lab, fwd, size, flows, rate, duration, warmup, rxq)
        if stats is not None:
            fwd.send("show fwd stats")
            _wait_for(fwd.log, r"(?s)Forward statistics.*Forward statistics.*tables \(sync", fwd.p, 30)
            with open(fwd.log, errors="replace") as f:
                stats.append(f.read().split("Forward statistics")[-1])
        return s
    finally:
        fwd.stop()


def spread(values, med):
    if not values or med == 0:
        return float("nan")
    return (max(values) - min(values)) / med


def case(lab, size, flows, pct, pairs, duration, warmup, lat_fraction, log):
    """Alternating pairs at full speed, then one alternating pair of latency
    runs; a dict of the figures."""
    runs = {"fcredirect": [], "testpmd": []}
    for i in range(pairs):
        order = ("fcredirect", "testpmd") if i % 2 == 0 else ("testpmd", "fcredirect")
        for kind in order:
            s = one(lab, kind, size, flows, pct, 0, duration, warmup)
            runs[kind].append(s)
            log("    %-10s run %d: rx %.3f Mpps, tx %.3f Mpps, lost %s (%s%%)"
                % (kind, i + 1, num(s, "rx_pps") / 1e6, num(s, "tx_pps") / 1e6,
                   s.get("lost"), s.get("loss_pct")))
    res = {}
    for kind, ss in runs.items():
        rx = [num(s, "rx_pps") for s in ss]
        med = statistics.median(rx)
        res[kind] = {"rate": med, "spread": spread(rx, med),
                     "loss_pct": statistics.median(num(s, "loss_pct") for s in ss)}
    lat_rate = lat_fraction * min(res["fcredirect"]["rate"], res["testpmd"]["rate"])
    for kind in ("testpmd", "fcredirect"):
        s = one(lab, kind, size, flows, pct, lat_rate, duration, warmup)
        res[kind]["lat_rate"] = lat_rate
        res[kind]["lat_p50_ns"] = num(s, "lat_p50_ns")
        res[kind]["lat_p99_ns"] = num(s, "lat_p99_ns")
        res[kind]["lat_samples"] = num(s, "lat_samples")
        res[kind]["lat_lost"] = num(s, "lost")
        log("    %-10s at %.3f Mpps: latency p50 %s ns, p99 %s ns, lost %s"
            % (kind, lat_rate / 1e6, s.get("lat_p50_ns"), s.get("lat_p99_ns"), s.get("lost")))
    return res
