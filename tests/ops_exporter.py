#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
ops_exporter.py FCREDIRECT EXPORTER DASHBOARD

The Prometheus exporter against a running fcredirect (two null ports,
forwarding, one redirect waiting), scraped with curl: the text format parses
line by line (HELP, TYPE, then `name{labels} value`) and Prometheus' own
`promtool check metrics` finds nothing to say; fcredirect_up is 1, the frame
and byte counters, drops by reason, legs, ports, the NICs' counters, the
redirect's state and not_ready, mempool and sync figures are there, a second
scrape's counters are greater than the first's; every metric the Grafana
DASHBOARD queries is one the exporter gives; a path other than /metrics is
404; --version, and the default listen address is this host's; with
fcredirect gone, fcredirect_up is 0. Every wait is for a state. Ends with
"N passed, M failed".
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time

FCR, EXPORTER, DASHBOARD = sys.argv[1], sys.argv[2], sys.argv[3]
PROMTOOL = shutil.which("promtool")  # Debian: prometheus
HOST = "21:00:00:24:ff:00:00:03"
TARGET = "50:06:01:60:00:00:00:00"
SN_VI, SN_VT = "2f:01:00:0d:ec:00:00:04", "2f:02:00:0d:ec:00:00:01"
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
        # a histogram's samples: its name with _bucket, _count, _sum
        if not m or (m.group(1) not in typed and
                     re.sub(r"_(bucket|count|sum)$", "", m.group(1)) not in typed):
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


def dashboard_metrics(path):
    """The metric names the dashboard's queries use."""
    with open(path) as f:
        dash = json.load(f)
    exprs = [t["expr"] for p in dash["panels"] for t in p.get("targets", [])]
    names = set()
    for e in exprs:
        names.update(n for n in re.findall(r"\b(fcredirect_[a-z0-9_]+)\b", e))
    return dash, exprs, names


