#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The appliance as `meson install` leaves it (into a DESTDIR): the systemd
# units (systemd-analyze verify finds no error but the commands' absence
# outside the DESTDIR), their helper scripts, /etc/fcredirect's files
# installed once and kept when edited, the environment file a shell can
# source, startup.cmds with examples only; fcredirect's own options from
# FCR_OPTIONS after --; replication off as shipped and on only with a key
# file; hugepages reserved once per boot unless enough are.
# Ends with "N passed, M failed".
#   appliance_install.sh <build dir>
set -uo pipefail
build=$1
tmp=$(mktemp -d /tmp/appliance.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # check <status> <what> [detail]
	if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "  PASS: $2"
	else fail=$((fail + 1)); echo "  FAIL: $2"; [ -n "${3:-}" ] && echo "$3" | sed 's/^/        /'; fi
}
prefix=$(meson introspect --buildoptions "$build" | python3 -c \
	'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')
root=$tmp/root

echo "meson install into a DESTDIR"
out=$(DESTDIR=$root meson install -C "$build" --no-rebuild 2>&1)
check $? "meson install exits 0" "$(echo "$out" | tail -5)"
units=$root$prefix/lib/systemd/system
for f in "$units/fcredirect.service" "$units/fcredirect-setup.service" \
	"$root/etc/fcredirect/fcredirect.env" "$root/etc/fcredirect/startup.cmds"; do
	[ -f "$f" ]; check $? "installed: ${f#"$root"}"
done
for f in fcredirect-start fcredirect-setup; do
	[ -x "$root$prefix/libexec/$f" ]; check $? "installed, executable: $prefix/libexec/$f"
done
start=$(sed -n 's/^ExecStart=//p' "$units/fcredirect.service")
[ "$start" = "$prefix/libexec/fcredirect-start" ] && [ -x "$root$start" ]
check $? "the unit's ExecStart is the installed helper ($start)"
grep -q '^Requires=fcredirect-setup.service' "$units/fcredirect.service" &&
	grep -q '^RestartPreventExitStatus=2' "$units/fcredirect.service" &&
	! grep -q 'dpdk-hugepages' "$units/fcredirect.service"
check $? "hugepages and binding in fcredirect-setup.service (once per boot, not at each restart); exit 2 (a bad configuration) is not restarted"
if command -v systemd-analyze >/dev/null; then
	v=$(systemd-analyze verify "$units/fcredirect.service" "$units/fcredirect-setup.service" 2>&1 |
		grep -v "is not executable: No such file or directory")
	[ -z "$v" ]; check $? "systemd-analyze verify: nothing but the commands' absence outside the DESTDIR" "$v"
fi
grep -qx 'FCR_SYNC_OPTIONS=' "$root/etc/fcredirect/fcredirect.env"
check $? "the shipped environment file leaves replication off (FCR_SYNC_OPTIONS empty)"
out=$(env -i PATH=/usr/bin:/bin sh -ec ". '$root/etc/fcredirect/fcredirect.env'; echo \"\$FCR_BIND_PCI|\$FCR_LCORES|\$FCR_OPTIONS|\$FCR_PROFILE\"" 2>&1)
[ "$out" = "0000:3b:00.0 0000:3b:00.1|0-5||i40e" ]
check $? "a shell can source the shipped environment file ($out)"
grep -q '^#   FCR_OPTIONS="--fabric-ports 1"$' "$root/etc/fcredirect/fcredirect.env"
check $? "the environment file shows how to give --fabric-ports (FCR_OPTIONS)"
live=$(grep -v '^[[:space:]]*#' "$root/etc/fcredirect/startup.cmds" | grep -c '[^[:space:]]')
[ "$live" = 0 ]; check $? "the shipped startup.cmds runs nothing: every example is commented out ($live live lines)"

