#!/usr/bin/env bash
# Every test: installs what it needs, builds, runs the unit and integration
# suites, then again on a sanitizer build, then each fuzz target under
# libFuzzer for a bounded time, and ends with one line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FCR_BUILD:-build}
# pktgen-memif draws fcoe-pktgen's latency histogram (perf/plot-latency);
# store-cluster runs a 3-member etcd cluster (etcd-server); store-tls makes
# its certificates with openssl; ops-exporter checks the exporter's output
# with Prometheus' promtool (prometheus)
export FCR_EXTRA_PACKAGES="python3-matplotlib etcd-server openssl prometheus ${FCR_EXTRA_PACKAGES:-}"
./tools/bootstrap.sh

rc=0
meson test -C "$build" --print-errorlogs "$@" || rc=$?
logs=("$build/meson-logs/testlog.json")

# The same unit and integration tests again on an AddressSanitizer +
# UndefinedBehaviorSanitizer build (not the real-endpoint ones: their QEMU
# guests would take most of an hour). Every report goes to a file, so one in
# a program whose exit status a test does not read still fails the run;
# UBSan stops the program at the first. FCR_SANITIZE=0 skips it.
if [ "${FCR_SANITIZE:-1}" != 0 ] && [ $# -eq 0 ]; then
	san=${FCR_SANITIZE_BUILD:-$build-san}
	reports=$(mktemp -d /tmp/fcr-sanitizer.XXXXXX)
	FCR_BUILD=$san FCR_MESON_OPTIONS="-Db_sanitize=address,undefined -Db_lundef=false" \
		./tools/bootstrap.sh
	mapfile -t tests < <(meson test -C "$san" --list 2>/dev/null |
		sed -n 's|^fcredirect:[a-z]* / ||p' | grep -v '^realfab-')
	ASAN_OPTIONS="detect_leaks=1:log_path=$reports/asan" \
	UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan" \
		meson test -C "$san" --print-errorlogs "${tests[@]}" || rc=$?
	logs+=("$san/meson-logs/testlog.json")
	if compgen -G "$reports/*" >/dev/null; then
		echo "sanitizer reports ($reports):"
		for f in "$reports"/*; do
			echo "== $f"
			head -60 "$f"
		done
		rc=1
		sanitizer_failed=1
	else
		rmdir "$reports"
		echo "sanitizer build: ${#tests[@]} tests, no report"
	fi
fi

# Coverage-guided fuzzing (tools/fuzz.sh: clang's libFuzzer, each target
# FCR_FUZZ_SECONDS, default 30, from its seed corpus). FCR_FUZZ=0 skips it.
fuzz_ok=0
fuzz_failed=0
if [ "${FCR_FUZZ:-1}" != 0 ] && [ $# -eq 0 ]; then
	fuzz_out=$(./tools/fuzz.sh 2>&1) || rc=1
	echo "$fuzz_out"
	fuzz_ok=$(grep -c '^fuzz .*: ok$' <<<"$fuzz_out" || true)
	fuzz_failed=$(grep -c '^fuzz .*: FAILED' <<<"$fuzz_out" || true)
	if [ "$fuzz_ok" -eq 0 ] && [ "$fuzz_failed" -eq 0 ]; then
		fuzz_failed=1 # it did not get as far as running a target
	fi
fi

# Close with one plain line, counting the cases inside each test program:
# cmocka's "[==========] N test(s) run." (its PASSED/FAILED summary goes to
# stderr, which meson may not keep) and our scripts' "N passed, N failed".
python3 - "${sanitizer_failed:-0}" "$fuzz_ok" "$fuzz_failed" "${logs[@]}" <<'PY'
import json, re, sys
passed = failed = skipped = 0
failed += int(sys.argv[1])  # sanitizer reports: one failure
passed += int(sys.argv[2])  # fuzz targets run clean
failed += int(sys.argv[3])
lines = [l for f in sys.argv[4:] for l in open(f)]
for line in lines:
    t = json.loads(line)
    out = (t.get("stdout") or "") + "\n" + (t.get("stderr") or "")
    ok = t["result"] in ("OK", "EXPECTEDFAIL")
    if t["result"] == "SKIP":
        skipped += 1
        continue
    script = re.findall(r"^(\d+) passed, (\d+) failed", out, re.M)
    ran = re.findall(r"^\[==========\] (\d+) test\(s\) run\.", out, re.M)
    if script:
        p, f = int(script[-1][0]), int(script[-1][1])
    elif ran:
        n = sum(int(x) for x in ran)
        f = len(re.findall(r"^\[  FAILED  \] (?!\d+ test)", out, re.M))
        p = n - f
    else:
        p, f = 0, 0
    if p == 0 and f == 0:
        p, f = (1, 0) if ok else (0, 1)
    if not ok and f == 0:
        f, p = 1, max(p - 1, 0)  # the program failed even if it counted no failed case
    passed += p
    failed += f
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
PY
exit $rc
