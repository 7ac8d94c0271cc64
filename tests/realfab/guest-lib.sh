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

# fcr_ctlr [IF], fcr_host [IF]: the FCoE controller, the fc_host (of IF's
# controller; without IF, the first)
fcr_ctlr() {
    if [ -n "$1" ]; then ls -d /sys/class/net/"$1"/ctlr_* 2>/dev/null | head -1
    else ls -d /sys/bus/fcoe/devices/ctlr_* 2>/dev/null | head -1; fi
}
fcr_host() {
    if [ -n "$1" ]; then ls -d /sys/class/net/"$1"/ctlr_*/host*/fc_host/host* 2>/dev/null | head -1
    else ls -d /sys/class/fc_host/host* 2>/dev/null | head -1; fi
}

# fcr_fcoe_up [IF]: an open-fcoe fabric-mode controller on IF, enabled
fcr_fcoe_up() {
    local ifc=${1:-eth0} c
    modprobe -a fcoe sd_mod || return 1   # no udev here to load sd_mod on a new disk
    echo "$ifc" > /sys/bus/fcoe/ctlr_create || return 1
    c=$(fcr_ctlr "$ifc")
    [ -n "$c" ] || return 1
    echo fabric > "$c/mode" || return 1
    echo 1 > "$c/enabled"
}

# fcr_vlan IF VID: IF.VID, a VLAN interface (802.1Q tag VID), up, IF's MTU
fcr_vlan() {
    modprobe 8021q 2>/dev/null
    ip link add link "$1" name "$1.$2" type vlan id "$2" || return 1
    ip link set "$1.$2" mtu "$(cat /sys/class/net/$1/mtu)" up
}

# fcr_fcoe_down [IF]: the controller destroyed; libfc logs out (FIP LOGO)
fcr_fcoe_down() {
    echo "${1:-eth0}" > /sys/bus/fcoe/ctlr_destroy
}

# fcr_fcoe_disable: link down for FCoE (no LOGO); fcr_fcoe_enable: up again
fcr_fcoe_disable() { echo 0 > "$(fcr_ctlr "$1")/enabled"; }
fcr_fcoe_enable() { echo 1 > "$(fcr_ctlr "$1")/enabled"; }

# fcr_fc_state [IF]: one "key=value" line per fact of the fc_host
fcr_fc_state() {
    local h
    h=$(fcr_host "$1")
    [ -n "$h" ] || { echo "fc_host=none"; return 0; }
    echo "fc_host=${h##*/}"
    for f in port_state port_id port_name node_name fabric_name speed maxframe_size; do
        [ -r "$h/$f" ] && echo "$f=$(cat "$h/$f")"
    done
    echo "rports=$(ls /sys/class/fc_remote_ports 2>/dev/null | tr '\n' ' ')"
}

# fcr_stats [IF]: every counter the stack keeps for IF (default eth0),
# "fc.NAME=value" (fc_host statistics), "lesb.NAME=value", "net.NAME=value"
fcr_stats() {
    local i=${1:-eth0} f h c
    h=$(fcr_host "$i")
    c=$(fcr_ctlr "$i")
    for f in ${h:+$h/statistics/*}; do
        [ -f "$f" ] && [ -r "$f" ] && echo "fc.${f##*/}=$(cat "$f" 2>/dev/null)"
    done
    for f in ${c:+$c/lesb/*}; do
        [ -f "$f" ] && [ -r "$f" ] && echo "lesb.${f##*/}=$(cat "$f" 2>/dev/null)"
    done
    for f in rx_packets tx_packets rx_dropped rx_errors; do
        echo "net.$f=$(cat /sys/class/net/$i/statistics/$f 2>/dev/null)"
    done
    return 0
}

