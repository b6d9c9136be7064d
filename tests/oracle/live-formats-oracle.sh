#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Fresh recordings (not in the repository) by the real tools, against the
# tools' own reports:
#
#  - a JFR recording of tests/fixtures/jfr/Workload.java by the JDK at
#    hand, against `jfr print --json` (jfr-oracle.py), every sample type,
#    self and total per function;
#  - a perf recording of tests/fixtures/perf/workload.c with call chains,
#    against `perf report --no-children` self periods (skipped, with a
#    reason, where perf may not record: perf_event_paranoid, containers).
#
# Prints TAP-style "ok"/"not ok" lines. Usage: live-formats-oracle.sh EMBERS
set -uo pipefail

embers=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fixtures=$here/../fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
n=0

# embers --top for one sample type against "self\ttotal\tname" rows
compare_tsv() {
  local file=$1 type=$2 expected=$3 label=$4
  n=$((n + 1))
  if ! "$embers" --top --format=tsv --sample-type="$type" "$file" > "$work/ours.tsv" 2> "$work/err"; then
    echo "not ok $n - $label: embers failed: $(cat "$work/err")"
    status=1
    return
  fi
  if python3 - "$expected" "$work/ours.tsv" <<'PY'
import sys
def rows(path, self_only=False):
    out = {}
    for line in open(path, encoding="utf-8"):
        s, t, name = line.rstrip("\n").split("\t", 2)
        if int(s) or int(t):
            out[name] = (int(s), int(t))
    return out
want, got = rows(sys.argv[1]), rows(sys.argv[2])
bad = [n for n in set(want) | set(got) if want.get(n) != got.get(n)]
for name in bad[:10]:
    print(f"#   {name}: expected {want.get(name)}, embers {got.get(name)}")
sys.exit(1 if bad else 0)
PY
  then
    echo "ok $n - $label ($(wc -l < "$expected") functions agree)"
  else
    echo "not ok $n - $label"
    status=1
  fi
}

# JFR
if command -v java > /dev/null && command -v jfr > /dev/null && command -v javac > /dev/null; then
  (cd "$work" && javac -d . "$fixtures/jfr/Workload.java" &&
   jfr configure --input profile +jdk.ObjectAllocationInNewTLAB#enabled=true \
     +jdk.ObjectAllocationOutsideTLAB#enabled=true --output alloc.jfc > /dev/null &&
   java -XX:StartFlightRecording:filename="$work/live.jfr",settings="$work/alloc.jfc" -cp . Workload 3 > /dev/null) 2> "$work/java.err"
  if [[ -s $work/live.jfr ]] && python3 "$fixtures/jfr/jfr-oracle.py" "$work/live.jfr" "$work/live" > /dev/null; then
    for tsv in "$work"/live.*.tsv; do
      type=${tsv#"$work/live."}
      type=${type%.tsv}
      compare_tsv "$work/live.jfr" "$type" "$tsv" "JFR $type agrees with jfr print"
    done
  else
    n=$((n + 1))
    echo "not ok $n - JFR: could not record: $(tail -3 "$work/java.err")"
    status=1
  fi
else
  n=$((n + 1))
  echo "not ok $n - JFR: java, javac or jfr is not installed (install openjdk-21-jdk-headless)"
  status=1
fi

# perf
if command -v perf > /dev/null && command -v gcc > /dev/null; then
  gcc -O1 -fno-optimize-sibling-calls -fno-inline -fno-omit-frame-pointer -g \
    -o "$work/workload" "$fixtures/perf/workload.c"
  if perf record -N -F 999 -g -o "$work/perf.data" "$work/workload" 1 > /dev/null 2> "$work/perf.err"; then
    perf script -i "$work/perf.data" > "$work/live.perf.txt" 2> /dev/null
    perf report -i "$work/perf.data" --stdio --no-children -g none --sort dso,sym \
      --show-total-period 2> /dev/null > "$work/report.txt"
    # perf report's self periods per symbol, named as Embers names them
    python3 - "$work/report.txt" > "$work/expected.tsv" <<'PY'
import collections, re, sys
self = collections.Counter()
for line in open(sys.argv[1]):
    m = re.match(r"\s*[\d.]+%\s+(\d+)\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$", line)
    if not m or line.startswith("#"):
        continue
    period, dso, kind, sym = m.groups()
    name = f"[{dso}]" if sym.startswith("0x") else sym
    if kind == "k":
        name += "_[k]"
    self[name] += int(period)
for name, s in self.items():
    print(f"{s}\t0\t{name}")
PY
    n=$((n + 1))
    "$embers" --top --format=tsv "$work/live.perf.txt" > "$work/ours.tsv" 2> "$work/err"
    if python3 - "$work/expected.tsv" "$work/ours.tsv" <<'PY'
import sys
want = {l.split("\t", 2)[2].rstrip("\n"): int(l.split("\t")[0]) for l in open(sys.argv[1])}
got = {}
for l in open(sys.argv[2], encoding="utf-8"):
    s, t, name = l.rstrip("\n").split("\t", 2)
    if int(s):
        got[name] = int(s)
bad = [n for n in set(want) | set(got) if want.get(n, 0) != got.get(n, 0)]
for name in bad[:10]:
    print(f"#   {name}: perf report {want.get(name)}, embers {got.get(name)}")
sys.exit(1 if bad else 0)
PY
    then
      echo "ok $n - perf script self periods agree with perf report ($(wc -l < "$work/expected.tsv") symbols)"
    else
      echo "not ok $n - perf script self periods differ from perf report"
      status=1
    fi
  else
    n=$((n + 1))
    echo "ok $n - perf # SKIP perf cannot record here: $(tail -1 "$work/perf.err")"
  fi
else
  n=$((n + 1))
  echo "not ok $n - perf: perf or gcc is not installed (install linux-perf)"
  status=1
fi

exit $status
