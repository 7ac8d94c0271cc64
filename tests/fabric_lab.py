# SPDX-License-Identifier: BSD-3-Clause
"""
A live FCoE fabric around one fcredirect, for tests that need endpoints
which answer: four net_tap ports, each a Linux TAP interface the test reads
and writes with a raw socket (root only).

    port 0  hosts           (edge)
    port 1  targets         (edge)
    port 2  the service node: its VI and VT ports (edge)
    port 3  the FCF         (fabric: --fabric-ports 3)

The test plays every station: ENodes log in with ELS FLOGI over FCoE and
the test's FCF answers on port 3, so fcredirect learns the bindings from
the fabric as it would in a real SAN. Frames are small (net_tap carries no
more than a 1500-byte MTU). Every wait is for a state (a frame arriving, a
counter, a list line), with a deadline.

    import fabric_lab as fl
    lab = fl.Lab(t, extra=[...])       # t: a sync_lib.Test
    h = lab.login(0, HOST_WWPN, 0x010001)

Standard library only.
"""

import os
import re
import select
import socket
import threading
import time

import fcoe_frames as ff
import sync_lib as sl

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
FCF_MAC = ff.mac("0e:fc:00:ff:ff:fe")
HOSTS, TARGETS, SN, FABRIC = 0, 1, 2, 3
ROUTES = ["route add 0x010000/8 port 0 fpma",
          "route add 0x410000/8 port 1 fpma",
          "route add 0x810000/8 port 2 fpma",
          "route add 0xfffffe/24 port 3 mac 0e:fc:00:ff:ff:fe"]


def wwpn_text(v):
    return ":".join("%02x" % b for b in v.to_bytes(8, "big"))


class Port:
    """One TAP interface: what fcredirect sends on it, as it arrives."""

    def __init__(self, ifname):
        self.ifname = ifname
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        self.s.bind((ifname, 0))
        self.frames = []          # parsed FCoE frames fcredirect sent here
        self.fip = []             # and FIP frames (fcoe_frames.parse_fip)
        self.cv = threading.Condition()
        self.closed = False
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        while not self.closed:
            r, _, _ = select.select([self.s], [], [], 0.2)
            if not r:
                continue
            try:
                data, addr = self.s.recvfrom(65536)
            except OSError:
                return
            if addr[2] == PACKET_OUTGOING:
                continue          # what the test itself sent
            f = ff.parse(data)
            into = self.frames
            if f is None:
                f, into = ff.parse_fip(data), self.fip
            if f is None:
                continue          # neither FCoE nor FIP: the kernel's own frames
            f["t"] = time.monotonic()
            f["raw"] = data
            with self.cv:
                into.append(f)
                self.cv.notify_all()

    def send(self, frame):
        self.s.send(frame)

    def wait(self, pred, timeout=10.0, count=1, fip=False):
        """The first `count` frames received (from now on, or earlier ones
        not yet taken) for which pred holds; None at the deadline. fip: of
        the FIP frames."""
        end = time.monotonic() + timeout
        with self.cv:
            while True:
                got = [f for f in (self.fip if fip else self.frames) if pred(f)]
                if len(got) >= count:
                    return got[:count]
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self.cv.wait(left)

    @staticmethod
    def arrival(f):
        """When the test's reader had the frame (time.monotonic())."""
        return f["t"]

    def matching(self, pred):
        with self.cv:
            return [f for f in self.frames if pred(f)]

    def close(self):
        self.closed = True
        self.s.close()


class Station:
    """A VN_Port the test plays: its port, WWPN, FCID once logged in."""

    def __init__(self, lab, port, wwpn, enode):
        self.lab, self.port, self.wwpn, self.enode = lab, port, wwpn, enode
        self.fcid = None

    @property
    def mac(self):
        return ff.fpma(self.fcid)

    def send(self, d_id, payload=b"\0" * 64, ox_id=1, r_ctl=ff.FCP_DATA, type_=ff.TYPE_FCP,
             s_id=None, src=None):
        s_id = self.fcid if s_id is None else s_id
        self.lab.ports[self.port].send(ff.fcoe(ff.fpma(d_id), src or self.mac, r_ctl, d_id,
                                               s_id, type_, ox_id, payload))

    def data(self, d_id, n, ox_base):
        """n FCP data frames to d_id, OX_IDs ox_base.. (one frame each)."""
        for i in range(n):
            self.send(d_id, payload=bytes([i & 0xFF]) * 256, ox_id=ox_base + i)


