# SPDX-License-Identifier: BSD-3-Clause
# Functions every command sent to a real-FCoE guest can call.

# fcr_waitfor SECS CMD: until CMD (eval'd) succeeds; 1 when SECS have passed
fcr_waitfor() {
    local end=$(($(date +%s) + $1))
    shift
    while ! eval "$*" >/dev/null 2>&1; do
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.1
    done
}

fcr_ctlr() { ls -d /sys/bus/fcoe/devices/ctlr_* 2>/dev/null | head -1; }
fcr_host() { ls -d /sys/class/fc_host/host* 2>/dev/null | head -1; }

# fcr_fcoe_up [IF]: an open-fcoe fabric-mode controller on IF, enabled
fcr_fcoe_up() {
    local ifc=${1:-eth0} c
    modprobe -a fcoe sd_mod || return 1   # no udev here to load sd_mod on a new disk
    echo "$ifc" > /sys/bus/fcoe/ctlr_create || return 1
    c=$(fcr_ctlr)
    [ -n "$c" ] || return 1
    echo fabric > "$c/mode" || return 1
    echo 1 > "$c/enabled"
}

# fcr_fcoe_down [IF]: the controller destroyed; libfc logs out (FIP LOGO)
fcr_fcoe_down() {
    echo "${1:-eth0}" > /sys/bus/fcoe/ctlr_destroy
}

# fcr_fcoe_disable: link down for FCoE (no LOGO); fcr_fcoe_enable: up again
fcr_fcoe_disable() { echo 0 > "$(fcr_ctlr)/enabled"; }
fcr_fcoe_enable() { echo 1 > "$(fcr_ctlr)/enabled"; }

# fcr_fc_state: one "key=value" line per fact of the fc_host
fcr_fc_state() {
    local h
    h=$(fcr_host)
    [ -n "$h" ] || { echo "fc_host=none"; return 0; }
    echo "fc_host=${h##*/}"
    for f in port_state port_id port_name node_name fabric_name speed maxframe_size; do
        [ -r "$h/$f" ] && echo "$f=$(cat "$h/$f")"
    done
    echo "rports=$(ls /sys/class/fc_remote_ports 2>/dev/null | tr '\n' ' ')"
}

# fcr_stats: every counter the stack keeps, "path=value"
fcr_stats() {
    local f
    for f in /sys/class/fc_host/host*/statistics/* /sys/bus/fcoe/devices/ctlr_*/lesb/* \
             /sys/class/net/eth0/statistics/rx_packets /sys/class/net/eth0/statistics/tx_packets \
             /sys/class/net/eth0/statistics/rx_dropped /sys/class/net/eth0/statistics/rx_errors; do
        [ -f "$f" ] && [ -r "$f" ] && echo "$f=$(cat "$f" 2>/dev/null)"
    done
    return 0
}

# fcr_lio_target WWPN INIT_WWPN SIZE_MB: a LIO tcm_fc target port WWPN
# (aa:bb:..:hh) exporting LUN 0, a fileio file on tmpfs, to INIT_WWPN
fcr_lio_target() {
    local wwpn=$1 iwwpn=$2 mb=$3 C=/sys/kernel/config/target T
    modprobe -a target_core_mod target_core_file tcm_fc || return 1
    grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs configfs /sys/kernel/config || return 1
    mkdir -p "$C/core/fileio_0/lun0" || return 1
    truncate -s "${mb}M" /tmp/lun0.img
    echo "fd_dev_name=/tmp/lun0.img,fd_dev_size=$((mb * 1048576))" > "$C/core/fileio_0/lun0/control" || return 1
    echo 1 > "$C/core/fileio_0/lun0/enable" || return 1
    T=$C/fc/$wwpn/tpgt_1
    mkdir -p "$T/lun/lun_0" || return 1
    ln -s "$C/core/fileio_0/lun0" "$T/lun/lun_0/lun0" || return 1
    mkdir -p "$T/acls/$iwwpn/lun_0" || return 1
    ln -s "$T/lun/lun_0" "$T/acls/$iwwpn/lun_0/lun0" || return 1
    [ -e "$T/enable" ] && { echo 1 > "$T/enable" || return 1; }
    return 0
}
