# SPDX-License-Identifier: BSD-3-Clause
"""
Shared by the replication integration tests (tests/sync_*.py): run several
fcredirect processes on loopback, each with its own --file-prefix, UDP port
and net_pcap ports, drive each through its standard input and read what it
prints, poll for conditions with deadlines, count checks.

    import sync_lib as sl
    t = sl.Test("sync-xxx", fcredirect, fcoe_gen, budget_s=60)
    a = t.node("a", peers=["b"]); b = t.node("b", peers=["a"])
    a.start(); b.start()
    a.cmd("route add 0x010000/8 port 0 fpma")
    ok, ms, out = b.poll("route list", lambda o: "01.00.00/8" in o, 5)
    t.check(ok, "the route reached b")
    t.finish()                         # "N passed, M failed", exit status

Every wait has a deadline; the whole test has a budget (SIGALRM); every
process started is killed at exit (normal, exception, SIGTERM from meson,
the budget running out) and its DPDK runtime directory removed. The
temporary directory is kept when SYNC_KEEP=1.

Queries are delimited by a marker: after the command the test writes an
unknown command `sync-mark-N`; the program answers it with one line
"error: unknown command 'sync-mark-N' ...", which closes the answer.

Standard library only.
"""

import atexit
import hashlib
import hmac
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

import fcr_pipe

EAL_COMMON = ["--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
              "--log-level=lib.eal:error", "--log-level=pmd.net.pcap:error"]
# port 0 replays a whole fabric, the FCF's login replies among it: a fabric
# port, so the nodes learn bindings from those replies
APP_COMMON = ["-i", "--max-flows", "65536", "--max-bindings", "65536",
              "--max-redirects", "4096", "--fabric-ports", "0"]
# the hosts sit behind port 3, a fourth port that only sends: a frame is
# never sent back out of the fabric port it came in on (fabric_loop)
HOST_PORT = 3
NB_PORTS = 4

_live = []          # every Node with a process, for the cleanup
_tests = []


_helpers = []      # other processes (the relay), killed at exit too


def spawn(args, **kw):
    """Start a helper process; it is killed at exit whatever happens."""
    p = subprocess.Popen(args, **kw)
    _helpers.append(p)
    return p


def stop_helper(p, timeout=5.0):
    """SIGTERM, wait; SIGKILL if it lingers. Returns its standard output
    when it was a pipe."""
    out = ""
    if p.poll() is None:
        p.terminate()
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
    if p in _helpers:
        _helpers.remove(p)
    return out.decode() if isinstance(out, bytes) else (out or "")


def _cleanup_all():
    for n in list(_live):
        n.kill()
    for p in list(_helpers):
        if p.poll() is None:
            p.kill()
    for t in _tests:
        t.cleanup()


def _on_signal(signum, frame):
    what = "budget exceeded (SIGALRM)" if signum == signal.SIGALRM else \
        "signal %d" % signum
    print("  FAIL: %s: killing every process" % what, flush=True)
    _cleanup_all()
    for t in _tests:
        t.failed += 1
        print("%d passed, %d failed" % (t.passed, t.failed), flush=True)
    os._exit(1)


atexit.register(_cleanup_all)
for _s in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM, signal.SIGHUP):
    signal.signal(_s, _on_signal)


def free_udp_ports(n):
    """n distinct free UDP ports on 127.0.0.1 (bound to 0 and released)."""
    return free_ports(n, socket.SOCK_DGRAM)


def free_ports(n, kind):
    """n distinct free ports of socket type kind on 127.0.0.1."""
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, kind)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


