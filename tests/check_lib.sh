# SPDX-License-Identifier: BSD-3-Clause
# The integration scripts' verdicts: ok/ko print PASS/FAIL lines and count
# them; finish prints "N passed, N failed" (what tools/run-tests.sh reads)
# and fails when anything did. Sourced.
passed=0
failed=0

ok() {
	passed=$((passed + 1))
	echo "  PASS: $*"
}

ko() {
	failed=$((failed + 1))
	echo "  FAIL: $*"
}

# check "what" test-expression...: PASS or FAIL on a test(1) expression
check() {
	local what=$1
	shift
	if [ "$@" ]; then ok "$what"; else ko "$what"; fi
}

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