# fcr_lio_target WWPN INIT_WWPN SIZE_MB [N]: a LIO tcm_fc target port WWPN
# (aa:bb:..:hh) exporting LUN 0, a fileio file on tmpfs (/tmp/lun<N>.img,
# N default 0), to INIT_WWPN
fcr_lio_target() {
    local wwpn=$1 iwwpn=$2 mb=$3 n=${4:-0} C=/sys/kernel/config/target
    modprobe -a target_core_mod target_core_file tcm_fc || return 1
    grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs configfs /sys/kernel/config || return 1
    mkdir -p "$C/core/fileio_$n/lun$n" || return 1
    truncate -s "${mb}M" /tmp/lun$n.img
    echo "fd_dev_name=/tmp/lun$n.img,fd_dev_size=$((mb * 1048576))" > "$C/core/fileio_$n/lun$n/control" || return 1
    echo 1 > "$C/core/fileio_$n/lun$n/enable" || return 1
    fcr_lio_export "$wwpn" "$iwwpn" "$C/core/fileio_$n/lun$n"
}

# fcr_lio_iblock WWPN INIT_WWPN DEV: a LIO tcm_fc target port WWPN exporting
# LUN 0, the block device DEV (iblock), to INIT_WWPN
fcr_lio_iblock() {
    local wwpn=$1 iwwpn=$2 dev=$3 C=/sys/kernel/config/target
    modprobe -a target_core_mod target_core_iblock tcm_fc || return 1
    grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs configfs /sys/kernel/config || return 1
    mkdir -p "$C/core/iblock_0/lun0" || return 1
    echo "udev_path=$dev" > "$C/core/iblock_0/lun0/control" || return 1
    echo 1 > "$C/core/iblock_0/lun0/enable" || return 1
    fcr_lio_export "$wwpn" "$iwwpn" "$C/core/iblock_0/lun0"
}

# fcr_lio_export WWPN INIT_WWPN BACKSTORE: tcm_fc port WWPN, LUN 0 the
# backstore (a configfs directory), an ACL for INIT_WWPN
fcr_lio_export() {
    local wwpn=$1 iwwpn=$2 bs=$3 T=/sys/kernel/config/target/fc/$1/tpgt_1
    mkdir -p "$T/lun/lun_0" || return 1
    ln -s "$bs" "$T/lun/lun_0/lun0" || return 1
    mkdir -p "$T/acls/$iwwpn/lun_0" || return 1
    ln -s "$T/lun/lun_0" "$T/acls/$iwwpn/lun_0/lun0" || return 1
    [ -e "$T/enable" ] && { echo 1 > "$T/enable" || return 1; }
    return 0
}

# fcr_disk IF: the disk (sdX) of the first LUN the FCoE port on IF sees
fcr_disk() {
    local b
    b=$(ls -d /sys/class/net/"$1"/ctlr_*/host*/rport-*/target*/*:*/block/* 2>/dev/null | head -1)
    [ -n "$b" ] && echo "${b##*/}"
}

# fcr_crypt NAME DEV KEY: /dev/mapper/NAME, dm-crypt aes-xts-plain64 over
# the whole of DEV with KEY (hex), no header (dmsetup, no udev)
fcr_crypt() {
    local name=$1 dev=$2 key=$3 sectors
    modprobe -a dm_crypt ecb xts || return 1   # busybox modprobe loads no softdep (xts: ecb)
    sectors=$(cat /sys/class/block/"${dev##*/}"/size) || return 1
    DM_DISABLE_UDEV=1 dmsetup create "$name" --table "0 $sectors crypt aes-xts-plain64 $key 0 $dev 0" || return 1
    [ -b /dev/mapper/"$name" ]
}

# fcr_rports: one line per FC remote port: "port_name port_id state roles"
fcr_rports() {
    local r
    for r in /sys/class/fc_remote_ports/rport-*; do
        [ -d "$r" ] || continue
        echo "$(cat "$r/port_name") $(cat "$r/port_id") $(cat "$r/port_state") $(cat "$r/roles" | tr ' ,' '_')"
    done
    return 0
}
