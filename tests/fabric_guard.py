#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
fabric_guard.py FCREDIRECT

The cleartext guard (--cleartext-guard), on TAP ports (tests/fabric_lab.py:
the test plays the host, the target, the service node and the FCF; data
frames of 1024 bytes, as the TAP ports' MTU allows), with
every data frame judged (--cleartext-sample 1):

  * alarm: the service node's ciphertext (random bytes) reaches the target
    as the host's and raises nothing; its cleartext (text) reaches it too,
    and is counted (guard_clear, cleartext_alarms, the redirect's
    `cleartext N`) and logged; the redirect stays active;
  * drop: ciphertext passes; the first cleartext frame never reaches the
    target (dropped, `cleartext`), the redirect is stopped (`cleartext`,
    cleartext_stops) and its pair fails closed: the host's frames and the
    VI's to the target are dropped (redirect_not_ready), never plain;
    `redirect resume` gives it its path again, the host's frames reach the
    service node; a resume of one not stopped is an error.

Root only (TAP interfaces). Ends with "N passed, M failed".
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fabric_lab as fl  # noqa: E402
import sync_lib as sl  # noqa: E402

H, T, VI, VT = 0x2100000000000001, 0x5000000000000001, 0x2f00000000000001, 0x2f00000000000002
TEXT = (b"fcredirect steers a host's storage through a service node. " * 20)[:1024]


def to_target(lab, ox, h):
    """The VI's frame ox as the target gets it: as the host's."""
    got = lab.ports[fl.TARGETS].wait(lambda f: f["ox_id"] == ox, timeout=10)
    return got[0] if got and got[0]["s_id"] == h.fcid else None


def in_guard_lab(t, mode, body):
    """body(lab, h, tg, vi, vt) in a lab with the guard in `mode`, judging
    every data frame, the redirect active."""
    print("--cleartext-guard %s" % mode)
    lab = fl.Lab(t, name="fcrg" + mode[0], extra=["--cleartext-guard", mode,
                                                  "--cleartext-sample", "1"])
    try:
        st = lab.redirected(H, T, VI, VT)
        if st is not None:
            body(lab, *st)
    finally:
        lab.close()


def ciphertext_passes(t, lab, h, tg, vi, ox):
    cipher = os.urandom(1024)
    vi.send(tg.fcid, payload=cipher, ox_id=ox)
    got = to_target(lab, ox, h)
    t.check(got is not None and got["payload"][:1024] == cipher,
            "the service node's ciphertext reaches the target as the host's")


def alarm(t, lab, h, tg, vi, vt):
    ciphertext_passes(t, lab, h, tg, vi, 0x4100)
    t.check(lab.wait_stat("guard_judged", 1) == 1 and lab.stat("guard_clear") == 0,
            "judged, not clear (guard_judged 1, guard_clear 0)")
    vi.send(tg.fcid, payload=TEXT, ox_id=0x4101)
    got = to_target(lab, 0x4101, h)
    t.check(got is not None, "alarm: its cleartext reaches the target too")
    t.check(lab.wait_stat("cleartext_alarms", 1) == 1 and lab.stat("guard_clear") == 1,
            "and is counted: guard_clear 1, cleartext_alarms 1")
    line = lab.redirect_line(H)
    t.check(" active " in line and " cleartext 1" in line,
            "the redirect stays active and says `cleartext 1`", line)
    t.check(lab.node.logged("do not look encrypted", timeout=10),
            "and logged", lab.node.log_tail())


def drop(t, lab, h, tg, vi, vt):
    out = lab.node.query("redirect resume vlan 0 host %s target %s" %
                         (fl.wwpn_text(H), fl.wwpn_text(T)))
    t.check(out.startswith("error") and "not stopped" in out,
            "resume of a redirect the guard did not stop: an error", out)
    out = lab.node.query("show config")
    t.check("cleartext guard: drop (a redirect found passing cleartext stops), one data "
            "frame in 1 judged" in out, "show config says the guard's mode and sample", out)
    ciphertext_passes(t, lab, h, tg, vi, 0x4200)
    vi.send(tg.fcid, payload=TEXT, ox_id=0x4201)
    t.check(lab.wait_stat("cleartext", 1) == 1,
            "the first cleartext frame is dropped (cleartext 1)")
    ok, _, line = lab.node.poll("redirect list",
                                lambda o: " cleartext (stopped: cleartext to the target)" in o,
                                30, 0.05)
    t.check(ok, "the redirect is stopped: state cleartext", line)
    t.check(lab.node.logged("the redirect is stopped", timeout=10), "and logged",
            lab.node.log_tail())
    t.check(lab.stat("cleartext_stops") == 1, "cleartext_stops 1")
    before = lab.stat("redirect_not_ready")
    vi.send(tg.fcid, payload=TEXT, ox_id=0x4202)
    h.send(tg.fcid, payload=b"\0" * 64, ox_id=0x4203)
    t.check(lab.wait_stat("redirect_not_ready", before + 2) == before + 2,
            "its pair fails closed: the VI's and the host's frames dropped "
            "(redirect_not_ready +2)")
    # both were dropped (counted above) before this one was sent: the
    # target's port has seen neither
    t.check(not lab.ports[fl.TARGETS].matching(lambda f: f["ox_id"] in (0x4201, 0x4202,
                                                                       0x4203)),
            "the target never had the cleartext nor the host's frame")
    out = lab.node.query("redirect resume vlan 0 host %s target %s" %
                         (fl.wwpn_text(H), fl.wwpn_text(T)))
    t.check(" resumed" in out, "redirect resume", out)
    ok, _, line = lab.node.poll("redirect list", lambda o: " active " in o, 30, 0.05)
    t.check(ok, "active again", line)
    h.send(tg.fcid, payload=b"\0" * 64, ox_id=0x4204)
    got = lab.ports[fl.SN].wait(lambda f: f["ox_id"] == 0x4204, timeout=10)
    t.check(got is not None and got[0]["d_id"] == vt.fcid,
            "the host's frames reach the service node again")


def main():
    t = sl.Test("fabric-guard", sys.argv[1], budget_s=240)
    in_guard_lab(t, "alarm", lambda *a: alarm(t, *a))
    in_guard_lab(t, "drop", lambda *a: drop(t, *a))
    t.finish()


if __name__ == "__main__":
    main()
