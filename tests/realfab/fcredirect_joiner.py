# SPDX-License-Identifier: BSD-3-Clause
"""
fcredirect as the real-FCoE rig's joiner: one net_af_packet port per guest
NIC (its TAP) and one on the FCF's veth end, that last one the fabric port;
every edge port peered with it (FIP from the FCF reaches every ENode), a
route for the whole FCID space to the FCF (it forwards and zones the plain
frames; fcredirect sends what the FCF returns to the edge port where the
destination logged in).

    import lab, fcredirect_joiner as fj
    j = fj.FcredirectJoiner("build/app/fcredirect")
    with lab.Lab(joiner=j) as L:
        ...
        L.join()                     # fcredirect started, routes given, `start`
        j.cmd("redirect add vlan 0 host ... target ... vi ... vt ...")
        j.wait_redirect(host_wwpn, "active")
        j.fwd_stats()["drops"]

Its standard output (every answer) and standard error (its log) go to
fcredirect.out and fcredirect.err in the lab's directory. Commands go to
its standard input; an answer ends where the program rejects a marker
command that follows it ("error: unknown command 'realfab-mark-N'").
"""

import os
import re
import shutil
import subprocess
import sys
import time
import traceback

import lab

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import fcr_pipe  # noqa: E402  (tests/fcr_pipe.py)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BINARY = os.path.join(HERE, "..", "..", "build", "app", "fcredirect")
# 2500-byte frames: 2304-byte ring frames (a full FCoE frame and the
# TPACKET header fit), blocks a multiple of them; through the qdisc, so that
# a capture on the interface sees what fcredirect sends too
AF_PACKET_OPTS = "framesz=2304,blocksz=36864,framecnt=512,qdisc_bypass=0"
LEGS = ("host_to_target", "vi_to_target", "target_to_host", "vt_to_host")


class FcredirectError(lab.LabError):
    pass


def fcredirect_binary(path=None):
    """The fcredirect to run: path, else $FCR_FCREDIRECT, else the source
    tree's build/app/fcredirect."""
    p = os.path.abspath(path or os.environ.get("FCR_FCREDIRECT") or DEFAULT_BINARY)
    if not os.access(p, os.X_OK):
        raise FcredirectError("no fcredirect at %s (build it, or give its path)" % p)
    return p


