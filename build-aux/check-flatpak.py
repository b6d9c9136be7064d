#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the Flatpak manifests without the GNOME runtime (which these
machines cannot download): valid JSON, ids that match the desktop file,
metainfo and GSettings schema, a current runtime, sandbox holes limited to
what Embers needs, and every module source pinned. Prints TAP lines.

Usage: check-flatpak.py SOURCE_ROOT
"""
import json
import re
import sys
from pathlib import Path

ALLOWED_FINISH_ARGS = {
    "--share=network",
    "--share=ipc",
    "--socket=wayland",
    "--socket=fallback-x11",
    "--device=dri",
}

n = 0
failed = 0


def check(ok, what, detail=""):
    global n, failed
    n += 1
    if ok:
        print(f"ok {n} - {what}")
    else:
        failed += 1
        print(f"not ok {n} - {what}" + (f": {detail}" if detail else ""))


def sources_pinned(module):
    problems = []
    for src in module.get("sources", []):
        kind = src.get("type")
        if kind in ("archive", "file"):
            if not re.fullmatch(r"[0-9a-f]{64}", src.get("sha256", "")):
                problems.append(f"{module['name']}: {kind} without sha256")
            if not src.get("url", "").startswith("https://"):
                problems.append(f"{module['name']}: {kind} not fetched over https")
        elif kind == "git":
            if not re.fullmatch(r"[0-9a-f]{40}", src.get("commit", "")):
                problems.append(f"{module['name']}: git source without a commit")
        elif kind == "dir":
            if module["name"] != "embers":
                problems.append(f"{module['name']}: a dir source outside the app")
        else:
            problems.append(f"{module['name']}: unexpected source type {kind}")
    return problems


def main():
    root = Path(sys.argv[1])
    manifests = {
        "io.github.emberslab.Embers": root / "flatpak/io.github.emberslab.Embers.json",
        "io.github.emberslab.Embers.Devel": root / "flatpak/io.github.emberslab.Embers.Devel.json",
    }
    desktop = (root / "data/io.github.emberslab.Embers.desktop.in")
    metainfo = (root / "data/io.github.emberslab.Embers.metainfo.xml.in")
    schema = (root / "data/io.github.emberslab.Embers.gschema.xml.in")
    for app_id, path in manifests.items():
        try:
            m = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            check(False, f"{path.name} is valid JSON", str(e))
            continue
        check(True, f"{path.name} is valid JSON")
        check(m.get("id") == app_id, f"{path.name} id is {app_id}", m.get("id", ""))
        check(m.get("runtime") == "org.gnome.Platform" and m.get("sdk") == "org.gnome.Sdk",
              f"{path.name} uses the GNOME runtime and SDK")
        try:
            version_ok = int(m.get("runtime-version", "0")) >= 49
        except ValueError:
            version_ok = False
        check(version_ok, f"{path.name} runtime is GNOME 49 or newer", m.get("runtime-version", ""))
        check(m.get("command") == "embers", f"{path.name} runs embers")
        extra = set(m.get("finish-args", [])) - ALLOWED_FINISH_ARGS
        check(not extra, f"{path.name} asks only for network, ipc, wayland, fallback-x11, dri",
              ", ".join(sorted(extra)))
        check(not any("filesystem" in a for a in m.get("finish-args", [])),
              f"{path.name} has no filesystem access (files come through the portal)")
        problems = []
        for module in m.get("modules", []):
            if isinstance(module, str):
                problems.append(f"external module file {module}")
                continue
            problems += sources_pinned(module)
        check(not problems, f"{path.name} pins every module source", "; ".join(problems))
        app = [mod for mod in m.get("modules", []) if isinstance(mod, dict) and mod.get("name") == "embers"]
        check(len(app) == 1 and app[0].get("buildsystem") == "meson" and app[0].get("run-tests") is True,
              f"{path.name} builds the app with meson and runs its tests")
        if app:
            devel = app_id.endswith(".Devel")
            check(("-Ddevelopment=true" in app[0].get("config-opts", [])) == devel,
                  f"{path.name} {'is' if devel else 'is not'} a development build")

    # The data files are templated on the app id; the base id must match.
    for path in (desktop, metainfo, schema):
        check(path.exists(), f"{path.relative_to(root)} exists")
    if metainfo.exists():
        text = metainfo.read_text(encoding="utf-8")
        check("@app_id@" in text or "@APP_ID@" in text or "io.github.emberslab.Embers" in text,
              "the metainfo id follows the app id")
    if schema.exists():
        text = schema.read_text(encoding="utf-8")
        check("@app_id@" in text or "@APP_ID@" in text or "io.github.emberslab.Embers" in text,
              "the schema id follows the app id")
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
