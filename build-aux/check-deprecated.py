#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# No deprecated GTK or libadwaita API, run by meson test (TAP, no display):
#
#   check-deprecated.py SRCROOT
#     Templates (ui/**/*.ui) are not seen by the compiler, so a deprecated
#     class there (AdwFlap, GtkShortcutsWindow...) would only warn at run
#     time, if at all. This reads every template and every C file of the
#     app, its widgets and its window tests for the deprecated classes and
#     their functions, and the build files for silenced deprecation
#     warnings (G_GNUC_BEGIN_IGNORE_DEPRECATIONS, -Wno-deprecated...,
#     -Wno-error=deprecated...). It also checks itself: each fixture in
#     tests/fixtures/deprecated must be reported.
#
# The C compiler catches the rest: meson.build builds with
# -Werror=deprecated-declarations.

import os
import re
import sys

# Deprecated in GTK 4.10 (GtkDialog, GtkFileChooser*, GtkStyleContext's
# instance API, GtkEntryCompletion, GtkTreeView & co., GtkInfoBar...) and
# 4.18 (GtkShortcutsWindow & co.), and in libadwaita 1.4-1.6 (AdwFlap,
# AdwSqueezer, AdwLeaflet, AdwViewSwitcherTitle, AdwMessageDialog,
# AdwAboutWindow, AdwPreferencesWindow). GtkSpinner is not deprecated, but
# Embers uses AdwSpinner, as the GNOME guidelines ask.
CLASSES = [
    'AdwFlap', 'AdwSqueezer', 'AdwLeaflet', 'AdwViewSwitcherTitle',
    'AdwMessageDialog', 'AdwAboutWindow', 'AdwPreferencesWindow',
    'GtkDialog', 'GtkMessageDialog', 'GtkAssistant', 'GtkStatusbar',
    'GtkFileChooser', 'GtkFileChooserDialog', 'GtkFileChooserNative',
    'GtkFileChooserWidget', 'GtkNativeDialog',
    'GtkShortcutsWindow', 'GtkShortcutsSection', 'GtkShortcutsGroup',
    'GtkShortcutsShortcut', 'GtkShortcutLabel',
    'GtkStyleContext', 'GtkEntryCompletion',
    'GtkTreeView', 'GtkTreeViewColumn', 'GtkTreeModel', 'GtkTreeStore',
    'GtkTreeSelection', 'GtkListStore', 'GtkCellRenderer', 'GtkCellView',
    'GtkCellArea', 'GtkIconView', 'GtkComboBox', 'GtkComboBoxText',
    'GtkInfoBar', 'GtkSpinner', 'GtkLockButton', 'GtkColorButton',
    'GtkFontButton', 'GtkAppChooserButton', 'GtkAppChooserDialog',
    'GtkVolumeButton',
]

# Their functions and type macros in C: adw_flap_, GTK_TYPE_LIST_STORE...
def snake(name):
    return re.sub(r'(?<!^)(?=[A-Z])', '_', name).lower()


FUNCTIONS = []
for c in CLASSES:
    s = snake(c)
    FUNCTIONS.append(s + '_')
    FUNCTIONS.append(s.upper().replace('GTK_', 'GTK_TYPE_', 1).replace('ADW_', 'ADW_TYPE_', 1) + r'\b')
    FUNCTIONS.append(s.upper() + r'\b')
FUNCTIONS += [
    r'gtk_widget_get_style_context',
    r'gtk_application_window_(get|set)_help_overlay',
    r'gtk_entry_set_completion',
    r'gtk_entry_get_completion',
    r'gtk_widget_show\b', r'gtk_widget_hide\b',
    r'gtk_show_uri\b',
    r'G_GNUC_BEGIN_IGNORE_DEPRECATIONS',
]
# Functions of a deprecated class that are not deprecated themselves
ALLOWED = re.compile(r'gtk_style_context_(add|remove)_provider_for_display')

CLASS_RE = re.compile(r'\b(' + '|'.join(CLASSES) + r')\b')
FUNCTION_RE = re.compile(r'(?<![A-Za-z0-9_])(' + '|'.join(FUNCTIONS) + r')')
UI_RE = re.compile(r'(?:class|parent)="(' + '|'.join(CLASSES) + r')"')
SILENCED_RE = re.compile(r'-Wno-(?:error=)?deprecated|G_GNUC_BEGIN_IGNORE_DEPRECATIONS|'
                         r'GLIB_DISABLE_DEPRECATION_WARNINGS|GDK_DISABLE_DEPRECATION_WARNINGS')


def strip_c(text):
    """Comments and string literals out (line breaks kept)"""
    out = []
    i = 0
    n = len(text)
    while i < n:
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            out.append('""')
            i = j + 1
        elif text[i] == "'":
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == '\\' else 1
            out.append("''")
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return ''.join(out)


def strip_xml_comments(text):
    return re.sub(r'<!--.*?-->', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)


def check_c(path, text):
    found = []
    code = strip_c(text)
    for lineno, line in enumerate(code.split('\n'), 1):
        for m in CLASS_RE.finditer(line):
            found.append((lineno, m.group(1)))
        for m in FUNCTION_RE.finditer(line):
            rest = line[m.start():]
            if ALLOWED.match(rest):
                continue
            found.append((lineno, m.group(1)))
    return found


def check_ui(path, text):
    found = []
    for lineno, line in enumerate(strip_xml_comments(text).split('\n'), 1):
        for m in UI_RE.finditer(line):
            found.append((lineno, m.group(1)))
    return found


def check_build(path, text):
    found = []
    for lineno, line in enumerate(text.split('\n'), 1):
        if line.lstrip().startswith('#'):
            continue
        for m in SILENCED_RE.finditer(line):
            found.append((lineno, m.group(0)))
    return found


def check(path, text):
    if path.endswith('.ui'):
        return check_ui(path, text)
    if path.endswith('.c') or path.endswith('.h'):
        return check_c(path, text)
    return check_build(path, text)


def sources(root):
    dirs = ['ui', 'src/app', 'src/widgets', 'tests/app']
    for d in dirs:
        for top, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if f.endswith(('.ui', '.c', '.h')):
                    yield os.path.join(top, f)
    for top, _, files in os.walk(root):
        rel = os.path.relpath(top, root)
        if rel.startswith(('_build', '.git', 'subprojects', 'build')) or '/_build' in rel:
            continue
        for f in files:
            if f == 'meson.build':
                yield os.path.join(top, f)


def main():
    if len(sys.argv) != 2:
        print('usage: check-deprecated.py SRCROOT', file=sys.stderr)
        return 2
    root = sys.argv[1]
    fixtures = os.path.join(root, 'tests', 'fixtures', 'deprecated')
    results = []

    # Itself first: every fixture is something it must report
    for f in sorted(os.listdir(fixtures)):
        path = os.path.join(fixtures, f)
        with open(path, encoding='utf-8') as fh:
            found = check(path, fh.read())
        results.append((bool(found), 'reports tests/fixtures/deprecated/%s' % f,
                        [] if found else ['nothing reported']))

    for path in sources(root):
        with open(path, encoding='utf-8') as fh:
            found = check(path, fh.read())
        rel = os.path.relpath(path, root)
        results.append((not found, rel, ['%s:%d: %s' % (rel, line, what) for line, what in found]))

    print('TAP version 13')
    print('1..%d' % len(results))
    failed = 0
    for i, (ok, what, notes) in enumerate(results, 1):
        print('%s %d - %s' % ('ok' if ok else 'not ok', i, what))
        for note in notes:
            print('# ' + note)
        failed += not ok
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
