#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Prepares what a real-FCoE guest boots: Debian 12's stock 6.1 kernel and a
# BusyBox initramfs holding only the modules asked for (with their
# dependencies). Everything is cached in $FCR_REALFAB_CACHE (default
# /var/cache/fcredirect-realfab) and reused; installs its own packages.
#
#   guest.sh [--modules "m1 m2 ..."]     extra modules beside the default set
#            [--bin "prog ..."]            host programs copied in with their
#                                          shared libraries (the Debian package of
#                                          the same name is installed if missing)
#
# Prints, one per line: KVER=..., KERNEL=<bzImage>, INITRD=<cpio>.
# Env: FCR_REALFAB_KVER pins the kernel ABI (e.g. 6.1.0-57-amd64).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
CACHE=${FCR_REALFAB_CACHE:-/var/cache/fcredirect-realfab}
DEFAULT_MODULES="virtio_pci virtio_net configfs fcoe sd_mod target_core_mod target_core_file target_core_iblock tcm_fc"
extra=""
bins=""
while [ $# -gt 0 ]; do
    case $1 in
        --modules) extra="$extra $2"; shift 2 ;;
        --bin) bins="$bins $2"; shift 2 ;;
        *) echo "guest.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
MODULES="$DEFAULT_MODULES $extra"

log() { echo "guest.sh: $*" >&2; }

# --- packages (idempotent) ---------------------------------------------------
need_pkgs() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2 ||
        { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2; }
}
need_pkgs qemu-system-x86 busybox-static kmod cpio iproute2
for b in $bins; do
    PATH=$PATH:/usr/sbin:/sbin command -v "$b" >/dev/null || need_pkgs "$b"
done
# each program and the shared objects it loads, as absolute paths
bin_files=$(for b in $bins; do
                p=$(PATH=$PATH:/usr/sbin:/sbin command -v "$b")
                echo "$p"
                ldd "$p" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
            done | awk '!seen[$0]++')

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9   # two runs may prepare at once: one builds, the other waits and reuses

# --- kernel ------------------------------------------------------------------
kver=${FCR_REALFAB_KVER:-}
if [ -z "$kver" ]; then
    # a kernel already unpacked here is reused without asking apt
    kver=$(ls -d "$CACHE"/kernel-6.1.0-*-amd64 2>/dev/null | sed 's,.*/kernel-,,' | sort -V | tail -1 || true)
fi
if [ -z "$kver" ]; then
    pick() { apt-cache pkgnames linux-image-6.1.0- 2>/dev/null |
             grep -E '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' | sort -V | tail -1; }
    pkg=$(pick || true)
    [ -n "$pkg" ] || { apt-get update -q >&2; pkg=$(pick); }
    kver=${pkg#linux-image-}; kver=${kver%-unsigned}
fi
kroot="$CACHE/kernel-$kver"
if [ ! -f "$kroot/boot/vmlinuz-$kver" ]; then
    log "fetching linux-image-$kver-unsigned"
    dl=$(mktemp -d "$CACHE/dl.XXXXXX")
    chown _apt "$dl" 2>/dev/null || true   # apt downloads as its _apt user
    (cd "$dl" && apt-get download -q "linux-image-$kver-unsigned" >&2)
    rm -rf "$kroot.tmp"
    dpkg-deb -x "$dl"/linux-image-*.deb "$kroot.tmp"
    rm -rf "$dl"
    depmod -b "$kroot.tmp" "$kver"   # the package ships no modules.dep
    mv "$kroot.tmp" "$kroot"
fi

# --- initramfs ---------------------------------------------------------------
# the module closure, in load order, relative to lib/modules/$kver
closure=$(for m in $MODULES; do
              modprobe -d "$kroot" -S "$kver" --show-depends "$m" || { log "no module $m"; exit 1; }
          done | awk '$1 == "insmod" { print $2 }' | sed "s,^$kroot/lib/modules/$kver/,," | awk '!seen[$0]++')
bb=/bin/busybox
key=$( { echo "$kver"; echo "$closure"; cat "$here/guest-init.sh" "$here/guest-lib.sh"; sha256sum "$bb";
         for f in $bin_files; do echo "$f"; sha256sum < "$f"; done; } |
       sha256sum | cut -c1-16)
initrd="$CACHE/initrd-$kver-$key.cpio"
if [ ! -f "$initrd" ]; then
    log "building $initrd"
    st=$(mktemp -d)
    trap 'rm -rf "$st"' EXIT
    mkdir -p "$st"/{bin,sbin,etc,proc,sys,dev,tmp,run,root,lib/modules/$kver}
    cp "$bb" "$st/bin/busybox"
    for a in $("$bb" --list); do [ "$a" = busybox ] || ln -s busybox "$st/bin/$a"; done
    for m in $closure; do
        mkdir -p "$st/lib/modules/$kver/$(dirname "$m")"
        cp "$kroot/lib/modules/$kver/$m" "$st/lib/modules/$kver/$m"
    done
    for f in modules.builtin modules.builtin.modinfo modules.order; do
        cp "$kroot/lib/modules/$kver/$f" "$st/lib/modules/$kver/" 2>/dev/null || true
    done
    depmod -b "$st" "$kver"
    for f in $bin_files; do
        case $f in
            */bin/*|*/sbin/*) install -m 755 "$f" "$st/bin/${f##*/}" ;;   # over a busybox link
            *) mkdir -p "$st$(dirname "$f")"; cp -L "$f" "$st$f" ;;
        esac
    done
    install -m 755 "$here/guest-init.sh" "$st/init"
    install -m 644 "$here/guest-lib.sh" "$st/etc/fcr-lib.sh"
    # uncompressed: unpacking gzip under TCG costs more than reading the bytes
    (cd "$st" && find . | sort | cpio -o -H newc --quiet) > "$initrd.tmp"
    mv "$initrd.tmp" "$initrd"
fi

echo "KVER=$kver"
echo "KERNEL=$kroot/boot/vmlinuz-$kver"
echo "INITRD=$initrd"
