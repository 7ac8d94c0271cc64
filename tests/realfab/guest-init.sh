#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# /init of a real-FCoE guest. Kernel log on ttyS0; ttyS1 is the harness's
# command channel: it sends "<id> <length> <shell command>" lines, the guest
# answers "@@FCR-GOT <id>@@" (or "@@FCR-BAD@@"), the command's output, then
# "@@FCR-END <id> <rc>@@". "@@FCR-READY ...@@" is printed once, when the
# guest can take commands.
# Kernel parameters: fcr.mtu=N (the NICs' MTU), fcr.name=NAME (hostname),
# fcr.nics=N (eth0..eth<N-1>, default 1).
export PATH=/bin:/sbin HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs -o size=64m tmpfs /tmp

FCR_mtu=1500
FCR_name=guest
FCR_nics=1
for a in $(cat /proc/cmdline); do
    case $a in
        fcr.*=*) k=${a%%=*}; k=${k#fcr.}; eval "FCR_$k=\${a#*=}" ;;
    esac
done
hostname "$FCR_name"
ip link set lo up

modprobe -a virtio_pci virtio_net
last=eth$((FCR_nics - 1))
i=0
while [ ! -e /sys/class/net/$last ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
for n in $(seq 0 $((FCR_nics - 1))); do ip link set eth$n mtu "$FCR_mtu" up; done

# raw, no echo: what the harness reads is only what commands print
exec </dev/ttyS1 >/dev/ttyS1 2>&1
stty raw -echo
. /etc/fcr-lib.sh
echo "@@FCR-READY $(uname -r) $FCR_name@@"
# A line is "<id> <length> <command>": one that arrives cut (seen once in
# CI, the front of a line lost on a guest starved by load) is refused, not
# run, and the harness sends it again; a line sent again after it ran is
# acknowledged, not run twice.
last=0
while :; do
    while IFS= read -r line; do
        id=${line%% *}
        rest=${line#* }
        len=${rest%% *}
        cmd=${rest#* }
        case "$id:$len" in
            *[!0-9:]*|:*|*:) echo "@@FCR-BAD@@"; continue ;;
        esac
        [ "${#cmd}" = "$len" ] || { echo "@@FCR-BAD@@"; continue; }
        echo "@@FCR-GOT $id@@"
        [ "$id" -gt "$last" ] || continue
        last=$id
        (eval "$cmd") </dev/null
        echo "@@FCR-END $id $?@@"
    done
    sleep 1   # channel closed: keep PID 1 alive and listen again
done