class Lab:
    def __init__(self, t, name="fcr", extra=(), tables_delay_us=0, routes=ROUTES):
        self.t = t
        tag = "%d" % (os.getpid() % 100000)
        self.ifnames = ["fl%s%s%s" % (name[:2], tag, c) for c in "htsf"]
        vdevs = ["net_tap%d,iface=%s" % (i, n) for i, n in enumerate(self.ifnames)]
        args = ["--fabric-ports", "3", "--passthrough", "0:3,1:2"] + list(extra)
        if tables_delay_us:
            args += ["--tables-delay-us", str(tables_delay_us)]
        self.node = t.node(name, vdevs=vdevs, extra=args, nb_ports=4)
        self.node.start()
        self.node.query("show config")     # up: ports started
        # mbufs the ports hold at rest (the TAP PMD's receive rings)
        self.at_rest = self.mbufs_in_use()
        for n in self.ifnames:
            try:
                with open("/proc/sys/net/ipv6/conf/%s/disable_ipv6" % n, "w") as f:
                    f.write("1")
            except OSError:
                pass
        self.ports = [Port(n) for n in self.ifnames]
        self.next_ox = 0x100
        errs = self.node.cmds(list(routes) + ["start"])
        t.check(not errs, "lab %s: four TAP ports, routes, forwarding" % name, "\n".join(errs))

    def ox(self):
        self.next_ox += 1
        return self.next_ox

    def login(self, port, wwpn, fcid, then=None, wwnn=None):
        """An ENode on `port` logs in (ELS FLOGI over FCoE); the test's FCF
        grants fcid. Returns the Station, logged in, or None. `then`, when
        given, runs the moment the station has its accept (before anything
        else is looked at): what a real host does next. wwnn: its node name
        (default: its own, from its port name)."""
        st = Station(self, port, wwpn, bytes([0x02, 0, 0, 0, port, fcid & 0xFF]))
        ox = self.ox()
        self.ports[port].send(ff.fcoe(FCF_MAC, st.enode, ff.ELS_REQ, ff.FFFFFE, 0, ff.TYPE_ELS,
                                      ox, ff.sparm(ff.FLOGI, wwpn,
                                                   wwnn if wwnn else wwpn | 1 << 60)))
        req = self.ports[FABRIC].wait(lambda f: f["ox_id"] == ox and f["d_id"] == ff.FFFFFE
                                      and f["r_ctl"] == ff.ELS_REQ)
        if req is None:
            self.t.check(False, "the FCF received the FLOGI of %016x" % wwpn)
            return None
        self.ports[FABRIC].send(ff.fcoe(st.enode, FCF_MAC, ff.ELS_REP, fcid, ff.FFFFFE,
                                        ff.TYPE_ELS, ox, ff.sparm(ff.LS_ACC, 0x20000000000000fe,
                                                                  0x10000000000000fe),
                                        f_ctl=ff.F_CTL_REPLY, rx_id=0x10))
        acc = self.ports[port].wait(lambda f: f["ox_id"] == ox and f["s_id"] == ff.FFFFFE
                                    and f["d_id"] == fcid)
        if acc is None:
            self.t.check(False, "the ENode of %016x received its accept (FCID %06x)" % (wwpn, fcid))
            return None
        st.fcid = fcid
        if then is not None:
            then(st)
        return st

    def fip_login(self, port, enode, wwpn, fcid, ox=None, fcf=FCF_MAC):
        """ENode `enode` on `port` logs wwpn in over FIP through the FCF of
        MAC fcf (the test plays it); it grants fcid (FPMA). True once the
        ENode has its accept."""
        ox = self.ox() if ox is None else ox
        self.ports[port].send(ff.fip_ls(fcf, enode, 1, ff.FIP_DT_FLOGI, ff.ELS_REQ,
                                        ff.FFFFFE, 0, ox, ff.sparm(ff.FLOGI, wwpn, wwpn | 1 << 60)))
        req = self.ports[FABRIC].wait(lambda f: f["src"] == enode and f["op"] == 2 and
                                      f["sub"] == 1, fip=True)
        if req is None:
            return False
        with self.ports[FABRIC].cv:
            self.ports[FABRIC].fip.remove(req[0])
        self.ports[FABRIC].send(ff.fip_ls(enode, fcf, 2, ff.FIP_DT_FLOGI, ff.ELS_REP,
                                          fcid, ff.FFFFFE, ox,
                                          ff.sparm(ff.LS_ACC, 0x20000000000000fe,
                                                   0x10000000000000fe),
                                          vn_mac=ff.fpma(fcid), f_ctl=ff.F_CTL_REPLY,
                                          rx_id=0x10))
        # this login's accept: one of an earlier login, left in the list,
        # is no answer (each is taken once seen)
        got = self.ports[port].wait(lambda f: f["dst"] == enode and f["op"] == 2 and
                                    f["sub"] == 2, fip=True)
        if got is None:
            return False
        with self.ports[port].cv:
            self.ports[port].fip.remove(got[0])
        return True

    def add_redirect(self, host, target, vi, vt, what="the redirect is active"):
        """`redirect add` on VLAN 0 for these WWPNs, checked active."""
        self.node.query("redirect add vlan 0 host %s target %s vi %s vt %s" %
                        tuple(wwpn_text(w) for w in (host, target, vi, vt)))
        ok, _, line = self.node.poll("redirect list",
                                     lambda o: " %s vt %s active " % (wwpn_text(vi), wwpn_text(vt))
                                     in o, 30, 0.05)
        self.t.check(ok, what, line)
        return ok

    def redirected(self, host, target, vi, vt):
        """The four log in (host on HOSTS as 01.00.01, target on TARGETS as
        41.00.01, the VI and VT on SN as 81.00.01, 81.00.02) and a redirect
        joins them: their Stations, or None."""
        st = (self.login(HOSTS, host, 0x010001), self.login(TARGETS, target, 0x410001),
              self.login(SN, vi, 0x810001), self.login(SN, vt, 0x810002))
        if None in st:
            self.t.check(False, "the four ports log in")
            return None
        self.add_redirect(host, target, vi, vt)
        return st

    def logout(self, st):
        """The station logs out of the fabric: LOGO to FFFFFE, the FCF accepts."""
        ox = self.ox()
        st.send(ff.FFFFFE, payload=ff.logo(st.fcid, st.wwpn), ox_id=ox, r_ctl=ff.ELS_REQ,
                type_=ff.TYPE_ELS)
        if self.ports[FABRIC].wait(lambda f: f["ox_id"] == ox and f["d_id"] == ff.FFFFFE) is None:
            return False
        self.ports[FABRIC].send(ff.fcoe(st.mac, FCF_MAC, ff.ELS_REP, st.fcid, ff.FFFFFE,
                                        ff.TYPE_ELS, ox, ff.ls_acc_short(), f_ctl=ff.F_CTL_REPLY))
        return self.ports[st.port].wait(lambda f: f["ox_id"] == ox and f["s_id"] == ff.FFFFFE) \
            is not None

    def mbufs_in_use(self):
        """show mempool: mbufs in use in the ports' pool."""
        m = re.search(r"^mempool fcr_mbufs_s0 +socket \d+ +size \d+ +in use (\d+)",
                      self.node.query("show mempool"), re.M)
        return int(m.group(1)) if m else None

    def mbufs_back(self):
        """Forwarding stopped, every mbuf is back (in use as at rest), then
        forwarding again: (back, in use, at rest)."""
        self.node.cmds(["stop"])
        now = self.mbufs_in_use()
        self.node.cmds(["start"])
        return now is not None and now == self.at_rest, now, self.at_rest

    def stat(self, key):
        """A number from `show fwd stats` (a counter, a drop reason)."""
        out = self.node.query("show fwd stats")
        m = re.search(r"^\s+%s\s+(\d+)" % re.escape(key), out, re.M)
        return int(m.group(1)) if m else 0

    def wait_stat(self, key, want, timeout=10.0):
        """Until the counter reaches `want`; returns its value then."""
        end = time.monotonic() + timeout
        while True:
            v = self.stat(key)
            if v >= want or time.monotonic() >= end:
                return v
            time.sleep(0.02)

    def redirect_line(self, host_wwpn):
        """The redirect list line of the redirect of this host."""
        w = wwpn_text(host_wwpn)
        for l in self.node.query("redirect list").splitlines():
            if l.startswith("redirect ") and (" host %s " % w) in l:
                return l
        return ""

    def redirect_counts(self, host_wwpn):
        """(state, before_rule, not_ready) of the host's redirect."""
        m = re.search(r" (\w+)(?: \([^)]*\))*(?: id \d+)? before_rule (\d+) not_ready (\d+)"
                      r"(?: cleartext \d+)?$",
                      self.redirect_line(host_wwpn))
        return (m.group(1), int(m.group(2)), int(m.group(3))) if m else (None, None, None)

    def close(self):
        for p in self.ports:
            p.close()
        self.node.quit()