def parse_fwd_stats(out):
    """`show fwd stats` (the last report in out) -> dict(ports={p: (rx, tx)},
    total=(rx, tx, dropped), kinds={name: n} (plain, the four legs,
    passthrough, flow_miss, els_ids, "els_unread 0xCC"), drops={reason: n}
    (only those not zero), tables={name: n}, text)."""
    i = out.rfind("Forward statistics")
    text = out[i:] if i >= 0 else out
    st = dict(ports={}, total=None, kinds={}, drops={}, tables={}, text=text)
    section = None
    for line in text.splitlines():
        s = line.strip()
        m = re.match(r"port\s+(\d+)\s+rx\s+(\d+)\s+tx\s+(\d+)", s)
        if m:
            st["ports"][int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
            continue
        m = re.match(r"total\s+rx\s+(\d+)\s+tx\s+(\d+)\s+dropped\s+(\d+)", s)
        if m:
            st["total"] = tuple(int(x) for x in m.groups())
            continue
        if s.startswith("sent by kind"):
            section = "kinds"
        elif s.startswith("drops by reason"):
            section = "drops"
        elif s.startswith("workers"):
            section = None
        elif s.startswith("tables"):
            section = "tables"
        elif section:
            m = re.match(r"^([a-z_0-9]+(?: 0x[0-9a-f]{2})?)\s+(\d+)\b", s)
            if m:
                st[section][m.group(1)] = int(m.group(2))
    return st


class FcredirectJoiner(lab.Joiner):
    """Runs fcredirect on the lab's ports. binary: the program (default
    fcredirect_binary()); routes: the commands given before `start`, or a
    function of port_of ({role: port}) giving them (default: 0x000000/1 and
    0x800000/1 to the fabric port, fpma); roles "fcf", "fcf2" are fabric
    ports, fabric_of maps an edge role to its FCF's (its pass-through peer;
    default "fcf"); series_roles are series ports; name names its files and
    --file-prefix; extra:
    more application options; nice: the nice value of its threads once
    forwarding (default $FCR_REALFAB_FCR_NICE, else 0). Its two lcores
    busy-poll: on an idle 2-core machine nice 19 lets the TCG guests run
    twice as fast, but beside other load its login holds then outlast
    libfc's 2 s FLOGI timeout."""

    def __init__(self, binary=None, routes=None, extra=(), eal_extra=(), nice=None,
                 name="fcredirect", series_roles=(), fabric_of=None):
        self.name = name                  # its files in the lab's dir, its --file-prefix
        self.series_roles = list(series_roles)    # roles cabled to another node's fabric port
        self.fabric_of = dict(fabric_of or {})    # edge role -> its FCF's role (default "fcf")
        self.binary = fcredirect_binary(binary)
        self.nice = int(os.environ.get("FCR_REALFAB_FCR_NICE", "0")) if nice is None else nice
        self.routes = routes
        self.extra = list(extra)
        self.eal_extra = list(eal_extra)
        self.startup = []       # commands after the routes, before `start`, at each start
        self.p = None
        self.pipe = None
        self.port_of = {}       # role -> port number
        self.prefix = None
        self.starts = 0         # restarts so far: each start's own .out/.err

    # --- the process -------------------------------------------------------
    def start(self, L, ports):
        self.lab = L
        self.ports = ports
        fabrics = sorted(r for r in ports if r.startswith("fcf"))
        edge = [r for r in ports if r not in fabrics]
        if "fcf" not in ports:
            raise FcredirectError("no FCF port to be the fabric port")
        order = edge + fabrics
        self.port_of = {r: i for i, r in enumerate(order)}
        self.fabric = self.port_of["fcf"]
        self.prefix = "realfab-%d-%s" % (os.getpid(), self.name)
        vdev = []
        for i, r in enumerate(order):
            vdev += ["--vdev", "net_af_packet%d,iface=%s,%s" % (i, ports[r], AF_PACKET_OPTS)]
        passthrough = ",".join("%d:%d" % (self.port_of[r],
                                          self.port_of[self.fabric_of.get(r, "fcf")])
                               for r in edge)
        args = [self.binary, "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
                "--file-prefix", self.prefix, "--log-level=lib.eal:error"] + \
            self.eal_extra + vdev + \
            ["--", "-i", "--fabric-ports", ",".join(str(self.port_of[f]) for f in fabrics),
             "--passthrough", passthrough] + \
            (["--series-ports", ",".join(str(self.port_of[r]) for r in self.series_roles)]
             if self.series_roles else []) + self.extra
        run = self.name + ("-%d" % self.starts if self.starts else "")
        self.out_path = os.path.join(L.dir, run + ".out")
        self.err_path = os.path.join(L.dir, run + ".err")
        with open(os.path.join(L.dir, self.name + ".cmdline"), "w") as f:
            f.write(" ".join(args) + "\n")
        # DPDK's af_packet names each socket's fanout group (its pid) ^
        # (ifindex): a second process on other interfaces can draw a group
        # the first holds (EINVAL); another pid draws another
        for attempt in range(8):
            self.outf = open(self.out_path, "w")
            self.errf = open(self.err_path, "w")
            self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self.errf, bufsize=0,
                                      preexec_fn=lab._die_with_parent)
            self.pipe = fcr_pipe.Pipe(self.p, self.outf, "realfab-mark")
            try:
                self.query("show config", timeout=60)    # answers: the ports are up
                break
            except FcredirectError:
                with open(self.err_path) as f:
                    if "PACKET_FANOUT" not in f.read() or attempt == 7:
                        raise
                self.p.wait()
                self.outf.close()
                self.errf.close()
                lab.log("%s: af_packet fanout group taken, started again" % self.name)
        for r, i in self.port_of.items():
            # af_packet ports take their interface's MAC
            info = self.query("show port info %d" % i)
            with open("/sys/class/net/%s/address" % ports[r]) as f:
                mac = f.read().strip()
            if mac.lower() not in info.lower():
                raise FcredirectError("port %d is not on %s (%s):\n%s" % (i, ports[r], mac, info))
        routes = self.routes(self.port_of) if callable(self.routes) else \
            self.routes if self.routes is not None else [
            "route add 0x000000/1 port %d fpma" % self.fabric,
            "route add 0x800000/1 port %d fpma" % self.fabric]
        for line in routes + self.startup + ["start"]:
            self.cmd(line)
        if self.nice:
            # every thread (nice is per thread), once started: EAL's set-up at
            # full speed
            for tid in os.listdir("/proc/%d/task" % self.p.pid):
                os.setpriority(os.PRIO_PROCESS, int(tid), self.nice)
        lab.log("%s joins %s (fabric port %d%s; out %s)" % (
            self.name, " ".join("%d=%s" % (self.port_of[r], r) for r in order), self.fabric,
            "".join(", series port %d" % self.port_of[r] for r in self.series_roles),
            self.out_path))

    def alive(self):
        return self.p is not None and self.p.poll() is None

    def _write(self, text):
        if not self.alive():
            raise FcredirectError("fcredirect has exited (status %s); see %s" % (
                self.p.returncode if self.p else None, self.err_path))
        try:
            self.p.stdin.write(text.encode())
            self.p.stdin.flush()
        except BrokenPipeError:
            raise FcredirectError("fcredirect has exited; see %s" % self.err_path)

    def query(self, line, timeout=30.0):
        """Sends a command; returns what it printed."""
        return self.pipe.query(line, timeout, self._write,
                               lambda msg: FcredirectError("fcredirect %s; see %s"
                                                           % (msg, self.err_path)))

    def cmd(self, line, timeout=30.0):
        """A command that must not fail: its output (FcredirectError on an
        `error:` line)."""
        out = self.query(line, timeout)
        if re.search(r"^error:", out, re.M):
            raise FcredirectError("%r: %s" % (line, out.strip()))
        return out

    def wait_output(self, line, pred, timeout=lab.DEADLINE, what=None, interval=0.2):
        """Runs line until pred(output) is true; returns that output."""
        last = [""]

        def ok():
            last[0] = self.query(line)
            return last[0] if pred(last[0]) else None
        try:
            return lab.wait_for(ok, timeout, what or ("%r to answer as wanted" % line), interval)
        except lab.LabError as e:
            raise FcredirectError("%s; last answer:\n%s" % (e, last[0]))

    def log_lines(self, text):
        """fcredirect's log lines (standard error) holding text."""
        self.errf.flush()
        with open(self.err_path, errors="replace") as f:
            return [l.rstrip("\n") for l in f if text in l]

    # --- what tests read ---------------------------------------------------
    def fwd_stats(self):
        return parse_fwd_stats(self.query("show fwd stats"))

    def drops(self):
        return self.fwd_stats()["drops"]

    def redirects(self):
        """redirect list -> (list of dicts(line, host, target, vi, vt, state,
        before_rule, not_ready), (count, active))."""
        out = self.query("redirect list")
        rs = []
        for l in out.splitlines():
            # a redirect of a service-node cluster names it after its member
            m = re.search(r"host ([0-9a-f:]{23}) target ([0-9a-f:]{23}) vi ([0-9a-f:]{23}) "
                          r"vt ([0-9a-f:]{23})(?: cluster \S+(?: restartable)?)?\s+(\w+)", l)
            if not m:
                continue
            d = dict(line=l, host=m.group(1), target=m.group(2), vi=m.group(3), vt=m.group(4),
                     state=m.group(5))
            for k in ("before_rule", "not_ready"):
                n = re.search(r"\b%s (\d+)" % k, l)
                d[k] = int(n.group(1)) if n else None
            rs.append(d)
        m = re.search(r"(\d+) redirects?, (\d+) active", out)
        return rs, (int(m.group(1)), int(m.group(2))) if m else (None, None)

    def redirect(self, host_wwpn):
        return next((r for r in self.redirects()[0] if r["host"] == host_wwpn.lower()), None)

    def wait_redirect(self, host_wwpn, state, timeout=lab.DEADLINE):
        """Until the redirect of host_wwpn is in state; its dict."""
        last = [None]

        def ok():
            last[0] = self.redirect(host_wwpn)
            return last[0] if last[0] and last[0]["state"] == state else None
        try:
            return lab.wait_for(ok, timeout, "the redirect of %s to be %s" % (host_wwpn, state),
                                0.2)
        except lab.LabError as e:
            raise FcredirectError("%s; last: %s" % (e, last[0] and last[0]["line"]))

    def bindings(self):
        """binding list -> {(vlan, wwpn): (fcid, origin)}."""
        out = self.query("binding list")
        b = {}
        for l in out.splitlines():
            m = re.search(r"vlan (\d+)\s+wwpn ([0-9a-f:]{23})\s+fcid (\S+)\s+(\w+)", l)
            if m:
                b[(int(m.group(1)), m.group(2))] = (m.group(3), m.group(4))
        return b

    # --- the end -----------------------------------------------------------
    def restart(self, kill=True, between=None):
        """kill -9 (kill) or quit fcredirect, run between() (e.g. remove its
        state file), then start it again on the same ports with the same
        arguments and commands, as a service's restart does. Its output goes
        to NAME-<n>.out/.err."""
        if kill and self.alive():
            self.p.kill()
            self.p.wait(10)
        self.stop()
        if between is not None:
            between()
        self.starts += 1
        self.start(self.lab, self.ports)

    def stop(self):
        """quit (fcredirect prints its statistics), then a kill if it lingers."""
        if self.p is None:
            return
        try:
            if self.p.poll() is None:
                try:
                    self.p.stdin.write(b"quit\n")
                    self.p.stdin.flush()
                except OSError:
                    pass
                try:
                    self.p.wait(15)
                except subprocess.TimeoutExpired:
                    self.p.terminate()
                    try:
                        self.p.wait(5)
                    except subprocess.TimeoutExpired:
                        self.p.kill()
                        self.p.wait(5)
        except Exception:
            pass
        if self.pipe is not None:
            # the reader writes the last lines
            with self.pipe.cv:
                self.pipe.cv.wait_for(lambda: self.pipe.eof, 10)
        for f in (getattr(self, "outf", None), getattr(self, "errf", None)):
            try:
                f and f.close()
            except Exception:
                pass
        for d in ("/var/run/dpdk", os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/nonexistent"),
                                                "dpdk")):
            if self.prefix:
                shutil.rmtree(os.path.join(d, self.prefix), ignore_errors=True)
        self.p = None


