#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
Milestone 1 of the real-FCoE rig: a Linux open-fcoe initiator and a LIO
tcm_fc target (QEMU guests) and the Python FCF, joined by a Linux bridge.
The target logs in and registers, then the initiator logs in through FIP,
sees the target's LUN as sda, writes 4 MiB of a pattern with O_DIRECT and
reads it back identical; the target's backing file holds the same bytes.
The login is captured on the FCF's veth and decoded by tshark (set
FCR_REALFAB_NO_TSHARK=1 to skip that check).
Ends with "N passed, N failed"; exits non-zero on any failure. Root only.
"""

import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab  # noqa: E402

SIZE = 4 << 20
CAPTURE = not os.environ.get("FCR_REALFAB_NO_TSHARK")


def main():
    c = lab.Checks()
    t0 = time.monotonic()
    timings = {}
    try:
        with lab.Lab() as L:
            try:
                tgt = L.add_guest("target")
                ini = L.add_guest("initiator")
                fcf = L.start_fcf()
                pcap = L.capture() if CAPTURE else None
                L.join()
                L.boot()
                timings["boot"] = time.monotonic() - t0
                c.check("guests boot the same stock kernel", tgt.kver == ini.kver, tgt.kver)

                t = time.monotonic()
                tgt.lio_target([ini.wwpn_text], size_mb=16)
                tgt.fcoe_up()
                st = tgt.wait_online()
                p = fcf.wait_port(tgt.wwpn_text, fcp=True, scr=True)
                timings["target_login"] = time.monotonic() - t
                c.check("target logs in through FIP and registers FCP",
                        st.get("port_id") == "0x" + p["fcid"] and p["mac"] == "0e:fc:00:" +
                        ":".join(p["fcid"][i:i + 2] for i in (0, 2, 4)),
                        "fcid %s mac %s" % (p["fcid"], p["mac"]))

                t = time.monotonic()
                ini.fcoe_up()
                st = ini.wait_online()
                pi = fcf.wait_port(ini.wwpn_text, fcp=True, scr=False)
                c.check("initiator logs in through FIP", st.get("port_id") == "0x" + pi["fcid"],
                        "fcid %s" % pi["fcid"])
                size = ini.wait_disk("sda")
                timings["initiator_login_to_sda"] = time.monotonic() - t
                c.check("initiator sees the target's LUN as sda", size == 16 << 20,
                        "%d bytes" % size)
                if pcap:
                    # every FIP and fabric-service frame so far: Wireshark's view of them
                    L.stop_captures()
                    t = time.monotonic()
                    d = lab.tshark_check(pcap)
                    timings["tshark"] = time.monotonic() - t
                    c.check("tshark decodes the login's %d frames cleanly" % d["frames"],
                            not d["problems"] and d["fip"] > 0 and d["fcoe"] > 0 and
                            d["crc_good"] == d["fcoe"],
                            "fip %d fcoe %d crc good %d; %s" % (
                                d["fip"], d["fcoe"], d["crc_good"], d["problems"][:5]))

                r = ini.write_read_check("sda", SIZE)
                timings["pattern"], timings["write"], timings["read"] = \
                    r["gen_s"], r["write_s"], r["read_s"]
                c.check("4 MiB written to sda reads back identical", r["identical"],
                        "md5 expected %s written %s read %s" % (
                            r["md5_expected"], r["md5_written"], r["md5_read"]))
                on_target = tgt.run("head -c %d /tmp/lun0.img | md5sum" % SIZE).split()[0]
                c.check("the target's backing file holds the pattern",
                        on_target == r["md5_expected"], on_target)

                drops = fcf.drops()
                c.check("the FCF dropped nothing", not any(drops.values()), str(drops))
                s = ini.stats()
                c.check("initiator's fc_host counted frames both ways",
                        s.get("tx_frames", 0) > 0 and s.get("rx_frames", 0) > 0,
                        "tx %s rx %s invalid_crc %s error_frames %s" % (
                            s.get("tx_frames"), s.get("rx_frames"),
                            s.get("invalid_crc_count"), s.get("error_frames")))
                c.check("no CRC errors at the initiator", s.get("invalid_crc_count", 1) == 0)
            except Exception:
                traceback.print_exc()
                c.check("run completes", False)
                L.diagnose()
                L.failed = True
    except Exception:
        traceback.print_exc()
        c.check("lab setup and teardown", False)
    timings["total"] = time.monotonic() - t0
    return c.report(timings)


if __name__ == "__main__":
    sys.exit(main())
