# SPDX-License-Identifier: MIT
# Shared helpers for tinyperf's shell tests: one [OK]/[FAIL] line per case and a closing
# "NAME: N passed, N failed" line that tests/run.sh adds up.
# shellcheck shell=sh
T_PASS=0
T_FAIL=0
T_NAME=${T_NAME:-$(basename "$0" .sh)}

ok() { T_PASS=$((T_PASS + 1)); echo "[OK] $*"; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "[FAIL] $*"; }
# check NAME CONDITION-COMMAND...: OK when the command succeeds
check() { n=$1; shift; if "$@"; then ok "$n"; else fail "$n"; fi; }
# expect_eq NAME EXPECTED ACTUAL
expect_eq() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: expected '$2', got '$3'"; fi; }
done_tests() { echo "$T_NAME: $T_PASS passed, $T_FAIL failed"; [ "$T_FAIL" -eq 0 ]; }