class SeriesJoiner(lab.Joiner):
    """Two fcredirect nodes in series: node A joins the roles in `near`
    (its edge ports) to its fabric port, a veth cabled to node B's series
    port ("a"); node B joins that and the other roles to the FCF."""

    def __init__(self, near, binary=None, **kw):
        self.near = list(near)
        self.a = FcredirectJoiner(binary, name="fcredirect-a", **kw)
        self.b = FcredirectJoiner(binary, name="fcredirect-b", series_roles=["a"], **kw)

    def start(self, L, ports):
        a_end, b_end = L.prefix + "sa", L.prefix + "sb"
        lab.sh("ip", "link", "add", a_end, "type", "veth", "peer", "name", b_end)
        L.links.append(a_end)
        L._link_up(a_end)
        L._link_up(b_end)
        far = {r: i for r, i in ports.items() if r not in self.near and r != "fcf"}
        self.b.start(L, dict(far, a=b_end, fcf=ports["fcf"]))
        self.a.start(L, dict({r: ports[r] for r in self.near}, fcf=a_end))

    def stop(self):
        self.a.stop()
        self.b.stop()


def free_udp_port():
    """A UDP port on 127.0.0.1 no one holds now."""
    import socket
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HaJoiner(lab.Joiner):
    """An HA pair cabled alike (docs/deployment.md, "An HA pair"): every
    station's link and the FCF's reach port N of both nodes through a
    failover switch, here a Linux bridge per link with a veth to each
    node, of which one is up. Node A (active) and node B (standby)
    replicate with --sync-same-ports, each with its state file (as the
    appliance runs); B's links stay down until take_over() kills A and
    moves every link to B, as a failover switch does when the active node
    dies. a.restart() then brings A back as the standby (its links stay
    down)."""

    def __init__(self, binary=None, **kw):
        self.kw = kw
        self.binary = binary
        self.a = self.b = None
        self.links = []       # (bridge end to A, bridge end to B) per link

    def start(self, L, ports):
        self.lab = L
        key = os.path.join(L.dir, "sync.key")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
            f.write(os.urandom(32))
        pa, pb = free_udp_port(), free_udp_port()
        a_ports, b_ports = {}, {}
        for i, (role, ifname) in enumerate(sorted(ports.items())):
            br = "%sh%d" % (L.prefix, i)
            lab.sh("ip", "link", "add", br, "type", "bridge", "stp_state", "0",
                   "forward_delay", "0", "mcast_snooping", "0")
            L.links.append(br)
            L.no_ipv6(br)
            lab.sh("ip", "link", "set", ifname, "master", br)
            ends = []
            for side, own in (("a", a_ports), ("b", b_ports)):
                near, far = "%s%s%d" % (L.prefix, side, i), "%s%s%d" % (L.prefix, side.upper(), i)
                lab.sh("ip", "link", "add", near, "type", "veth", "peer", "name", far)
                L.links.append(near)
                lab.sh("ip", "link", "set", near, "master", br)
                L._link_up(far)
                own[role] = far
                ends.append(near)
            L._link_up(ends[0])
            L.no_ipv6(ends[1])
            lab.sh("ip", "link", "set", ends[1], "mtu", str(lab.MTU))   # down: the standby's
            L._link_up(br)
            self.links.append(tuple(ends))
        # what reaches the standby's ports (the lab's folder): with its links
        # down, nothing should
        self.b_captures = {role: L.capture(far) for role, far in b_ports.items()}
        common = ["--sync-key-file", key, "--sync-same-ports", "--sync-window-ms", "20"]
        self.a = FcredirectJoiner(self.binary, name="fcredirect-a", extra=common + [
            "--sync-bind", "127.0.0.1:%d" % pa, "--sync-peer", "127.0.0.1:%d" % pb,
            "--state-file", os.path.join(L.dir, "a.state")], **self.kw)
        self.b = FcredirectJoiner(self.binary, name="fcredirect-b", extra=common + [
            "--sync-bind", "127.0.0.1:%d" % pb, "--sync-peer", "127.0.0.1:%d" % pa,
            "--state-file", os.path.join(L.dir, "b.state")], **self.kw)
        self.b.start(L, b_ports)
        self.a.start(L, a_ports)
        lab.log("HA pair: A active on %s, B standby on %s" % (
            " ".join(a for a, _ in self.links), " ".join(b for _, b in self.links)))

    def take_over(self):
        """A dies (SIGKILL) and the failover switch moves every link to B."""
        self.a.p.kill()
        self.a.p.wait(10)
        for a_end, b_end in self.links:
            lab.sh("ip", "link", "set", a_end, "down")
        for a_end, b_end in self.links:
            lab.sh("ip", "link", "set", b_end, "up")
        lab.log("HA pair: A killed, links moved to B")

    def stop(self):
        for j in (self.a, self.b):
            if j is not None:
                j.stop()


