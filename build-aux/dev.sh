#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# One-command set-up on a fresh machine (root or sudo).
#
#   bash build-aux/dev.sh run [FILE...]   build and run Embers (on the bundled
#                                         sample without FILE)
#   bash build-aux/dev.sh test            build and run every test: the suite,
#                                         the suite again under ASan+UBSan,
#                                         the fuzzers, the live go-pprof,
#                                         JFR and perf oracles, the Flatpak
#                                         checks, and the
#                                         window tests again on Debian's next
#                                         release; prints "N passed, N failed"
#   bash build-aux/dev.sh shell           a shell where Embers builds
#
# Embers needs GTK 4.18, libadwaita 1.7 and GLib 2.84 (Debian 13). A host that
# has them, or whose apt offers them, builds natively. An older Debian or
# Ubuntu host (Debian 12, Ubuntu 24.04) builds, runs and tests inside a
# Debian 13 build root (build-aux/buildroot.sh), made once and kept. A host
# without apt is told what to install. EMBERS_BUILD_IN=native or =root
# overrides the choice.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
# shellcheck source=build-aux/packages.sh
source build-aux/packages.sh

mode=${1:-run}
shift || true

fuzz_seconds=${EMBERS_FUZZ_SECONDS:-20}
main_suite=${EMBERS_ROOT_SUITE:-trixie}
next_suite=${EMBERS_NEXT_SUITE:-forky}

say() { printf 'dev.sh: %s\n' "$*" >&2; }

# Whether the host's own libraries (installed, or offered by its apt) are new
# enough to build natively
host_is_enough() {
  if pkg-config --exists "${embers_pkgconfig[@]}" 2>/dev/null; then
    return 0
  fi
  command -v apt-cache >/dev/null || return 1
  local pkg min candidate
  for pair in libgtk-4-dev:$embers_min_gtk libadwaita-1-dev:$embers_min_adw libglib2.0-dev:$embers_min_glib; do
    pkg=${pair%%:*} min=${pair#*:}
    candidate=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    if [[ -z $candidate || $candidate == "(none)" ]] || ! dpkg --compare-versions "$candidate" ge "$min"; then
      return 1
    fi
  done
  return 0
}

# native, root, or a message and exit
where_to_build() {
  if [[ -n ${EMBERS_BUILDROOT:-} ]]; then
    echo native   # already inside the build root
    return
  fi
  case ${EMBERS_BUILD_IN:-} in
    native|root) echo "$EMBERS_BUILD_IN"; return ;;
  esac
  if host_is_enough; then
    echo native
  elif command -v apt-get >/dev/null; then
    echo root
  else
    bash build-aux/install-deps.sh --explain >&2
    exit 1
  fi
}

setup() {
  local dir=$1; shift
  if [[ -f "$dir/build.ninja" ]]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$@"
  fi
}

# Adds a TAP-style step's ok / not ok lines to the counts
tap_counts() {
  local file=$1
  extra_pass=$((extra_pass + $(grep -c '^ok ' "$file" || true)))
  extra_fail=$((extra_fail + $(grep -c '^not ok ' "$file" || true)))
}

