# SPDX-License-Identifier: BSD-3-Clause
"""
A rig of real Linux FCoE endpoints: QEMU guests (Debian 12's 6.1 kernel
under TCG, open-fcoe/libfc initiators and LIO tcm_fc targets) on host TAPs,
a Python FCF (fcf.py) on a veth, and a pluggable "joiner" that connects the
TAPs and the FCF's veth (a Linux bridge by default; fcredirect later).

    import lab
    with lab.Lab() as L:                      # joiner=lab.BridgeJoiner()
        tgt = L.add_guest("target")
        ini = L.add_guest("initiator")
        fcf = L.start_fcf()
        L.join()                              # joiner.start(L, L.ports())
        L.boot()
        tgt.lio_target([ini.wwpn_text])
        tgt.fcoe_up(); tgt.wait_online()
        ini.fcoe_up(); ini.wait_online(); ini.wait_disk("sda")

Every wait is for a state, with a deadline. Everything the lab made (QEMU,
the FCF, TAPs, veths, bridge) is removed when it closes, on failure too.
Root only. Interface names start with the run's prefix "fr<pid in base 36>",
so runs can coexist and a dead run's leftovers are recognised and removed.
"""

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import ctypes
import hashlib

HERE = os.path.dirname(os.path.abspath(__file__))
DEADLINE = float(os.environ.get("FCR_REALFAB_DEADLINE", "120"))
MTU = 2500
FCF_MAC = "0e:fc:00:ff:ff:fe"
NAME_RE = re.compile(r"^fr([0-9a-z]{1,6})(t\d+|fa|fb|fc|fd|br|sa|sb)$")
# in a run's directory kept for its logs (a failed run, FCR_REALFAB_KEEP): no
# later run removes it as stale
KEPT = "KEPT"


class LabError(Exception):
    pass


class LabTimeout(LabError):
    """What a guest was waited for did not come in time."""


