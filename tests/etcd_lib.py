# SPDX-License-Identifier: BSD-3-Clause
"""
A real etcd cluster on loopback for the configuration store's tests and
benchmark: three members (Debian's etcd-server) on free ports, started,
paused, killed and started again; the store's HTTP gateway for what the
test does from outside (revisions, compaction, leadership, users); and
`show config store` read into a dict.

Standard library only; processes go through sync_lib.spawn, so every
member is killed at exit whatever happens.
"""
import base64
import json
import os
import signal
import socket
import ssl
import subprocess
import time
import urllib.request

import sync_lib as sl

ETCD = "/usr/bin/etcd"


def b64(text):
    """etcd's JSON gateway takes keys and values in base64."""
    return base64.b64encode(text.encode()).decode()


class Cluster:
    """Three members; t (a sync_lib.Test) gives the folder for their data
    and logs; prefix: the store prefix of url()."""

    def __init__(self, t, prefix, n=3, tls=None, hosts=None):
        self.prefix = prefix
        self.t = t
        ports = sl.free_ports(2 * n, socket.SOCK_STREAM)
        self.client = ports[:n]
        self.peer = ports[n:]
        self.names = ["m%d" % (i + 1) for i in range(n)]
        # hosts[i]: (client address, peer address, what runs it) of member i,
        # for members in network namespaces; loopback by default
        self.hosts = hosts or [("127.0.0.1", "127.0.0.1", [])] * n
        self.initial = ",".join("%s=http://%s:%d" % (n, h[1], p)
                                for n, h, p in zip(self.names, self.hosts, self.peer))
        self.p = [None] * n
        # tls: a Pki; the members then serve clients over https only and
        # take a client only with a certificate of its CA
        self.tls = tls
        self.scheme = "https" if tls else "http"
        self.ctx = None
        if tls:
            self.ctx = ssl.create_default_context(cafile=tls.ca)
            self.ctx.load_cert_chain(tls.client_cert, tls.client_key)

    def start(self, i):
        log = open(self.t.path("etcd-%s.log" % self.names[i]), "a")
        client = "%s://%s:%d" % (self.scheme, self.hosts[i][0], self.client[i])
        peer = "http://%s:%d" % (self.hosts[i][1], self.peer[i])
        args = self.hosts[i][2] + [ETCD, "--name", self.names[i],
                "--data-dir", self.t.path("etcd-" + self.names[i]),
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", self.initial, "--initial-cluster-state", "new",
                "--initial-cluster-token", "fcr-%d" % os.getpid()]
        if self.tls:
            args += ["--cert-file", self.tls.server_cert, "--key-file", self.tls.server_key,
                     "--trusted-ca-file", self.tls.ca, "--client-cert-auth"]
        self.p[i] = sl.spawn(args, stdout=log, stderr=log)

    def stop(self, i, sig=signal.SIGKILL):
        if self.p[i] is not None and self.p[i].poll() is None:
            self.p[i].send_signal(sig)
            if sig == signal.SIGKILL:
                self.p[i].wait(10)
                self.p[i] = None

    def post(self, i, path, body, timeout=3):
        req = urllib.request.Request("%s://%s:%d%s" % (self.scheme, self.hosts[i][0],
                                                       self.client[i], path),
                                     data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout, context=self.ctx) as r:
            return json.loads(r.read().decode())

    def healthy(self, i):
        try:
            with urllib.request.urlopen("%s://%s:%d/health" % (
                    self.scheme, self.hosts[i][0], self.client[i]), timeout=2,
                    context=self.ctx) as r:
                return json.loads(r.read().decode()).get("health") == "true"
        except Exception:
            return False

    def wait_healthy(self, members, timeout=60):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if all(self.healthy(i) for i in members):
                return True
            time.sleep(0.2)
        return False

    def txn_put(self, i, kvs):
        """Put [(key, value), ...] in one transaction; its revision."""
        r = self.post(i, "/v3/kv/txn", {"success": [
            {"request_put": {"key": b64(k), "value": b64(v)}} for k, v in kvs]}, timeout=30)
        return int(r["header"]["revision"])

    def revision(self, i):
        return int(self.post(i, "/v3/kv/range", {"key": "AA=="})["header"]["revision"])

    def compact(self, i):
        rev = self.revision(i)
        self.post(i, "/v3/kv/compaction", {"revision": rev, "physical": True}, timeout=10)
        return rev

    def member_id(self, i):
        return self.post(i, "/v3/maintenance/status", {})["header"]["member_id"]

    def leader(self, i):
        return self.post(i, "/v3/maintenance/status", {})["leader"]

    def not_leader(self, i, timeout=30):
        """Move the leadership off member i (pausing a leader would make the
        others elect a new one, and writes wait for that)."""
        end = time.monotonic() + timeout
        other = (i + 1) % len(self.p)
        while time.monotonic() < end:
            try:
                lead = self.leader(other)
                if lead != self.member_id(i):
                    return True
                self.post(i, "/v3/maintenance/transfer-leadership",
                          {"targetID": self.member_id(other)}, timeout=10)
            except Exception:
                pass
            time.sleep(0.2)
        return False

    def url(self, order):
        return "etcd://" + ",".join("%s:%d" % (self.hosts[i][0], self.client[i])
                                    for i in order) + self.prefix


class Pki:
    """Certificates made with openssl in folder d: a CA, the members'
    server certificate (for IP 127.0.0.1), a node's client certificate, and
    a second CA with a client certificate of its own (one the members do
    not trust). EC P-256 keys: quick to make."""

    def __init__(self, d):
        def path(n):
            return os.path.join(d, n)

        def key_csr(name, cn):
            subprocess.run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt",
                            "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                            path(name + ".key"), "-out", path(name + ".csr"), "-subj",
                            "/CN=" + cn], check=True, capture_output=True)

        def ca(name):
            subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                            "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                            path(name + ".key"), "-out", path(name + ".pem"), "-days", "2",
                            "-subj", "/CN=" + name], check=True, capture_output=True)

        def sign(name, by, ext):
            with open(path(name + ".ext"), "w") as f:
                f.write(ext + "\n")
            subprocess.run(["openssl", "x509", "-req", "-in", path(name + ".csr"), "-CA",
                            path(by + ".pem"), "-CAkey", path(by + ".key"),
                            "-CAcreateserial", "-out", path(name + ".pem"), "-days", "2",
                            "-extfile", path(name + ".ext")], check=True,
                           capture_output=True)

        ca("fcr-ca")
        ca("other-ca")
        key_csr("server", "127.0.0.1")
        sign("server", "fcr-ca", "subjectAltName=IP:127.0.0.1\n"
             "extendedKeyUsage=serverAuth,clientAuth")
        for name, by in (("client", "fcr-ca"), ("stranger", "other-ca")):
            key_csr(name, name)
            sign(name, by, "extendedKeyUsage=clientAuth")
        self.ca, self.other_ca = path("fcr-ca.pem"), path("other-ca.pem")
        self.server_cert, self.server_key = path("server.pem"), path("server.key")
        self.client_cert, self.client_key = path("client.pem"), path("client.key")
        self.stranger_cert, self.stranger_key = path("stranger.pem"), path("stranger.key")


def store_status(out):
    """show config store -> {'connected': 'yes (...)', 'applied revision': '12', ...}"""
    st = {}
    for line in out.splitlines():
        if line.startswith("  ") and ":" in line:
            k, v = line.strip().split(":", 1)
            st[k.strip()] = v.strip()
    return st


def num(st, key):
    return int(st.get(key, "-1").split()[0].rstrip(","))
