#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Counts real test results from meson's testlog.json files.

TAP tests count one result per "ok"/"not ok" line; a TAP program that
failed without reporting a failing case (a crash, a timeout) counts one
more failure. Other tests count as one result each. Prints a summary per
log and returns (passed, failed, skipped).
"""
import json
import re
import sys

TAP_LINE = re.compile(r"^(not ok|ok)\b(.*)$")


def count(path):
    passed = failed = skipped = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            t = json.loads(line)
            result = t.get("result", "")
            if result == "SKIP":
                skipped += 1
                continue
            out = t.get("stdout") or ""
            tap_pass = tap_fail = tap_skip = 0
            is_tap = t.get("protocol") == "tap" or re.search(r"^1\.\.\d+", out, re.M)
            if is_tap:
                for l in out.splitlines():
                    m = TAP_LINE.match(l.strip())
                    if not m:
                        continue
                    if "# SKIP" in m.group(2).upper():
                        tap_skip += 1
                    elif m.group(1) == "ok":
                        tap_pass += 1
                    else:
                        tap_fail += 1
                if result not in ("OK", "EXPECTEDFAIL") and tap_fail == 0:
                    tap_fail += 1
                    print(f"  {t.get('name')}: {result} without a failing case (crash or timeout)")
                passed += tap_pass
                failed += tap_fail
                skipped += tap_skip
            else:
                if result in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                else:
                    failed += 1
            if result not in ("OK", "EXPECTEDFAIL", "SKIP"):
                print(f"  FAILED: {t.get('name')} ({result})")
    return passed, failed, skipped


def main(argv):
    total_p = total_f = total_s = 0
    for path in argv[1:]:
        p, f, s = count(path)
        print(f"{path}: {p} passed, {f} failed, {s} skipped")
        total_p += p
        total_f += f
        total_s += s
    print(f"TOTALS {total_p} {total_f} {total_s}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
