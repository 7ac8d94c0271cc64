#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
sync_relay.py: a lossy UDP path between two fcredirect sync endpoints.

    sync_relay.py --a PA --ra RA --b PB --rb RB [--drop P] [--dup P]
                  [--reorder P] [--seed N] [--duration S] [--hold-ms MS]

Node A binds 127.0.0.1:PA and lists 127.0.0.1:RA as its peer; node B binds
127.0.0.1:PB and lists 127.0.0.1:RB. The relay binds RA and RB: what A sends
to RA leaves from RB to PB, what B sends to RB leaves from RA to PA — so each
node sees its datagrams come from the address it has configured as its peer
(the engine refuses any other).

Per datagram, with a deterministic PRNG (--seed): dropped with probability
--drop, sent twice with --dup, held back and sent after the next datagram
of the same direction (or after --hold-ms when none comes) with --reorder,
else forwarded; the three are exclusive (default 0.2 each).

Stops by itself after --duration seconds (or on SIGTERM/SIGINT) and prints
one line of counts per direction, "relay a->b: received N forwarded N
dropped N duplicated N reordered N", then "relay: done".
"""

import argparse
import random
import select
import signal
import socket
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", type=int, required=True, help="node A's sync port")
    ap.add_argument("--ra", type=int, required=True, help="A's peer port (the relay)")
    ap.add_argument("--b", type=int, required=True, help="node B's sync port")
    ap.add_argument("--rb", type=int, required=True, help="B's peer port (the relay)")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--drop", type=float, default=0.2)
    ap.add_argument("--dup", type=float, default=0.2)
    ap.add_argument("--reorder", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--hold-ms", type=float, default=200.0)
    o = ap.parse_args()
    if o.drop + o.dup + o.reorder > 1.0:
        ap.error("--drop + --dup + --reorder must not exceed 1")

    sa = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # A talks to it
    sa.bind((o.host, o.ra))
    sb = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # B talks to it
    sb.bind((o.host, o.rb))
    for s in (sa, sb):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    rng = random.Random(o.seed)
    # direction: (receiving socket, sending socket, destination)
    dirs = {
        "a->b": {"rx": sa, "tx": sb, "to": (o.host, o.b), "from": (o.host, o.a)},
        "b->a": {"rx": sb, "tx": sa, "to": (o.host, o.a), "from": (o.host, o.b)},
    }
    for d in dirs.values():
        d.update(received=0, forwarded=0, dropped=0, duplicated=0, reordered=0,
                 foreign=0, held=None, held_at=0.0)
    by_sock = {d["rx"]: d for d in dirs.values()}

    stop = [False]

    def on_signal(signum, frame):
        stop[0] = True
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    def send(d, data):
        try:
            d["tx"].sendto(data, d["to"])
        except OSError:
            pass  # the node is not up (yet): a loss like any other

    end = time.monotonic() + o.duration
    while not stop[0] and time.monotonic() < end:
        r, _, _ = select.select([sa, sb], [], [], 0.01)
        now = time.monotonic()
        for s in r:
            try:
                data, src = s.recvfrom(65536)
            except OSError:
                continue
            d = by_sock[s]
            if src != d["from"]:
                d["foreign"] += 1
                continue
            d["received"] += 1
            x = rng.random()
            if x < o.drop:
                d["dropped"] += 1
                continue
            if x < o.drop + o.dup:
                d["duplicated"] += 1
                send(d, data)
                send(d, data)
                d["forwarded"] += 2
            elif x < o.drop + o.dup + o.reorder and d["held"] is None:
                d["reordered"] += 1
                d["held"], d["held_at"] = data, now
                continue
            else:
                send(d, data)
                d["forwarded"] += 1
            if d["held"] is not None:  # overtaken: now it goes
                send(d, d["held"])
                d["forwarded"] += 1
                d["held"] = None
        for d in dirs.values():
            if d["held"] is not None and now - d["held_at"] >= o.hold_ms / 1000.0:
                send(d, d["held"])
                d["forwarded"] += 1
                d["held"] = None
    for name, d in dirs.items():
        print("relay %s: received %d forwarded %d dropped %d duplicated %d reordered %d "
              "foreign %d" % (name, d["received"], d["forwarded"], d["dropped"],
                              d["duplicated"], d["reordered"], d["foreign"]))
    print("relay: done")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
