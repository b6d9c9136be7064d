#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Rebuilds the Go pprof fixtures in tests/fixtures/go/ and the oracle output
# that tests/test-oracle.c compares the top table with. Run it by hand after
# changing main.go (the tests never run it); commit what it writes:
#
#   <name>.pb.gz       the profile, written by runtime/pprof (main.go)
#   <name>.top<N>.txt  go tool pprof -top for sample type N, raw integer values
#   <name>.tags<N>.txt go tool pprof -tags for sample type N (CPU profiles;
#                      the heap's numeric "bytes" labels print only scaled)
#   <name>.meta.txt    sample types, period, time and default type, as go
#                      reads them
#
# Needs Debian's golang-go (Go 1.19); standard library only, no downloads.
# With --oracle-only, keeps the profiles and rewrites only the text files.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$here/../fixtures/go
names=(cpu-labels heap cpu-inlined cpu-recursion)

export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local

mkdir -p "$out"
if [[ ${1-} != --oracle-only ]]; then
  (cd "$here" && go run . -out "$out")
fi

# Every node, however small (the defaults drop nodes under 0.5% of the
# total), no local symbolization (Go profiles carry their function names).
flags=(-top -nodecount=100000 -nodefraction=0 -edgefraction=0 -symbolize=none)

for name in "${names[@]}"; do
  file=$out/$name.pb.gz
  rm -f "$out/$name".top*.txt "$out/$name".tags*.txt
  raw=$(TZ=UTC go tool pprof -symbolize=none -raw "$file")
  # The line after "Samples:" lists the sample types as type/unit.
  types=$(printf '%s\n' "$raw" | sed -n '/^Samples:$/{n;p;q}')
  read -r -a types <<< "$types"
  {
    echo "sample_types: ${types[*]}"
    printf '%s\n' "$raw" | sed -n 's/^PeriodType: /period_type: /p; s/^Period: /period: /p'
    # "Time: 2026-11-22 18:05:00.218264851 +0000 UTC" -> nanoseconds
    time=$(printf '%s\n' "$raw" | sed -n 's/^Time: \(.*\) UTC$/\1/p')
    echo "time_nanos: $(date -u -d "$time" +%s%N)"
    # go's choice when -sample_index is not given: the file's
    # default_sample_type, else the last sample type.
    go tool pprof "${flags[@]}" -nodecount=1 "$file" | sed -n 's/^Type: /default: /p'
  } > "$out/$name.meta.txt"

  for i in "${!types[@]}"; do
    # Print values in the sample type's own unit, as whole numbers
    # ("1360000000ns", "4456448B"); counts print without a unit.
    case ${types[$i]#*/} in
      nanoseconds) unit=(-unit=ns) ;;
      bytes) unit=(-unit=B) ;;
      count) unit=() ;;
      *) echo "regen.sh: $name: no raw unit known for ${types[$i]}" >&2; exit 1 ;;
    esac
    go tool pprof "${flags[@]}" "${unit[@]}" -sample_index="$i" "$file" \
      > "$out/$name.top$i.txt"
    if [[ $name == cpu-* ]]; then
      go tool pprof -symbolize=none -tags "${unit[@]}" -sample_index="$i" "$file" \
        > "$out/$name.tags$i.txt"
    fi
  done
  echo "$name: ${#types[@]} sample types ($(du -b "$file" | cut -f1) bytes)"
done
