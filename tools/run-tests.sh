#!/usr/bin/env bash
# Every test: installs what it needs, builds, runs the unit and integration
# suites, and ends with one line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FCR_BUILD:-build}
./tools/bootstrap.sh

rc=0
meson test -C "$build" --print-errorlogs "$@" || rc=$?

# Close with one plain line, counting the cases inside each test program
# (cmocka's [ PASSED ]/[ FAILED ] lines, our scripts' "N passed, N failed").
python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, re, sys
passed = failed = skipped = 0
for line in open(sys.argv[1]):
    t = json.loads(line)
    out = t.get("stdout") or ""
    p = sum(int(n) for n in re.findall(r"^\[  PASSED  \] (\d+) test", out, re.M))
    f = sum(int(n) for n in re.findall(r"^\[  FAILED  \] (\d+) test", out, re.M))
    m = re.findall(r"^(\d+) passed, (\d+) failed", out, re.M)
    if m:
        p, f = int(m[-1][0]), int(m[-1][1])
    ok = t["result"] in ("OK", "EXPECTEDFAIL")
    if t["result"] == "SKIP":
        skipped += 1
        continue
    if p == 0 and f == 0:
        p, f = (1, 0) if ok else (0, 1)
    if not ok and f == 0:
        f = 1   # the program failed even if it counted no failed case
    passed += p
    failed += f
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
PY
exit $rc