class Checks:
    """A test's checks: each printed PASS or FAIL with the time since the
    harness started; report() prints the closing line the runner reads."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print("%s: %s%s [%.1f s]" % ("PASS" if ok else "FAIL", name,
                                     (" (%s)" % detail) if detail else "",
                                     time.monotonic() - T0), flush=True)
        return ok

    def report(self, timings):
        """The timings and `N passed, N failed`; the exit status."""
        print("timings: " + " ".join("%s=%.1fs" % kv for kv in timings.items()))
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0

def log(msg):
    print("[lab %7.2f] %s" % (time.monotonic() - T0, msg), flush=True)


T0 = time.monotonic()


def sh(*cmd, check=True, quiet=False):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and r.returncode:
        raise LabError("%s: %s" % (" ".join(cmd), r.stderr.strip()))
    return r.stdout


def wait_for(pred, timeout=DEADLINE, what="condition", interval=0.1):
    """pred() until it returns a true value (returned); LabError at the deadline."""
    end = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() >= end:
            raise LabError("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(interval)


def _die_with_parent():
    # QEMU and the FCF must not outlive a harness killed with SIGKILL
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG


def base36(n):
    s = ""
    while True:
        n, r = divmod(n, 36)
        s = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + s
        if not n:
            return s


def remove_stale():
    """Delete interfaces left by runs whose process is gone."""
    for name in os.listdir("/sys/class/net"):
        m = NAME_RE.match(name)
        if m and not os.path.exists("/proc/%d" % int(m.group(1), 36)):
            sh("ip", "link", "del", name, check=False)
    for d in os.listdir("/tmp"):
        m = re.match(r"^fcr-realfab-fr([0-9a-z]{1,6})$", d)
        if m and not os.path.exists("/proc/%d" % int(m.group(1), 36)) and \
                not os.path.exists(os.path.join("/tmp", d, KEPT)):
            shutil.rmtree(os.path.join("/tmp", d), ignore_errors=True)


def mac_int(mac):
    return int(mac.replace(":", ""), 16)


def wwn_text(v):
    return ":".join("%02x" % b for b in v.to_bytes(8, "big"))


def pattern(size, start):
    """What Guest.write_read_check writes: the 9-digit numbers from start,
    one a line (busybox seq: awk is 6 times slower under TCG)."""
    count = size // 10 + 1
    return b"".join(b"%d\n" % i for i in range(start, start + count))[:size]


def tshark_check(pcap):
    """Decodes a capture with Wireshark's FIP/FCoE/FC dissectors, an
    independent check of the frames' bytes: dict(frames, fip, fcoe,
    crc_good, problems=[lines of malformed frames, expert warnings and
    errors, FCoE frames whose CRC is not good])."""
    def tshark(*a):
        return subprocess.run(["tshark", "-r", pcap] + list(a), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True).stdout
    crc = tshark("-Y", "fcoe", "-T", "fields", "-e", "fcoe.crc.status").split()
    fip = len(tshark("-Y", "fip", "-T", "fields", "-e", "frame.number").split())
    problems = tshark("-Y", "_ws.malformed || _ws.expert.severity >= 0x600000 || "
                      "(fcoe && fcoe.crc.status != 1)").splitlines()
    frames = len(tshark("-T", "fields", "-e", "frame.number").split())
    return dict(frames=frames, fip=fip, fcoe=len(crc), crc_good=crc.count("1"),
                problems=problems)


def need_tshark():
    """Installs tshark (Debian's package) if it is missing."""
    if shutil.which("tshark") and shutil.which("dumpcap"):
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    r = subprocess.run(["apt-get", "install", "-y", "-q", "tshark"], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode:
        subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-q", "tshark"], env=env, check=True,
                       stdout=subprocess.DEVNULL)


# --- joiners ----------------------------------------------------------------

class Joiner:
    """What connects the guests' TAPs and the FCF's veth end.

    start(lab, ports) is called once every TAP and the FCF's veth exist (up,
    MTU set) and before any guest boots; ports maps a role to an interface
    name: each guest's name (e.g. "initiator", "target") to its TAP, and
    "fcf" to the veth end facing the FCF. stop() undoes start; it is called
    on every exit path and must not raise."""

    def start(self, lab, ports):
        raise NotImplementedError

    def stop(self):
        pass


class BridgeJoiner(Joiner):
    """A plain Linux bridge (no STP, no forwarding delay, no IPv6)."""

    def start(self, lab, ports):
        self.name = lab.prefix + "br"
        sh("ip", "link", "add", self.name, "type", "bridge", "stp_state", "0",
           "forward_delay", "0", "mcast_snooping", "0")
        lab.no_ipv6(self.name)
        for ifname in ports.values():
            sh("ip", "link", "set", ifname, "master", self.name)
        sh("ip", "link", "set", self.name, "mtu", str(MTU), "up")
        log("bridge %s joins %s" % (self.name, " ".join("%s=%s" % kv for kv in ports.items())))

    def stop(self):
        if getattr(self, "name", None):
            sh("ip", "link", "del", self.name, check=False)


# --- the FCF ------------------------------------------------------------------

class Fcf:
    """fcf.py in its own process; state through its control socket."""

    def __init__(self, lab, iface, mac=FCF_MAC, zones=None, assign=None, fka_ms=8000,
                 extra=(), name="fcf"):
        self.lab, self.mac, self.name = lab, mac, name
        self.control = os.path.join(lab.dir, name + ".sock")
        self.log_path = os.path.join(lab.dir, name + ".log")
        cmd = [sys.executable, os.path.join(HERE, "fcf.py"), "--iface", iface, "--mac", mac,
               "--control", self.control, "--fka-ms", str(fka_ms)]
        for z in zones or []:
            cmd += ["--zone", ",".join(z)]
        for w, f in (assign or {}).items():
            cmd += ["--assign", "%s=%06x" % (w, f)]
        cmd += list(extra)
        self.logf = open(self.log_path, "w")
        self.proc = subprocess.Popen(cmd, stdout=self.logf, stderr=subprocess.STDOUT,
                                     preexec_fn=_die_with_parent)
        wait_for(lambda: self._alive() and os.path.exists(self.control), 30, "the FCF to start")

    def _alive(self):
        if self.proc.poll() is not None:
            raise LabError("the FCF exited (%s); see %s" % (self.proc.returncode, self.log_path))
        return True

    def request(self, req):
        self._alive()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(10)
            s.connect(self.control)
            s.sendall(json.dumps(req).encode() + b"\n")
            buf = b""
            while not buf.endswith(b"\n"):
                d = s.recv(65536)
                if not d:
                    break
                buf += d
        return json.loads(buf)

    def state(self):
        return self.request({"cmd": "state"})

    def port(self, wwpn):
        w = wwpn.lower()
        return next((p for p in self.state()["ports"] if p["wwpn"] == w), None)

    def wait_port(self, wwpn, fcp=True, scr=True, timeout=DEADLINE):
        """Until the port WWPN (aa:bb:...) is logged in (and has registered
        FCP with the name server, and done SCR): its state dict."""
        def ok():
            p = self.port(wwpn)
            return p if p and (not fcp or p["fcp"]) and (not scr or p["scr"]) else None
        return wait_for(ok, timeout, "port %s at the FCF" % wwpn)

    def wait_gone(self, wwpn, timeout=DEADLINE):
        return wait_for(lambda: self.port(wwpn) is None, timeout, "port %s to log out" % wwpn)

    def set_zones(self, zones):
        return self.request({"cmd": "zones", "zones": zones})

    def cvl(self, wwpn):
        return self.request({"cmd": "cvl", "wwpn": wwpn})

    def drops(self):
        return self.state()["drops"]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.logf.close()


# --- guests -------------------------------------------------------------------

class Nic:
    """One virtio NIC of a guest (ethN inside) on its TAP, and the names
    open-fcoe gives an FCoE port on it."""

    def __init__(self, lab, index, ifname):
        self.index, self.ifname = index, ifname
        self.mac = "52:54:00:fc:%02x:%02x" % (lab.pid_byte, index)
        self.tap = "%st%d" % (lab.prefix, index)
        self.wwnn = 0x1000 << 48 | mac_int(self.mac)   # open-fcoe's names from the MAC
        self.wwpn = 0x2000 << 48 | mac_int(self.mac)
        self.wwpn_text = wwn_text(self.wwpn)


class Guest:
    """One QEMU guest on its TAP (or TAPs: nics); commands through its
    serial channel. mac, tap, wwpn, wwnn, wwpn_text are eth0's; nics[i] has
    those of eth<i>."""

    def __init__(self, lab, name, index, mem=256, nics=1):
        self.lab, self.name, self.index, self.mem = lab, name, index, mem
        self.nics = [Nic(lab, index + i, "eth%d" % i) for i in range(nics)]
        n0 = self.nics[0]
        self.mac, self.tap, self.wwnn, self.wwpn, self.wwpn_text = \
            n0.mac, n0.tap, n0.wwnn, n0.wwpn, n0.wwpn_text
        self.sock_path = os.path.join(lab.dir, name + ".sock")
        self.console = os.path.join(lab.dir, name + ".console")
        self.proc = None
        self.sock = None
        self.buf = b""
        self.seq = 0

    def start(self, kernel, initrd, append=""):
        cmdline = "console=ttyS0 panic=-1 loglevel=4 ipv6.disable=1 fcr.mtu=%d fcr.name=%s " \
            "fcr.nics=%d %s" % (MTU, self.name, len(self.nics), append)
        cmd = ["qemu-system-x86_64", "-accel", "tcg", "-m", str(self.mem), "-smp", "1",
               "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot",
               "-kernel", kernel, "-initrd", initrd, "-append", cmdline,
               "-serial", "file:" + self.console,
               "-chardev", "socket,id=ctl,path=%s,server=on,wait=on" % self.sock_path,
               "-serial", "chardev:ctl",
               ]
        for i, n in enumerate(self.nics):
            cmd += ["-netdev", "tap,id=n%d,ifname=%s,script=no,downscript=no" % (i, n.tap),
                    "-device", "virtio-net-pci,netdev=n%d,mac=%s,host_mtu=%d,romfile=" % (
                        i, n.mac, MTU)]
        self.qlog = open(os.path.join(self.lab.dir, self.name + ".qemu.log"), "w")
        self.proc = subprocess.Popen(cmd, stdout=self.qlog, stderr=subprocess.STDOUT,
                                     preexec_fn=_die_with_parent)
        self.t_start = time.monotonic()

        def connect():
            self._alive()
            if not os.path.exists(self.sock_path):
                return None
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(self.sock_path)
            except OSError:
                s.close()
                return None
            return s
        self.sock = wait_for(connect, 30, "%s's QEMU to listen" % self.name, 0.02)

    def _alive(self):
        if self.proc.poll() is not None:
            raise LabError("%s's QEMU exited (%s); see %s" % (self.name, self.proc.returncode,
                                                             self.lab.dir))
        return True

    def _read_until(self, marker_re, timeout):
        end = time.monotonic() + timeout
        while True:
            m = marker_re.search(self.buf)
            if m:
                out, self.buf = self.buf[:m.start()], self.buf[m.end():]
                return out.decode(errors="replace"), m
            left = end - time.monotonic()
            if left <= 0:
                raise LabTimeout("%s: timed out after %.0f s (last output: %r)" % (
                    self.name, timeout, self.buf[-300:]))
            self._alive()
            self.sock.settimeout(min(left, 1.0))
            try:
                d = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not d:
                raise LabError("%s: command channel closed" % self.name)
            self.buf += d

    def wait_ready(self, timeout=DEADLINE):
        _, m = self._read_until(re.compile(rb"@@FCR-READY ([^ ]+) [^@]*@@\n"), timeout)
        self.kver = m.group(1).decode()
        self.boot_s = time.monotonic() - self.t_start
        log("%s up in %.1f s (kernel %s)" % (self.name, self.boot_s, self.kver))

    def run(self, cmd, timeout=DEADLINE, check=True):
        """Runs a one-line shell command in the guest (the functions of
        guest-lib.sh are there); returns its output. check: LabError unless
        it exits 0."""
        rc, out = self.run_rc(cmd, timeout)
        if check and rc:
            raise LabError("%s: `%s` exited %d: %s" % (self.name, cmd, rc, out.strip()[-2000:]))
        return out

    def run_rc(self, cmd, timeout=DEADLINE):
        """(exit code, output) of a one-line shell command in the guest."""
        if "\n" in cmd:
            raise ValueError("one line only")
        self.seq += 1
        c = cmd.encode()
        line = b"%d %d %s\n" % (self.seq, len(c), c)
        # a line that reaches the guest cut is refused there (@@FCR-BAD@@)
        # and sent again; so is one not acknowledged in time (the guest
        # runs an id once)
        got = re.compile(rb"@@FCR-GOT %d@@\n|@@FCR-BAD@@\n" % self.seq)
        for i in range(5):
            if i:
                log("%s: command %d sent again (%s)" % (
                    self.name, self.seq, "no acknowledgement" if m is None else "arrived cut"))
            self.sock.sendall(line)
            try:
                _, m = self._read_until(got, min(timeout, 30))
            except LabTimeout:
                m = None
                continue
            if m.group(0).startswith(b"@@FCR-GOT"):
                break
        else:
            raise LabError("%s: `%s` not taken after 5 tries" % (self.name, cmd[:80]))
        out, m = self._read_until(re.compile(rb"@@FCR-END %d (\d+)@@\n" % self.seq), timeout)
        return int(m.group(1)), re.sub(r"@@FCR-(GOT \d+|BAD)@@\n", "", out)

    def wait_guest(self, cond, timeout=DEADLINE, what=None):
        """Until the shell condition cond holds in the guest (polled there)."""
        rc, _ = self.run_rc("fcr_waitfor %d %s" % (int(timeout), shquote(cond)), timeout + 15)
        if rc:
            raise LabError("%s: timed out after %.0f s waiting for %s" % (
                self.name, timeout, what or cond))

    # --- FCoE ---
    def fcoe_up(self, ifname="eth0"):
        self.run("fcr_fcoe_up %s" % ifname)

    def fcoe_down(self, ifname="eth0"):
        """Destroys the FCoE controller: libfc logs out of the fabric."""
        self.run("fcr_fcoe_down %s" % ifname)

    def fc_state(self, ifname=""):
        """The fc_host's facts (of ifname's FCoE port; default: the first)."""
        return dict(l.split("=", 1) for l in self.run("fcr_fc_state %s" % ifname).splitlines()
                    if "=" in l)

    def wait_online(self, timeout=DEADLINE, ifname=""):
        """Until the fc_host's port_state is Online (ifname's; default: any):
        the fc_host facts."""
        if ifname:
            self.wait_guest("grep -qx Online $(fcr_host %s)/port_state" % ifname, timeout,
                            "fc_host of %s Online" % ifname)
        else:
            self.wait_guest("grep -qx Online /sys/class/fc_host/host*/port_state", timeout,
                            "fc_host Online")
        st = self.fc_state(ifname)
        log("%s%s Online: port_id %s port_name %s" % (
            self.name, " " + ifname if ifname else "", st.get("port_id"), st.get("port_name")))
        return st

    def wait_disk(self, disk="sda", timeout=DEADLINE):
        self.wait_guest("[ -b /dev/%s ] && [ $(cat /sys/block/%s/size) -gt 0 ]" % (disk, disk),
                        timeout, "disk %s" % disk)
        size = int(self.run("cat /sys/block/%s/size" % disk).strip()) * 512
        log("%s sees /dev/%s (%d bytes)" % (self.name, disk, size))
        return size

    def stats(self, ifname="eth0"):
        """ifname's fc_host statistics, FCoE LESB and NIC counters: {name:
        int}, named tx_frames, ..., lesb_<name>, <ifname>_<name>."""
        out = {}
        for l in self.run("fcr_stats %s" % ifname).splitlines():
            if "=" not in l or "." not in l.split("=", 1)[0]:
                continue
            path, v = l.split("=", 1)
            kind, key = path.split(".", 1)
            if kind == "lesb":
                key = "lesb_" + key
            elif kind == "net":
                key = ifname + "_" + key
            try:
                out[key] = int(v.strip(), 0)
            except ValueError:
                out[key] = v.strip()
        return out

    # --- LIO ---
    def lio_target(self, initiator_wwpns, size_mb=16, nic=0, dev=None):
        """This guest's FCoE port (eth0's WWPN; nic=i: eth<i>'s) becomes a
        tcm_fc target with LUN 0, a fileio file /tmp/lun<i>.img (dev: that
        block device, iblock), for each initiator WWPN."""
        first, rest = initiator_wwpns[0], initiator_wwpns[1:]
        wwpn = self.nics[nic].wwpn_text
        if dev:
            self.run("fcr_lio_iblock %s %s %s" % (wwpn, first, dev))
        else:
            self.run("fcr_lio_target %s %s %d %d" % (wwpn, first, size_mb, nic))
        C = "/sys/kernel/config/target/fc/%s/tpgt_1" % wwpn
        for w in rest:
            self.run("mkdir -p %s/acls/%s/lun_0 && ln -s %s/lun/lun_0 %s/acls/%s/lun_0/lun0"
                     % (C, w, C, C, w))

    # --- data ---
    def write_read_check(self, disk="sda", size=4 << 20, bs=256 << 10, timeout=DEADLINE):
        """Writes a pattern (unique to this call) to the disk with O_DIRECT,
        reads it back, compares. Returns dict(md5_expected, md5_written,
        md5_read, identical, write_s, read_s, gen_s, start, size)."""
        start = random.randrange(100000000, 900000000)   # unique to this call
        expect = hashlib.md5(pattern(size, start)).hexdigest()
        t = time.monotonic()
        self.run("seq %d %d | head -c %d > /tmp/pat" % (start, start + size // 10, size), timeout)
        gen_s = time.monotonic() - t
        written = self.run("md5sum /tmp/pat").split()[0]
        t = time.monotonic()
        self.run("dd if=/tmp/pat of=/dev/%s bs=%d oflag=direct conv=fsync 2>&1" % (disk, bs),
                 timeout)
        write_s = time.monotonic() - t
        self.run("sync; echo 3 > /proc/sys/vm/drop_caches")
        t = time.monotonic()
        self.run("dd if=/dev/%s of=/tmp/rb bs=%d count=%d iflag=direct 2>&1" % (
            disk, bs, size // bs), timeout)
        read_s = time.monotonic() - t
        read = self.run("md5sum /tmp/rb").split()[0]
        same = self.run_rc("cmp /tmp/pat /tmp/rb")[0] == 0
        self.run("rm -f /tmp/pat /tmp/rb")
        return dict(start=start, gen_s=gen_s, md5_expected=expect, md5_written=written, md5_read=read,
                    identical=same and read == expect == written, write_s=write_s,
                    read_s=read_s, size=size)

    def dmesg_tail(self, n=60):
        """The kernel log's last n lines, less open-fcoe's line per frame
        (fcoe.debug_logging); the whole of it kept in <name>.dmesg in the
        lab's folder."""
        try:
            out = self.run("dmesg | grep -v 'skb_info: len:'", 60)
        except Exception as e:
            return "(no dmesg: %s)" % e
        if self.lab.dir:
            with open(os.path.join(self.lab.dir, self.name + ".dmesg"), "w") as f:
                f.write(out)
        return "\n".join(out.splitlines()[-n:])

    def stop(self):
        if self.sock:
            self.sock.close()
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if getattr(self, "qlog", None):
            self.qlog.close()


def shquote(s):
    return "'" + s.replace("'", "'\\''") + "'"


# --- the lab ------------------------------------------------------------------

class Lab:
    def __init__(self, joiner=None, modules=(), keep=None, binaries=()):
        if os.geteuid() != 0:
            raise LabError("the real-FCoE lab needs root")
        remove_stale()
        self.joiner = joiner or BridgeJoiner()
        self.modules = list(modules)
        self.binaries = list(binaries)
        self.prefix = "fr" + base36(os.getpid())
        self.pid_byte = os.getpid() & 0xFF
        self.dir = "/tmp/fcr-realfab-" + self.prefix
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.keep = keep if keep is not None else bool(os.environ.get("FCR_REALFAB_KEEP"))
        self.guests = []
        self.links = []
        self.fcf = None
        self.fcfs = {}            # role -> (Fcf, the veth end facing it: the joiner's port)
        self.captures = []
        self.capture_paths = []
        self.joined = False
        self.failed = False
        self._old_term = signal.signal(signal.SIGTERM, self._on_term)

    def _on_term(self, *_):
        raise SystemExit("terminated")

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        if et is not None:
            self.failed = True
        self.close()
        return False

    @staticmethod
    def no_ipv6(ifname):
        try:
            with open("/proc/sys/net/ipv6/conf/%s/disable_ipv6" % ifname, "w") as f:
                f.write("1")
        except OSError:
            pass

    def _link_up(self, name):
        self.no_ipv6(name)
        sh("ip", "link", "set", name, "mtu", str(MTU), "up")

    def add_guest(self, name, mem=256, nics=1):
        """A guest named name (its role in the joiner's port map) on a new
        TAP; with nics=N, N virtio NICs eth0..eth<N-1> on N TAPs, the port
        map naming eth<i> (i > 0) "<name>-eth<i>"."""
        g = Guest(self, name, sum(len(x.nics) for x in self.guests) + 1, mem, nics)
        for n in g.nics:
            sh("ip", "tuntap", "add", "dev", n.tap, "mode", "tap")
            self.links.append(n.tap)
            self._link_up(n.tap)
        self.guests.append(g)
        return g

    def start_fcf(self, mac=FCF_MAC, name="fcf", vlan=None, **kw):
        """An FCF on veth <prefix>fa; its peer <prefix>fb is the joiner's
        port `name`. A second one (name "fcf2"): <prefix>fc and fd. vlan: the
        FCF serves that VLAN only (its frames tagged). kw: zones=[[wwpn, ...], ...],
        assign={wwpn: fcid}, fka_ms=8000, extra=[fcf.py arguments]."""
        ends = {"fcf": ("fa", "fb"), "fcf2": ("fc", "fd")}[name]
        a, b = self.prefix + ends[0], self.prefix + ends[1]
        sh("ip", "link", "add", a, "type", "veth", "peer", "name", b)
        self.links.append(a)
        sh("ip", "link", "set", a, "address", mac)
        self._link_up(a)
        self._link_up(b)
        if vlan is not None:
            kw["extra"] = list(kw.get("extra", ())) + ["--vlan", str(vlan)]
        fcf = Fcf(self, a, mac, name=name, **kw)
        self.fcfs[name] = (fcf, b)
        if name == "fcf":
            self.fcf, self.fcf_peer = fcf, b
        log("FCF %s on %s%s (log %s)" % (mac, a, " vlan %d" % vlan if vlan is not None else "",
                                        fcf.log_path))
        return fcf

    def capture(self, ifname=None, snaplen=None):
        """dumpcap on ifname (default: the FCF's veth) into the lab's
        directory until the lab closes (snaplen: the first bytes of each
        frame only); returns the file's path. One capture an interface."""
        need_tshark()
        ifname = ifname or self.prefix + "fa"
        path = os.path.join(self.dir, "%s.pcapng" % ifname)
        if path in self.capture_paths:
            return path
        self.capture_paths.append(path)
        p = subprocess.Popen(["dumpcap", "-q", "-i", ifname, "-w", path] +
                             (["-s", str(snaplen)] if snaplen else []),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             preexec_fn=_die_with_parent)
        self.captures.append(p)
        wait_for(lambda: p.poll() is None and os.path.exists(path), 30, "dumpcap on " + ifname)
        return path

    def stop_captures(self):
        for p in self.captures:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        self.captures = []

    def ports(self):
        p = {}
        for g in self.guests:
            for i, n in enumerate(g.nics):
                p[g.name if i == 0 else "%s-eth%d" % (g.name, i)] = n.tap
        for name, (_, peer) in self.fcfs.items():
            p[name] = peer
        return p

    def join(self):
        self.joiner.start(self, self.ports())
        self.joined = True

    def prepare(self):
        args = [os.path.join(HERE, "guest.sh")]
        if self.modules:
            args += ["--modules", " ".join(self.modules)]
        if self.binaries:
            args += ["--bin", " ".join(self.binaries)]
        t = time.monotonic()
        out = sh(*args)
        v = dict(l.split("=", 1) for l in out.splitlines() if "=" in l)
        log("guest kernel %s ready in %.1f s" % (v["KVER"], time.monotonic() - t))
        return v

    def boot(self, append=""):
        """Starts every guest at once and waits until each takes commands."""
        v = self.prepare()
        if os.environ.get("FCR_REALFAB_DEBUG"):
            append += " libfc.debug_logging=0xff libfcoe.debug_logging=3"
        for g in self.guests:
            g.start(v["KERNEL"], v["INITRD"], append)
        for g in self.guests:
            g.wait_ready()
        return v

    def diagnose(self):
        """Prints what helps to see why a run failed."""
        for g in self.guests:
            if g.proc and g.proc.poll() is None and g.sock:
                print("---- %s: fc state, stats, dmesg" % g.name)
                try:
                    print(g.run("fcr_fc_state; fcr_stats", 20))
                except Exception as e:
                    print("(%s)" % e)
                print(g.dmesg_tail())
        for name, (fcf, _) in self.fcfs.items():
            try:
                print("---- %s state\n" % name + json.dumps(fcf.state(), indent=1))
            except Exception as e:
                print("(%s state: %s)" % (name, e))
            try:
                print("---- %s log (tail)\n" % name + "".join(open(fcf.log_path).readlines()[-40:]))
            except OSError:
                pass

    def close(self):
        self.stop_captures()
        for g in self.guests:
            try:
                g.stop()
            except Exception:
                pass
        for fcf, _ in self.fcfs.values():
            try:
                fcf.stop()
            except Exception:
                pass
        if self.joined:
            try:
                self.joiner.stop()
            except Exception:
                pass
        for name in self.links:
            sh("ip", "link", "del", name, check=False)
        self.links = []
        signal.signal(signal.SIGTERM, self._old_term)
        if self.failed or self.keep:
            open(os.path.join(self.dir, KEPT), "w").close()
            log("logs kept in %s" % self.dir)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)