class Test:
    def __init__(self, name, fcr, gen=None, budget_s=90):
        self.name = name
        self.fcr = fcr
        self.gen = gen
        for x in [fcr] + ([gen] if gen else []):
            if not os.access(x, os.X_OK):
                print("%s: %s is not an executable" % (name, x), file=sys.stderr)
                sys.exit(1)
        self.passed = 0
        self.failed = 0
        self.tmp = tempfile.mkdtemp(prefix="sync-test.")
        self.key = os.path.join(self.tmp, "key.bin")
        with open(os.open(self.key, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as f:
            f.write(os.urandom(32))
        self.nodes = {}
        self.t0 = time.monotonic()
        _tests.append(self)
        signal.alarm(budget_s)
        print("%s (temporary directory %s)" % (name, self.tmp), flush=True)

    # ------------------------------------------------------------ counts
    def check(self, cond, what, detail=None):
        if cond:
            self.passed += 1
            print("  PASS: %s" % what, flush=True)
        else:
            self.failed += 1
            print("  FAIL: %s" % what, flush=True)
            if detail:
                for line in str(detail).rstrip().splitlines()[:40]:
                    print("        %s" % line)
        return bool(cond)

    def info(self, what):
        print("  info: %s" % what, flush=True)

    def section(self, what):
        print("%s [%.1f s]" % (what, time.monotonic() - self.t0), flush=True)

    def finish(self):
        signal.alarm(0)
        for n in list(_live):
            n.quit(5)
        print("%d passed, %d failed" % (self.passed, self.failed), flush=True)
        self.cleanup()
        sys.exit(0 if self.failed == 0 else 1)

    def cleanup(self):
        for n in list(_live):
            n.kill()
        if self.tmp is None:
            return
        if os.environ.get("SYNC_KEEP") == "1" or self.failed:
            # kept on failure too: the logs tell what happened
            print("(kept %s)" % self.tmp, flush=True)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)
        self.tmp = None

    # ------------------------------------------------------------ nodes
    def node(self, name, **kw):
        n = Node(self, name, **kw)
        self.nodes[name] = n
        return n

    def path(self, name):
        return os.path.join(self.tmp, name)

    def gen_fabric(self, name, *args):
        """fcoe-gen: NAME.pcap, NAME.cmds, NAME.list in the temporary dir."""
        cmd = [self.gen, "--out", self.path(name + ".pcap"), "--commands",
               self.path(name + ".cmds"), "--list", self.path(name + ".list"),
               "--quiet", "--host-port", str(HOST_PORT)] + list(args)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        if p.returncode != 0:
            self.check(False, "fcoe-gen %s" % " ".join(args), p.stderr)
            return None
        self.info("fcoe-gen %s: %s" % (" ".join(args), p.stderr.strip()))
        with open(self.path(name + ".cmds")) as f:
            return [l.strip() for l in f if l.strip() and not l.startswith("#")]


class Node:
    """One fcredirect process: ports net_pcap0..3 (port 0, a fabric port,
    replays `rx` when given; port 3 is the hosts'; all four write
    NAME.o<port>.pcap), sync on 127.0.0.1:port with the test's key, peers
    given as 127.0.0.1 ports."""

    def __init__(self, t, name, port=None, peers=(), rx=None, extra=(), nb_ports=NB_PORTS,
                 vdevs=None, wrap=()):
        self.t = t
        self.name = name
        self.port = port
        self.peers = list(peers)
        self.rx = rx
        self.extra = list(extra)
        self.nb_ports = nb_ports
        self.vdevs = vdevs   # EAL --vdev values instead of the pcap ports
        self.wrap = list(wrap)  # what runs it: ["ip", "netns", "exec", NS] in a namespace
        self.env = None      # more environment for the next start
        self.p = None
        self.pipe = None
        self.life = 0

    def outpcap(self, port):
        return self.t.path("%s.%d.o%d.pcap" % (self.name, self.life, port))

    def start(self):
        self.life += 1
        self.prefix = "sync%d-%s-%d" % (os.getpid(), self.name, self.life)
        vdev = []
        for i in range(self.nb_ports):
            spec = "net_pcap%d," % i
            if i == 0 and self.rx:
                spec += "rx_pcap=%s," % self.rx
            spec += "tx_pcap=%s" % self.outpcap(i)
            vdev += ["--vdev", spec]
        if self.vdevs is not None:
            vdev = [a for v in self.vdevs for a in ("--vdev", v)]
        args = self.wrap + [self.t.fcr] + EAL_COMMON + ["--file-prefix", self.prefix] + vdev + \
            ["--"] + APP_COMMON
        if self.port is not None:
            args += ["--sync-bind", "127.0.0.1:%d" % self.port, "--sync-key-file", self.t.key]
        for pp in self.peers:
            args += ["--sync-peer", "127.0.0.1:%d" % pp]
        args += self.extra
        self.log = open(self.t.path("%s.%d.log" % (self.name, self.life)), "w")
        self.err = open(self.t.path("%s.%d.err" % (self.name, self.life)), "w")
        env = dict(os.environ, **self.env) if self.env else None
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=self.err, bufsize=0, env=env)
        self.pipe = fcr_pipe.Pipe(self.p, self.log, "sync-mark")
        self.started = time.monotonic()
        _live.append(self)
        return self

    def logged(self, text, timeout=0.0):
        """This life's log lines (fcr.<type>: ..., on standard error) that
        contain TEXT, waiting up to TIMEOUT seconds for one."""
        end = time.monotonic() + timeout
        while True:
            self.err.flush()
            with open(self.err.name, errors="replace") as f:
                found = [l.rstrip("\n") for l in f
                         if l.startswith("fcr.") and text in l]
            if found or time.monotonic() >= end:
                return found
            time.sleep(0.2)

    def log_tail(self, n=30):
        with open(self.err.name, errors="replace") as f:
            return "".join(f.readlines()[-n:])

    def alive(self):
        return self.p is not None and self.p.poll() is None

    def write(self, text):
        if not self.alive():
            raise RuntimeError("%s: the process has exited (status %s)" %
                               (self.name, self.p.returncode if self.p else None))
        try:
            self.p.stdin.write(text.encode())
            self.p.stdin.flush()
        except BrokenPipeError:
            raise RuntimeError("%s: the process has exited" % self.name)

    def query(self, cmd, timeout=10.0):
        """Send CMD (one or several lines); return what it printed (the
        lines up to the marker)."""
        return self.pipe.query(cmd, timeout, self.write,
                               lambda msg: RuntimeError("%s: %s" % (self.name, msg)))

    def cmd(self, line, timeout=10.0):
        """A command that must not fail; returns its output."""
        out = self.query(line, timeout)
        if "error:" in out:
            raise RuntimeError("%s: %r: %s" % (self.name, line, out.strip()))
        return out

    def cmds(self, lines, timeout=30.0):
        """Many commands at once (one marker at the end); error lines are
        returned for the caller to judge."""
        out = self.query("\n".join(lines), timeout)
        return [l for l in out.splitlines() if l.startswith("error")]

    def poll(self, cmd, pred, timeout, interval=0.002):
        """Query CMD until pred(output) holds or the deadline passes.
        Returns (ok, milliseconds waited, last output)."""
        t0 = time.monotonic()
        end = t0 + timeout
        while True:
            out = self.query(cmd)
            if pred(out):
                return True, (time.monotonic() - t0) * 1000.0, out
            if time.monotonic() >= end:
                return False, (time.monotonic() - t0) * 1000.0, out
            time.sleep(interval)

    def stats(self):
        return parse_sync_stats(self.query("show sync stats"))

    def wait_ready(self, timeout=10.0):
        ok, ms, out = self.poll("show sync stats",
                                lambda o: parse_sync_stats(o).get("ready") == 1,
                                timeout, interval=0.02)
        return ok, ms

    def quit(self, timeout=15.0):
        """quit; wait for the exit. Returns the exit status (None: killed)."""
        if self.p is None:
            return None
        rc = None
        if self.alive():
            try:
                self.write("quit\n")
                self.p.wait(timeout)
            except (RuntimeError, subprocess.TimeoutExpired):
                pass
        if self.p.poll() is None:
            self.kill()
        else:
            rc = self.p.returncode
            self._done()
        return rc

    def kill(self):
        if self.p is None:
            return
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(3)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait(3)
        self._done()

    def _done(self):
        if self in _live:
            _live.remove(self)
        for d in ("/var/run/dpdk", os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/nonexistent"), "dpdk")):
            shutil.rmtree(os.path.join(d, self.prefix), ignore_errors=True)
        # the reader thread writes the last lines
        with self.pipe.cv:
            self.pipe.cv.wait_for(lambda: self.pipe.eof, 10)

    def output(self):
        with self.pipe.cv:
            return "\n".join(self.pipe.lines) + "\n"


# ---------------------------------------------------------------- parsing

def parse_sync_stats(out):
    """`show sync stats` -> dict: counters, 'ready' (0/1), 'boot', 'node',
    'peers': list of dicts (addr, state, ready, resync, node, inflight)."""
    st = {"peers": []}
    # only the last report in `out`
    i = out.rfind("Sync statistics")
    if i < 0:
        return st
    out = out[i:]
    m = re.search(r"node ([0-9a-f]{4}) boot ([0-9a-f]{16})\s+(ready|not ready[^w]*)\s+window (\d+) ms", out)
    if m:
        st["node"] = m.group(1)
        st["boot"] = int(m.group(2), 16)
        st["ready"] = 1 if m.group(3) == "ready" else 0
        st["window"] = int(m.group(4))
    for k, v in re.findall(r"^\s+([a-z_]+)\s+(\d+)(?: ms)?$", out, re.M):
        st[k] = int(v)
    for m in re.finditer(r"^\s+(\d+\.\d+\.\d+\.\d+:\d+) (up|down|unknown)( ready| not-ready)?"
                         r"( \(resync to it in progress\))? node ([0-9a-f]{4}) inflight (\d+)",
                         out, re.M):
        st["peers"].append({"addr": m.group(1), "state": m.group(2),
                            "ready": (m.group(3) or "").strip() == "ready",
                            "resync": bool(m.group(4)), "node": m.group(5),
                            "inflight": int(m.group(6))})
    return st


def pcap_frames(path):
    """How many frames a pcap file holds: what `wait rx` waits for, a
    state, where `wait idle` would wait for a lull a loaded machine can
    make early."""
    with open(path, "rb") as f:
        b = f.read()
    o, n = 24, 0
    while o + 16 <= len(b):
        o += 16 + int.from_bytes(b[o + 8:o + 12], "little")
        n += 1
    return n


def lines_of(out, prefix):
    """The lines of a list command that describe entries (sorted), e.g.
    lines_of(out, 'binding '); a redirect's id, before_rule and not_ready
    (its slot here, frames this node forwarded plain before the rules or
    dropped as not ready) are left out: they are local."""
    return sorted(re.sub(r"( id \d+)? before_rule \d+ not_ready \d+$", "", l.strip())
                  for l in out.splitlines() if l.startswith(prefix))


def redirect_keys(out):
    """redirect list -> {(vlan, host, target): state}"""
    r = {}
    for m in re.finditer(r"^redirect vlan (\d+) host (\S+) target (\S+) vi (\S+) vt (\S+) (\w+)", out, re.M):
        r[(m.group(1), m.group(2), m.group(3))] = (m.group(4), m.group(5), m.group(6))
    return r


def flows_of(out):
    """show flows -> {(vlan, s_id, d_id): (leg, new_s_id, new_d_id, frames)}"""
    r = {}
    for line in out.splitlines():
        f = line.split()
        # vlan s_id d_id leg new_s_id new_d_id frames bytes [frames/s]
        if len(f) in (8, 9) and f[0].isdigit() and f[6].isdigit():
            r[(f[0], f[1], f[2])] = (f[3], f[4], f[5], int(f[6]))
    return r


def flows_count(out):
    """The count line of the last `show flows` ("N flows" / "... N flows in
    all"): the table's own count, or None."""
    m = re.findall(r"^(?:\.\.\. )?(\d+) flows(?: in all| shown of (\d+))?$", out, re.M)
    if not m:
        return None
    return int(m[-1][1] or m[-1][0])


def fwd_stats(out):
    """The last `show fwd stats` in out -> {name: number} (kinds, reasons,
    tables lcore counters; 'rx'/'tx'/'dropped' totals)."""
    i = out.rfind("Forward statistics")
    if i < 0:
        return {}
    out = out[i:]
    st = {}
    m = re.search(r"total\s+rx (\d+)\s+tx (\d+)\s+dropped (\d+)", out)
    if m:
        st["rx"], st["tx"], st["dropped"] = (int(x) for x in m.groups())
    for k, v in re.findall(r"^\s+([a-z_]+)\s+(\d+)\b", out, re.M):
        st.setdefault(k, int(v))
    return st


def wwpn(prefix, i):
    """A WWPN text: 2-byte prefix (e.g. 0x2100) then a 48-bit index."""
    b = struct.pack(">HHI", prefix, (i >> 32) & 0xFFFF, i & 0xFFFFFFFF)
    return ":".join("%02x" % x for x in b)


# ---------------------------------------------------------------- wire

class Wire:
    """Datagrams of lib/sync/fcr_sync_wire.h, sealed as libsodium's crypto_auth
    does (HMAC-SHA-512 truncated to 32 bytes) with the key app/sync_io.c
    load_key derives (BLAKE2b-256 of the key file's bytes)."""

    UPDATE, ACK, HELLO, BULK_START, BULK_END = 1, 2, 3, 4, 5
    F_READY, F_WANT_BULK = 1, 2
    HDR_LEN, TAG_LEN = 60, 32

    def __init__(self, key_file):
        with open(key_file, "rb") as f:
            self.key = hashlib.blake2b(f.read(), digest_size=32).digest()

    def tag(self, data):
        return hmac.new(self.key, data, hashlib.sha512).digest()[:32]

    def verify(self, dgram):
        return len(dgram) >= Wire.HDR_LEN + Wire.TAG_LEN and hmac.compare_digest(self.tag(dgram[:-32]), dgram[-32:])

    HDR = ">BBBBQHHIIQQQQ"   # after the magic: fcr_sync_wire.h, version 3

    @staticmethod
    def header(type_, flags, boot, node, nb, seq, ack_base=0, ack_bits=0,
               peer_boot=0, challenge=0x5eed, echo=0, version=3, magic=b"FCRS"):
        return magic + struct.pack(Wire.HDR, version, type_, flags, 0, boot, node, nb, seq,
                                   ack_base, ack_bits, peer_boot, challenge, echo)

    @staticmethod
    def parse_header(d):
        v, ty, fl, _, boot, node, nb, seq, ab, abits, pb, ch, echo = \
            struct.unpack_from(Wire.HDR, d, 4)
        return {"magic": d[:4], "version": v, "type": ty, "flags": fl, "boot": boot,
                "node": node, "nb": nb, "seq": seq, "ack_base": ab, "ack_bits": abits,
                "peer_boot": pb, "challenge": ch, "echo": echo}

    @staticmethod
    def varint(v):
        out = bytearray()
        while v >= 0x80:
            out.append((v & 0x7F) | 0x80)
            v >>= 7
        out.append(v)
        return bytes(out)

    @classmethod
    def rec_binding(cls, vlan, wwpn_int, fcid, origin, version):
        body = struct.pack(">HQ", vlan, wwpn_int) + fcid.to_bytes(3, "big") + \
            bytes([origin]) + cls.varint(version)
        return bytes([3, len(body)]) + body

    def seal(self, data):
        return data + self.tag(data)


# The state replication tests compare across nodes.

def fabric(n, vlan=20):
    """Routes, bindings and n redirects (all four ports bound) on VLAN vlan."""
    lines = ["route add 0x010000/8 port %d fpma" % HOST_PORT, "route add 0x410000/8 port 1 fpma",
             "route add 0x810000/8 port 2 fpma"]
    for i in range(n):
        for pfx, dom in ((0x2100, 0x01), (0x5006, 0x41), (0x2f01, 0x81), (0x2f02, 0x82)):
            lines.append("binding add vlan %d wwpn %s fcid 0x%02x00%02x" %
                         (vlan, wwpn(pfx, i), dom, i))
    for i in range(n):
        lines.append("redirect add vlan %d host %s target %s vi %s vt %s" %
                     (vlan, wwpn(0x2100, i), wwpn(0x5006, i), wwpn(0x2f01, i),
                      wwpn(0x2f02, i)))
    return lines


def state(n):
    """What a node holds, comparable across nodes: sorted lists of routes,
    bindings, redirects, and the flow table's own count."""
    return {"routes": lines_of(n.query("route list"), "route "),
            "bindings": lines_of(n.query("binding list"), "binding "),
            "redirects": lines_of(n.query("redirect list"), "redirect "),
            "flows": flows_count(n.query("show flows"))}


def diff(sa, sb):
    out = []
    for k in ("routes", "bindings", "redirects"):
        a, b = set(sa[k]), set(sb[k])
        out += ["only on the first: " + x for x in sorted(a - b)[:4]]
        out += ["only on the second: " + x for x in sorted(b - a)[:4]]
    if sa["flows"] != sb["flows"]:
        out.append("flows: %s vs %s" % (sa["flows"], sb["flows"]))
    return "\n".join(out)


def converge(t, a, b, what, timeout=8, until=None):
    """Poll until b holds what a holds at that moment (and, with until,
    until(that state) is true: what both must have come to); check and
    return b's state."""
    end = time.monotonic() + timeout
    t0 = time.monotonic()
    while True:
        want = state(a)
        got = state(b)
        if (got == want and (until is None or until(got))) or time.monotonic() > end:
            break
        time.sleep(0.02)
    t.check(got == want, "%s (%.0f ms): %d routes, %d bindings, %d redirects, %s flows" %
            (what, (time.monotonic() - t0) * 1000, len(got["routes"]), len(got["bindings"]),
             len(got["redirects"]), got["flows"]), diff(want, got))
    rules_only(t, [(a, state(a)), (b, got)])
    return got


def rules_only(t, nodes):
    """No traffic in this test: a node's flow entries are exactly the four
    rules of each active redirect."""
    bad = ["%s: %s flow entries, %d active redirects" %
           (n.name, s["flows"], sum(l.endswith(" active") for l in s["redirects"]))
           for n, s in nodes
           if s["flows"] != 6 * sum(l.endswith(" active") for l in s["redirects"])]
    t.check(not bad, "%s: flow entries are the 4 rules and 2 hidden pairs of each active "
            "redirect, no other" %
            " and ".join(n.name for n, _ in nodes),
            "\n".join(bad) + "\n(no traffic: any other entry is a deleted one brought back)")
