#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build if needed and run every benchmark in perf/, printing their tables.
#
#   perf/run-benchmarks.sh [BUILD_DIR] [-- ARGS...]
#
# BUILD_DIR defaults to `build` at the top of the tree; it is set up with
# `meson setup` when absent (extra setup options in $MESON_SETUP_ARGS, e.g.
# MESON_SETUP_ARGS=-Dtests=false). ARGS after `--` go to every benchmark
# (e.g. -- --runs 11). A benchmark joins by being an executable named
# *-bench in perf/meson.build (and a benchmark() there, for
# `meson test --benchmark`). Exit status: non-zero if a build fails or a
# benchmark reports a wrong result; timings never fail.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=build
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
	build=$1
	shift
fi
if [ $# -gt 0 ] && [ "$1" = "--" ]; then
	shift
fi
case $build in
/*) ;;
*) build=$top/$build ;;
esac

if [ ! -f "$build/build.ninja" ]; then
	# shellcheck disable=SC2086 # word splitting of the options is wanted
	meson setup "$build" "$top" ${MESON_SETUP_ARGS:-}
fi
ninja -C "$build"

status=0
found=0
for bench in "$build"/perf/*-bench; do
	[ -x "$bench" ] || continue
	found=1
	echo "=== $(basename "$bench")"
	if ! "$bench" "$@"; then
		echo "=== $(basename "$bench") FAILED (wrong result, not timing)" >&2
		status=1
	fi
	echo
done
if [ "$found" -eq 0 ]; then
	echo "no benchmarks found in $build/perf" >&2
	exit 1
fi
# what holding fabric logins costs an ENode: a live TAP fabric, root only
echo "=== login-hold-bench"
if [ "$(id -u)" -eq 0 ]; then
	python3 "$top/perf/login_hold_bench.py" "$build/app/fcredirect" || status=1
else
	echo "(skipped: needs root for its TAP ports)"
fi
exit $status
