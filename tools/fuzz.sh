#!/usr/bin/env bash
# Coverage-guided fuzzing: builds the fuzz targets as libFuzzer programs
# (clang, ASan + UBSan, in build-fuzz/) and runs each for a bounded time from
# its seed corpus, tests/fuzz/corpus/<target>/ (every input there is also a
# regression input: libFuzzer runs them all first). New inputs go to a
# temporary folder, not into the repository. Prints one line per target
# (executions per second, coverage edges, features, new inputs) and fails
# on a crash, a leak, a sanitizer report or a broken invariant, keeping the
# input that did it.
#
#   tools/fuzz.sh [-t SECONDS] [TARGET ...]   (default 30 s each, every target)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${FCR_FUZZ_SECONDS:-30}
if [ "${1:-}" = "-t" ]; then
	secs=$2
	shift 2
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frame login pipeline sync config profile state)
build=${FCR_FUZZ_BUILD:-build-fuzz}

FCR_EXTRA_PACKAGES="clang ${FCR_EXTRA_PACKAGES:-}" ./tools/bootstrap.sh >/dev/null
if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" -Dlibfuzzer=true -Db_sanitize=address,undefined \
		-Db_lundef=false >/dev/null
fi
ninja -C "$build" "${targets[@]/#/tests/fuzz_}" >/dev/null

work=$(mktemp -d /tmp/fcr-fuzz.XXXXXX)
rc=0
for t in "${targets[@]}"; do
	mkdir -p "$work/$t" "$work/$t-crash"
	log="$work/$t.log"
	r=0
	(cd "$work/$t-crash" &&
	 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
		"$OLDPWD/$build/tests/fuzz_$t" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$work/$t-crash/" "$work/$t" "$OLDPWD/tests/fuzz/corpus/$t" \
		>"$log" 2>&1) || r=$?
	execs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
	new=$(sed -n 's/^stat::new_units_added: *//p' "$log")
	seeds=$(find "tests/fuzz/corpus/$t" -type f | wc -l)
	if [ $r -eq 0 ]; then
		echo "fuzz $t: ${secs} s, ${execs:-?} execs/s, ${cov:-no coverage line}, $seeds seeds, ${new:-?} new inputs: ok"
	else
		echo "fuzz $t: FAILED (exit $r); input kept in $work/$t-crash/; last lines:"
		grep -v '^#' "$log" | tail -40 | sed 's/^/    /'
		rc=1
	fi
done
[ $rc -ne 0 ] || rm -rf "$work"
exit $rc