echo "fcredirect-exporter: installed with its version, this host only unless told"
exp=$root$prefix/bin/fcredirect-exporter
out=$("$exp" --version 2>&1)
ver=$(meson introspect --projectinfo "$build" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
[ -x "$exp" ] && [ "$out" = "fcredirect-exporter $ver" ]
check $? "installed, executable; --version names the project's version ($out)"
grep -q '^Environment=FCR_EXPORTER_LISTEN=127.0.0.1:9717$' "$units/fcredirect-exporter.service" &&
	grep -q '^EnvironmentFile=-/etc/fcredirect/fcredirect.env$' "$units/fcredirect-exporter.service" &&
	grep -q -- '--listen ${FCR_EXPORTER_LISTEN}$' "$units/fcredirect-exporter.service" &&
	grep -qx 'FCR_EXPORTER_LISTEN=127.0.0.1:9717' "$root/etc/fcredirect/fcredirect.env"
check $? "the exporter's unit listens on 127.0.0.1:9717 unless the env file's FCR_EXPORTER_LISTEN says otherwise"
if command -v systemd-analyze >/dev/null; then
	v=$(systemd-analyze verify "$units/fcredirect-exporter.service" 2>&1 |
		grep -v "is not executable: No such file or directory")
	[ -z "$v" ]; check $? "systemd-analyze verify fcredirect-exporter.service" "$v"
fi
"$exp" --listen nonsense >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "^fcredirect-exporter: --listen nonsense: give address:port" "$tmp/err"
check $? "the exporter refuses a --listen without a port: exit 2, naming it" "$(cat "$tmp/err")"

echo "a second install keeps an edited configuration"
echo "FCR_LCORES=0-3 # edited" >>"$root/etc/fcredirect/fcredirect.env"
DESTDIR=$root meson install -C "$build" --no-rebuild >/dev/null 2>&1
grep -q "FCR_LCORES=0-3 # edited" "$root/etc/fcredirect/fcredirect.env"
check $? "fcredirect.env kept as edited"

echo "fcredirect-start: the command, replication by the key file"
run_start() { # env assignments...; prints the command
	env -i PATH=/usr/bin:/bin FCR_DRY_RUN=1 FCR_CONF_DIR="$tmp/conf" "$@" \
		"$root$prefix/libexec/fcredirect-start" 2>"$tmp/start.err"
}
mkdir -p "$tmp/conf"
cmd=$(run_start FCR_LCORES=0-5 FCR_PROFILE=ice FCR_SYNC_OPTIONS=)
echo "$cmd" | grep -q -- "^$prefix/bin/fcredirect -l 0-5 --file-prefix fcredirect -- --pmd-config ice --cmdline-file-optional $tmp/conf/startup.cmds --config-dir $tmp/conf --stats-period 60 --state-file /var/lib/fcredirect/fcredirect.state *$"
check $? "as shipped: fcredirect with the profile, the optional command file, no replication" "$cmd"
cmd=$(run_start FCR_SYNC_OPTIONS="--sync-bind 10.10.0.1:7100 --sync-peer 10.10.0.2:7100")
! echo "$cmd" | grep -q -- "--sync" && grep -q "no key file $tmp/conf/sync.key: replication off" "$tmp/start.err"
check $? "peers given, no key file: replication off, and it says why" "$cmd $(cat "$tmp/start.err")"
cmd=$(run_start FCR_OPTIONS="--fabric-ports 1 --config-store etcd://10.0.0.11:2379/fabric-a")
echo "$cmd" | grep -q -- " -- .*--state-file /var/lib/fcredirect/fcredirect.state --fabric-ports 1 --config-store etcd://10.0.0.11:2379/fabric-a$"
check $? "FCR_OPTIONS: fcredirect's own options, after --" "$cmd"
# the environment file as an operator edits it, sourced as systemd reads it
cp "$root/etc/fcredirect/fcredirect.env" "$tmp/edited.env"
sed -i 's/^FCR_OPTIONS=$/FCR_OPTIONS="--fabric-ports 1"/' "$tmp/edited.env"
cmd=$(env -i PATH=/usr/bin:/bin FCR_DRY_RUN=1 FCR_CONF_DIR="$tmp/conf" sh -c \
	"set -a; . '$tmp/edited.env'; exec '$root$prefix/libexec/fcredirect-start'" 2>&1)
echo "$cmd" | grep -q -- "^$prefix/bin/fcredirect -l [0-9-]* --file-prefix fcredirect --log-level=fcr.cli:info -- --pmd-config i40e .* --fabric-ports 1$"
check $? "the edited environment file, sourced: the trust model on (--fabric-ports 1)" "$cmd"
head -c 32 /dev/urandom >"$tmp/conf/sync.key"
chmod 600 "$tmp/conf/sync.key"
cmd=$(run_start FCR_SYNC_OPTIONS="--sync-bind 10.10.0.1:7100 --sync-peer 10.10.0.2:7100")
echo "$cmd" | grep -q -- "--state-file /var/lib/fcredirect/fcredirect.state --sync-bind 10.10.0.1:7100 --sync-peer 10.10.0.2:7100 --sync-key-file $tmp/conf/sync.key$"
check $? "peers and the key file: replication on with that key" "$cmd"

echo "fcredirect-setup: hugepages once, unless enough are there"
sys=$tmp/sys/kernel/mm/hugepages/hugepages-1048576kB
mkdir -p "$sys"
echo 8 >"$sys/nr_hugepages"
out=$(env -i PATH=/usr/bin:/bin FCR_DRY_RUN=1 FCR_SYSFS="$tmp/sys" FCR_HUGEPAGE_SIZE=1G \
	FCR_HUGEPAGE_MEM=8G FCR_BIND_PCI="0000:3b:00.0 0000:3b:00.1" "$root$prefix/libexec/fcredirect-setup")
echo "$out" | grep -q "8 pages of 1G reserved already" && ! echo "$out" | grep -q dpdk-hugepages &&
	echo "$out" | grep -q "dpdk-devbind.py -b vfio-pci 0000:3b:00.0 0000:3b:00.1"
check $? "8 x 1G already reserved (the kernel command line): none asked for; the NICs bound" "$out"
echo 2 >"$sys/nr_hugepages"
out=$(env -i PATH=/usr/bin:/bin FCR_DRY_RUN=1 FCR_SYSFS="$tmp/sys" FCR_HUGEPAGE_SIZE=1G \
	FCR_HUGEPAGE_MEM=8G FCR_BIND_PCI= "$root$prefix/libexec/fcredirect-setup")
echo "$out" | grep -q "dpdk-hugepages.py -p 1G --setup 8G" && ! echo "$out" | grep -q devbind
check $? "2 of 8 there: dpdk-hugepages.py reserves them; FCR_BIND_PCI empty (mlx5): no binding" "$out"
env -i PATH=/usr/bin:/bin FCR_DRY_RUN=1 FCR_HUGEPAGE_SIZE=3G "$root$prefix/libexec/fcredirect-setup" \
	>/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "FCR_HUGEPAGE_SIZE is 1G or 2M, not '3G'" "$tmp/err"
check $? "a wrong page size: exit 2, naming it"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
