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
                scenario_clear(c, R)
        tf.in_redirected_lab(c, binary, body,
                             extra=["--cleartext-guard", "drop", "--cleartext-sample", "1",
                                    "--sn-stall-ms", "3000"])
    return fj.test_main(run)


if __name__ == "__main__":
    sys.exit(main())
