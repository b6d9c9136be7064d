#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs every libFuzzer target for a bounded time on a copy of its seed corpus.
#
#   tests/fuzz/run-fuzzers.sh BUILD_DIR SECONDS [TARGET...]
#
# BUILD_DIR was configured with
#   CC=clang meson setup BUILD_DIR -Dfuzzing=true -Dapp=false -Db_lundef=false
# and built. Prints "ok fuzz-NAME (N execs)" or "not ok fuzz-NAME ..." per
# target, with the crash's stack trace as "# " lines; crash inputs are kept in
# BUILD_DIR/fuzz-artifacts/. Exits non-zero when any target crashed or failed.
set -uo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 BUILD_DIR SECONDS [TARGET...]" >&2
  exit 2
fi

build_dir=$(cd "$1" && pwd) || exit 2
seconds=$2
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [[ $# -gt 0 ]]; then
  targets=("$@")
else
  targets=(pprof details folded flamebearer load selector input server-body perf-script cpuprofile chrome-trace speedscope jfr session git-checkout)
fi

artifacts="$build_dir/fuzz-artifacts"
mkdir -p "$artifacts"
work=$(mktemp -d "${TMPDIR:-/tmp}/embers-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One target: its report (ok / not ok and the error) in $work/NAME/report
fuzz_one() {
  local name=$1 bin corpus args log status execs crashes kept c
  exec >"$work/$name/report" 2>&1
  bin="$build_dir/tests/fuzz/fuzz-$name"
  if [[ ! -x "$bin" ]]; then
    echo "not ok fuzz-$name (not built: $bin)"
    return 1
  fi

  corpus="$work/$name/corpus"
  mkdir -p "$corpus" "$work/$name/artifacts"
  if [[ -d "$here/corpus/$name" ]]; then
    cp -r "$here/corpus/$name/." "$corpus/"
  fi
  if [[ $name == details ]]; then
    # The second pprof reader: the pprof seeds and words
    cp -r "$here/corpus/pprof/." "$corpus/"
  fi
  if [[ $name == load ]]; then
    # The whole load path: every reader's seeds too.
    for other in "$here"/corpus/*/; do
      cp -r "$other." "$corpus/"
    done
  fi

  args=(
    -max_total_time="$seconds"
    -rss_limit_mb=2048
    -timeout=10
    -print_final_stats=1
    -artifact_prefix="$work/$name/artifacts/"
  )
  if [[ -f "$here/$name.dict" ]]; then
    args+=(-dict="$here/$name.dict")
  elif [[ $name == details ]]; then
    args+=(-dict="$here/pprof.dict")
  fi

  log="$work/$name/log"
  # A hard stop well after libFuzzer's own, in case a run never returns.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    timeout --kill-after=10 $((seconds + 120)) \
    "$bin" "${args[@]}" "$corpus" >"$log" 2>&1
  status=$?

  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  if [[ -z "$execs" ]]; then
    execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
  fi

  crashes=("$work/$name/artifacts/"*)
  if [[ $status -eq 0 && ! -e "${crashes[0]}" ]]; then
    echo "ok fuzz-$name (${execs:-0} execs)"
    return 0
  fi

  kept=()
  for c in "${crashes[@]}"; do
    [[ -e "$c" ]] || continue
    cp "$c" "$artifacts/"
    kept+=("$artifacts/$(basename "$c")")
  done
  if [[ ${#kept[@]} -gt 0 ]]; then
    echo "not ok fuzz-$name (exit $status, crash input: ${kept[*]})"
  else
    echo "not ok fuzz-$name (exit $status, no crash input written)"
  fi
  # The report: the sanitizer's or libFuzzer's error and its stack, up to
  # the SUMMARY line (or the first 60 lines when there is none).
  awk '
    !started && /^==[0-9]+==ERROR|runtime error:|fuzz invariant broken|^ERROR: libFuzzer|deadly signal|ALARM: working on the last Unit|out-of-memory|CRITICAL|WARNING \*\*/ { started = 1 }
    started { print "# " $0; n++ }
    started && (/^SUMMARY:/ || n >= 60) { exit }
  ' "$log"
  return 1
}

# As many at once as there are processors (each target is one process):
# the same time per target, the whole run in a fraction of the time
jobs_max=$(nproc 2>/dev/null || echo 1)
failed=0
running=0
for name in "${targets[@]}"; do
  mkdir -p "$work/$name"
  fuzz_one "$name" &
  running=$((running + 1))
  if (( running >= jobs_max )); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait
for name in "${targets[@]}"; do
  cat "$work/$name/report"
  grep -q '^ok ' "$work/$name/report" || failed=1
done

exit $failed
