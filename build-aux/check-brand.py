#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# check-brand.py METAINFO ICON_SVG [MIN_RATIO]
#
# The metainfo's brand colours (light and dark) stand out from the icon:
# each has at least MIN_RATIO (default 1.5) WCAG contrast with every stop of
# the flame's outline gradient (its tip, middle and base), so a store banner
# in that colour shows the whole flame. TAP output.
import re
import sys
import xml.etree.ElementTree as ET


def luminance(hex_colour):
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def main():
    metainfo, icon = sys.argv[1], sys.argv[2]
    minimum = float(sys.argv[3]) if len(sys.argv) > 3 else 1.5
    colours = {c.get('scheme_preference'): c.text.strip()
               for c in ET.parse(metainfo).getroot().iter('color')}
    svg = ET.parse(icon).getroot()
    ns = {'svg': 'http://www.w3.org/2000/svg'}
    outline = svg.find(".//svg:linearGradient[@id='outer']", ns)
    stops = [s.get('stop-color') for s in outline.findall('svg:stop', ns)]
    n = 0
    failed = False
    for scheme in ('light', 'dark'):
        n += 1
        colour = colours.get(scheme)
        if colour is None or not re.fullmatch(r'#[0-9a-fA-F]{6}', colour):
            print(f'not ok {n} a {scheme} brand colour')
            failed = True
            continue
        ratios = [contrast(colour, stop) for stop in stops]
        worst = min(ratios)
        detail = ', '.join(f'{stop} {r:.2f}' for stop, r in zip(stops, ratios))
        status = 'ok' if worst >= minimum else 'not ok'
        failed |= worst < minimum
        print(f'{status} {n} {scheme} {colour} against the flame: {detail} (at least {minimum})')
    print(f'1..{n}')
    return 1 if failed else 0


sys.exit(main())
