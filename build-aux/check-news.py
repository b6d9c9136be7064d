#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""NEWS and the metainfo's <releases> name the same versions and dates, in
the same order, and the newest is the version meson builds.

usage: check-news.py NEWS METAINFO VERSION
"""

import re
import sys
import xml.etree.ElementTree as ET


def news_releases(path):
    releases = []
    lines = open(path, encoding='utf-8').read().splitlines()
    for i, line in enumerate(lines):
        m = re.fullmatch(r'Embers (\S+)', line)
        if m and i + 1 < len(lines) and re.fullmatch(r'=+', lines[i + 1]):
            date = None
            if i + 2 < len(lines):
                d = re.fullmatch(r'Released: (\d{4}-\d{2}-\d{2})', lines[i + 2])
                date = d.group(1) if d else None
            releases.append((m.group(1), date))
    return releases


def metainfo_releases(path):
    root = ET.parse(path).getroot()
    return [(r.get('version'), r.get('date')) for r in root.iter('release')]


def main():
    news, metainfo, version = sys.argv[1:4]
    a = news_releases(news)
    b = metainfo_releases(metainfo)
    ok = True
    if not a:
        print(f'{news}: no "Embers X.Y.Z" release headings')
        ok = False
    if a != b:
        print(f'NEWS releases {a} differ from the metainfo releases {b}')
        ok = False
    if b and b[0][0] != version:
        print(f'the newest release {b[0][0]} is not the version meson builds ({version})')
        ok = False
    if ok:
        print(f'NEWS and metainfo: {", ".join(v for v, _ in a)}')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
