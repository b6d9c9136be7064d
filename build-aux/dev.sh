#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# One-command set-up for a fresh Debian 12 / Ubuntu machine (root or sudo).
#
#   bash build-aux/dev.sh run [FILE...]   install deps, build, run Embers
#                                         (on the bundled sample without FILE)
#   bash build-aux/dev.sh test            install deps, build, run every test:
#                                         the suite, the suite again under
#                                         ASan+UBSan, the fuzzers, the live
#                                         go-pprof oracle; prints
#                                         "N passed, N failed"
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

mode=${1:-run}
shift || true

fuzz_seconds=${EMBERS_FUZZ_SECONDS:-20}

setup() {
  local dir=$1; shift
  if [[ -f "$dir/build.ninja" ]]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$@"
  fi
}

run_app() {
  bash build-aux/install-deps.sh
  setup _build/dev -Ddevelopment=true
  ninja -C _build/dev
  export GSETTINGS_SCHEMA_DIR="$top/_build/dev/data"
  if [[ $# -eq 0 ]]; then
    set -- "$top/data/samples/sample-cpu.pb.gz"
  fi
  exec "$top/_build/dev/src/app/embers" "$@"
}

run_tests() {
  bash build-aux/install-deps.sh --tests
  local failed_steps=0 extra_pass=0 extra_fail=0
  # A build or set-up step that stops the script still leaves a count.
  trap 'echo "0 passed, 1 failed"' ERR
  local logs=()

  # 1. The suite, with warnings as errors.
  setup _build/ci -Dwerror=true
  ninja -C _build/ci
  rm -f _build/ci/meson-logs/testlog.json
  xvfb-run -a -s "-screen 0 1400x900x24" meson test -C _build/ci --print-errorlogs --num-processes 2 || failed_steps=$((failed_steps + 1))
  logs+=(_build/ci/meson-logs/testlog.json)

  # 2. The same suite under AddressSanitizer + UndefinedBehaviorSanitizer.
  setup _build/asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
  ninja -C _build/asan
  # Core tests check for leaks too; GTK's own caches make leak checking of
  # window tests meaningless, so those run with memory errors checked only.
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  rm -f _build/asan/meson-logs/testlog.json
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    meson test -C _build/asan --suite core --print-errorlogs --num-processes 2 \
      --timeout-multiplier 3 || failed_steps=$((failed_steps + 1))
  cp _build/asan/meson-logs/testlog.json _build/asan/meson-logs/testlog-core.json
  logs+=(_build/asan/meson-logs/testlog-core.json)
  rm -f _build/asan/meson-logs/testlog.json
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    xvfb-run -a -s "-screen 0 1400x900x24" meson test -C _build/asan --no-suite core --print-errorlogs \
      --num-processes 2 --timeout-multiplier 3 || failed_steps=$((failed_steps + 1))
  if [[ -f _build/asan/meson-logs/testlog.json ]]; then
    logs+=(_build/asan/meson-logs/testlog.json)
  fi

  # 3. Fuzzers, each for a short bounded time on the committed seed corpus.
  if [[ -f tests/fuzz/run-fuzzers.sh ]]; then
    CC=clang setup _build/fuzz -Dfuzzing=true -Dapp=false -Db_lundef=false
    ninja -C _build/fuzz
    local fuzz_out
    fuzz_out=$(mktemp)
    bash tests/fuzz/run-fuzzers.sh _build/fuzz "$fuzz_seconds" | tee "$fuzz_out" || failed_steps=$((failed_steps + 1))
    extra_pass=$((extra_pass + $(grep -c '^ok ' "$fuzz_out" || true)))
    extra_fail=$((extra_fail + $(grep -c '^not ok ' "$fuzz_out" || true)))
    rm -f "$fuzz_out"
  fi

  # 4. The live oracle: fresh Go profiles (not in the repository) against go tool pprof.
  if [[ -f tests/oracle/live-oracle.sh ]]; then
    local oracle_out
    oracle_out=$(mktemp)
    bash tests/oracle/live-oracle.sh _build/ci/src/app/embers | tee "$oracle_out" || failed_steps=$((failed_steps + 1))
    extra_pass=$((extra_pass + $(grep -c '^ok ' "$oracle_out" || true)))
    extra_fail=$((extra_fail + $(grep -c '^not ok ' "$oracle_out" || true)))
    rm -f "$oracle_out"
  fi

  # 5. The Flatpak manifests, and the app module's build commands as the
  #    manifest runs them (the GNOME runtime cannot be downloaded here).
  local flatpak_out
  flatpak_out=$(mktemp)
  { python3 build-aux/check-flatpak.py . && bash build-aux/flatpak-build-check.sh; } | tee "$flatpak_out" || failed_steps=$((failed_steps + 1))
  extra_pass=$((extra_pass + $(grep -c '^ok ' "$flatpak_out" || true)))
  extra_fail=$((extra_fail + $(grep -c '^not ok ' "$flatpak_out" || true)))
  rm -f "$flatpak_out"

  local counts passed failed summary
  summary=$(mktemp)
  python3 build-aux/count-results.py "${logs[@]}" > "$summary"
  cat "$summary"
  counts=$(awk '/^TOTALS/ { print $2, $3 }' "$summary")
  rm -f "$summary"
  trap - ERR
  passed=$(( ${counts% *} + extra_pass ))
  failed=$(( ${counts#* } + extra_fail ))
  if [[ $failed_steps -gt 0 && $failed -eq 0 ]]; then
    # A step failed without a counted failure (build or runner error).
    failed=$failed_steps
  fi
  echo "${passed} passed, ${failed} failed"
  [[ $failed -eq 0 ]]
}

case "$mode" in
  run)  run_app "$@" ;;
  test) run_tests ;;
  *)    echo "usage: $0 run [FILE...] | test" >&2; exit 2 ;;
esac
