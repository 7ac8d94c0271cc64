#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
fcredirect between real Linux FCoE endpoints (QEMU guests: open-fcoe
initiators, LIO tcm_fc targets) and the Python FCF (fcf.py): fcredirect is
the rig's joiner (fcredirect_joiner.py), every guest NIC an edge port, the
FCF's veth the fabric port.

  a  no redirect: an initiator logs in through fcredirect and the FCF,
     sees the target's LUN, writes a pattern and reads it back; the target's
     backing file holds it.
  b  a redirect active from the start: a service node (SN) with two NICs,
     eth0 its VI (an initiator of the real target) and eth1 its VT (a LIO
     target whose LUN is dm-crypt aes-xts-plain64 over the VI's disk). The
     redirect is added before the host logs in; the host's I/O goes through
     the SN, is encrypted there and reaches the target as the host's. The
     pattern is never found in cleartext in the target's backing file.
  f  fcredirect killed (SIGKILL) under the host's I/O through the SN and
     started again with its state file (--state-file) and the redirect in
     its startup commands: the redirect is restored active with its path
     before the first frame, the startup `redirect add` changes nothing (no
     cutover, no Clear Virtual Link), no port logs in again at the FCF, the
     loop rides it out (timings: f_pause), the disk stays, and the loop's
     pattern is never in cleartext at the target.
  d  the redirect removed and added again under I/O (after b, before c):
     the host writes a pattern and reads it back in a loop; each change
     drains the pair (the host's new commands held until its open
     exchanges have ended, then the VI's), then makes the host and the VI
     log in again (fcredirect's Clear Virtual Links in the FCF's name; on
     the add the VI first, the host once the VI is back through the new
     path, which the FCF's login times show);
     every round completes, no end counts a frame of an exchange it never
     saw, no drain times out, and the host's I/O goes plain after the
     removal and through the SN again after the add, where the loop's
     pattern is not in cleartext at the target and 4 MiB written read back
     identical.
  g  a new VI for the redirect under I/O (after d): the SN's third NIC is
     the new VI; the SN's crypt mapping sits on a multipath device (queue
     if no path) whose path moves to the new VI's disk once it appears;
     `redirect add` naming the new VI drains the pair, tells the old and
     the new VI, the new VI logs in again through the new rules (as the
     host) before the host is told; every round completes, the disk stays,
     the target never has the new VI as itself, the pattern never in
     cleartext at the target, 3 Clear Virtual Links, no timeout.
  e  the host logging out of another target (after d): the target guest's
     eth1 is a second target, not redirected; the host logs in to it, writes
     to it plain, and logs out of it when its zone goes (libfc's N_Port
     LOGO); the redirected pair goes on through the SN.
  c  the SN stopped (QEMU killed): the FCF (--enforce-ka, 8 s FKA) clears
     the VI and VT with Clear Virtual Links, the redirect goes to waiting,
     and the host's next write does not reach the target (fail closed:
     redirect_not_ready counts it; the target's file never holds it).

Each scenario asserts the guests' own counters (fc_host statistics) and
kernel log show no frame refused (fcoe.debug_logging=3 makes open-fcoe log
"wrong source mac address" for each frame it refuses), and fcredirect's
`show fwd stats` its drops. Every wait is for a state, with a deadline
(FCR_REALFAB_DEADLINE, default 120 s).

    sudo python3 tests/realfab/test_fcredirect.py [build/app/fcredirect] [a b f d e c]

Without names: all of them but d (see main()).

Ends with "N passed, N failed"; exits non-zero on any failure. Root only.
"""

import os
import random
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab  # noqa: E402
import fcredirect_joiner as fj  # noqa: E402

SIZE = 4 << 20
LUN_MB = 16
# the guests' kernels log every frame open-fcoe refuses
APPEND = "fcoe.debug_logging=3 log_buf_len=4M " + os.environ.get("FCR_REALFAB_APPEND", "")
# lines of a guest's kernel log that say a frame was refused
REFUSALS = ("wrong source mac", "dropping frame", "crc error", "invalid mac", "dropped",
            "dropping")
# fc_host statistics that count refused or lost frames
BAD_FC_COUNTERS = ("error_frames", "invalid_crc_count", "fc_seq_not_found", "fc_xid_not_found",
                   "fc_non_bls_resp", "fcp_packet_aborts", "fcp_frame_alloc_failures")
# FCR_REALFAB_CAPTURE=1: dumpcap on every port of fcredirect (the lab's dir)
CAPTURE = bool(os.environ.get("FCR_REALFAB_CAPTURE"))
KEY = "4f6e6c792d612d746573742d6b65792d" * 4   # aes-xts-plain64, 512 bits: a fixed test key
CRYPT = "fcrcrypt"


# --- what every scenario looks at -------------------------------------------

MARK = "fcr-realfab-mark"


def mark(g, what):
    """A line in g's kernel log (a mark refusals() counts from): its own
    log's order, not a clock (under TCG the kernel log's clock and
    /proc/uptime drift apart by seconds)."""
    text = "%s %s" % (MARK, what)
    g.run("echo '%s' > /dev/kmsg" % text)
    return text


def refusals(g, since=None):
    """Lines of g's kernel log that say a frame was refused (since: a
    mark(): only those after it)."""
    # grep in the guest: the debug log is too long for the serial line
    out = g.run("dmesg | grep -i %s || true" % " ".join(
        "-e '%s'" % r for r in REFUSALS + (MARK,)), 60)
    lines = out.splitlines()
    if since is not None:
        after = [i for i, l in enumerate(lines) if l.endswith(since)]
        if not after:
            return ["the mark '%s' is not in the kernel log" % since]
        lines = lines[after[-1] + 1:]
    return [l for l in lines if MARK not in l and any(r in l.lower() for r in REFUSALS)]


def bad_counters(g, ifname="eth0"):
    """fc_host counters of refused or lost frames that are not 0 (an
    all-ones value is a counter the driver does not keep)."""
    s = g.stats(ifname)
    return {k: s[k] for k in BAD_FC_COUNTERS
            if isinstance(s.get(k), int) and s[k] not in (0, 0xFFFFFFFFFFFFFFFF)}, s


def check_guest_clean(c, g, ifname="eth0", label=None):
    label = label or ("%s %s" % (g.name, ifname) if ifname != "eth0" else g.name)
    bad, s = bad_counters(g, ifname)
    c.check("%s: fc_host counts frames both ways, none refused" % label,
            not bad and s.get("tx_frames", 0) > 0 and s.get("rx_frames", 0) > 0,
            "tx %s rx %s%s" % (s.get("tx_frames"), s.get("rx_frames"),
                               (" refused/lost %s" % bad) if bad else ""))
    return bad


def check_dmesg_clean(c, g, since=None):
    """since: from that mark() on (what came before was another joiner's)."""
    r = refusals(g, since)
    c.check("%s: no frame refused in its kernel log%s" % (
        g.name, "" if since is None else " since fcredirect joined"), not r, "; ".join(r[:5]))


def sample_numbers(start, size, n=32):
    # (busybox grep -F tries each pattern on each line: 8 numbers over 4 MiB
    # of cleartext lines take ~4 s under TCG, 32 four times that)
    """n of the pattern's numbers, spread over it (9 digits each)."""
    count = size // 10
    return ["%d" % (start + i * (count - 1) // (n - 1)) for i in range(n)]


def found_in_file(g, path, numbers, limit_bytes=None):
    """How many of numbers occur in g's file (grep -a -F), over its first
    limit_bytes when given."""
    src = "head -c %d %s" % (limit_bytes, path) if limit_bytes else "cat %s" % path
    args = " ".join("-e %s" % x for x in numbers)
    out = g.run("%s | grep -a -o -F %s | sort -u | wc -l" % (src, args), 60)
    return int(out.strip() or 0)


def fcr_stats_line(st):
    k = st["kinds"]
    return "plain %s legs %s passthrough %s els_ids %s drops %s" % (
        k.get("plain"), "/".join(str(k.get(x)) for x in fj.LEGS), k.get("passthrough"),
        k.get("els_ids"), st["drops"] or "none")


def capture_all(L):
    if CAPTURE:
        for ifname in L.ports().values():
            L.capture(ifname)


def diagnose(L, j):
    L.diagnose()
    if j and j.alive():
        for q in ("show fwd stats", "binding list", "redirect list", "show flows"):
            try:
                print("---- fcredirect: %s\n%s" % (q, j.query(q)))
            except Exception as e:
                print("(%s: %s)" % (q, e))
    if j and getattr(j, "err_path", None):
        try:
            print("---- %s log (tail)\n" % j.name + "".join(open(j.err_path).readlines()[-40:]))
        except OSError:
            pass


def plain_rig(L):
    """A target guest, an initiator guest and the FCF, joined and booted:
    a host's I/O to one target, no redirect. (target, initiator, fcf)."""
    tgt = L.add_guest("target")
    ini = L.add_guest("initiator")
    fcf = L.start_fcf()
    L.join()
    capture_all(L)
    L.boot(APPEND)
    return tgt, ini, fcf


def target_then_host_up(tgt, ini, fcf):
    """The target's LUN for the initiator; the target logs in, then the
    initiator, which sees the LUN as sda. (the initiator's fc state, its
    port at the FCF, sda's size)."""
    tgt.lio_target([ini.wwpn_text], size_mb=LUN_MB)
    tgt.fcoe_up()
    tgt.wait_online()
    fcf.wait_port(tgt.wwpn_text, fcp=True, scr=True)
    ini.fcoe_up()
    st = ini.wait_online()
    p = fcf.wait_port(ini.wwpn_text, fcp=True, scr=False)
    return st, p, ini.wait_disk("sda")


# --- a: no redirect ------------------------------------------------------------

def scenario_a(c, binary, timings):
    """Initiator and target through fcredirect, no redirect."""
    t0 = time.monotonic()
    failed0 = c.failed
    j = fj.FcredirectJoiner(binary)
    with lab.Lab(joiner=j) as L:
        try:
            tgt, ini, fcf = plain_rig(L)
            timings["a_boot"] = time.monotonic() - t0

            t = time.monotonic()
            st, p, size = target_then_host_up(tgt, ini, fcf)
            timings["a_login"] = time.monotonic() - t
            c.check("a: initiator logs in through fcredirect and the FCF",
                    st.get("port_id") == "0x" + p["fcid"], "fcid %s" % p["fcid"])
            c.check("a: initiator sees the target's LUN as sda", size == LUN_MB << 20,
                    "%d bytes" % size)
            b = j.bindings()
            c.check("a: fcredirect learned both logins from the fabric",
                    b.get((0, ini.wwpn_text), ("", ""))[1] == "learned" and
                    b.get((0, tgt.wwpn_text), ("", ""))[1] == "learned", str(b))

            t = time.monotonic()
            r = ini.write_read_check("sda", SIZE)
            timings["a_io"] = time.monotonic() - t
            c.check("a: 4 MiB written to sda reads back identical", r["identical"],
                    "md5 expected %s read %s" % (r["md5_expected"], r["md5_read"]))
            on_target = tgt.run("head -c %d /tmp/lun0.img | md5sum" % SIZE).split()[0]
            c.check("a: the target's backing file holds the pattern",
                    on_target == r["md5_expected"], on_target)
            nums = sample_numbers(r["start"], SIZE, 8)
            n = found_in_file(tgt, "/tmp/lun0.img", nums)
            c.check("a: the pattern's numbers are found in cleartext in the target's file "
                    "(the check b relies on sees cleartext)", n == len(nums),
                    "%d of %d" % (n, len(nums)))

            st = j.fwd_stats()
            c.check("a: fcredirect dropped nothing", not st["drops"], fcr_stats_line(st))
            c.check("a: fcredirect forwarded the I/O plain (no redirect leg)",
                    st["kinds"].get("plain", 0) > 2 * SIZE // 2048 and
                    not any(st["kinds"].get(x) for x in fj.LEGS), fcr_stats_line(st))
            drops = fcf.drops()
            c.check("a: the FCF dropped nothing (VF_Port source MAC check passed)",
                    not any(drops.values()), str({k: v for k, v in drops.items() if v}))
            for g in (tgt, ini):
                check_guest_clean(c, g)
                check_dmesg_clean(c, g)
        except Exception:
            traceback.print_exc()
            c.check("a: runs to its end", False)
            diagnose(L, j)
        L.failed = c.failed > failed0      # logs kept when a check failed
    timings["a"] = time.monotonic() - t0


# --- b and c: a service node -------------------------------------------------

class Redirected:
    """The lab of scenarios b and c: SN (two NICs), target, host."""

    def __init__(self, binary):
        self.j = fj.FcredirectJoiner(binary)
        self.L = lab.Lab(joiner=self.j, modules=["dm_crypt", "ecb", "xts", "dm_multipath",
                                                 "dm_round_robin"], binaries=["dmsetup"])
        # scenario f restarts fcredirect on it
        self.j.extra += ["--state-file", os.path.join(self.L.dir, "fcredirect.state")]
        self.ok_b = False


def in_redirected_lab(c, binary, body, extra=()):
    """body(R) in scenario b's lab (Redirected, fcredirect given extra
    options): an exception fails a check, with its traceback and the lab's
    diagnosis; the lab's logs are kept when a check failed."""
    R = Redirected(binary)
    R.j.extra += list(extra)
    with R.L as L:
        failed0 = c.failed
        try:
            body(R)
        except Exception:
            traceback.print_exc()
            c.check("runs to its end", False)
            diagnose(L, R.j)
        L.failed = c.failed > failed0


def target_and_sn_up(tgt, sn, host, fcf):
    """The target (a LUN for the host: it sees the host, never the VI) and
    the SN's VI and VT log in and register; the FCF's entry of the target."""
    tgt.lio_target([host.wwpn_text], size_mb=LUN_MB)
    tgt.fcoe_up()
    sn.fcoe_up("eth0")
    sn.fcoe_up("eth1")
    tgt.wait_online()
    sn.wait_online(ifname="eth0")
    sn.wait_online(ifname="eth1")
    return [fcf.wait_port(w, fcp=True, scr=True)
            for w in (tgt.wwpn_text, sn.nics[0].wwpn_text, sn.nics[1].wwpn_text)][0]


def scenario_b(c, R, timings, second_fcf=None):
    """A redirect added before the host logs in: active from the host's
    first frame; the host's data goes through the SN, encrypted.
    second_fcf (a MAC): the VLAN has a second FCF of the fabric, with a
    better priority, that comes up once the target and the SN have logged
    in through the first: the host chooses it (test_fcfs.py)."""
    t0 = time.monotonic()
    L, j = R.L, R.j
    sn = R.sn = L.add_guest("sn", nics=3)          # added first: its QEMU starts first
    # (eth2: the new VI of scenario g, logged in only there)
    tgt = R.tgt = L.add_guest("target", nics=2)    # eth1: scenario e's second target
    host = R.host = L.add_guest("initiator")
    vi, vt = sn.nics[0], sn.nics[1]
    R.vi = vi                                      # the redirect's VI (g changes it)
    # nobody sees anybody until the redirect is active: the VI must reach
    # the target only through the redirect (as the host), never as itself
    # FC-BB-5's default keep-alive period (8 s), enforced: an ENode that a
    # cutover's Clear Virtual Link resets is silent for 2-3 s, so a period
    # below about 1.5 s has the FCF clear it again mid-login
    fcf = R.fcf = L.start_fcf(zones=[[tgt.wwpn_text]], extra=["--enforce-ka"] + (
        ["--also-fcf", "%s:64:down" % second_fcf] if second_fcf else []))
    L.join()
    capture_all(L)
    L.boot(APPEND)
    timings["bc_boot"] = time.monotonic() - t0

    t = time.monotonic()
    target_and_sn_up(tgt, sn, host, fcf)
    timings["b_sn_target_login"] = time.monotonic() - t
    if second_fcf:
        r = fcf.request({"cmd": "fcf_up", "mac": second_fcf})
        c.check("b: the second FCF advertises (priority 64, the first's 128)", r.get("ok"), r)
        # fcredirect in the registry: the host's choice is known when it logs in
        j.wait_output("show fcf", lambda o: ("  fcf %s " % second_fcf) in o,
                      what="the second FCF in fcredirect's registry")

    j.cmd("redirect add vlan 0 host %s target %s vi %s vt %s" % (
        host.wwpn_text, tgt.wwpn_text, vi.wwpn_text, vt.wwpn_text))
    rd = j.redirect(host.wwpn_text)
    c.check("b: the redirect waits for the host before it logs in",
            rd and rd["state"] == "waiting" and "host" in rd["line"], rd and rd["line"])

    t = time.monotonic()
    host.fcoe_up()
    st = host.wait_online()
    ph = fcf.wait_port(host.wwpn_text, fcp=True, scr=True)
    rd = j.wait_redirect(host.wwpn_text, "active")
    timings["b_host_login_to_active"] = time.monotonic() - t
    c.check("b: the host's login makes the redirect active",
            rd["state"] == "active" and st.get("port_id") == "0x" + ph["fcid"], rd["line"])
    rs, (n, active) = j.redirects()
    c.check("b: redirect list: 1 redirects, 1 active", (n, active) == (1, 1), "%s %s" % (n, active))

    # the VI meets the target: through the redirect, as the host
    t = time.monotonic()
    fcf.set_zones([[vi.wwpn_text, tgt.wwpn_text]])
    sn.wait_guest("d=$(fcr_disk eth0) && [ -n \"$d\" ] && [ $(cat /sys/block/$d/size) -gt 0 ]",
                  lab.DEADLINE, "the VI's disk")
    vdisk = R.vdisk = sn.run("fcr_disk eth0").strip()
    vsize = int(sn.run("cat /sys/block/%s/size" % vdisk).strip()) * 512
    timings["b_vi_disk"] = time.monotonic() - t
    c.check("b: the VI sees the target's LUN (%s) through the redirect" % vdisk,
            vsize == LUN_MB << 20, "%d bytes" % vsize)
    rp = tgt.run("fcr_rports")
    want = "0x%016x 0x%s" % (host.wwpn, ph["fcid"])
    c.check("b: the target has the host as a remote port (the VI logged in as the host)",
            any(l.startswith(want) for l in rp.splitlines()), rp.strip().replace("\n", "; "))

    # the VT exports dm-crypt over the VI's disk
    t = time.monotonic()
    sn.run("fcr_crypt %s /dev/%s %s" % (CRYPT, vdisk, KEY))
    sn.lio_target([host.wwpn_text], nic=1, dev="/dev/mapper/" + CRYPT)
    fcf.set_zones([[vi.wwpn_text, tgt.wwpn_text], [host.wwpn_text, tgt.wwpn_text]])
    size = host.wait_disk("sda")
    timings["b_host_disk"] = time.monotonic() - t
    c.check("b: the host sees 'the target's' LUN: the VT's dm-crypt mapping",
            size == LUN_MB << 20, "%d bytes" % size)
    vendor = host.run("cat /sys/block/sda/device/model").strip()
    c.check("b: the host's LUN is the VT's iblock backstore, not the target's fileio",
            vendor.startswith("IBLOCK"), vendor)

    t = time.monotonic()
    r = host.write_read_check("sda", SIZE)
    timings["b_io"] = time.monotonic() - t
    c.check("b: 4 MiB written by the host reads back identical", r["identical"],
            "md5 expected %s read %s" % (r["md5_expected"], r["md5_read"]))
    R.start = r["start"]

    nums = sample_numbers(r["start"], SIZE)
    n = found_in_file(tgt, "/tmp/lun0.img", nums)
    c.check("b: the pattern is never found in cleartext in the target's backing file",
            n == 0, "%d of %d numbers found" % (n, len(nums)))
    on_target = tgt.run("head -c %d /tmp/lun0.img | md5sum" % SIZE).split()[0]
    zeros = tgt.run("head -c %d /tmp/lun0.img | tr -d '\\000' | wc -c" % SIZE).strip()
    c.check("b: the target's LUN region holds data that differs from the pattern",
            on_target != r["md5_expected"] and int(zeros) > SIZE // 2,
            "md5 %s, %s non-zero bytes" % (on_target, zeros))
    sn_cipher = sn.run("dd if=/dev/%s bs=256k count=%d iflag=direct 2>/dev/null | md5sum"
                       % (vdisk, SIZE // (256 << 10))).split()[0]
    sn_clear = sn.run("dd if=/dev/mapper/%s bs=256k count=%d iflag=direct 2>/dev/null | md5sum"
                      % (CRYPT, SIZE // (256 << 10))).split()[0]
    c.check("b: the target holds the SN's ciphertext, which the SN decrypts to the pattern",
            on_target == sn_cipher and sn_clear == r["md5_expected"],
            "target %s, SN's VI disk %s, SN's mapping %s" % (on_target, sn_cipher, sn_clear))

    st = j.fwd_stats()
    k = st["kinds"]
    c.check("b: fcredirect counted frames on all four legs",
            all(k.get(x, 0) > 0 for x in fj.LEGS), fcr_stats_line(st))
    c.check("b: the data went through the SN: each leg carried at least the 4 MiB's frames "
            "one way", min(k.get("host_to_target", 0) + k.get("target_to_host", 0),
                           k.get("vi_to_target", 0) + k.get("vt_to_host", 0)) >= SIZE // 2048,
            fcr_stats_line(st))
    # the target's libfc logs in to every FCP port the name server lists,
    # the VI too (they are zoned): while the redirect is active those frames
    # are dropped (redirect_hidden): the target sees only the host
    c.check("b: fcredirect dropped nothing but the ends' own attempts to reach the service "
            "node (redirect_hidden)",
            not {k: v for k, v in st["drops"].items() if k != "redirect_hidden"},
            fcr_stats_line(st))
    rd = j.redirect(host.wwpn_text)
    c.check("b: the redirect is still active, nothing before its rules, nothing not_ready",
            rd["state"] == "active" and rd["before_rule"] == 0 and rd["not_ready"] == 0,
            rd["line"])
    drops = fcf.drops()
    c.check("b: the FCF dropped nothing", not any(drops.values()),
            str({k: v for k, v in drops.items() if v}))
    for g, ifn in ((tgt, "eth0"), (host, "eth0"), (sn, "eth0"), (sn, "eth1")):
        check_guest_clean(c, g, ifn)
    for g in (tgt, host, sn):
        check_dmesg_clean(c, g)
    R.ok_b = True
    timings["b"] = time.monotonic() - t0


# fc_host counters a frame of an exchange its receiver never saw raises
SPLIT_COUNTERS = ("fc_xid_not_found", "fc_seq_not_found", "fc_non_bls_resp", "error_frames")


def split_counts(g, ifname="eth0"):
    s = g.stats(ifname)
    return {k: s.get(k, 0) for k in SPLIT_COUNTERS}


class IoLoop:
    """The host writing a pattern to a region of sda (2 MiB, O_DIRECT,
    fsync) and reading it back, over and over; counts the rounds that ended
    and the ones that failed (an I/O error). Its reads are not compared: a
    round that straddles a path change writes through one path and reads
    through the other (the service node's disk is the target's, encrypted).
    The pattern is numbers from `start` (sample_numbers finds them).

    reads_only: the pattern is written once (and read back identical), then
    every round only reads the region and compares it with the pattern (a
    difference is a failed round): for a change that makes the target log in
    again, which LIO's tcm_fc does not survive with a write in flight whose
    frames were lost (README.md, test_restart.py)."""

    def __init__(self, host, seek_mb=8, size=2 << 20, reads_only=False):
        self.host = host
        self.start = random.randrange(100000000, 900000000)
        self.size = size
        bs, n = 256 << 10, size // (256 << 10)
        host.run("rm -f /tmp/io.*; seq %d %d | head -c %d > /tmp/io.pat" % (
            self.start, self.start + size // 10, size))
        write = "dd if=/tmp/io.pat of=/dev/sda bs=%d seek=%d oflag=direct conv=fsync" % (
            bs, seek_mb * 4)
        read = "dd if=/dev/sda of=%s bs=%d skip=%d count=%d iflag=direct" % (
            "/tmp/io.got" if reads_only else "/dev/null", bs, seek_mb * 4, n)
        if reads_only:
            host.run("%s 2>&1 && %s 2>&1 && cmp /tmp/io.pat /tmp/io.got" % (write, read), 120)
            round_ = "%s && cmp /tmp/io.pat /tmp/io.got" % read
        else:
            round_ = "%s && %s" % (write, read)
        host.run("(n=0; while [ ! -f /tmp/io.stop ]; do "
                 "{ %s; } "
                 "> /tmp/io.dd 2>&1 || { echo $n >> /tmp/io.fail; cat /tmp/io.dd >> /tmp/io.fail; }; "
                 "n=$((n+1)); echo $n > /tmp/io.n; cut -d' ' -f1 /proc/uptime >> /tmp/io.t; "
                 "done; echo end > /tmp/io.end) "
                 "> /dev/null 2>&1 &" % round_)

    def done(self):
        return int(self.host.run("cat /tmp/io.n 2>/dev/null || echo 0").strip() or 0)

    def failures(self):
        return self.host.run("cat /tmp/io.fail 2>/dev/null || true").strip()

    def wait_more(self, n, what):
        """Until n more rounds than now have ended: at least n-1 of them
        began after this call."""
        target = self.done() + n
        self.host.wait_guest("[ $(cat /tmp/io.n 2>/dev/null || echo 0) -ge %d ]" % target,
                             lab.DEADLINE, what)

    def longest_pause(self):
        """The longest time (s) between two rounds' ends, by the host's
        clock: what an application saw stall."""
        t = [float(x) for x in self.host.run("cat /tmp/io.t 2>/dev/null || true").split()]
        return max((b - a for a, b in zip(t, t[1:])), default=0.0)

    def stop(self):
        self.host.run("touch /tmp/io.stop")
        self.host.wait_guest("[ -f /tmp/io.end ]", lab.DEADLINE, "the I/O loop to end")


def disk_lost(g):
    """The kernel's lines of a disk lost, not only paused."""
    out = g.run("dmesg | grep -i -e 'offlined' -e 'offline device' -e 'Synchronizing SCSI' "
                "|| true", 60)
    return [l for l in out.splitlines() if l.strip()]


def check_loop_rode_out(c, name, loop, ini, timings, what):
    """Stops the I/O loop and checks what a host must see across `what`
    (a restart, a takeover): every round completed, the disk never
    offlined or removed, 4 MiB written afterwards read back identical.
    timings[name_pause]: the loop's longest pause."""
    loop.stop()
    pause = loop.longest_pause()
    timings[name + "_pause"] = pause
    c.check("%s: every I/O round of the loop completed (%d rounds, longest pause "
            "%.1f s)" % (name, loop.done(), pause), not loop.failures(),
            loop.failures()[:300])
    lost = disk_lost(ini)
    c.check("%s: the host's disk was never offlined or removed" % name,
            not lost and ini.run_rc("[ -b /dev/sda ]")[0] == 0, "; ".join(lost[:5]))
    r = ini.write_read_check("sda", SIZE)
    c.check("%s: 4 MiB written after the %s read back identical" % (name, what),
            r["identical"], "md5 expected %s read %s" % (r["md5_expected"], r["md5_read"]))


def logged_in_again(j, fcf, since):
    """Each port of since ({wwpn: its login's "since" at the FCF}) has
    logged in again, registered with the name server (FCP, SCR), and is
    bound at fcredirect to the FCID of that login."""
    b = j.bindings()
    for w, t in since.items():
        p = fcf.port(w)
        if not p or p["since"] == t or not p["fcp"] or not p["scr"] or \
                b.get((0, w), ("", ""))[0].lower() != "0x" + p["fcid"]:
            return False
    return True


def fcf_timeouts(fcf):
    """How many ENodes the FCF has timed out (its log's lines)."""
    with open(fcf.log_path) as f:
        return sum("keep-alive timeout for ENode" in line for line in f)


def print_link_services(pcap):
    """The link service frames (ELS, BLS) of a capture, last 80: which
    exchange an end could not place."""
    out = lab.sh("tshark", "-r", pcap, "-Y", "fcels || fc.r_ctl >= 0x80", "-T", "fields",
                 "-e", "frame.time_relative", "-e", "eth.src", "-e", "eth.dst", "-e", "fc.s_id",
                 "-e", "fc.d_id", "-e", "fc.ox_id", "-e", "fc.rx_id", "-e", "fc.r_ctl",
                 "-e", "fc.f_ctl", "-e", "fcels.opcode", check=False)
    print("  link services on %s (time src dst s_id d_id ox_id rx_id r_ctl f_ctl opcode):\n%s"
          % (pcap, "\n".join(out.splitlines()[-80:])))


class CutoverWatch:
    """What a cutover scenario compares before and after: the remote ports'
    dev_loss_tmo raised (a port that logs in again within it keeps its disk:
    the host's sda and the VI's disk under the SN's mapping stay; 600 s, the
    SCSI layer's most), the guests' split-exchange counters on ifaces, and
    fcredirect's and the FCF's counters."""

    def __init__(self, R, ifaces):
        self.R = R
        for g in (R.host, R.sn):
            g.run("for r in /sys/class/fc_remote_ports/rport-*; do "
                  "grep -q 'FCP Target' $r/roles || continue; "
                  "echo 600 > $r/dev_loss_tmo || exit 1; done")
        self.splits0 = {(g.name, ifn): split_counts(g, ifn) for g, ifn in ifaces}
        self.guests = {g.name: g for g, _ in ifaces}
        self.st0 = R.j.fwd_stats()
        self.cut0 = self.st0["tables"].get("cutovers", 0)
        self.ka0 = self.st0["tables"].get("keepalive_timeouts", 0)
        self.fcf_ka0 = fcf_timeouts(R.fcf)

    def check_after(self, c, name, captures=None):
        """No member unbound by a keep-alive timeout, no end counted a frame
        of an exchange it never saw (captures: {guest name: pcap of its
        port}, whose link services are printed when it did)."""
        st = self.R.j.fwd_stats()
        ka, fcf_ka = st["tables"].get("keepalive_timeouts", 0), fcf_timeouts(self.R.fcf)
        c.check("%s: no member unbound by a keep-alive timeout across the re-logins, at "
                "fcredirect or at the FCF (each change costs one re-login)" % name,
                ka == self.ka0 and fcf_ka == self.fcf_ka0,
                "fcredirect's keepalive_timeouts %d -> %d, the FCF's %d -> %d" % (
                    self.ka0, ka, self.fcf_ka0, fcf_ka))
        for (gname, ifn), before in self.splits0.items():
            after = split_counts(self.guests[gname], ifn)
            if not c.check("%s: %s %s counted no frame of an exchange it never saw" % (
                    name, gname, ifn), after == before, "%s -> %s" % (before, after)) and \
                    ifn == "eth0" and gname in (captures or {}):
                print_link_services(captures[gname])


def scenario_d(c, R, timings):
    """The redirect removed, then added again, while the host writes and
    reads: each change drains the pair's open exchanges (the host's new
    commands held), then makes the host and the VI log in again."""
    t0 = time.monotonic()
    L, j, fcf, sn, tgt, host = R.L, R.j, R.fcf, R.sn, R.tgt, R.host
    vi, vt = R.vi, sn.nics[1]
    add = "redirect add vlan 0 host %s target %s vi %s vt %s" % (
        host.wwpn_text, tgt.wwpn_text, vi.wwpn_text, vt.wwpn_text)
    w = CutoverWatch(R, ((host, "eth0"), (tgt, "eth0"), (sn, "eth0"), (sn, "eth1")))
    st0, cut0 = w.st0, w.cut0

    loop = IoLoop(host)
    loop.wait_more(1, "the host's first I/O round")

    # removed under I/O
    t = time.monotonic()
    since = {w: fcf.port(w)["since"] for w in (host.wwpn_text, vi.wwpn_text)}
    j.cmd("redirect del vlan 0 host %s target %s" % (host.wwpn_text, tgt.wwpn_text))
    j.wait_output("show fwd stats", lambda o: fj.parse_fwd_stats(o)["tables"].get(
        "cutovers", 0) >= cut0 + 2, what="the host and the VI told to log in again")
    loop.wait_more(3, "three I/O rounds after the redirect went")
    timings["d_del_3_reads"] = time.monotonic() - t
    st = j.fwd_stats()
    c.check("d: after redirect del the host's writes and reads go plain and complete",
            not loop.failures() and st["kinds"].get("plain", 0) > st0["kinds"].get("plain", 0),
            "failures: %r; %s" % (loop.failures()[:300], fcr_stats_line(st)))
    plain_legs = {x: st["kinds"].get(x, 0) for x in fj.LEGS}
    loop.wait_more(1, "one more plain I/O round")
    st = j.fwd_stats()
    c.check("d: no frame goes on a redirect leg once the redirect is gone",
            all(st["kinds"].get(x, 0) == plain_legs[x] for x in fj.LEGS),
            "%s -> %s" % (plain_legs, {x: st["kinds"].get(x, 0) for x in fj.LEGS}))

    # added again under I/O, once the host and the VI are back (a port
    # still logging in again cannot be told to)
    lab.wait_for(lambda: logged_in_again(j, fcf, since), lab.DEADLINE,
                 "the host and the VI to log in again after the del")
    since = {w: fcf.port(w)["since"] for w in (host.wwpn_text, vi.wwpn_text)}
    t = time.monotonic()
    j.cmd(add)
    j.wait_output("show fwd stats", lambda o: fj.parse_fwd_stats(o)["tables"].get(
        "cutovers", 0) >= cut0 + 4, what="the host and the VI told to log in again")
    rd = j.wait_redirect(host.wwpn_text, "active")
    lab.wait_for(lambda: logged_in_again(j, fcf, since), lab.DEADLINE,
                 "the host and the VI to log in again after the add")
    vi_at, host_at = fcf.port(vi.wwpn_text)["since"], fcf.port(host.wwpn_text)["since"]
    c.check("d: on redirect add the VI logged in again (through the new path) before the "
            "host was told, so the host's commands never reach a service node whose VI is "
            "still logging in", vi_at < host_at,
            "the VI's login at the FCF %.2f s, the host's %.2f s" % (vi_at, host_at))
    legs_add = {x: j.fwd_stats()["kinds"].get(x, 0) for x in fj.LEGS}
    loop.wait_more(3, "three I/O rounds after the redirect came back")
    timings["d_add_3_reads"] = time.monotonic() - t
    st = j.fwd_stats()
    c.check("d: after redirect add the host's writes and reads go through the SN again "
            "and complete",
            not loop.failures() and rd["state"] == "active" and
            all(st["kinds"].get(x, 0) > legs_add[x] for x in ("host_to_target", "vi_to_target")),
            "failures: %r; %s" % (loop.failures()[:300], fcr_stats_line(st)))
    loop.stop()
    pause = loop.longest_pause()
    timings["d_pause"] = pause
    c.check("d: every I/O round of the loop completed (%d rounds, longest pause %.1f s)" % (
        loop.done(), pause), not loop.failures(), loop.failures()[:300])
    lost = disk_lost(host)
    c.check("d: the host's disk was never offlined or removed",
            not lost and host.run_rc("[ -b /dev/sda ]")[0] == 0, "; ".join(lost[:5]))
    nums = sample_numbers(loop.start, loop.size)
    n = found_in_file(tgt, "/tmp/lun0.img", nums)
    c.check("d: the loop's pattern, last written through the SN, is not in cleartext in "
            "the target's backing file", n == 0, "%d of %d numbers found" % (n, len(nums)))

    st = j.fwd_stats()
    c.check("d: each change drained the pair and made the host and the VI log in again "
            "(4 Clear Virtual Links sent, none unsent, no drain timed out, the VI told "
            "first back within its wait)",
            st["tables"].get("cutovers", 0) == cut0 + 4 and
            st["tables"].get("cutovers_unsent", 0) == st0["tables"].get("cutovers_unsent", 0) and
            st["tables"].get("cutover_drains_timed_out", 0) ==
            st0["tables"].get("cutover_drains_timed_out", 0) and
            st["tables"].get("cutover_vi_waits_timed_out", 0) ==
            st0["tables"].get("cutover_vi_waits_timed_out", 0),
            "cutovers %s -> %s, unsent %s, drains timed out %s, vi waits timed out %s, "
            "cutovers timed out %s, commands held %s" % (
                cut0, st["tables"].get("cutovers"), st["tables"].get("cutovers_unsent"),
                st["tables"].get("cutover_drains_timed_out"),
                st["tables"].get("cutover_vi_waits_timed_out"),
                st["tables"].get("cutovers_timed_out"),
                st["drops"].get("cutover_held", 0)))
    w.check_after(c, "d")

    r = host.write_read_check("sda", SIZE)
    c.check("d: after both changes, 4 MiB written by the host reads back identical",
            r["identical"], "md5 expected %s read %s" % (r["md5_expected"], r["md5_read"]))
    nums = sample_numbers(r["start"], SIZE)
    n = found_in_file(tgt, "/tmp/lun0.img", nums)
    c.check("d: that pattern is never found in cleartext in the target's backing file",
            n == 0, "%d of %d numbers found" % (n, len(nums)))
    R.start = r["start"]
    for g in (tgt, host, sn):
        check_dmesg_clean(c, g)
    timings["d"] = time.monotonic() - t0


def sn_path_on_multipath(sn, vdisk):
    """The SN's crypt mapping moved onto a multipath device (fcrmp) whose one
    path is the VI's disk, queueing I/O while it has no path: what lets a
    service node move its backing I/O to a new VI's disk."""
    sectors = sn.run("cat /sys/block/%s/size" % vdisk).strip()
    sn.run("modprobe -a dm_multipath dm_round_robin && DM_DISABLE_UDEV=1 dmsetup create fcrmp "
           "--table '0 %s multipath 1 queue_if_no_path 0 1 1 round-robin 0 1 1 /dev/%s 1' && "
           "dmsetup suspend %s && dmsetup load %s --table '0 %s crypt aes-xts-plain64 %s 0 "
           "/dev/mapper/fcrmp 0' && dmsetup resume %s"
           % (sectors, vdisk, CRYPT, CRYPT, sectors, KEY, CRYPT), 60)
    return sn.run("dmsetup table %s" % CRYPT).strip(), sectors


def sn_follow_vi(sn, ifname, sectors):
    """The SN's side of a VI change, in the background: once the disk of the
    VI on ifname (the target's LUN, reached as the host) is there, the
    multipath device's path is it; /tmp/vi2.disk then names it."""
    sn.run("rm -f /tmp/vi2.*; (while :; do d=$(fcr_disk %s); "
           "[ -n \"$d\" ] && [ \"$(cat /sys/block/$d/size 2>/dev/null)\" = %s ] && break; "
           "sleep 0.2; done; dmsetup suspend --noflush fcrmp && dmsetup load fcrmp --table "
           "\"0 %s multipath 1 queue_if_no_path 0 1 1 round-robin 0 1 1 /dev/$d 1\" && "
           "dmsetup resume fcrmp && echo $d > /tmp/vi2.disk) > /tmp/vi2.log 2>&1 &"
           % (ifname, sectors, sectors))


def scenario_g(c, R, timings):
    """A new VI for the redirect while the host writes and reads: the pair
    drains on the old rules, the old VI and the new one are told to log in
    again, the new one comes back through the new rules (as the host) first,
    then the host; the service node moves its disk to the new VI's."""
    t0 = time.monotonic()
    L, j, fcf, sn, tgt, host = R.L, R.j, R.fcf, R.sn, R.tgt, R.host
    vi, vt, vi2 = R.vi, sn.nics[1], sn.nics[2]
    table, sectors = sn_path_on_multipath(sn, R.vdisk)
    mp = sn.run("dmsetup table fcrmp").strip()
    c.check("g: the SN's crypt mapping is over a multipath device on the VI's disk",
            " 254:" in table and " multipath " in mp, "%s | %s" % (table, mp))
    # the new VI logs in to the fabric (not zoned with the target yet: it
    # never logs in to it as itself)
    sn.fcoe_up("eth2")
    sn.wait_online(ifname="eth2")
    fcf.wait_port(vi2.wwpn_text, fcp=True, scr=True)
    lab.wait_for(lambda: (0, vi2.wwpn_text) in j.bindings(), lab.DEADLINE,
                 "the new VI bound at fcredirect")
    # the old VI's disk fails fast once its path is gone (the SN's I/O then
    # waits in the multipath device for the new VI's disk)
    sn.run("for r in /sys/class/net/eth0/ctlr_*/host*/rport-*/fc_remote_ports/rport-*; do "
           "[ -e $r/fast_io_fail_tmo ] && echo 2 > $r/fast_io_fail_tmo; done; true")
    sn_follow_vi(sn, "eth2", sectors)
    w = CutoverWatch(R, ((host, "eth0"), (tgt, "eth0"), (sn, "eth1"), (sn, "eth2")))
    st0, cut0 = w.st0, w.cut0
    # what reaches the target and leaves it, headers only: printed when it
    # counts a frame of an exchange it never saw
    caps = {tgt.name: L.capture(tgt.nics[0].tap, snaplen=96)}

    loop = IoLoop(host)
    loop.wait_more(1, "the host's first I/O round")
    since = {w: fcf.port(w)["since"] for w in (host.wwpn_text, vi2.wwpn_text)}
    t = time.monotonic()
    j.cmd("redirect add vlan 0 host %s target %s vi %s vt %s" % (
        host.wwpn_text, tgt.wwpn_text, vi2.wwpn_text, vt.wwpn_text))
    fcf.set_zones([[vi.wwpn_text, tgt.wwpn_text], [vi2.wwpn_text, tgt.wwpn_text],
                   [host.wwpn_text, tgt.wwpn_text]])
    j.wait_output("show fwd stats", lambda o: fj.parse_fwd_stats(o)["tables"].get(
        "cutovers", 0) >= cut0 + 3, what="the old VI, the new VI and the host told")
    lab.wait_for(lambda: logged_in_again(j, fcf, since), lab.DEADLINE,
                 "the new VI and the host to log in again")
    rd = j.wait_redirect(host.wwpn_text, "active")
    sn.wait_guest("[ -f /tmp/vi2.disk ]", lab.DEADLINE, "the SN's disk on the new VI")
    legs = {x: j.fwd_stats()["kinds"].get(x, 0) for x in fj.LEGS}
    loop.wait_more(3, "three I/O rounds after the new VI")
    timings["g_3_reads"] = time.monotonic() - t
    st = j.fwd_stats()
    c.check("g: the redirect's VI is the new one, active, and the host's writes and reads "
            "go through it",
            rd["vi"] == vi2.wwpn_text.lower() and rd["state"] == "active" and
            all(st["kinds"].get(x, 0) > legs[x] for x in ("host_to_target", "vi_to_target")),
            "%s; %s" % (rd["line"], fcr_stats_line(st)))
    vi2_at, host_at = fcf.port(vi2.wwpn_text)["since"], fcf.port(host.wwpn_text)["since"]
    c.check("g: the new VI logged in again (through the new path) before the host",
            vi2_at < host_at, "the new VI's login at the FCF %.2f s, the host's %.2f s" % (
                vi2_at, host_at))
    rp = tgt.run("fcr_rports")
    c.check("g: the target never had the new VI as a remote port (it logged in as the host)",
            "0x%016x" % vi2.wwpn not in rp, rp.strip().replace("\n", "; "))
    check_loop_rode_out(c, "g", loop, host, timings, "VI change")
    nums = sample_numbers(loop.start, loop.size)
    n = found_in_file(tgt, "/tmp/lun0.img", nums)
    c.check("g: the loop's pattern is not in cleartext in the target's backing file",
            n == 0, "%d of %d numbers found" % (n, len(nums)))
    r = host.write_read_check("sda", SIZE)
    nums = sample_numbers(r["start"], SIZE)
    n = found_in_file(tgt, "/tmp/lun0.img", nums)
    c.check("g: 4 MiB written through the new VI are never in cleartext at the target",
            n == 0, "%d of %d numbers found" % (n, len(nums)))
    R.start = r["start"]

    st = j.fwd_stats()
    c.check("g: the change drained the pair and made the old VI, the new VI and the host "
            "log in again (3 Clear Virtual Links, none unsent, no drain or VI wait timed out)",
            st["tables"].get("cutovers", 0) == cut0 + 3 and
            all(st["tables"].get(k, 0) == st0["tables"].get(k, 0) for k in (
                "cutovers_unsent", "cutover_drains_timed_out", "cutover_vi_waits_timed_out")),
            "cutovers %s -> %s; %s" % (cut0, st["tables"].get("cutovers"), {
                k: st["tables"].get(k) for k in (
                    "cutovers_unsent", "cutover_drains_timed_out", "cutover_vi_waits_timed_out",
                    "cutovers_timed_out")}))
    w.check_after(c, "g", caps)
    for g in (tgt, host, sn):
        check_dmesg_clean(c, g)
    R.vi = vi2
    timings["g"] = time.monotonic() - t0


def state_paths(path):
    """The redirect paths a state file's header counts (format versions 2 and 3:
    bytes 36-39), or -1 while it has none to read."""
    try:
        with open(path, "rb") as f:
            head = f.read(40)
    except OSError:
        return -1
    if len(head) < 40 or head[:8] != b"FCRSTATE":
        return -1
    return int.from_bytes(head[36:40], "little")


def scenario_f(c, R, timings):
    """fcredirect killed (SIGKILL) under the host's I/O through the SN and
    started again with its state file and, as an operator's startup
    commands would, the redirect: the redirect is restored active with its
    path, the configuration's `redirect add` changes nothing, and no port
    logs in again."""
    t0 = time.monotonic()
    j, fcf, sn, tgt, host = R.j, R.fcf, R.sn, R.tgt, R.host
    vi, vt = R.vi, sn.nics[1]
    add = "redirect add vlan 0 host %s target %s vi %s vt %s" % (
        host.wwpn_text, tgt.wwpn_text, vi.wwpn_text, vt.wwpn_text)
    # the file on disk holds the active redirect's path (its header's count)
    state = os.path.join(R.L.dir, "fcredirect.state")
    lab.wait_for(lambda: state_paths(state) == 1, lab.DEADLINE,
                 "the state file to hold the redirect's path")
    loop = IoLoop(host)
    loop.wait_more(2, "two I/O rounds before the restart")
    since = {w: fcf.port(w)["since"]
             for w in (host.wwpn_text, tgt.wwpn_text, vi.wwpn_text, vt.wwpn_text)}
    # the operator's startup commands name the redirect
    j.startup.append(add)
    t = time.monotonic()
    j.restart(kill=True)
    st = j.fwd_stats()["tables"]
    c.check("f: the redirect restored from the state file with its path",
            st.get("state_restored_redirects", 0) == 1 and
            st.get("state_restored_bindings", 0) >= 4, str(st))
    rd = j.wait_redirect(host.wwpn_text, "active")
    loop.wait_more(3, "three I/O rounds after the restart")
    timings["f_resume"] = time.monotonic() - t
    st = j.fwd_stats()
    c.check("f: the configuration's redirect add changed nothing: no cutover, no port "
            "told to log in again, none removed",
            rd["state"] == "active" and st["tables"].get("cutovers", 0) == 0 and
            st["tables"].get("cutovers_unsent", 0) == 0 and
            st["tables"].get("enode_relogins", 0) == 0 and
            st["tables"].get("state_redirects_removed", 0) == 0 and
            st["tables"].get("state_redirects_recut", 0) == 0, fcr_stats_line(st))
    again = [w for w, s0 in since.items() if fcf.port(w)["since"] != s0]
    c.check("f: no port logged in again", not again, str(again))
    rd = j.redirect(host.wwpn_text)
    timings["f_not_ready"] = rd["not_ready"]
    c.check("f: the rules were in before the first frame: nothing forwarded before them, "
            "nothing dropped as not ready", rd["before_rule"] == 0 and rd["not_ready"] == 0,
            rd["line"])
    c.check("f: the host's I/O went on through the SN",
            all(st["kinds"].get(x, 0) > 0 for x in ("host_to_target", "vi_to_target")),
            fcr_stats_line(st))
    check_loop_rode_out(c, "f", loop, host, timings, "restart")
    nums = sample_numbers(loop.start, loop.size)
    n = found_in_file(tgt, "/tmp/lun0.img", nums)
    c.check("f: the loop's pattern, written through the SN across the restart, is not in "
            "cleartext in the target's backing file", n == 0,
            "%d of %d numbers found" % (n, len(nums)))
    for g in (tgt, host, sn):
        check_dmesg_clean(c, g)
    timings["f"] = time.monotonic() - t0


def scenario_e(c, R, timings):
    """The host logs in to a second target, then out of it; its redirected
    pair goes on."""
    t0 = time.monotonic()
    L, j, fcf, sn, tgt, host = R.L, R.j, R.fcf, R.sn, R.tgt, R.host
    vi, t2 = R.vi, tgt.nics[1]
    zones = [[vi.wwpn_text, tgt.wwpn_text], [host.wwpn_text, tgt.wwpn_text]]

    tgt.lio_target([host.wwpn_text], size_mb=LUN_MB, nic=1)
    tgt.fcoe_up("eth1")
    tgt.wait_online(ifname="eth1")
    fcf.wait_port(t2.wwpn_text, fcp=True, scr=True)
    fcf.set_zones(zones + [[host.wwpn_text, t2.wwpn_text]])
    size = host.wait_disk("sdb")
    model = host.run("cat /sys/block/sdb/device/model").strip()
    c.check("e: the host sees the second target's LUN as sdb (fileio: not redirected)",
            size == LUN_MB << 20 and model.startswith("FILEIO"), "%d bytes, %s" % (size, model))
    r = host.write_read_check("sdb", 1 << 20)
    c.check("e: 1 MiB written to sdb reads back identical", r["identical"],
            "md5 expected %s read %s" % (r["md5_expected"], r["md5_read"]))
    nums = sample_numbers(r["start"], 1 << 20, 8)
    n = found_in_file(tgt, "/tmp/lun1.img", nums)
    c.check("e: it went plain: the second target's file holds it in cleartext",
            n == len(nums), "%d of %d" % (n, len(nums)))

    st0 = j.fwd_stats()
    zone0 = fcf.drops().get("zone", 0)
    rp_of = "fcr_rports | grep '^0x%016x '" % t2.wwpn
    fcf.set_zones(zones)          # the FCF's RSCN: libfc logs out of the target gone
    host.wait_guest("! %s | grep -q ' Online '" % rp_of, lab.DEADLINE,
                    "the host to log out of the second target")
    lab.wait_for(lambda: fcf.drops().get("zone", 0) > zone0, lab.DEADLINE,
                 "the host's or the target's LOGO to reach the FCF (zoned off)")
    rp = host.run("%s || true" % rp_of).strip()
    c.check("e: the host logged out of the second target (its remote port left Online; "
            "the LOGOs reached the FCF, which zoned them off)",
            " Online " not in rp + " " and fcf.drops().get("zone", 0) > zone0, rp)
    st = j.fwd_stats()
    b = j.bindings()
    rd = j.redirect(host.wwpn_text)
    c.check("e: the N_Port LOGO taught fcredirect nothing: the host still bound, the redirect "
            "active, no logout counted",
            b.get((0, host.wwpn_text), ("", ""))[1] == "learned" and rd["state"] == "active"
            and st["tables"].get("logouts", 0) == st0["tables"].get("logouts", 0),
            "%s; logouts %s -> %s" % (rd["line"], st0["tables"].get("logouts"),
                                      st["tables"].get("logouts")))
    r = host.write_read_check("sda", SIZE)
    c.check("e: the host's redirected disk still works: 4 MiB read back identical",
            r["identical"], "md5 expected %s read %s" % (r["md5_expected"], r["md5_read"]))
    nums = sample_numbers(r["start"], SIZE)
    n = found_in_file(tgt, "/tmp/lun0.img", nums)
    c.check("e: and still never in cleartext in the target's backing file", n == 0,
            "%d of %d numbers found" % (n, len(nums)))
    st = j.fwd_stats()
    c.check("e: it went through the SN (host_to_target and vi_to_target grew)",
            all(st["kinds"].get(x, 0) > st0["kinds"].get(x, 0)
                for x in ("host_to_target", "vi_to_target")), fcr_stats_line(st))
    R.start = r["start"]
    for g in (tgt, host, sn):
        check_dmesg_clean(c, g)
    timings["e"] = time.monotonic() - t0


def scenario_c(c, R, timings):
    """The SN stops: the redirect goes to waiting and the host's next I/O
    reaches no one (fail closed)."""
    t0 = time.monotonic()
    L, j, fcf, sn, tgt, host = R.L, R.j, R.fcf, R.sn, R.tgt, R.host
    vi, vt = R.vi, sn.nics[1]
    before = j.fwd_stats()
    # unbound by the FCF's Clear Virtual Links (logouts) or by fcredirect's
    # own keep-alive watch (keepalive_unbound), whichever comes first
    def gone(tables):
        return tables.get("logouts", 0) + tables.get("keepalive_unbound", 0)
    logouts0 = gone(before["tables"])
    legs0 = {x: before["kinds"].get(x, 0) for x in fj.LEGS}
    blocked0 = before["drops"].get("redirect_not_ready", 0)

    sn.stop()                                   # QEMU killed: no LOGO, no keep-alive
    t = time.monotonic()
    rd = j.wait_redirect(host.wwpn_text, "waiting")
    timings["c_to_waiting"] = time.monotonic() - t
    c.check("c: the redirect goes to waiting once the FCF clears the SN's ports",
            "vi" in rd["line"] or "vt" in rd["line"], rd["line"])
    lab.wait_for(lambda: fcf.port(vi.wwpn_text) is None and fcf.port(vt.wwpn_text) is None,
                 lab.DEADLINE, "the FCF to clear the VI and VT")
    lab.wait_for(lambda: (0, vi.wwpn_text) not in j.bindings() and
                 (0, vt.wwpn_text) not in j.bindings(), lab.DEADLINE,
                 "fcredirect to unbind the VI and VT")
    st = j.fwd_stats()
    c.check("c: fcredirect unbound the VI and VT (the FCF's Clear Virtual Links, or its own "
            "keep-alive watch: 2.5 silent periods)", gone(st["tables"]) >= logouts0 + 2,
            "logouts + keepalive_unbound %s -> %s (logouts %s, keepalive_unbound %s)"
            % (logouts0, gone(st["tables"]), st["tables"].get("logouts"),
               st["tables"].get("keepalive_unbound")))

    # the host writes a new pattern: it must reach no one
    t = time.monotonic()
    start = R.start + 7 * SIZE
    host.run("echo 10 > /sys/block/sda/device/timeout")
    tmo0 = int(host.run("cat /sys/block/sda/device/iotmo_cnt").strip(), 0)
    host.run("seq %d %d | head -c %d > /tmp/pat2" % (start, start + SIZE // 10, SIZE))
    host.run("(dd if=/tmp/pat2 of=/dev/sda bs=256k oflag=direct conv=fsync > /tmp/dd2.log 2>&1;"
             " echo $? > /tmp/dd2.rc) > /dev/null 2>&1 &")
    lab.wait_for(lambda: j.drops().get("redirect_not_ready", 0) > blocked0, lab.DEADLINE,
                 "fcredirect to block the host's write")
    timings["c_blocked"] = time.monotonic() - t
    # until the host's SCSI layer gives the write up (timeout), or dd ends
    lab.wait_for(lambda: int(host.run("cat /sys/block/sda/device/iotmo_cnt").strip(), 0) > tmo0
                 or host.run_rc("[ -f /tmp/dd2.rc ]")[0] == 0, lab.DEADLINE,
                 "the host's write to time out or end")
    timings["c_io_timeout"] = time.monotonic() - t
    rc = host.run("cat /tmp/dd2.rc 2>/dev/null || echo pending").strip()
    c.check("c: the host's write does not complete (timed out or failed)", rc != "0",
            "dd: %s" % rc)
    st = j.fwd_stats()
    rd = j.redirect(host.wwpn_text)
    c.check("c: fail closed: redirect_not_ready rose and the redirect counts not_ready",
            st["drops"].get("redirect_not_ready", 0) > blocked0 and rd["not_ready"] > 0,
            "redirect_not_ready %d -> %d; %s" % (blocked0, st["drops"].get("redirect_not_ready", 0),
                                                 rd["line"]))
    c.check("c: no frame went on a redirect leg after the SN stopped",
            all(st["kinds"].get(x, 0) == legs0[x] for x in fj.LEGS),
            "%s -> %s" % (legs0, {x: st["kinds"].get(x, 0) for x in fj.LEGS}))
    nums = sample_numbers(start, SIZE)
    n = found_in_file(tgt, "/tmp/lun0.img", nums)
    c.check("c: the target's backing file never receives the host's new pattern", n == 0,
            "%d of %d numbers found" % (n, len(nums)))
    flows = j.query("show flows")
    c.check("c: show flows: the host-target pair is blocked",
            "blocked" in flows, "\n".join(l for l in flows.splitlines() if "blocked" in l)[:300])
    check_dmesg_clean(c, tgt)
    timings["c"] = time.monotonic() - t0


def scenarios_bc(c, binary, timings, which):
    t0 = time.monotonic()
    failed0 = c.failed
    R = Redirected(binary)
    with R.L as L:
        try:
            scenario_b(c, R, timings)
        except Exception:
            traceback.print_exc()
            c.check("b: runs to its end", False)
            diagnose(L, R.j)
        # each after b's active redirect, in this order; a failed one
        # leaves the redirect in no known state for the next
        # the cutovers (d, g) before the restart (f): a cutover soon after
        # fcredirect was killed under I/O wedged the rig's LIO target (its
        # kernel hung tearing down a session, as in test_restart.py r2)
        for name, scenario in (("d", scenario_d), ("g", scenario_g), ("f", scenario_f),
                               ("e", scenario_e), ("c", scenario_c)):
            if name not in which:
                continue
            if not R.ok_b:
                c.check("%s: runs (needs b's active redirect)" % name, False)
                continue
            try:
                scenario(c, R, timings)
            except Exception:
                traceback.print_exc()
                c.check("%s: runs to its end" % name, False)
                diagnose(L, R.j)
                R.ok_b = False
        L.failed = c.failed > failed0      # logs kept when a check failed
    timings["bc"] = time.monotonic() - t0


def main():
    args = sys.argv[1:]
    if args and os.path.sep in args[0]:
        sys.argv[1:2] = [args.pop(0)]          # the binary, for test_main
    else:
        sys.argv[1:] = []
    which = set(args) or {"a", "b", "d", "g", "f", "e", "c"}

    def run(c, binary, timings):
        if "a" in which:
            scenario_a(c, binary, timings)
        if which & {"b", "c", "d", "e", "f", "g"}:
            scenarios_bc(c, binary, timings, which)
    return fj.test_main(run)


if __name__ == "__main__":
    sys.exit(main())
