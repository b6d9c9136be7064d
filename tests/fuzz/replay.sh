#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Replays every crash input kept in tests/fixtures/bad through one libFuzzer
# target, once each, without fuzzing:
#
#   tests/fuzz/replay.sh FUZZ_BINARY DIR
#
# An input found by one target goes through the others too: each must take
# any bytes. Prints one TAP line per input; the sanitizer's report follows a
# failing one as "# " lines.
set -uo pipefail

bin=$1
dir=$2
inputs=("$dir"/*)
echo "1..${#inputs[@]}"
n=0
failed=0
log=$(mktemp "${TMPDIR:-/tmp}/embers-replay.XXXXXX")
trap 'rm -f "$log"' EXIT
for input in "${inputs[@]}"; do
  n=$((n + 1))
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$bin" -rss_limit_mb=2048 -timeout=60 "$input" >"$log" 2>&1
  status=$?
  if [[ $status -eq 0 ]] && ! grep -q 'runtime error:\|^==[0-9]*==ERROR' "$log"; then
    echo "ok $n $(basename "$input")"
  else
    echo "not ok $n $(basename "$input") (exit $status)"
    sed -n '/==ERROR\|runtime error:\|fuzz invariant broken\|deadly signal/,/^SUMMARY:/p' "$log" | head -60 | sed 's/^/# /'
    failed=1
  fi
done
exit $failed
