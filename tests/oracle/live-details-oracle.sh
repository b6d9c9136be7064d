#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Makes fresh Go profiles (random workload, as live-oracle.sh) and checks
# that the function details' lines agree with `go tool pprof -top -lines`
# (what -list prints per line) on every line of every function, for every
# sample type. Prints TAP-style lines. Usage: live-details-oracle.sh DUMP_BINARY
set -uo pipefail

dump=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v go >/dev/null; then
  echo "not ok live-details-oracle: go is not installed (install golang-go)"
  exit 1
fi

export GOFLAGS=-mod=mod GOPROXY=off GOCACHE="$work/gocache" GOPATH="$work/gopath"
(cd "$here" && go run . -out "$work") | sed 's/^/# /'
status=0
n=0

check() {
  local file=$1 index=$2 unit=$3 label=$4
  n=$((n + 1))
  go tool pprof -top -lines -nodecount=1000000 -nodefraction=0 -edgefraction=0 \
     -sample_index="$index" ${unit:+-unit=$unit} "$work/$file" > "$work/go.txt" 2> "$work/go.err"
  if ! "$dump" "$work/$file" "$index" > "$work/embers.tsv" 2> "$work/embers.err"; then
    echo "not ok $n - $label: the dump failed: $(cat "$work/embers.err")"
    status=1
    return
  fi
  if python3 "$here/compare-lines.py" "$work/go.txt" "$work/embers.tsv" > "$work/cmp.txt"; then
    echo "ok $n - $label lines agree with go tool pprof ($(tail -1 "$work/cmp.txt" | sed 's/^# //'))"
  else
    echo "not ok $n - $label lines differ from go tool pprof"
    sed 's/^/#   /' "$work/cmp.txt"
    status=1
  fi
}

check live-cpu.pb.gz 0 "" "cpu samples"
check live-cpu.pb.gz 1 ns "cpu nanoseconds"
check live-heap.pb.gz 0 "" "heap alloc_objects"
check live-heap.pb.gz 1 B "heap alloc_space"
check live-heap.pb.gz 3 B "heap inuse_space"

exit $status
