#!/usr/bin/env bash
# Every test: installs what it needs, builds, runs the unit and integration
# suites, and ends with one line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FCR_BUILD:-build}
./tools/bootstrap.sh

rc=0
meson test -C "$build" --print-errorlogs "$@" || rc=$?

# Close with one plain line, counting the cases inside each test program:
# cmocka's "[==========] N test(s) run." (its PASSED/FAILED summary goes to
# stderr, which meson may not keep) and our scripts' "N passed, N failed".
python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, re, sys
passed = failed = skipped = 0
for line in open(sys.argv[1]):
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
