#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Translation checks, run by meson test (TAP, no display):
#
#   check-potfiles.py potfiles SRCROOT
#     po/POTFILES.in lists every file under src/, ui/ and data/ with
#     translatable strings, each listed file exists, and the list is sorted.
#
#   check-potfiles.py translations SRCROOT [--strict]
#     xgettext extracts a template from POTFILES.in (the keywords of meson's
#     glib preset); every language in po/LINGUAS has a .po that
#     `msgfmt --check` accepts; each is merged with the fresh template and
#     its translated, fuzzy and untranslated counts are reported.  With
#     --strict a language with fuzzy or untranslated messages fails.

import os
import re
import subprocess
import sys
import tempfile

# What makes a source file translatable
C_PATTERN = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|Q_)\(|ngettext\s*\(|dpgettext2?\s*\(|dgettext\s*\(')
UI_PATTERN = re.compile(r'translatable="yes"')
DATA_PATTERN = re.compile(r'^(Name|Comment|GenericName|Keywords)=|<summary>|<name>|<description>|<comment>', re.M)

# xgettext keywords of meson's i18n preset 'glib'
GLIB_KEYWORDS = [
    '--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
    '--keyword=g_dcgettext:2', '--keyword=g_dngettext:2,3', '--keyword=g_dpgettext2:2c,3',
    '--flag=N_:1:pass-c-format', '--flag=C_:2:pass-c-format', '--flag=NC_:2:pass-c-format',
    '--flag=g_dngettext:2:pass-c-format', '--flag=g_strdup_printf:1:c-format',
    '--flag=g_string_printf:2:c-format', '--flag=g_string_append_printf:2:c-format',
    '--flag=g_error_new:3:c-format', '--flag=g_set_error:4:c-format',
    '--flag=g_markup_printf_escaped:1:c-format', '--flag=g_log:3:c-format',
    '--flag=g_print:1:c-format', '--flag=g_printerr:1:c-format', '--flag=g_printf:1:c-format',
    '--flag=g_fprintf:2:c-format', '--flag=g_sprintf:2:c-format', '--flag=g_snprintf:3:c-format',
]

n_test = 0
failed = False


def ok(good, what, details=()):
    global n_test, failed
    n_test += 1
    print(('ok' if good else 'not ok') + ' %d - %s' % (n_test, what))
    for line in details:
        print('# ' + line)
    if not good:
        failed = True


def read_list(path):
    with open(path, encoding='utf-8') as f:
        return [l.strip() for l in f if l.strip() and not l.lstrip().startswith('#')]


def translatable(root, rel):
    try:
        with open(os.path.join(root, rel), encoding='utf-8') as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        return False
    if rel.endswith('.c'):
        # Comments may mention _() without marking anything
        text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
        return C_PATTERN.search(text) is not None
    if rel.endswith('.ui'):
        return UI_PATTERN.search(text) is not None
    if rel.startswith('data/') and rel.endswith(('.in', '.xml')):
        # A D-Bus service's Name= is a bus name, not text
        if '[D-BUS Service]' in text:
            return False
        return DATA_PATTERN.search(text) is not None
    return False


def candidates(root):
    for top in ('src', 'ui', 'data'):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                if rel.endswith(('.c', '.ui')) or (top == 'data' and rel.endswith(('.in', '.xml'))):
                    yield rel


def check_potfiles(root):
    listed = read_list(os.path.join(root, 'po', 'POTFILES.in'))
    want = sorted(rel for rel in candidates(root) if translatable(root, rel))

    missing = [rel for rel in want if rel not in listed]
    ok(not missing, 'every file with translatable strings is in po/POTFILES.in',
       ['missing: ' + rel for rel in missing])

    gone = [rel for rel in listed if not os.path.isfile(os.path.join(root, rel))]
    ok(not gone, 'every file in po/POTFILES.in exists', ['does not exist: ' + rel for rel in gone])

    bare = [rel for rel in listed if rel not in gone and not translatable(root, rel)]
    ok(not bare, 'every file in po/POTFILES.in has translatable strings',
       ['nothing to translate: ' + rel for rel in bare])

    ok(listed == sorted(listed), 'po/POTFILES.in is sorted',
       ['first out of order: ' + next((b for a, b in zip(listed, listed[1:]) if b < a), '')]
       if listed != sorted(listed) else [])

    dups = sorted({rel for rel in listed if listed.count(rel) > 1})
    ok(not dups, 'po/POTFILES.in lists each file once', ['twice: ' + rel for rel in dups])


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def po_counts(po):
    # msgfmt --statistics: "N translated messages, M fuzzy translations, K untranslated messages."
    r = run(['msgfmt', '--statistics', '-o', os.devnull, po], env=dict(os.environ, LC_ALL='C'))
    counts = {'translated': 0, 'fuzzy': 0, 'untranslated': 0}
    for n, what in re.findall(r'(\d+) (translated|fuzzy|untranslated)', r.stderr):
        counts[what] = int(n)
    return counts


def check_translations(root, strict):
    po_dir = os.path.join(root, 'po')
    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, 'embers.pot')
        r = run(['xgettext', '--package-name=embers', '--from-code=UTF-8', '--add-comments',
                 '--directory=' + root, '--files-from=' + os.path.join(po_dir, 'POTFILES.in'),
                 '--output=' + pot] + GLIB_KEYWORDS, env=dict(os.environ, LC_ALL='C'))
        warnings = [l for l in r.stderr.splitlines() if 'warning' in l]
        ok(r.returncode == 0 and os.path.isfile(pot), 'xgettext extracts a template from POTFILES.in',
           r.stderr.splitlines()[-5:])
        if r.returncode != 0:
            return
        ok(not warnings, 'xgettext has no warnings (whole msgids, valid formats)', warnings[:10])
        with open(pot, encoding='utf-8') as f:
            n_msgids = len(re.findall(r'^msgid ', f.read(), re.M)) - 1
        ok(n_msgids > 100, 'the template has messages (%d)' % n_msgids)

        linguas = read_list(os.path.join(po_dir, 'LINGUAS'))
        langs = [w for line in linguas for w in line.split()]
        ok(langs == sorted(langs) and len(langs) > 0, 'po/LINGUAS names languages, sorted: ' + ' '.join(langs))

        for lang in langs:
            po = os.path.join(po_dir, lang + '.po')
            r = run(['msgfmt', '--check', '-o', os.devnull, po], env=dict(os.environ, LC_ALL='C'))
            ok(r.returncode == 0, '%s.po passes msgfmt --check' % lang, r.stderr.splitlines()[:10])

            merged = os.path.join(tmp, lang + '.po')
            r = run(['msgmerge', '--quiet', '--no-fuzzy-matching', '-o', merged, po, pot])
            ok(r.returncode == 0, '%s.po merges with the current template' % lang, r.stderr.splitlines()[:5])
            if r.returncode != 0:
                continue
            counts = po_counts(merged)
            total = counts['translated'] + counts['fuzzy'] + counts['untranslated']
            summary = '%s: %d of %d translated, %d fuzzy, %d untranslated' % (
                lang, counts['translated'], total, counts['fuzzy'], counts['untranslated'])
            complete = counts['fuzzy'] == 0 and counts['untranslated'] == 0
            if strict:
                ok(complete, summary)
            else:
                ok(True, summary + ('' if complete else ' (run ninja embers-update-po and translate)'))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ('potfiles', 'translations'):
        print('usage: check-potfiles.py potfiles|translations SRCROOT [--strict]', file=sys.stderr)
        return 2
    root = sys.argv[2]
    if sys.argv[1] == 'potfiles':
        check_potfiles(root)
    else:
        check_translations(root, '--strict' in sys.argv[3:])
    print('1..%d' % n_test)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
