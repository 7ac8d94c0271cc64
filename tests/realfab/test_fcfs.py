#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
fcredirect on a VLAN with two FCFs of one fabric, with real Linux endpoints
(the rig of test_fcredirect.py: an LIO target, a service node whose VT
exports dm-crypt over its VI's disk, an initiator; the FCF model as two FCFs,
fcf.py --also-fcf).

The target and the service node log in while only FCF A advertises; then
FCF B comes up with a better priority and the host, logging in after,
chooses B (Linux chooses only when it has no FCF). Every redirect leg then
joins VN_Ports of different FCFs: the VT's frames to the host must come
from B's MAC (the host's ENode drops others: "wrong source mac"), the VI's
frames as the host must go to B (the FCF model drops a frame addressed to
an FCF its S_ID did not log in to: wrong_fcf).

  b   scenario b of test_fcredirect.py in that topology: the host's 4 MiB
      through the service node read back identical, never in cleartext at
      the target, no frame refused by a guest or the FCFs;
  fcf each port logged in through the FCF it chose; fcredirect's `show fcf`
      counts the VN_Ports of each;
  d   scenario d: the redirect removed and added again under the host's I/O
      (each change's Clear Virtual Links in the name of the ENode's own FCF;
      an ENode told to log in again chooses again, B), the disk never lost;
      then still no frame refused anywhere.

Root, KVM-less QEMU (TCG). Ends with "N passed, M failed".
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fcredirect_joiner as fj  # noqa: E402
import lab  # noqa: E402
import test_fcredirect as tf  # noqa: E402

FCF_B = "0e:fc:00:ff:ff:fb"


def check_choices(c, R, label, want):
    """Each port's FCF at the FCF model, as want says ({wwpn: mac})."""
    got = {w: (R.fcf.port(w) or {}).get("fcf") for w in want}
    c.check("%s: each port logged in through the FCF it chose (%s)" % (
        label, ", ".join("%s %s" % (w[-5:], m) for w, m in sorted(want.items()))),
        got == want, str(got))


# what an FCF drops for a MAC (unknown_did: a frame to a port logging in
# again, as any fabric drops across a re-login)
MAC_DROPS = ("wrong_fcf", "vf_port_src_mac", "not_for_fcf")


def check_fabric_clean(c, R, label):
    drops = R.fcf.drops()
    c.check("%s: neither FCF dropped a frame for its MACs (wrong_fcf: sent to an FCF its "
            "S_ID did not log in to; vf_port_src_mac; not_for_fcf)" % label,
            not any(drops.get(k) for k in MAC_DROPS),
            str({k: v for k, v in drops.items() if v}))
    for g in (R.tgt, R.host, R.sn):
        tf.check_dmesg_clean(c, g)


def main():
    def run(c, binary, timings):
        def body(R):
            tf.scenario_b(c, R, timings, second_fcf=FCF_B)
            host, tgt, sn = R.host.wwpn_text, R.tgt.wwpn_text, R.sn
            check_choices(c, R, "fcf", {
                host: FCF_B, tgt: lab.FCF_MAC, sn.nics[0].wwpn_text: lab.FCF_MAC,
                sn.nics[1].wwpn_text: lab.FCF_MAC})
            out = R.j.query("show fcf")
            c.check("fcf: fcredirect's show fcf lists both FCFs with the VN_Ports each "
                    "accepted (A: target, VI, VT; B: the host)",
                    ("  fcf %s name" % lab.FCF_MAC) in out and
                    ("  fcf %s name" % FCF_B) in out and
                    " vn_ports 3" in out and " vn_ports 1" in out, out)
            if R.ok_b:
                tf.scenario_d(c, R, timings)
                check_choices(c, R, "d", {host: FCF_B})
                check_fabric_clean(c, R, "d")
        tf.in_redirected_lab(c, binary, body)
    return fj.test_main(run)


if __name__ == "__main__":
    sys.exit(main())
