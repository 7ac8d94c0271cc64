#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
The command line the way an operator meets it: every command of `help`
given wrong arguments (too few, too many, a bad value for each argument)
answers with one `error:` line, changes nothing and does not stop the
program; the display commands answer; save/load config round-trip; a
broken --cmdline-file line is named by file:line; telemetry
(dpdk-telemetry.py) answers /fcr/* with the program's figures; end of
standard input acts as quit. Ends with "N passed, M failed".

    ops_cli.py <fcredirect> [<dpdk-telemetry.py>]
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fcr_pipe  # noqa: E402

FCR = sys.argv[1]
TELEMETRY = sys.argv[2] if len(sys.argv) > 2 else shutil.which("dpdk-telemetry.py")
PREFIX = "opscli%d" % os.getpid()
passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("  PASS: " + what)
    else:
        failed += 1
        print("  FAIL: " + what)
        for line in str(detail).splitlines()[:15]:
            print("        " + line)


CONFIG_DIR = "."  # --config-dir of every Node: main() sets the test's folder


class Node:
    """fcredirect on two null ports, driven through its standard input;
    each query ends with an unknown command whose error line closes it."""

    def __init__(self, extra=(), prefix=PREFIX, eal=(), ports=("net_null0", "net_null1")):
        self.prefix = prefix
        self.p = subprocess.Popen(
            [FCR, "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
             "--file-prefix", prefix, "--log-level=lib.eal:error", *eal,
             *[a for v in ports for a in ("--vdev", v)], "--",
             "-i", "--max-flows", "4096", "--max-bindings", "4096",
             "--max-redirects", "256", "--config-dir", CONFIG_DIR, *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, bufsize=1)
        self.lines = []
        self.cv = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.n = 0

    def _read(self):
        for line in self.p.stdout:
            with self.cv:
                self.lines.append(line.rstrip("\n"))
                self.cv.notify_all()
        with self.cv:
            self.lines.append(None)
            self.cv.notify_all()

    def q(self, cmd, timeout=20):
        """Run cmd; its output lines (the marker's error line excluded)."""
        self.n += 1
        mark = "ops-mark-%d" % self.n
        start = len(self.lines)
        self.p.stdin.write(cmd + "\n" + mark + "\n")
        self.p.stdin.flush()
        end = time.time() + timeout
        with self.cv:
            while True:
                for i in range(start, len(self.lines)):
                    if self.lines[i] is None:
                        return self.lines[start:i]
                    if ("'%s'" % mark) in self.lines[i]:
                        # log lines are not the command's answer
                        return [l for l in self.lines[start:i]
                                if l is not None and not l.startswith("fcr.")]
                if time.time() > end:
                    return self.lines[start:] + ["<no answer>"]
                self.cv.wait(0.5)

    def logged(self, text):
        """Log lines (fcr.<type>: ...) so far that contain TEXT."""
        with self.cv:
            return [l for l in self.lines if l and l.startswith("fcr.") and text in l]

    def quit(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            pass
        try:
            return self.p.wait(30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return -9


BAD = {
    "<prefix>": ["0x010000/25", "0x010000", "zz/8"],
    "<port>": ["99999", "x"],
    "<mac>": ["0e:fc:00:01:02", "zz:fc:00:01:02:03"],
    "<wwpn>": ["21:00:00:24:ff:3a:5b", "21-00-00-24-ff-3a-5b-01"],
    "<fcid>": ["0x1000000", "01.02"],
    "<vlan>": ["4096", "-1"],
    "<ms>": ["-3", "1x"],
    "<n>": ["-3", "many"],
    "<addr>": ["1.2.3:7000", "1.2.3.4:70000"],
}
GOOD = {
    "<prefix>": "0x010000/8", "<port>": "0", "<mac>": "0e:fc:00:01:02:03",
    "<wwpn>": "21:00:00:24:ff:3a:5b:01", "<fcid>": "0x010001", "<vlan>": "100",
    "<ms>": "1", "<n>": "5", "<addr>": "127.0.0.1:7999", "<on|off>": "on",
    "<mode>": "io", "<topic>": "show", "<type>": "fcr.cli", "<level>": "info", "<file>": "x",
}


def state(node):
    return (node.q("route list"), node.q("binding list"), node.q("redirect list"))


def main():
    global CONFIG_DIR
    tmp = tempfile.mkdtemp(prefix="ops-cli.")
    CONFIG_DIR = tmp
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree("/var/run/dpdk/" + PREFIX, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


def wakeups(pid):
    """Voluntary context switches of the process's main thread (the tables
    lcore's, by default): how often it went to sleep."""
    with open("/proc/%d/task/%d/status" % (pid, pid)) as f:
        for line in f:
            if line.startswith("voluntary_ctxt_switches:"):
                return int(line.split()[1])
    return 0


def run(tmp):
    print("every command, wrong arguments")
    n = Node()
    help_lines = n.q("help")
    # idle, the tables lcore sleeps until woken or its 100 ms timer: about
    # 10 wake-ups a second (it used to poll every 100 us: about 7,500)
    w0, t0 = wakeups(n.p.pid), time.monotonic()
    time.sleep(2)
    rate = (wakeups(n.p.pid) - w0) / (time.monotonic() - t0)
    check(rate < 500, "idle, the tables lcore sleeps: %.0f wake-ups a second" % rate)
    syntaxes = fcr_pipe.help_syntaxes(help_lines)
    check(len(syntaxes) >= 30, "help lists the commands, grouped (%d)" % len(syntaxes),
          "\n".join(help_lines))
    start = help_lines.index("Control:") if "Control:" in help_lines else 0
    wide = [l for l in help_lines[start:] if len(l) > 80]  # not the start's banner
    check(not wide, "help's lines end by column 80", "\n".join(wide))
    check(any("redirect add vlan <vlan> host <wwpn> target <wwpn> vi <wwpn> vt <wwpn> "
              "when idle" == x for x in syntaxes),
          "a syntax longer than a line goes on at column 4, whole")
    out = "\n".join(n.q("route"))
    check("usage: route add <prefix> port <port> mac <mac> |" in out and
          out.rstrip().endswith("| route list"),
          "an incomplete command lists every usage of its word, whole", out)
    out = "\n".join(n.q("set verbose 1"))
    levels = "\n".join(n.q("show log levels"))
    check("verbose 1: fcredirect's log types (fcr.*) at info" in out and
          "fcr.tables, level is info" in levels and "fcr.store, level is info" in levels,
          "set verbose 1: fcr.* at info", out + "\n" + levels)
    n.q("set verbose 0")
    check(any(l.endswith(":") and not l.startswith(" ") for l in help_lines),
          "help has group headings")
    n.q("route add 0x410000/8 port 1 fpma")
    n.q("binding add vlan 100 wwpn 50:00:00:00:00:00:00:01 fcid 0x410001")
    before = state(n)
    bad_total = bad_ok = 0
    for syn in syntaxes:
        words = syn.split()
        if syn in ("quit",):
            continue
        variants = []
        if len(words) > 1:
            variants.append(" ".join(
                GOOD.get(w, w) for w in words[:-1]))           # one word short
        variants.append(" ".join(GOOD.get(w, w) for w in words) + " extra")
        for i, w in enumerate(words):
            for bad in BAD.get(w, []):
                variants.append(" ".join(
                    bad if j == i else GOOD.get(x, x) for j, x in enumerate(words)))
        valid = {" ".join(GOOD.get(w, w) for w in x.split()) for x in syntaxes}
        for v in variants:
            if v in valid:  # one word short of a longer form: a command itself
                continue
            bad_total += 1
            out = n.q(v)
            errs = [l for l in out if l.startswith("error:")]
            if len(errs) >= 1 and n.p.poll() is None:
                bad_ok += 1
            else:
                check(False, "'%s' answers with an error" % v, "\n".join(out))
    check(bad_ok == bad_total,
          "%d wrong command lines over %d commands each answered with error:"
          % (bad_total, len(syntaxes)))
    # values that parse but are refused by the program
    for v in ("route add 0x010000/8 port 7 fpma", "show port info 5",
              "show port stats 9", "show port xstats 3",
              "redirect add vlan 1 host 21:00:00:00:00:00:00:01 target 21:00:00:00:00:00:00:01 "
              "vi 2f:00:00:00:00:00:00:01 vt 2f:00:00:00:00:00:00:02",
              "route del 0x770000/8", "binding del vlan 9 wwpn 21:00:00:00:00:00:00:09",
              "redirect del vlan 9 host 21:00:00:00:00:00:00:09 target 21:00:00:00:00:00:00:08",
              "set log level lib.eal loud", "set log level fcr.tabels debug",
              "set log level nosuch.* info", "help nosuch", "show flows top 0",
              "set sync window 50", "sync peer add 127.0.0.1:7000", "set verbose 3",
              "save config /nonexistent-dir/x.cmds", "load config /nonexistent.cmds"):
        out = n.q(v)
        check(any(l.startswith("error:") for l in out), "refused: %s" % v, "\n".join(out))
    check(state(n) == before, "no wrong line changed routes, bindings or redirects",
          "%s\n---\n%s" % (before, state(n)))
    check(n.p.poll() is None, "the program is still running")

    print("display commands")
    for v, expect in (("show port info all", "Driver name: net_null"),
                      ("show port stats all", "RX-packets"),
                      ("show port stats 1", "NIC statistics for port 1"),
                      ("show port xstats 0", "port 0"),
                      ("show port xstats all", "statistics for port 1"),
                      ("help ports", "port reset <port>"),
                      ("help rep", "sync peer add <addr>"),
                      ("help show", "show fwd stats"),
                      ("clear fwd stats all", None),
                      ("clear port stats all", None),
                      ("show lcores", "worker"),
                      ("show config", "lcore map"),
                      ("show config", "no fabric port: nothing learned"),
                      ("show port info 0", "Role: lab"),
                      ("show flows", "flows"),
                      ("show flows vlan 100 top 3", "flows"),
                      ("show fwd stats", "Forward statistics"),
                      ("show sync stats", "sync: off"),
                      ("set log level pmd.net.null* info", None)):
        out = n.q(v)
        ok = not any(l.startswith("error:") for l in out) and (
            expect is None or any(expect in l for l in out))
        check(ok, "%s answers%s" % (v, "" if expect is None else " (%s)" % expect),
              "\n".join(out))

    print("clear fwd stats")

    def forward_for(ms):
        """Forward for ms, then the totals."""
        n.q("start\nsleep %d\nstop" % ms)
        return totals()

    def totals():
        """show fwd stats' totals: [rx, tx, dropped]."""
        for l in n.q("show fwd stats"):
            m = re.match(r"\s+total\s+rx (\d+)\s+tx (\d+)\s+dropped (\d+)", l)
            if m:
                return [int(x) for x in m.groups()]
        return None
    def in_use():
        """show mempool: mbufs in use in the port's pool."""
        for l in n.q("show mempool"):
            m = re.match(r"mempool fcr_mbufs_s0 +socket \d+ +size (\d+) +in use (\d+) +free (\d+)", l)
            if m and int(m.group(2)) + int(m.group(3)) == int(m.group(1)):
                return int(m.group(2))
        return None
    at_rest = in_use()
    check(at_rest is not None, "show mempool: the mbuf pool, in use + free = size (%s)" % at_rest)
    first = forward_for(100)
    check(first is not None and first[0] > 0 and first[0] == first[1] + first[2],
          "frames forwarded (null ports): rx %s" % (first,))
    after = in_use()
    check(after == at_rest, "after forwarding and stop every mbuf is back (in use %s, at "
          "rest %s, %s frames)" % (after, at_rest, first and first[0]))
    out = n.q("clear fwd stats")
    check(not out, "clear fwd stats answers nothing", "\n".join(out))
    zero = totals()
    check(zero == [0, 0, 0], "show fwd stats starts from zero (%s)" % (zero,))
    again = forward_for(50)
    check(again is not None and again[0] > 0 and again[0] == again[1] + again[2],
          "and counts again, rx == tx + dropped (%s)" % (again,))
    check(in_use() == at_rest, "and again after a second run")

    print("save config / load config")
    n.q("route add 0x010000/8 port 0 mac 0e:fc:00:ff:ff:fe")
    n.q("route add vlan 100 0x010000/8 port 1 fpma")
    n.q("binding add vlan 100 wwpn 21:00:00:00:00:00:00:01 fcid 0x010001")
    n.q("redirect add vlan 100 host 21:00:00:00:00:00:00:01 target 50:00:00:00:00:00:00:01 "
        "vi 2f:00:00:00:00:00:00:01 vt 2f:00:00:00:00:00:00:02")
    saved = os.path.join(tmp, "saved.cmds")
    out = n.q("save config " + saved)
    check(not out and os.path.exists(saved), "save config writes " + saved, "\n".join(out))
    text = open(saved).read() if os.path.exists(saved) else ""
    check("route add 0x010000/8 port 0 mac 0e:fc:00:ff:ff:fe" in text and
          "route add vlan 100 0x010000/8 port 1 fpma" in text and
          "redirect add vlan 100 host 21:00:00:00:00:00:00:01" in text and
          "binding add vlan 100 wwpn 21:00:00:00:00:00:00:01 fcid 0x010001" in text,
          "the file holds the routes, the static binding and the redirect", text)
    full = state(n)
    rc = n.quit()
    check(rc == 0, "quit exits 0 (%s)" % rc)

    m = Node(prefix=PREFIX + "b")
    broken = os.path.join(tmp, "broken.cmds")
    with open(broken, "w") as f:
        f.write(text + "route add 0x220000/8 port 1 fpma\nredirect add vlan 100 host oops\n")
    out = m.q("load config " + broken)
    check(any(("%s:%d:" % (broken, text.count("\n") + 2)) in l for l in out),
          "a broken line is reported as file:line", "\n".join(out))
    empty = state(m)
    check("0 routes" in empty[0] and "0 redirects, 0 active" in empty[2],
          "nothing of the broken file was applied", "%s" % (empty,))
    out = m.q("load config " + saved)
    check(not any(l.startswith("error:") for l in out), "the saved file loads", "\n".join(out))
    check(state(m) == full, "what was saved comes back the same", "%s\n---\n%s" % (full, state(m)))
    notcfg = os.path.join(tmp, "notcfg.cmds")
    with open(notcfg, "w") as f:
        f.write("route add 0x230000/8 port 1 fpma\nstart\n")
    out = m.q("load config " + notcfg)
    check(any("notcfg.cmds:2:" in l and "not configuration" in l for l in out),
          "load config refuses commands that are not configuration", "\n".join(out))
    check(state(m) == full, "and applies none of that file")

    print("save config and load config stay in --config-dir")
    secret = tempfile.mkdtemp(prefix="ops-cli-outside.")
    outside = os.path.join(secret, "outside.cmds")
    with open(outside, "w") as f:
        f.write("route add 0x240000/8 port 1 fpma\n")
    os.symlink(outside, os.path.join(tmp, "link.cmds"))
    for v, what in (("save config " + outside, "an absolute path elsewhere"),
                    ("save config ../x.cmds", "a way out with .."),
                    ("load config " + outside, "an absolute path elsewhere"),
                    ("load config ../" + os.path.basename(secret) + "/outside.cmds",
                     "a way out with .."),
                    ("load config link.cmds", "a link in the folder to a file outside it")):
        out = m.q(v)
        check(any(l.startswith("error:") and "outside the configuration folder" in l
                  for l in out), "%s refused: %s" % (v.split()[0] + " config", what),
              "\n".join(out))
    os.symlink(os.path.join(secret, "made.cmds"), os.path.join(tmp, "dangling.cmds"))
    out = m.q("save config dangling.cmds")
    check(any(l.startswith("error:") for l in out) and
          not os.path.exists(os.path.join(secret, "made.cmds")),
          "save config refused: a dangling link in the folder to a file outside it",
          "\n".join(out))
    check(state(m) == full and not os.path.exists(os.path.join(secret, "..", "x.cmds")),
          "none of them read or wrote anything", "%s\n---\n%s" % (full, state(m)))
    out = m.q("save config relative.cmds")
    check(not out and os.path.exists(os.path.join(tmp, "relative.cmds")),
          "a relative name is in the folder", "\n".join(out))
    leak = os.path.join(tmp, "leak.cmds")
    with open(leak, "w") as f:
        f.write("route add 0x250000/8 port 1 fpma\nsecret-word-XYZZY and more\n"
                "route add vlan 7777 0x260000/8 port 0 fpma\n")
    out = m.q("load config leak.cmds")
    check(any("leak.cmds:2:" in l for l in out) and not any("XYZZY" in l for l in out),
          "an error names file:line, never the file's words", "\n".join(out))
    shutil.rmtree(secret, ignore_errors=True)

    print("telemetry")
    if TELEMETRY is None:
        check(False, "dpdk-telemetry.py is installed (Debian package dpdk-dev)")
    else:
        m.q("route add 0x010000/8 port 0 fpma")
        t = subprocess.run([TELEMETRY, "-f", PREFIX + "b"], input="/fcr/stats\n/fcr/lcores\n"
                           "/fcr/redirects\n/fcr/flows\n/fcr/sync\n/fcr/flows,5\n"
                           "/fcr/routes\n/fcr/bindings\n/fcr/mempool\n/fcr/rates,200\n/\n",
                           capture_output=True, text=True, timeout=30)
        replies = {}
        for line in t.stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                replies.update(obj)
        check("/fcr/stats" in replies and "rx" in replies["/fcr/stats"] and
              "series" in replies["/fcr/stats"] and "drops" in replies["/fcr/stats"] and
              "no_route" in replies["/fcr/stats"]["drops"] and
              "mark_untrusted" in replies["/fcr/stats"]["drops"],
              "/fcr/stats: totals, series and drops by reason", t.stdout[-2000:])
        check("/fcr/lcores" in replies and "worker0" in replies["/fcr/lcores"] and
              "flow_cache_hits" in replies["/fcr/lcores"]["worker0"],
              "/fcr/lcores: the workers, with their flow cache counters", t.stdout[-1000:])
        red = replies.get("/fcr/redirects", {})
        check(red.get("count") == 1 and red.get("redirect0", {}).get("host") ==
              "21:00:00:00:00:00:00:01", "/fcr/redirects: the redirect and its state",
              json.dumps(red))
        check(red.get("redirect0", {}).get("before_rule") == 0 and
              "not_ready" in red.get("redirect0", {}) and
              red.get("redirect0", {}).get("sn_stalled") == 0,
              "/fcr/redirects: its counters by the names `redirect list` uses", json.dumps(red))
        for kind in ("routes", "bindings"):
            got = replies.get("/fcr/" + kind, {})
            check(isinstance(got.get("count"), int) and got["count"] >= 1 and
                  kind[:-1] + "0" in got,
                  "/fcr/%s: the count and the %s" % (kind, kind), json.dumps(got))
        check("/fcr/flows" in replies, "/fcr/flows answers")
        pool = replies.get("/fcr/mempool", {}).get("fcr_mbufs_s0", {})
        check(pool.get("size", 0) > 0 and pool.get("in_use", -1) >= 0 and
              pool["in_use"] + pool.get("free", -1) == pool["size"],
              "/fcr/mempool: the mbuf pool's size, in use and free", json.dumps(pool))
        rates = replies.get("/fcr/rates", {})
        # (the TSC's rate is an estimate: within 2.5%)
        check(rates.get("interval_ms", -1) >= 195 and "port0_rx_fps" in rates.get("ports", {}) and
              "port1_tx_bps" in rates.get("ports", {}) and
              "host_to_target_fps" in rates.get("legs", {}) and
              "no_route" in rates.get("drops_per_s", {}),
              "/fcr/rates,200: frames/s and bits/s by port and leg, drops/s by reason, over "
              "the 200 ms it was asked for (or more)", json.dumps(rates)[:600])
        bad = subprocess.run([TELEMETRY, "-f", PREFIX + "b"], input="/fcr/rates,5\n",
                             capture_output=True, text=True, timeout=30).stdout
        check('{"/fcr/rates": null}' in bad,
              "/fcr/rates,5: refused (an interval from 100 to 10000 ms)", bad[-300:])
        check(replies.get("/fcr/sync", {}).get("enabled") == 0, "/fcr/sync: off here")
        keys = []

        def walk(o):
            if isinstance(o, dict):
                for k, v in o.items():
                    keys.append(k)
                    walk(v)
        for k, v in replies.items():
            if k.startswith("/fcr/"):
                walk(v)
        check(all(re.fullmatch(r"[A-Za-z0-9_]+", k) for k in keys),
              "every key is letters, digits and _ (DPDK 22.11's rule)",
              [k for k in keys if not re.fullmatch(r"[A-Za-z0-9_]+", k)])
        cmds = replies.get("/", [])
        check(all(c in cmds for c in ("/fcr/stats", "/fcr/flows", "/fcr/redirects",
                                       "/fcr/lcores", "/fcr/sync")),
              "the five commands are registered", cmds)
    m.p.stdin.close()
    try:
        rc = m.p.wait(30)
    except subprocess.TimeoutExpired:
        m.p.kill()
        rc = -9
    check(rc == 0, "end of standard input acts as quit (exit %s)" % rc)
    tail = "\n".join(l for l in m.lines if l)
    check("Forward statistics" in tail, "and prints the summary")

    print("logging (rte_log types fcr.*)")
    g = Node(prefix=PREFIX + "e", eal=("--log-level=fcr.cli:info",))
    out = g.q("show log levels")
    for typ in ("fcr.main", "fcr.port", "fcr.tables", "fcr.sync", "fcr.cli"):
        want = "info" if typ == "fcr.cli" else "notice"
        check(any((typ + ",") in l and want in l for l in out),
              "show log levels: %s at %s" % (typ, want), "\n".join(out))
    g.q("route add 0x330000/8 port 1 fpma   # to the targets")
    check(any(l == "fcr.cli: route add 0x330000/8 port 1 fpma"
              for l in g.logged("fcr.cli: route add 0x330000/8")),
          "--log-level=fcr.cli:info: the audit trail logs a configuration command",
          "\n".join(l for l in g.lines if l))
    g.q("route list")
    check(not g.logged("fcr.cli: route list"), "but not a display command")
    out = g.q("set log level fcr.tables info")
    check(not out, "set log level fcr.tables info", "\n".join(out))
    w = ["21:00:00:00:00:00:00:07", "50:00:00:00:00:00:00:07",
         "2f:00:00:00:00:00:00:07", "2f:00:00:00:00:00:00:08"]
    g.q("redirect add vlan 100 host %s target %s vi %s vt %s" % tuple(w))
    for i, x in enumerate(w):
        g.q("binding add vlan 100 wwpn %s fcid 0x0%d0007" % (x, i + 1))
    check(g.logged("fcr.tables: vlan 100 wwpn %s: bound to 0x010007 (static)" % w[0]),
          "a binding is logged (fcr.tables, info)", "\n".join(l for l in g.lines if l)[-2000:])
    check(g.logged("fcr.tables: redirect vlan 100 host %s target %s: waiting -> active"
                   % (w[0], w[1])), "a redirect going active is logged")
    g.q("binding add vlan 100 wwpn %s fcid 0x010017" % w[0])
    check(g.logged("wwpn %s: moved from 0x010007 to 0x010017" % w[0]) and
          g.logged("target %s: rules moved to new FCIDs" % w[1]),
          "a binding moving, and the redirect's rules following it, are logged")
    g.q("set log level fcr.tables notice")
    g.q("binding del vlan 100 wwpn %s" % w[3])
    check(not g.logged("wwpn %s: unbound" % w[3]),
          "at notice, bindings are no longer logged")
    check(g.logged("active -> waiting: vt %s unbound" % w[3]),
          "a redirect losing a member is, naming the member")
    g.q("set log level fcr.tables info")
    storm = os.path.join(tmp, "storm.cmds")
    with open(storm, "w") as f:
        for i in range(200):
            f.write("binding add vlan 200 wwpn 21:00:00:00:00:02:%02x:%02x fcid 0x02%04x\n"
                    % (i >> 8, i & 255, i))
    before = len(g.logged("fcr.tables: vlan 200"))
    g.q("load config " + storm)
    g.q("sleep 2100")
    shown = len(g.logged("fcr.tables: vlan 200")) - before
    held = g.logged("more binding changes in that second not shown")
    check(shown <= 2 * 20 and held,
          "a storm of 200 binding changes: %d lines, then how many were held back" % shown,
          "\n".join(held))
    check(g.quit() == 0, "quit exits 0")
    shutil.rmtree("/var/run/dpdk/" + PREFIX + "e", ignore_errors=True)
    # under systemd: one copy of each line on standard error, with its level
    env = dict(os.environ, JOURNAL_STREAM="8:12345")
    p = subprocess.run([FCR, "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
                        "--file-prefix", PREFIX + "f", "--log-level=lib.eal:error",
                        "--log-level=fcr.*:info", "--vdev", "net_null0", "--", "-i"],
                       input="binding add vlan 5 wwpn 21:00:00:00:00:00:05:01 fcid 0x050001\n"
                       "quit\n", capture_output=True, text=True, timeout=60, env=env)
    check("<6>fcr.cli: binding add vlan 5" in p.stderr and
          "<6>fcr.tables: vlan 5 wwpn 21:00:00:00:00:00:05:01: bound to 0x050001" in p.stderr,
          "with JOURNAL_STREAM set, log lines carry their syslog level for the journal",
          p.stderr[-1500:])
    shutil.rmtree("/var/run/dpdk/" + PREFIX + "f", ignore_errors=True)

    print("telemetry with replication on")
    if TELEMETRY is not None:
        key = os.path.join(tmp, "sync.key")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as f:
            f.write(os.urandom(32))
        sk = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sk.bind(("127.0.0.1", 0))
        port = sk.getsockname()[1]
        sk.close()
        y = Node(extra=("--sync-bind", "127.0.0.1:%d" % port, "--sync-key-file", key),
                 prefix=PREFIX + "s")
        y.q("sleep 100")
        t = subprocess.run([TELEMETRY, "-f", PREFIX + "s"], input="/fcr/sync\n",
                           capture_output=True, text=True, timeout=30)
        sync = {}
        for line in t.stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    sync.update(json.loads(line).get("/fcr/sync", {}))
                except ValueError:
                    pass
        shown = {}
        for l in y.q("show sync stats"):
            m = re.match(r"  ([a-z_]+) +(\d+)( ms)?$", l)
            if m:
                shown[m.group(1)] = int(m.group(2))
        check(sync.get("enabled") == 1 and sync.get("state") in ("ready", "not_ready") and
              len(shown) >= 20 and set(shown) <= set(sync) and "node" not in sync,
              "/fcr/sync: the state and every counter of show sync stats by name (%d)"
              % len(shown), json.dumps(sync)[-600:])
        check(y.quit() == 0, "quit exits 0")
        shutil.rmtree("/var/run/dpdk/" + PREFIX + "s", ignore_errors=True)

    print("a sync key file others can read is refused")
    loose = os.path.join(tmp, "loose.key")
    with open(loose, "wb") as f:
        f.write(os.urandom(32))
    for mode in (0o644, 0o640, 0o604):
        os.chmod(loose, mode)
        p = subprocess.run([FCR, "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
                            "--file-prefix", PREFIX + "k", "--log-level=lib.eal:error",
                            "--vdev", "net_null0", "--", "--sync-bind", "127.0.0.1:7999",
                            "--sync-key-file", loose],
                           capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        msg = p.stdout + p.stderr
        check(p.returncode != 0 and "--sync-key-file: %s is open to its group or others" % loose
              in msg and "chmod 600" in msg,
              "a key file of mode %o refused, saying why (exit %d)" % (mode, p.returncode),
              msg[-500:])
    shutil.rmtree("/var/run/dpdk/" + PREFIX + "k", ignore_errors=True)

    print("--cmdline-file: all or nothing, and no start on a bad or missing file")

    def run_fcr(extra, stdin_text="", prefix="f"):
        p = subprocess.run([FCR, "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
                            "--file-prefix", PREFIX + prefix, "--log-level=lib.eal:error",
                            "--vdev", "net_null0", "--", "--max-flows", "4096",
                            "--max-bindings", "4096", "--max-redirects", "256", *extra],
                           capture_output=True, text=True, timeout=60, input=stdin_text)
        shutil.rmtree("/var/run/dpdk/" + PREFIX + prefix, ignore_errors=True)
        return p.returncode, p.stdout + p.stderr

    bad = os.path.join(tmp, "start.cmds")
    with open(bad, "w") as f:
        f.write("route add 0x010000/8 port 0 fpma\nroute add 0x020000/8 port 0 fmpa\n"
                "redirect add vlan 1 host oops\n")
    rc, out = run_fcr(["--cmdline-file", bad])
    check(rc == 2 and ("%s:2:" % bad) in out and ("%s:3:" % bad) in out and
          "2 bad lines: nothing of the file was applied" in out and "fmpa" not in out and
          "port(s)" in out and "Forward statistics" not in out,
          "a file with two bad lines: both named by file:line (not their words), nothing "
          "applied, the program does not start forwarding (exit %d)" % rc, out[-800:])
    rc, out = run_fcr(["-i", "--cmdline-file", bad], "route list\n")
    check(rc == 2 and "1 routes" not in out,
          "the same with -i: exit %d before reading standard input" % rc, out[-500:])
    rc, out = run_fcr(["--cmdline-file", os.path.join(tmp, "nosuch.cmds")])
    check(rc == 2 and "cannot open command file" in out,
          "a missing file: exit %d, saying so" % rc, out[-500:])
    rc, out = run_fcr(["-i", "--cmdline-file-optional", os.path.join(tmp, "nosuch.cmds")],
                      "route list\nquit\n")
    check(rc == 0 and "no command file" in out and "0 routes" in out,
          "--cmdline-file-optional and no such file: it starts with empty tables (exit %d)" % rc,
          out[-500:])
    nul = os.path.join(tmp, "nul.cmds")
    with open(nul, "wb") as f:
        f.write(b"route add 0x010000/8 port 0 fpma\nroute add 0x02\x000000/8 port 0 fpma\n")
    rc, out = run_fcr(["--cmdline-file", nul])
    check(rc == 2 and ("%s:2: control byte 0x00 at column 15" % nul) in out,
          "a NUL byte in the file: its line named with the column, nothing applied (exit %d)" % rc,
          out[-500:])
    good = os.path.join(tmp, "good.cmds")
    with open(good, "w") as f:
        f.write("route add 0x010000/8 port 0 fpma\n# a comment\n\nroute add 0x020000/8 port 0 fpma\r\n"
                "route list\n")
    rc, out = run_fcr(["-i", "--cmdline-file", good], "quit\n")
    check(rc == 0 and "2 routes" in out, "a good file (a comment, a blank line, a CRLF line) "
          "runs whole (exit %d)" % rc, out[-500:])

    print("standard input: what is not a whole, clean line never runs")
    long_line = "# " + "x" * 5000 + " route add 0x030000/8 port 0 fpma"
    text = ("route add 0x010000/8 port 0 fpma\n" + long_line + "\n" +
            "route add 0x020000/8 port 0 fpma" + " " * 1000 + "\n" +
            "route add 0x04\x000000/8 port 0 fpma\nroute list\nquit\n")
    rc, out = run_fcr(["-i"], text)
    check(rc == 0 and "error: line 2: longer than 1023 characters: refused whole" in out and
          "error: line 3: line of 1032 characters, longer than 1023: refused whole" in out and
          "error: line 4: control byte 0x00 at column 15: line refused" in out and
          "1 routes" in out and "0x030000" not in out and "0x040000" not in out,
          "an overlong comment (its tail a route), an overlong command and a NUL byte: each "
          "refused whole with its line number; the commands after them still run", out[-900:])

    print("--version")
    for prog in (FCR, os.path.join(os.path.dirname(FCR), "..", "tools", "fcoe-gen"),
                 os.path.join(os.path.dirname(FCR), "..", "tools", "fcoe-pktgen")):
        p = subprocess.run([prog, "--version"], capture_output=True, text=True, timeout=30)
        name = os.path.basename(prog)
        check(p.returncode == 0 and re.fullmatch(r"%s \d+\.\d+\.\d+\n" % name, p.stdout),
              "%s --version: %r" % (name, p.stdout.strip()), p.stdout + p.stderr)

    print("--stats-period: timestamped rates")
    p = subprocess.Popen([FCR, "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
                          "--file-prefix", PREFIX + "p", "--log-level=lib.eal:error",
                          "--vdev", "net_null0", "--vdev", "net_null1", "--", "--max-flows",
                          "4096", "--max-bindings", "4096", "--max-redirects", "256",
                          "--stats-period", "1"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen = []
    for line in p.stdout:  # until the second report has come (a state, not a delay)
        seen.append(line.rstrip("\n"))
        if sum(l.startswith("rates ") for l in seen) == 2 and line.startswith("  drops/s"):
            break
    p.terminate()
    rest = p.communicate(timeout=30)[0]
    heads = [l for l in seen if l.startswith("rates ")]
    stamp = re.compile(r"rates \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ over \d+\.\d\d s$")
    check(len(heads) == 2 and all(stamp.match(h) for h in heads) and
          sum(bool(re.match(r"  port 1 +rx [\d.]+ [kMG]?fps [\d.]+ [kMG]?bps  tx ", l))
              for l in seen) == 2 and sum(l.startswith("  drops/s") for l in seen) == 2 and
          "Forward statistics" not in "\n".join(seen),
          "two reports, each a timestamp and its interval, frames/s and bits/s per port, "
          "drops/s (not the 30-line block)", "\n".join(seen[-12:]))
    check(p.returncode == 0 and "Forward statistics" in rest,
          "SIGTERM: the forward statistics once at the end (exit %s)" % p.returncode, rest[-300:])
    shutil.rmtree("/var/run/dpdk/" + PREFIX + "p", ignore_errors=True)

    print("show config: live capture")
    n2 = Node(prefix=PREFIX + "q")
    out = n2.q("show config")
    check("live capture:   unavailable: --no-huge (dpdk-dumpcap shares this process's "
          "hugepage memory, and it has none)" in out,
          "with --no-huge it says capture is unavailable, and why", "\n".join(out))
    check(n2.quit() == 0, "quit exits 0")
    shutil.rmtree("/var/run/dpdk/" + PREFIX + "q", ignore_errors=True)

    print("testpmd's commands from a pipe (net_ring ports)")
    r = Node(prefix=PREFIX + "r", ports=("net_ring0", "net_ring1"))
    out = r.q("show fwd stats all")
    check(any("Forward statistics" in l for l in out), "show fwd stats all", "\n".join(out))
    out = r.q("show port summary all")
    check(out[:1] == ["Number of available ports: 2"] and
          sum(bool(re.match(r"[01] +net_ring[01] .* started ", l)) for l in out) == 2,
          "show port summary all", "\n".join(out))
    out = r.q("show config fwd")
    check(any("workers=1" in l for l in out) and any("RX P=1/Q=0" in l for l in out),
          "show config fwd", "\n".join(out))
    out = r.q("port stop 1") + r.q("start")
    check(out == ["port 1: Link down",
                  "error: start: port 1 is stopped (port start 1, or port start all)"],
          "port stop 1 answers with the link down, then start refused naming port 1",
          "\n".join(out))
    out = r.q("port start 1") + r.q("port reset all") + r.q("set promisc all off")
    check(out == ["port 1: Link up at 10 Gbps FDX Fixed", "port 0: Link up at 10 Gbps FDX Fixed",
                  "port 1: Link up at 10 Gbps FDX Fixed"],
          "port start 1, port reset all, set promisc all off: no error, each port's link "
          "in the answer", "\n".join(out))
    out = r.q("show port info 0")
    check("  State: started  Promiscuous mode: disabled" in out, "show port info: started, "
          "promiscuous mode disabled", "\n".join(out))
    out = r.q("set promisc 0 sideways") + r.q("port stop 7")
    check(out == ["error: set promisc: on or off, not 'sideways'",
                  "error: port 7 does not exist (2 ports)"], "bad promisc word, bad port",
          "\n".join(out))
    out = r.q("stop")
    check(out == ["forwarding is not started"], "stop when not forwarding says so", "\n".join(out))
    r.q("start")
    out = r.q("port reset 0")
    check(out == ["error: port reset <port>: stop forwarding first (stop)"],
          "port reset while forwarding refused", "\n".join(out))
    out = r.q("stop")
    check(any("Forward statistics" in l for l in out) and any("rx == tx + dropped" in l for l in out),
          "stop prints the forward statistics", "\n".join(out))
    check(r.quit() == 0, "quit exits 0")
    shutil.rmtree("/var/run/dpdk/" + PREFIX + "r", ignore_errors=True)

    print("--series-ports")
    e = Node(extra=("--fabric-ports", "1", "--series-ports", "0"), prefix=PREFIX + "e")
    out = e.q("show port info 0")
    check(any("Role: series" in l for l in out), "show port info 0: Role: series",
          "\n".join(out))
    out = e.q("show config")
    check(any("port 0: series" in l for l in out) and any("port 1: fabric" in l for l in out)
          and any(l.startswith("the mark:") for l in out),
          "show config: port 0 a series port, port 1 a fabric port, the mark's rule",
          "\n".join(out))
    out = e.q("show fwd stats")
    check(any(l.split()[:2] == ["series", "0"] for l in out), "show fwd stats: series 0",
          "\n".join(out))
    check(e.quit() == 0, "quit exits 0")
    for opt in (["--max-flows", "x"], ["--config", "(9,0,1)"], ["--sync-peer", "1.2.3.4:1"],
                ["--stats-period", "0"], ["--pmd-config", "nosuch"], ["--txq", "0"],
                ["--max-flows"], ["--no-such-option"],
                ["--fabric-ports", "x"], ["--fabric-ports", "40"], ["--fabric-ports", "0,"],
                ["--fabric-ports", "1"],  # net_null0 is the only port
                ["--series-ports", "x"], ["--series-ports", "1"],
                ["--series-ports", "0", "--fabric-ports", "0"],
                ["--tables-delay-us", "-1"],
                ["--max-redirects", "1000", "--max-flows", "1024"],
                ["--flow-idle", "5", "--sync-bind", "127.0.0.1:7999", "--sync-key-file", "k"],
                ["--sync-same-ports"],
                ["--sync-same-ports", "--series-ports", "0", "--sync-bind", "127.0.0.1:7999",
                 "--sync-key-file", "k"]):
        p = subprocess.run([FCR, "--no-huge", "-m", "256", "--no-pci", "-l", "0,1",
                            "--file-prefix", PREFIX + "d", "--log-level=lib.eal:error",
                            "--vdev", "net_null0", "--", *opt],
                           capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        msg = (p.stdout + p.stderr)
        check(p.returncode != 0 and opt[0] in msg,
              "bad option %s refused, naming it (exit %d)" % (" ".join(opt), p.returncode),
              msg[-500:])
    # the value and what would do, named
    for opt, want in ((["--max-redirects", "200", "--max-flows", "1000"],
                       "200 redirects keep 1206 flow entries for their rules (6 each, and 6 "
                       "more), more than --max-flows 1000: raise --max-flows to 1206 or more, "
                       "or lower --max-redirects to 165 or fewer"),
                      (["--passthrough", "0:9"], "--passthrough 0:9: port 9 does not exist "
                       "(ports 0..0 here)"),
                      (["--pmd-config", "nosuch"], "no profile 'nosuch': no nosuch.conf in "),
                      (["--pmd-config", "nosuch"], "set FCR_PMD_CONFIG_DIR")):
        p = subprocess.run([FCR, "--no-huge", "-m", "256", "--no-pci", "-l", "0,1",
                            "--file-prefix", PREFIX + "d", "--log-level=lib.eal:error",
                            "--vdev", "net_null0", "--", *opt],
                           capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        check(p.returncode == 2 and want in p.stdout + p.stderr,
              "%s: exit 2, '%s'" % (" ".join(opt), want), (p.stdout + p.stderr)[-500:])
    # fcredirect's help before EAL: no --no-huge, no ports, no memory asked
    p = subprocess.run([FCR, "--", "--help"], capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    check(p.returncode == 0 and "--fabric-ports" in p.stdout and "EAL" not in p.stderr,
          "fcredirect -- --help: the options, exit 0, EAL not started",
          (p.stdout + p.stderr)[-500:])
    shutil.rmtree("/var/run/dpdk/" + PREFIX + "b", ignore_errors=True)
    shutil.rmtree("/var/run/dpdk/" + PREFIX + "c", ignore_errors=True)
    shutil.rmtree("/var/run/dpdk/" + PREFIX + "d", ignore_errors=True)
    shutil.rmtree("/var/run/dpdk/" + PREFIX + "e", ignore_errors=True)


if __name__ == "__main__":
    main()
