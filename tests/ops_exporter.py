#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
ops_exporter.py FCREDIRECT EXPORTER

The Prometheus exporter against a running fcredirect (two null ports,
forwarding), scraped with curl: the text format parses line by line (HELP,
TYPE, then `name{labels} value`), fcredirect_up is 1, the frame counters,
drops by reason, legs, ports, mempool and sync figures are there, a second
scrape's rx counter is greater than the first's, a rate gauge carries the
interval; a path other than /metrics is 404; with fcredirect gone,
fcredirect_up is 0. Every wait is for a state. Ends with "N passed, M failed".
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import time

FCR, EXPORTER = sys.argv[1], sys.argv[2]
PREFIX = "opsexp%d" % os.getpid()
passed = failed = 0
LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"'
                  r'(,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*)?\})? (-?[0-9.eE+]+|NaN)$')


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


def curl(url):
    p = subprocess.run(["curl", "-s", "-S", "-w", "\n%{http_code} %{content_type}", url],
                       capture_output=True, text=True, timeout=30)
    body, _, tail = p.stdout.rpartition("\n")
    return p.returncode, body, tail


def parse(body):
    """{(name, labels): value}, and the lines that are not the format."""
    vals, bad, typed = {}, [], set()
    for line in body.splitlines():
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
            continue
        if line.startswith("#") or not line:
            continue
        m = LINE.match(line)
        if not m or m.group(1) not in typed:
            bad.append(line)
            continue
        vals[(m.group(1), m.group(3) or "")] = float(m.group(5))
    return vals, bad


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    fcr = subprocess.Popen([FCR, "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
                            "--file-prefix", PREFIX, "--log-level=lib.eal:error",
                            "--vdev", "net_null0", "--vdev", "net_null1", "--",
                            "--max-flows", "4096", "--max-bindings", "4096",
                            "--max-redirects", "256"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in fcr.stdout:  # up once the banner is out
        if "tables lcore on lcore" in line:
            break
    port = free_port()
    exp = subprocess.Popen([sys.executable, EXPORTER, "--file-prefix", PREFIX, "--listen",
                            "127.0.0.1:%d" % port], stdout=subprocess.PIPE, text=True)
    ready = exp.stdout.readline()
    url = "http://127.0.0.1:%d/metrics" % port
    try:
        print("scrapes with curl")
        check("/metrics" in ready, "the exporter says where it serves (%s)" % ready.strip())
        rc, body, tail = curl(url)
        vals, bad = parse(body)
        check(rc == 0 and tail.startswith("200 text/plain; version=0.0.4"),
              "HTTP 200, Prometheus' text format 0.0.4 (%s)" % tail, body[:300])
        check(not bad and len(vals) > 20, "%d samples, every line HELP, TYPE or a sample of a "
              "TYPEd metric" % len(vals), "\n".join(bad[:10]))
        check(vals.get(("fcredirect_up", "")) == 1, "fcredirect_up 1")
        names = {n for n, _ in vals}
        want = ["fcredirect_rx_frames_total", "fcredirect_tx_frames_total",
                "fcredirect_dropped_frames_total", "fcredirect_drops_total",
                "fcredirect_sent_frames_total", "fcredirect_port_rx_frames_total",
                "fcredirect_port_rx_frames_per_second", "fcredirect_leg_bits_per_second",
                "fcredirect_drops_per_second", "fcredirect_mempool_in_use",
                "fcredirect_worker_frames_total", "fcredirect_sync_enabled",
                "fcredirect_redirects_active", "fcredirect_rates_interval_seconds",
                "fcredirect_tables_logins_pinned_total", "fcredirect_tables_login_conflicts_total",
                "fcredirect_tables_logouts_refused_total", "fcredirect_store_enabled"]
        check(all(w in names for w in want), "the counters and rates: " + ", ".join(want),
              "missing: %s" % [w for w in want if w not in names])
        check(("fcredirect_drops_total", 'reason="no_route"') in vals and
              ("fcredirect_sent_frames_total", 'kind="host_to_target"') in vals and
              ("fcredirect_port_rx_frames_total", 'port="1"') in vals,
              "labels: reason, kind, port")
        rx1 = vals.get(("fcredirect_rx_frames_total", ""), -1)
        end = time.monotonic() + 60
        while True:  # a state: the counter moved
            rc, body, tail = curl(url)
            vals2, bad2 = parse(body)
            rx2 = vals2.get(("fcredirect_rx_frames_total", ""), -1)
            if rx2 > rx1 or time.monotonic() > end:
                break
            time.sleep(0.05)
        check(rx2 > rx1 > 0, "a later scrape counts more frames received (%d -> %d)" % (rx1, rx2))
        check(vals2.get(("fcredirect_port_rx_frames_per_second", 'port="0"'), 0) > 0 and
              vals2.get(("fcredirect_rates_interval_seconds", ""), 0) > 0,
              "port 0's frames/s over the interval since the previous scrape (%s over %s s)" % (
                  vals2.get(("fcredirect_port_rx_frames_per_second", 'port="0"')),
                  vals2.get(("fcredirect_rates_interval_seconds", ""))))
        rc, body, tail = curl("http://127.0.0.1:%d/other" % port)
        check(tail.startswith("404"), "another path: 404 (%s)" % tail)

        print("fcredirect gone")
        fcr.terminate()
        fcr.communicate(timeout=30)
        rc, body, tail = curl(url)
        vals, bad = parse(body)
        check(tail.startswith("200") and vals == {("fcredirect_up", ""): 0} and not bad,
              "fcredirect_up 0 and nothing else", body[:400])
    finally:
        for p in (exp, fcr):
            if p.poll() is None:
                p.kill()
                p.wait()
        shutil.rmtree("/var/run/dpdk/" + PREFIX, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
