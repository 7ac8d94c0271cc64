#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
What fcredirect checks of a service node, with real Linux endpoints (the rig
of test_fcredirect.py: an LIO target, a service node whose VT exports
dm-crypt over its VI's disk, an initiator): the latency it adds, whether its
application answers above FIP, and the cleartext guard (fcredirect run with
--cleartext-guard=drop, every data frame judged: --cleartext-sample=1, and
--sn-stall-ms=3000).

  b    scenario b of test_fcredirect.py: the host's 4 MiB through the
       encrypting service node read back identical, never in cleartext at
       the target; real AES-XTS ciphertext judged and never taken for
       cleartext (guard_judged covers the 4 MiB, guard_clear 0, the
       redirect active, nothing dropped but redirect_hidden); the latency the
       node adds timed on both its sides (`show redirect`);
  hung the service node's application hangs while its FIP keeps alive (the
       VT's dm-crypt mapping suspended: the host's read reaches the VT and
       is never answered): `redirect list` says the service node is not
       answering (sn_stalls 1, logged); the mapping resumed, the VT answers,
       the host's read completes (sn_answering 1);
  cluster the redirect named again as one of a cluster of two members
       (the VI on eth0 and the VT; a second VI on eth2 with the same VT:
       the service node's I/O on a multipath device whose path it moves to
       the disk of whichever VI has it): it stays where it is; then the
       first member is killed (its VI's link dead: no logout) while the
       host reads its pattern back over and over: its VT's answers stop
       (the I/O waits for a VI), the member is found not answering (or
       unbound: the FCF's keep-alive timer), and after --sn-failover-ms
       the pair moves to the second member through the exchange-safe
       cutover (sn_moves 1, logged, `service-node list`); the second VI
       is zoned with the target once the pair is on it (a standby VI that
       logged in to the target as itself before would keep the empty scan
       the target gave it: docs/deployment.md); the host's reads ride it
       out (every round completes and matches, the disk never offlined,
       4 MiB written afterwards read back identical), its pattern is never
       in cleartext at the target, and the FCF timed out the killed VI
       alone;
  clear the service node stops encrypting (its VT's mapping made linear
       over the VI's disk under the host's feet: the host's data now goes
       to the target as it came) and the host writes a new pattern: the
       guard drops the first frame (`cleartext`), stops the redirect
       (state `cleartext`, cleartext_stops 1, logged), the pair fails
       closed, and not one of the pattern's numbers reaches the target's
       backing file.

Root, KVM-less QEMU (TCG). Ends with "N passed, M failed".
"""

import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fcredirect_joiner as fj  # noqa: E402
import lab  # noqa: E402
import test_fcredirect as tf  # noqa: E402

SIZE = 4 << 20


def scenario_hung(c, R):
    j, sn, host = R.j, R.sn, R.host
    sn.run("dmsetup suspend %s" % tf.CRYPT, 60)
    # a read the VT takes and cannot answer while its disk is suspended
    host.run("(dd if=/dev/sda of=/dev/null bs=4k count=1 skip=777 iflag=direct "
             ">/tmp/hung.dd 2>&1; echo done >> /tmp/hung.dd) &")
    out = j.wait_output("redirect list", lambda o: "(service node not answering)" in o,
                        what="the service node found not answering")
    st = j.fwd_stats()
    c.check("hung: redirect list says the service node is not answering (sn_stalls 1)",
            st["tables"].get("sn_stalls") == 1, out)
    c.check("hung: logged", bool(j.log_lines("is not answering")), "no line")
    sn.run("dmsetup resume %s" % tf.CRYPT, 60)
    j.wait_output("redirect list", lambda o: "(service node not answering)" not in o,
                  what="the service node answering again")
    c.check("hung: the VT answers once its mapping is back (sn_answering 1)",
            j.fwd_stats()["tables"].get("sn_answering") == 1)
    host.wait_guest("grep -q done /tmp/hung.dd", lab.DEADLINE, "the host's read")
    out = host.run("cat /tmp/hung.dd")
    c.check("hung: the host's read completes", "1+0 records in" in out, out)


def member_line(j, vi):
    for line in j.query("service-node list").splitlines():
        if (" vi %s " % vi.lower()) in line:
            return line
    return ""


def scenario_cluster(c, R, timings):
    j, sn, tgt, host, fcf = R.j, R.sn, R.tgt, R.host, R.fcf
    vi, vt, vi2 = sn.nics[0], sn.nics[1], sn.nics[2]
    table, sectors = tf.sn_path_on_multipath(sn, R.vdisk)
    c.check("cluster: the SN's crypt mapping is over a multipath device on the VI's disk",
            " 254:" in table, table)
    sn.fcoe_up("eth2")
    sn.wait_online(ifname="eth2")
    fcf.wait_port(vi2.wwpn_text, fcp=True, scr=True)
    lab.wait_for(lambda: (0, vi2.wwpn_text) in j.bindings(), lab.DEADLINE,
                 "the second member's VI bound at fcredirect")
    cut0 = j.fwd_stats()["tables"].get("cutovers", 0)
    for v in (vi, vi2):
        j.cmd("service-node add cluster sme vlan 0 vi %s vt %s" % (v.wwpn_text, vt.wwpn_text))
    j.cmd("redirect add vlan 0 host %s target %s cluster sme restartable" % (
        host.wwpn_text, tgt.wwpn_text))
    rd = j.redirect(host.wwpn_text)
    st = j.fwd_stats()
    c.check("cluster: named as one of the cluster, the redirect stays on its member (no "
            "cutover)", rd["state"] == "active" and rd["vi"] == vi.wwpn_text.lower() and
            "cluster sme restartable" in rd["line"] and
            st["tables"].get("cutovers", 0) == cut0, rd["line"])
    # the service node's side: the old VI's disk fails fast once its path is
    # gone, and the multipath device takes the new VI's disk once it is there
    sn.run("for r in /sys/class/net/eth0/ctlr_*/host*/rport-*/fc_remote_ports/rport-*; do "
           "[ -e $r/fast_io_fail_tmo ] && echo 2 > $r/fast_io_fail_tmo; done; true")
    tf.sn_follow_vi(sn, "eth2", sectors)
    w = tf.CutoverWatch(R, ((host, "eth0"), (tgt, "eth0"), (sn, "eth1"), (sn, "eth2")))
    # the host reads across the kill (each read compared with the pattern):
    # a write in flight to the target when the member's VI dies wedges the
    # rig's LIO target once the second VI logs in as the host (tcm_fc never
    # frees a write it was told to abort: README.md, "Restarts")
    loop = tf.IoLoop(host, reads_only=True)
    loop.wait_more(1, "the host's first I/O round")
    t = time.monotonic()
    # killed: its VI's link goes dead (no LOGO: a crash, a pulled cable); the
    # FCF's keep-alive timer ends it, then fcredirect's
    sn.run("ip link set eth0 down")
    lab.wait_for(lambda: (lambda r: r and r["vi"] == vi2.wwpn_text.lower())(
        j.redirect(host.wwpn_text)), lab.DEADLINE, "the pair moved to the second member")
    # the second VI may reach the target now (as the host: the pair is on it)
    fcf.set_zones([[vi.wwpn_text, tgt.wwpn_text], [vi2.wwpn_text, tgt.wwpn_text],
                   [host.wwpn_text, tgt.wwpn_text]])
    rd = j.wait_redirect(host.wwpn_text, "active")
    timings["cluster_move"] = time.monotonic() - t
    st = j.fwd_stats()
    c.check("cluster: the first member killed, the pair moved to the second (sn_moves 1)",
            st["tables"].get("sn_moves") == 1, "%s; %s" % (rd["line"], tf.fcr_stats_line(st)))
    c.check("cluster: logged", bool(j.log_lines("moved from the service node of vi %s" %
                                                vi.wwpn_text.lower())), "no line")
    a, b = member_line(j, vi.wwpn_text), member_line(j, vi2.wwpn_text)
    c.check("cluster: service-node list: the first member down (unbound, or not answering "
            "first), moved_out 1; the second up, 1 pair, moved_in 1",
            (" unbound " in a or " not-answering " in a) and "moved_out 1" in a and " up " in b and " pairs 1 " in b and
            "moved_in 1" in b, "%s\n%s" % (a, b))
    sn.wait_guest("[ -f /tmp/vi2.disk ]", lab.DEADLINE, "the SN's disk on the second VI")
    R.vdisk = sn.run("cat /tmp/vi2.disk").strip()
    loop.wait_more(3, "three I/O rounds after the move")
    timings["cluster_3_reads"] = time.monotonic() - t
    rp = tgt.run("fcr_rports")
    c.check("cluster: the target never had the second VI as a remote port (it logged in as "
            "the host)", "0x%016x" % vi2.wwpn not in rp, rp.strip().replace("\n", "; "))
    tf.check_loop_rode_out(c, "cluster", loop, host, timings, "move")
    nums = tf.sample_numbers(loop.start, loop.size)
    n = tf.found_in_file(tgt, "/tmp/lun0.img", nums)
    c.check("cluster: the loop's pattern is never in cleartext in the target's backing file",
            n == 0, "%d of %d numbers found" % (n, len(nums)))
    fcf_ka = tf.fcf_timeouts(fcf)
    c.check("cluster: the FCF timed out the killed VI and no other ENode",
            fcf_ka == w.fcf_ka0 + 1, "%d -> %d" % (w.fcf_ka0, fcf_ka))
    for (gname, ifn), before in w.splits0.items():
        after = tf.split_counts(w.guests[gname], ifn)
        c.check("cluster: %s %s counted no frame of an exchange it never saw" % (gname, ifn),
                after == before, "%s -> %s" % (before, after))


def scenario_clear(c, R):
    j, sn, tgt, host = R.j, R.sn, R.tgt, R.host
    sectors = sn.run("cat /sys/block/%s/size" % R.vdisk).strip()
    sn.run("dmsetup suspend %s && dmsetup load %s --table '0 %s linear /dev/%s 0' && "
           "dmsetup resume %s" % (tf.CRYPT, tf.CRYPT, sectors, R.vdisk, tf.CRYPT), 60)
    table = sn.run("dmsetup table %s" % tf.CRYPT).strip()
    c.check("clear: the VT's mapping passes the host's data as it came (linear)",
            " linear " in table, table)
    start = 700000000
    nums = tf.sample_numbers(start, SIZE)
    # the host's write never completes once the pair fails closed: in the
    # background, the test waits on fcredirect's state
    host.run("seq %d %d | head -c %d > /tmp/clear && "
             "(dd if=/tmp/clear of=/dev/sda bs=256k oflag=direct conv=fsync "
             ">/tmp/clear.dd 2>&1 &)" % (start, start + SIZE // 10, SIZE))
    rd = j.wait_redirect(host.wwpn_text, "cleartext")
    c.check("clear: the guard stops the redirect (state cleartext)",
            "(stopped: cleartext to the target)" in rd["line"], rd["line"])
    st = j.fwd_stats()
    c.check("clear: the frame judged clear dropped (cleartext), the stop counted "
            "(cleartext_stops 1)", st["drops"].get("cleartext", 0) >= 1 and
            st["tables"].get("cleartext_stops") == 1, tf.fcr_stats_line(st))
    c.check("clear: logged", bool(j.log_lines("the redirect is stopped")),
            "no line")
    # whatever the host retries now is dropped (the pair fails closed)
    before = st["drops"].get("redirect_not_ready", 0)
    j.wait_output("show fwd stats",
                  lambda o: fj.parse_fwd_stats(o)["drops"].get("redirect_not_ready", 0) > before,
                  what="the host's frames dropped while stopped (redirect_not_ready)")
    n = tf.found_in_file(tgt, "/tmp/lun0.img", nums)
    c.check("clear: no number of the host's cleartext pattern reached the target's "
            "backing file", n == 0, "%d of %d numbers found" % (n, len(nums)))


def main():
    def run(c, binary, timings):
        def body(R):
            tf.scenario_b(c, R, timings)
            st = R.j.fwd_stats()
            judged = int(st["kinds"].get("guard_judged", 0))
            c.check("b: the guard judged every frame of the 4 MiB (guard_judged >= %d) "
                    "and took none of dm-crypt's for cleartext (guard_clear 0)"
                    % (SIZE // 2048), judged >= SIZE // 2048 and
                    st["kinds"].get("guard_clear", 1) == 0, tf.fcr_stats_line(st))
            out = R.j.query("show redirect 0")
            m = re.search(r"host side\s+(\d+) exchanges.*\n\s+vi side\s+(\d+) exchanges", out)
            c.check("b: the service node's latency timed on both sides of it (show redirect: "
                    "the host's exchanges with the VT, the VI's with the target)",
                    m is not None and int(m.group(1)) > 0 and int(m.group(2)) > 0 and
                    "added      mean" in out, out)
            if R.ok_b:
                scenario_hung(c, R)
                scenario_cluster(c, R, timings)
                scenario_clear(c, R)
        tf.in_redirected_lab(c, binary, body,
                             extra=["--cleartext-guard", "drop", "--cleartext-sample", "1",
                                    "--sn-stall-ms", "3000"])
    return fj.test_main(run)


if __name__ == "__main__":
    sys.exit(main())