run_app() {
  local where
  # A host without apt and without the libraries: the message, and stop
  where=$(where_to_build) || exit 1
  if [[ $where == root ]]; then
    say "this host's GTK or libadwaita is older than Embers needs: building in a Debian $main_suite root"
    bash build-aux/buildroot.sh ensure "$main_suite"
    exec bash build-aux/buildroot.sh run "$main_suite" bash build-aux/dev.sh run "$@"
  fi
  [[ -n ${EMBERS_BUILDROOT:-} ]] || bash build-aux/install-deps.sh
  setup _build/dev -Ddevelopment=true
  ninja -C _build/dev
  export GSETTINGS_SCHEMA_DIR="$top/_build/dev/data"
  if [[ $# -eq 0 ]]; then
    set -- "$top/data/samples/sample-cpu.pb.gz"
  fi
  exec "$top/_build/dev/src/app/embers" "$@"
}

# The whole suite on this system. Writes "passed failed" to $1.
run_suite() {
  local result=$1
  local failed_steps=0
  extra_pass=0 extra_fail=0
  # A build or set-up step that stops the script still leaves a count.
  trap 'echo "0 1" > "$result"; echo "0 passed, 1 failed"' ERR
  local logs=()
  versions

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
  CC=clang setup _build/fuzz -Dfuzzing=true -Dapp=false -Db_lundef=false
  ninja -C _build/fuzz
  # Every crash input kept in tests/fixtures/bad, through every target once
  rm -f _build/fuzz/meson-logs/testlog.json
  meson test -C _build/fuzz --suite fuzz --print-errorlogs --num-processes 2 || failed_steps=$((failed_steps + 1))
  if [[ -f _build/fuzz/meson-logs/testlog.json ]]; then
    logs+=(_build/fuzz/meson-logs/testlog.json)
  fi
  local out
  out=$(mktemp)
  bash tests/fuzz/run-fuzzers.sh _build/fuzz "$fuzz_seconds" | tee "$out" || failed_steps=$((failed_steps + 1))
  tap_counts "$out"

  # 4. The live oracle: fresh Go profiles (not in the repository) against go tool pprof.
  bash tests/oracle/live-oracle.sh _build/ci/src/app/embers | tee "$out" || failed_steps=$((failed_steps + 1))
  tap_counts "$out"

  # 4a. The same profiles' lines (the function details) against go tool pprof -lines.
  bash tests/oracle/live-details-oracle.sh _build/ci/tests/embers-details-dump | tee "$out" || failed_steps=$((failed_steps + 1))
  tap_counts "$out"

  # 4b. Fresh JFR and perf recordings against jfr print and perf report.
  bash tests/oracle/live-formats-oracle.sh _build/ci/src/app/embers | tee "$out" || failed_steps=$((failed_steps + 1))
  tap_counts "$out"

  # 5. The Flatpak manifests, and the app module's build commands as the
  #    manifest runs them (the GNOME runtime cannot be downloaded here).
  { python3 build-aux/check-flatpak.py . && bash build-aux/flatpak-build-check.sh; } | tee "$out" || failed_steps=$((failed_steps + 1))
  tap_counts "$out"
  rm -f "$out"

  count_logs "$result" "$failed_steps" "${logs[@]}"
  trap - ERR
}

# The window tests on the next Debian release (its GTK and libadwaita are the
# current GNOME runtime's). Writes "passed failed" to $1.
run_window_suite() {
  local result=$1
  trap 'echo "0 1" > "$result"; echo "0 passed, 1 failed"' ERR
  extra_pass=0 extra_fail=0
  versions
  local dir=_build/$EMBERS_BUILDROOT
  setup "$dir" -Dwerror=true
  ninja -C "$dir"
  rm -f "$dir/meson-logs/testlog.json"
  local failed_steps=0
  xvfb-run -a -s "-screen 0 1400x900x24" meson test -C "$dir" --suite app --suite data \
    --print-errorlogs --num-processes 2 || failed_steps=1
  # The Flatpak's runtime must be the GNOME release whose GTK and libadwaita
  # these window tests just ran on
  local out
  out=$(mktemp)
  python3 build-aux/check-flatpak.py . --runtime-only \
    --tested "$(pkg-config --modversion gtk4)" "$(pkg-config --modversion libadwaita-1)" \
    | tee "$out" || failed_steps=$((failed_steps + 1))
  tap_counts "$out"
  rm -f "$out"
  count_logs "$result" "$failed_steps" "$dir/meson-logs/testlog.json"
  trap - ERR
}

# Sums meson logs and the TAP steps' counts into "passed failed" in $1
count_logs() {
  local result=$1 failed_steps=$2; shift 2
  local summary counts passed failed
  summary=$(mktemp)
  python3 build-aux/count-results.py "$@" > "$summary"
  cat "$summary"
  counts=$(awk '/^TOTALS/ { print $2, $3 }' "$summary")
  rm -f "$summary"
  passed=$(( ${counts% *} + extra_pass ))
  failed=$(( ${counts#* } + extra_fail ))
  if [[ $failed_steps -gt 0 && $failed -eq 0 ]]; then
    # A step failed without a counted failure (build or runner error).
    failed=$failed_steps
  fi
  echo "$passed $failed" > "$result"
  echo "${EMBERS_BUILDROOT:-host}: ${passed} passed, ${failed} failed"
}

versions() {
  printf 'dev.sh: building on %s: GTK %s, libadwaita %s, GLib %s, libsoup %s, gcc %s\n' \
    "$(. /etc/os-release; echo "$PRETTY_NAME")" \
    "$(pkg-config --modversion gtk4)" "$(pkg-config --modversion libadwaita-1)" \
    "$(pkg-config --modversion glib-2.0)" "$(pkg-config --modversion libsoup-3.0)" \
    "$(gcc -dumpfullversion)"
}

run_tests() {
  mkdir -p _build
  local main_result=_build/results-main.txt next_result=_build/results-next.txt
  rm -f "$main_result" "$next_result"
  local where
  where=$(where_to_build) || exit 1
  local start=$SECONDS

  # The whole suite, natively or in the Debian 13 root
  if [[ $where == root ]]; then
    say "this host's GTK or libadwaita is older than Embers needs: testing in a Debian $main_suite root"
    if ! bash build-aux/buildroot.sh ensure "$main_suite"; then
      echo "0 passed, 1 failed"
      return 1
    fi
    bash build-aux/buildroot.sh run "$main_suite" bash build-aux/dev.sh suite "$main_result" || true
  else
    [[ -n ${EMBERS_BUILDROOT:-} ]] || bash build-aux/install-deps.sh --tests
    run_suite "$main_result" || true
  fi
  [[ -f $main_result ]] || echo "0 1" > "$main_result"
  say "the suite took $((SECONDS - start)) s"

  # The window tests again on the next release. Testing may be broken on a
  # given day: then say so loudly and go on.
  local next_start=$SECONDS
  if [[ ${EMBERS_SKIP_NEXT:-} == 1 ]]; then
    say "EMBERS_SKIP_NEXT=1: the window tests on Debian $next_suite are not run"
  elif command -v apt-get >/dev/null && bash build-aux/buildroot.sh ensure "$next_suite"; then
    bash build-aux/buildroot.sh run "$next_suite" bash build-aux/dev.sh window-suite "$next_result" || true
    [[ -f $next_result ]] || echo "0 1" > "$next_result"
    say "the window tests on $next_suite took $((SECONDS - next_start)) s"
  else
    echo "################################################################" >&2
    echo "# WARNING: no Debian $next_suite build root could be made today:" >&2
    echo "# the window tests on the next GTK and libadwaita did NOT run." >&2
    echo "################################################################" >&2
  fi

  local passed failed p f
  read -r passed failed < "$main_result"
  if [[ -f $next_result ]]; then
    read -r p f < "$next_result"
    passed=$((passed + p)) failed=$((failed + f))
  fi
  echo "${passed} passed, ${failed} failed"
  [[ $failed -eq 0 ]]
}

case "$mode" in
  run)          run_app "$@" ;;
  test)         run_tests ;;
  suite)        run_suite "$1" ;;
  window-suite) run_window_suite "$1" ;;
  shell)
    where=$(where_to_build) || exit 1
    if [[ $where == root ]]; then
      exec bash build-aux/buildroot.sh run "$main_suite" bash
    fi
    exec bash ;;
  *)            echo "usage: $0 run [FILE...] | test | shell" >&2; exit 2 ;;
esac
