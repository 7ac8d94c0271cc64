#!/usr/bin/env bash
# Install what fcredirect needs from Debian 12's archive (only what is
# missing) and build it. Used by run-default.sh and run-tests.sh; safe to run
# again. FCR_BUILD names the build directory (default: build),
# FCR_MESON_OPTIONS the options of a new one;
# FCR_EXTRA_PACKAGES adds packages a caller needs (perf/run: its plots).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential pkg-config meson ninja-build python3
	  libdpdk-dev dpdk dpdk-dev libpcap-dev libcmocka-dev libsodium-dev libjansson-dev
	  libcurl4-openssl-dev tshark curl python3-prometheus-client)
# shellcheck disable=SC2206 # a list of package names
packages+=(${FCR_EXTRA_PACKAGES:-})

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	echo "bootstrap: installing ${missing[*]}"
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
		"${missing[@]}"
fi

build=${FCR_BUILD:-build}
if [ ! -f "$build/build.ninja" ]; then
	# shellcheck disable=SC2086 # FCR_MESON_OPTIONS: a list of -D options
	meson setup "$build" ${FCR_MESON_OPTIONS:-} >/dev/null
fi
ninja -C "$build" >/dev/null
echo "bootstrap: built in $build/"
