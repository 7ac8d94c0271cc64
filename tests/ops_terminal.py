#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
The prompt as an operator meets it on a terminal: fcredirect -i on a real
pseudo-terminal, driven key by key. `show port stats all` and `show port
info all` answer (a placeholder matches only what its type accepts, so they
are not ambiguous); tab completes command words, offers the ports for a
<port> and the WWPNs of the bindings for a <wwpn>; '?' lists what can come
next; a completed line runs; a word of the wrong type is refused with the
grammar's own message, the one a pipe gets; testpmd's commands (show fwd
stats all, port stop|start|reset, show port summary all, show config fwd,
set promisc, stop printing the statistics) answer as they do from a pipe;
quit exits 0 (ports: net_ring, which can be reset and made promiscuous). Every wait is for text to appear, bounded only against a hang.
Ends with "N passed, M failed".

    ops_terminal.py <fcredirect>
"""
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fcr_pipe  # noqa: E402

FCR = sys.argv[1]
PREFIX = "opsterm%d" % os.getpid()
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
BOUND_S = 60


def plain(s):
    """What a terminal shows at the end: no escape sequences, no returns."""
    return ANSI.sub("", s).replace("\r", "").replace("\x07", "")  # only against a hang: every wait ends when its text appears
passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("  PASS: " + what)
    else:
        failed += 1
        print("  FAIL: " + what)
        for line in str(detail).splitlines()[-15:]:
            print("        " + line)


class Terminal:
    def __init__(self):
        master, slave = pty.openpty()
        self.fd = master
        self.p = subprocess.Popen(
            [FCR, "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
             "--file-prefix", PREFIX, "--log-level=lib.eal:error",
             "--vdev", "net_ring0", "--vdev", "net_ring1", "--",
             "-i", "--max-flows", "4096", "--max-bindings", "4096", "--max-redirects", "256"],
            stdin=slave, stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        self.seen = ""

    def _read(self, until):
        end = time.monotonic() + BOUND_S
        while time.monotonic() < end:
            r, _, _ = select.select([self.fd], [], [], 0.2)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return False
                if not data:
                    return False
                self.seen += data.decode("utf-8", "replace")
                if until(self.seen):
                    return True
            elif self.p.poll() is not None and not r:
                return until(self.seen)
        return False

    def keys(self, text, until):
        """Type text; wait until until(everything printed since) holds.
        Returns (held, what was printed since)."""
        start = len(self.seen)
        os.write(self.fd, text.encode())
        ok = self._read(lambda s: until(s[start:]))
        return ok, self.seen[start:]

    def prompt_after(self, text):
        """Type text; wait until the output ends with a bare prompt (the
        line ran and the program waits for the next one)."""
        return self.keys(text, lambda s: "\n" in s and plain(s).endswith("fcredirect> "))

    def line_shows(self, text, line, also=lambda s: True):
        """Type text; wait until the prompt shows `line` (after a completion
        or a list of choices, the prompt and the line are printed again)
        and also(what was printed) holds."""
        return self.keys(text, lambda s: plain(s).endswith("fcredirect> " + line) and also(s))


def main():
    t = Terminal()
    print("the prompt")
    ok = t._read(lambda s: "fcredirect> " in s)
    check(ok, "fcredirect -i on a terminal shows its prompt", t.seen)

    print("`all` is not a <port>")
    ok, out = t.prompt_after("show port stats all\r")
    check(ok and "NIC statistics for port 0" in out and "NIC statistics for port 1" in out
          and "Ambiguous" not in out, "show port stats all: both ports, not ambiguous", out)
    ok, out = t.prompt_after("show port info all\r")
    check(ok and "Infos for port 0" in out and "Infos for port 1" in out and
          "Ambiguous" not in out, "show port info all: both ports, not ambiguous", out)
    ok, out = t.prompt_after("show port stats 1\r")
    check(ok and "NIC statistics for port 1" in out and "port 0" not in out,
          "show port stats 1: that port alone", out)

    print("completion")
    # completed in place: the echo of what was typed, then the rest of the word
    ok, out = t.keys("show port st\t", lambda s: plain(s).endswith("show port stats "))
    check(ok, "tab completes 'show port st' to 'show port stats'", out)
    ok, out = t.prompt_after("all\r")
    check(ok and "NIC statistics for port 1" in out, "the completed line runs", out)
    ok, out = t.line_shows("route add 0x010000/8 port \t", "route add 0x010000/8 port ",
                           lambda s: re.search(r"\b0\b", s) and re.search(r"\b1\b", s))
    check(ok, "tab after 'port' lists the ports, 0 and 1", out)
    ok, out = t.prompt_after("0 fpma\r")
    ok, out = t.prompt_after("route list\r")
    check(ok and "route vlan any 0x010000/8 port 0 fpma" in out,
          "the route typed with completion is there", out)
    t.prompt_after("binding add vlan 100 wwpn 21:00:00:00:00:00:00:01 fcid 0x010001\r")
    ok, out = t.line_shows("binding del vlan 100 wwpn \t", "binding del vlan 100 wwpn ",
                           lambda s: "21:00:00:00:00:00:00:01" in s)
    check(ok, "tab after 'wwpn' offers the WWPN of the one binding", out)
    ok, out = t.keys("2\t", lambda s: plain(s).endswith("21:00:00:00:00:00:00:01 "))
    check(ok, "tab after '2' completes it", out)
    ok, out = t.prompt_after("\r")
    ok, out = t.prompt_after("binding list\r")
    check(ok and "0 bindings" in out, "the binding del completed that way ran", out)

    print("help with '?'")
    ok, out = t.line_shows("show port ?", "show port ", lambda s: "show port xstats" in s)
    check(ok and "show port stats all" in out and "show port info <port>" in out,
          "'show port ?' lists the commands that can follow, with their help", out)
    ok, out = t.prompt_after("info 0\r")
    check(ok and "Infos for port 0" in out, "the line typed after '?' runs", out)

    print("a word of the wrong type")
    ok, out = t.prompt_after("show port stats x\r")
    check(ok and "NIC statistics" not in out, "'show port stats x' is refused", out)
    ok, out = t.prompt_after("route add 0x010000/25 port 0 fpma\r")
    ok2, out2 = t.prompt_after("route list\r")
    check("1 routes" in out2, "a bad prefix adds nothing", out + out2)

    print("errors: the same words as from a pipe")
    ok, out = t.prompt_after("frobnicate now\r")
    check(ok and "error: unknown command 'frobnicate': try 'help'" in plain(out) and
          "Command not found" not in out, "an unknown command: the grammar's message", out)
    ok, out = t.prompt_after("show port stats x\r")
    check(ok and "error: " in plain(out) and "<port>" in plain(out) and "Bad arguments" not in out,
          "a word of the wrong type: the grammar says which word and what it should be", out)
    ok, out = t.prompt_after("route add vlan 5000 0x010000/8 port 0 fpma\r")
    check(ok and "error: bad <vlan> '5000': a VLAN is a number from 0 to 4095" in plain(out),
          "a VLAN out of range: named, with its range", out)

    print("testpmd's commands")
    ok, out = t.prompt_after("show fwd stats all\r")
    check(ok and "Forward statistics" in out, "show fwd stats all", out)
    ok, out = t.prompt_after("show port summary all\r")
    check(ok and "Number of available ports: 2" in out and
          re.search(r"^0 +net_ring0 .* started", plain(out), re.M),
          "show port summary all: two ports, started", out)
    ok, out = t.prompt_after("show config fwd\r")
    check(ok and "workers=1" in out and "RX P=0/Q=0" in out and "RX P=1/Q=0" in out,
          "show config fwd: the worker's lcore and the queues it polls", out)
    ok, out = t.prompt_after("port stop all\r")
    ok2, out2 = t.prompt_after("show port summary all\r")
    check(ok and "error" not in out and len(re.findall(r"net_ring\d .* stopped", plain(out2))) == 2
          and "port 0: Link down" in out and "port 1: Link down" in out,
          "port stop all: both stopped, the answer says each link is down", out + out2)
    ok, out = t.prompt_after("start\r")
    check(ok and "error: start: port 0 is stopped" in plain(out),
          "start with a port stopped is refused, naming it", out)
    ok, out = t.prompt_after("port start all\r")
    ok2, out2 = t.prompt_after("port reset 1\r")
    ok3, out3 = t.prompt_after("show port summary all\r")
    check(ok and ok2 and "error" not in out + out2 and
          len(re.findall(r"net_ring\d .* started", plain(out3))) == 2 and
          "port 0: Link up" in out and "port 1: Link up" in out2,
          "port start all, port reset 1: both started again, each answer says the link is up",
          out + out2 + out3)
    ok, out = t.prompt_after("set promisc all off\r")
    ok2, out2 = t.prompt_after("show port info 1\r")
    check(ok and "Promiscuous mode: disabled" in out2, "set promisc all off", out + out2)
    ok, out = t.prompt_after("set promisc 1 on\r")
    ok2, out2 = t.prompt_after("show port info 1\r")
    check(ok and "Promiscuous mode: enabled" in out2, "set promisc 1 on", out + out2)
    ok, out = t.prompt_after("set fwd io\r")
    check(ok and "fcredirect has one forwarding mode" in out, "set fwd io says why not", out)
    ok, out = t.prompt_after("start\r")
    ok2, out2 = t.prompt_after("port stop 0\r")
    check(ok and "error: port stop <port>: stop forwarding first" in plain(out2),
          "port stop while forwarding is refused", out + out2)
    ok, out = t.prompt_after("stop\r")
    check(ok and "Forward statistics" in out and "rx == tx + dropped" in out,
          "stop prints the forward statistics, as testpmd's does", out)

    print("every command of help, typed on the terminal")
    ok, out = t.prompt_after("help\r")
    syntaxes = fcr_pipe.help_syntaxes(plain(out).splitlines())
    good = {"<prefix>": "0x550000/16", "<port>": "1", "<mac>": "0e:fc:00:01:02:03",
            "<wwpn>": "21:00:00:00:00:00:00:09", "<fcid>": "0x550009", "<vlan>": "300",
            "<ms>": "1", "<n>": "1", "<addr>": "127.0.0.1:7999", "<on|off>": "on",
            "<mode>": "io", "<topic>": "show", "<type>": "fcr.cli", "<level>": "info"}
    skip = ("quit", "start", "sleep", "wait", "load config", "save config", "port ",
            "set log level", "set promisc")  # tried above, or they change what follows
    bad = []
    tried = 0
    for syn in syntaxes:
        if syn.startswith(skip):
            continue
        line = " ".join(good.get(w, w) for w in syn.split())
        ok, out = t.prompt_after(line + "\r")
        tried += 1
        said = plain(out)
        if not ok or any(m in said for m in ("Command not found", "Bad arguments",
                                             "Ambiguous command")):
            bad.append("%s -> %s" % (line, said.strip()[-200:]))
    check(tried >= 30 and not bad, "%d commands of help typed with good words: each ran "
          "(or answered as from a pipe), none was cmdline's 'not found', 'bad arguments' or "
          "'ambiguous'" % tried, "\n".join(bad))

    print("quit")
    os.write(t.fd, b"quit\r")
    try:
        rc = t.p.wait(timeout=BOUND_S)
    except subprocess.TimeoutExpired:
        t.p.kill()
        rc = None
    check(rc == 0, "quit exits with status 0 (%s)" % rc)
    shutil.rmtree("/var/run/dpdk/" + PREFIX, ignore_errors=True)  # EAL leaves its runtime folder
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