class InsertJoiner(lab.Joiner):
    """A plain Linux bridge first (the path before fcredirect is there);
    insert() removes it and starts fcredirect on the same links, as when
    fcredirect is cabled into a path whose ENodes are logged in already.
    j: that fcredirect (a FcredirectJoiner)."""

    def __init__(self, binary=None, **kw):
        self.bridge = lab.BridgeJoiner()
        self.j = FcredirectJoiner(binary, **kw)

    def start(self, L, ports):
        self.lab, self.ports = L, ports
        self.bridge.start(L, ports)

    def insert(self, between=None):
        """between(): run once the bridge is gone, before fcredirect starts."""
        self.bridge.stop()
        if between is not None:
            between()
        self.j.start(self.lab, self.ports)

    def stop(self):
        self.j.stop()
        self.bridge.stop()


def test_main(run):
    """A test program's main: run(checks, binary, timings) with the
    fcredirect binary (argv[1], else fcredirect_binary()); prints the
    closing line, returns the exit status."""
    c = lab.Checks()
    t0 = time.monotonic()
    timings = {}
    try:
        binary = fcredirect_binary(sys.argv[1] if len(sys.argv) > 1 else None)
        print("fcredirect: %s" % binary, flush=True)
        run(c, binary, timings)
    except Exception:
        traceback.print_exc()
        c.check("lab setup and teardown", False)
    timings["total"] = time.monotonic() - t0
    return c.report(timings)