def main():
    cmds, key = "/tmp/%s.cmds" % PREFIX, "/tmp/%s.key" % PREFIX
    fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, os.urandom(32))
    os.close(fd)
    with open(cmds, "w") as f:
        f.write("redirect add vlan 100 host %s target %s vi 2f:01:00:0d:ec:00:00:03 "
                "vt 2f:02:00:0d:ec:00:00:00\n" % (HOST, TARGET))
        # a cluster of one member (not logged in) and a redirect on it
        f.write("service-node add cluster sme vlan 100 vi %s vt %s\n" % (SN_VI, SN_VT))
        f.write("redirect add vlan 100 host 21:00:00:24:ff:00:00:04 target %s cluster sme\n"
                % TARGET)
    fcr = subprocess.Popen([FCR, "--no-huge", "-m", "512", "--no-pci", "-l", "0,1",
                            "--file-prefix", PREFIX, "--log-level=lib.eal:error",
                            "--vdev", "net_null0", "--vdev", "net_null1", "--",
                            "--max-flows", "4096", "--max-bindings", "4096",
                            "--max-redirects", "256", "--cmdline-file", cmds,
                            # replication on, with a peer that never answers:
                            # its figures are there
                            "--sync-bind", "127.0.0.1:%d" % free_port(),
                            "--sync-peer", "127.0.0.1:%d" % free_port(),
                            "--sync-key-file", key],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in fcr.stdout:  # up once the banner is out
        if "tables lcore on lcore" in line:
            break
    port = free_port()
    exp = subprocess.Popen([EXPORTER, "--file-prefix", PREFIX, "--listen",
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
                "fcredirect_sent_frames_total", "fcredirect_sent_bytes_total",
                "fcredirect_port_rx_frames_total", "fcredirect_nic_ipackets_total",
                "fcredirect_nic_ibytes_total", "fcredirect_nic_obytes_total",
                "fcredirect_nic_imissed_total", "fcredirect_nic_ierrors_total",
                "fcredirect_nic_oerrors_total", "fcredirect_nic_rx_nombuf_total",
                "fcredirect_mempool_in_use", "fcredirect_worker_frames_total",
                "fcredirect_sync_enabled", "fcredirect_sync_ready",
                "fcredirect_sync_updates_sent_total", "fcredirect_redirects_active",
                "fcredirect_redirect_state", "fcredirect_redirect_not_ready_total",
                "fcredirect_redirect_sn_stalled", "fcredirect_tables_sn_stalls_total",
                "fcredirect_tables_logins_pinned_total", "fcredirect_tables_login_conflicts_total",
                "fcredirect_tables_logouts_refused_total", "fcredirect_store_enabled"]
        check(all(w in names for w in want), "the counters and states: " + ", ".join(want),
              "missing: %s" % [w for w in want if w not in names])
        check(not any(n.endswith("_per_second") for n in names),
              "no rate gauges: rate() over the counters gives each reader its own interval",
              [n for n in names if n.endswith("_per_second")])
        check(("fcredirect_drops_total", 'reason="no_route"') in vals and
              ("fcredirect_sent_frames_total", 'kind="host_to_target"') in vals and
              ("fcredirect_port_rx_frames_total", 'port="1"') in vals and
              ("fcredirect_nic_imissed_total", 'port="0"') in vals,
              "labels: reason, kind, port")
        red = 'host="%s",id="0",state="%%s",target="%s",vlan="100"' % (HOST, TARGET)
        check(vals.get(("fcredirect_redirect_state", red % "waiting")) == 1 and
              vals.get(("fcredirect_redirect_state", red % "active")) == 0 and
              vals.get(("fcredirect_redirect_not_ready_total",
                        'host="%s",id="0",target="%s",vlan="100"' % (HOST, TARGET))) == 0,
              "the redirect: state waiting 1, active 0; not_ready 0",
              "\n".join(line for line in body.splitlines() if "redirect_" in line))
        sn = 'cluster="sme",%svi="%s",vlan="100",vt="%s"'
        check(vals.get(("fcredirect_service_node_state", sn % ('state="unbound",', SN_VI, SN_VT)))
              == 1 and
              vals.get(("fcredirect_service_node_state", sn % ('state="up",', SN_VI, SN_VT)))
              == 0 and
              vals.get(("fcredirect_service_node_pairs", sn % ("", SN_VI, SN_VT))) == 1 and
              vals.get(("fcredirect_service_node_moved_in_total", sn % ("", SN_VI, SN_VT))) == 0
              and vals.get(("fcredirect_service_node_frames_total", sn % ("", SN_VI, SN_VT)))
              == 0,
              "the cluster member: state unbound 1, up 0; pairs 1; moved_in 0, frames 0",
              "\n".join(line for line in body.splitlines() if "service_node" in line))
        if PROMTOOL is None:
            check(False, "promtool is installed (Debian package prometheus)")
        else:
            p = subprocess.run([PROMTOOL, "check", "metrics"], input=body, capture_output=True,
                               text=True, timeout=60)
            check(p.returncode == 0 and not (p.stdout + p.stderr).strip(),
                  "promtool check metrics: exit 0, nothing to say",
                  "exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
        print("the service node latency as a Prometheus histogram")
        # telemetry as fcredirect gives /fcr/latency (tests/fabric_relogin.py
        # reads the real one): the exporter's own collect() on it
        lat = {"bounds_us": [16 << b for b in range(14)],
               "redirect0": dict({"id": 3, "vlan": 100, "host": HOST, "target": TARGET,
                                  "host_sum_us": 1000, "vi_sum_us": 400},
                                 **{"host_%d" % b: (5 if b == 3 else 0) for b in range(15)},
                                 **{"vi_%d" % b: (5 if b == 1 else 0) for b in range(15)})}
        prog = "\n".join([
            "import importlib.machinery, json, sys",
            "from prometheus_client import CollectorRegistry, generate_latest",
            "m = importlib.machinery.SourceFileLoader('exporter', sys.argv[1]).load_module()",
            "t = json.loads(sys.argv[2])",
            "class C:",
            "    def collect(self):",
            "        return m.collect(t)",
            "r = CollectorRegistry()",
            "r.register(C())",
            "sys.stdout.write(generate_latest(r).decode())"])
        p = subprocess.run(["/usr/bin/python3", "-c", prog, EXPORTER,
                            json.dumps({"/fcr/latency": lat})],
                           capture_output=True, text=True, timeout=60)
        hv, hbad = parse(p.stdout)
        lbl = 'host="%s",id="3",le="%%s",side="%%s",target="%s",vlan="100"' % (HOST, TARGET)
        check(p.returncode == 0 and not hbad and
              hv.get(("fcredirect_redirect_exchange_seconds_bucket", lbl % ("0.000128", "host")))
              == 5 and
              hv.get(("fcredirect_redirect_exchange_seconds_bucket", lbl % ("6.4e-05", "host")))
              == 0 and
              hv.get(("fcredirect_redirect_exchange_seconds_bucket", lbl % ("3.2e-05", "vi")))
              == 5 and
              hv.get(("fcredirect_redirect_exchange_seconds_bucket", lbl % ("+Inf", "vi"))) == 5,
              "fcredirect_redirect_exchange_seconds: cumulative buckets by side, le in seconds",
              p.stderr + p.stdout[-1500:])
        if PROMTOOL is not None:
            q = subprocess.run([PROMTOOL, "check", "metrics"], input=p.stdout,
                               capture_output=True, text=True, timeout=60)
            check(q.returncode == 0, "promtool check metrics: the histogram passes",
                  q.stdout + q.stderr)
        rx1 = vals.get(("fcredirect_rx_frames_total", ""), -1)
        ib1 = vals.get(("fcredirect_nic_ipackets_total", 'port="0"'), -1)
        end = time.monotonic() + 60
        while True:  # a state: the counters moved
            rc, body, tail = curl(url)
            vals2, bad2 = parse(body)
            rx2 = vals2.get(("fcredirect_rx_frames_total", ""), -1)
            ib2 = vals2.get(("fcredirect_nic_ipackets_total", 'port="0"'), -1)
            if (rx2 > rx1 and ib2 > ib1) or time.monotonic() > end:
                break
            time.sleep(0.05)
        check(rx2 > rx1 > 0, "a later scrape counts more frames received (%d -> %d)" % (rx1, rx2))
        check(ib2 > ib1 > 0, "and port 0's NIC more (%d -> %d)" % (ib1, ib2))

        print("the Grafana dashboard")
        dash, exprs, used = dashboard_metrics(DASHBOARD)
        with open(EXPORTER) as f:
            src = f.read()
        # a store's figures are there only with one: those must at least be
        # ones the exporter makes
        def store_name(n):
            base = re.sub(r"_total$", "", n)
            return n.startswith("fcredirect_store_") and (
                '"%s"' % base in src or '"%s"' % base[len("fcredirect_store_"):] in src)
        unknown = [n for n in sorted(used) if n not in names and not store_name(n)]
        check(len(exprs) >= 8 and not unknown,
              "%d queries; every metric they use is the exporter's (%d names)" % (
                  len(exprs), len(used)), "not the exporter's: %s" % unknown)
        titles = " | ".join(p.get("title", "") for p in dash["panels"])
        check(all(w in titles.lower() for w in ("leg", "drops", "not ready", "store", "peer")),
              "panels for the legs, drops by reason, not_ready per redirect, store lag, peer "
              "state (%s)" % titles)

        rc, body, tail = curl("http://127.0.0.1:%d/other" % port)
        check(tail.startswith("404"), "another path: 404 (%s)" % tail)
        v = subprocess.run([EXPORTER, "--version"], capture_output=True, text=True, timeout=30)
        check(v.returncode == 0 and re.fullmatch(r"fcredirect-exporter \d+\.\d+\.\d+\n",
                                                 v.stdout),
              "--version: %s" % v.stdout.strip(), v.stderr)
        # the default: this host only (or, with 9717 taken, the refusal naming it)
        d = subprocess.Popen([EXPORTER, "--file-prefix", PREFIX], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        first = d.stdout.readline()
        d.kill()
        d.wait()
        check("127.0.0.1:9717" in first, "without --listen: 127.0.0.1:9717 (%s)" % first.strip())

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
        os.unlink(cmds)
        os.unlink(key)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
