#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the Flatpak manifests without the GNOME runtime (which these
machines cannot download): valid JSON, a current runtime, sandbox holes
limited to what Embers needs, every module source pinned, the checkout
copied without build trees, tests beyond the core suite; and, configured
with meson as each manifest configures it, that the generated desktop file,
metainfo (id, launchable, binary), GSettings schema (id and path), icons,
translations and licence all carry and install under the manifest's id.
Prints TAP lines.

The runtime must be released, not past its end of life, the newest one
out, and (with --tested) have the GTK and libadwaita versions that CI ran
the window tests on.

Usage: check-flatpak.py SOURCE_ROOT [--runtime-only] [--tested GTK_VERSION ADW_VERSION]
"""
import configparser
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
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

# The GNOME runtimes: GTK and libadwaita of each, as GNOME's own build
# metadata pins them (gnome-build-meta, branch gnome-NN, files
# elements/sdk/gtk.bst and elements/sdk/libadwaita.bst), and the release day.
GNOME_RUNTIMES = {
    "47": ("4.16", "1.6", datetime.date(2024, 9, 18)),
    "48": ("4.18", "1.7", datetime.date(2025, 3, 19)),
    "49": ("4.20", "1.8", datetime.date(2025, 9, 17)),
    "50": ("4.22", "1.9", datetime.date(2026, 3, 18)),
    "51": ("4.24", "1.10", datetime.date(2026, 9, 16)),
}


def release_day(version):
    """GNOME releases in March (even numbers) and September (odd ones)"""
    if version in GNOME_RUNTIMES:
        return GNOME_RUNTIMES[version][2]
    v = int(version)
    if v % 2 == 0:
        return datetime.date(2001 + v // 2, 3, 15)
    return datetime.date(2000 + (v + 1) // 2, 9, 15)


def end_of_life(version):
    """A GNOME runtime is supported until the release after the next one:
    only the two newest stable runtimes get updates"""
    return release_day(str(int(version) + 2))


def runtime_problems(version, today, tested=None):
    """Why the runtime @version cannot ship on @today (empty when it can).
    @tested is the (GTK, libadwaita) pair CI ran the window tests on."""
    try:
        v = int(version)
    except (TypeError, ValueError):
        return [f"runtime-version {version!r} is not a GNOME release number"]
    problems = []
    if today >= end_of_life(version):
        problems.append(f"GNOME {v} is past its end of life ({end_of_life(version)})")
    if release_day(version) > today:
        problems.append(f"GNOME {v} is not released yet ({release_day(version)})")
    if version not in GNOME_RUNTIMES:
        problems.append(f"GNOME {v}'s GTK and libadwaita are not in the table (add them from gnome-build-meta)")
    elif tested is not None:
        gtk, adw, _ = GNOME_RUNTIMES[version]
        tgtk = ".".join(tested[0].split(".")[:2])
        tadw = ".".join(tested[1].split(".")[:2])
        if (gtk, adw) != (tgtk, tadw):
            problems.append(f"GNOME {v} has GTK {gtk} and libadwaita {adw}, "
                            f"CI tests GTK {tgtk} and libadwaita {tadw}")
    following = str(int(max(GNOME_RUNTIMES, key=int)) + 1)
    if release_day(following) <= today:
        problems.append(f"GNOME {following} should be out by now: add it to the table and move up")
    # the newest released runtime that has not ended
    newest = max((k for k in GNOME_RUNTIMES if release_day(k) <= today), key=int)
    if v < int(newest):
        problems.append(f"GNOME {newest} is out; move up from {v}")
    return problems


def today():
    if os.environ.get("EMBERS_TODAY"):
        return datetime.date.fromisoformat(os.environ["EMBERS_TODAY"])
    return datetime.date.today()


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


def check_generated(root, app_id, manifest, app):
    """Configures the project as @app does (its meson options), builds the
    data files and reads them, and asks meson where things install"""
    name = f"{app_id}: generated files"
    if shutil.which("meson") is None or shutil.which("ninja") is None:
        print(f"ok {n + 1} - {name} # SKIP no meson or ninja")
        globals()["n"] += 1
        return
    opts = [o for o in app.get("config-opts", []) if o.startswith("-D")]
    with tempfile.TemporaryDirectory(prefix="embers-flatpak-ids-") as build:
        setup = subprocess.run(["meson", "setup", build, str(root), "--prefix=/app"] + opts,
                               capture_output=True, text=True)
        check(setup.returncode == 0, f"{app_id}: meson configures with {' '.join(opts)}",
              setup.stdout[-500:] + setup.stderr[-500:])
        if setup.returncode != 0:
            return
        data = Path(build) / "data"
        targets = [f"data/{app_id}.desktop", f"data/{app_id}.metainfo.xml"]
        built = subprocess.run(["ninja", "-C", build] + targets, capture_output=True, text=True)
        check(built.returncode == 0, f"{app_id}: the desktop file and metainfo build",
              built.stdout[-500:] + built.stderr[-500:])

        desktop = data / f"{app_id}.desktop"
        if desktop.exists():
            entry = configparser.ConfigParser(interpolation=None, strict=False)
            entry.optionxform = str
            entry.read(desktop, encoding="utf-8")
            d = entry["Desktop Entry"] if entry.has_section("Desktop Entry") else {}
            check(d.get("Icon") == app_id, f"{app_id}: the desktop file's icon is {app_id}",
                  d.get("Icon", ""))
            check(d.get("Exec", "").split(" ")[0] == manifest.get("command"),
                  f"{app_id}: the desktop file runs the manifest's command", d.get("Exec", ""))
        else:
            check(False, f"{app_id}: {desktop.name} is generated")

        metainfo = data / f"{app_id}.metainfo.xml"
        if metainfo.exists():
            comp = ET.parse(metainfo).getroot()
            launchable = comp.find("launchable[@type='desktop-id']")
            binary = comp.find("provides/binary")
            check(comp.findtext("id") == app_id, f"{app_id}: the metainfo id is {app_id}",
                  comp.findtext("id") or "")
            check(launchable is not None and launchable.text == f"{app_id}.desktop",
                  f"{app_id}: the metainfo launches {app_id}.desktop",
                  launchable.text if launchable is not None else "")
            check(binary is not None and binary.text == manifest.get("command"),
                  f"{app_id}: the metainfo provides the manifest's command",
                  binary.text if binary is not None else "")
            icon = comp.find("icon")
            check(icon is None or (icon.get("type") == "stock" and icon.text == app_id),
                  f"{app_id}: the metainfo's icon, if any, is {app_id}")
        else:
            check(False, f"{app_id}: {metainfo.name} is generated")

        schema = data / f"{app_id}.gschema.xml"
        if schema.exists():
            s = ET.parse(schema).getroot().find("schema")
            want_path = "/" + app_id.replace(".", "/") + "/"
            check(s is not None and s.get("id") == app_id and s.get("path") == want_path,
                  f"{app_id}: the schema id is {app_id}, its path {want_path}",
                  f"{s.get('id')} {s.get('path')}" if s is not None else "")
        else:
            check(False, f"{app_id}: {schema.name} is generated")

        introspect = subprocess.run(["meson", "introspect", "--installed", build],
                                    capture_output=True, text=True)
        installed = set(json.loads(introspect.stdout).values()) if introspect.returncode == 0 else set()
        for f in (f"/app/share/applications/{app_id}.desktop",
                  f"/app/share/metainfo/{app_id}.metainfo.xml",
                  f"/app/share/glib-2.0/schemas/{app_id}.gschema.xml",
                  f"/app/share/icons/hicolor/scalable/apps/{app_id}.svg",
                  f"/app/share/icons/hicolor/symbolic/apps/{app_id}-symbolic.svg",
                  f"/app/share/licenses/{app_id}/COPYING",
                  f"/app/share/mime/packages/{app_id}.xml",
                  f"/app/share/dbus-1/services/{app_id}.service",
                  "/app/share/man/man1/embers.1",
                  "/app/share/locale/de/LC_MESSAGES/embers.mo",
                  f"/app/bin/{manifest.get('command')}"):
            check(f in installed, f"{app_id}: installs {f}")


def self_test():
    """The runtime rule itself, on fixed days"""
    day = datetime.date(2026, 11, 25)
    check(any("end of life" in p for p in runtime_problems("49", day)),
          "an end-of-life runtime is refused (GNOME 49 on 2026-11-25)")
    check(any("end of life" in p for p in runtime_problems("48", datetime.date(2026, 3, 18))),
          "a runtime ends on the day the release after next comes out (GNOME 48, 2026-03-18)")
    check(not runtime_problems("51", day, ("4.24.1", "1.10.0")),
          "GNOME 51 with GTK 4.24 and libadwaita 1.10 is accepted on 2026-11-25")
    check(any("CI tests" in p for p in runtime_problems("51", day, ("4.22.0", "1.9.1"))),
          "a runtime whose GTK CI did not test is refused")
    check(any("move up" in p for p in runtime_problems("50", day)),
          "an older runtime is refused once a newer one is out (GNOME 50 after 51)")
    check(any("not released" in p for p in runtime_problems("53", day)),
          "an unreleased runtime is refused")


# pkg-config modules the GNOME runtime (org.gnome.Platform) ships; any
# other one Embers needs is built as a module of the manifest
GNOME_RUNTIME_PKGCONFIG = {
    "gtk4", "libadwaita-1", "glib-2.0", "gio-2.0", "libsoup-3.0", "json-glib-1.0",
    "libsecret-1", "zlib", "cairo", "pangocairo", "gtksourceview-5",
}


def pkgconfig_modules(root):
    """The pkg-config names in build-aux/packages.sh's embers_pkgconfig"""
    text = (root / "build-aux/packages.sh").read_text(encoding="utf-8")
    block = re.search(r"embers_pkgconfig=\((.*?)\)", text, re.S)
    return [m.split()[0] for m in re.findall(r'"([^"]+)"', block.group(1))] if block else []


def main():
    args = sys.argv[1:]
    tested = None
    if "--tested" in args:
        i = args.index("--tested")
        tested = (args[i + 1], args[i + 2])
        del args[i:i + 3]
    runtime_only = "--runtime-only" in args
    if runtime_only:
        args.remove("--runtime-only")
    root = Path(args[0])
    self_test()
    if runtime_only:
        # Only the runtimes of the manifests against what CI tested
        for path in sorted((root / "flatpak").glob("*.json")):
            m = json.loads(path.read_text(encoding="utf-8"))
            problems = runtime_problems(m.get("runtime-version"), today(), tested)
            check(not problems, f"{path.name} runtime GNOME {m.get('runtime-version')} has the "
                  f"GTK and libadwaita CI tested", "; ".join(problems))
        print(f"1..{n}")
        return 1 if failed else 0
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
        problems = runtime_problems(m.get("runtime-version"), today(), tested)
        check(not problems, f"{path.name} runtime GNOME {m.get('runtime-version')} is current and supported",
              "; ".join(problems))
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
        built = {mod.get("name") for mod in m.get("modules", []) if isinstance(mod, dict)}
        missing = [dep for dep in pkgconfig_modules(root)
                   if dep not in GNOME_RUNTIME_PKGCONFIG and dep not in built and dep.removeprefix("lib") not in built]
        check(not missing, f"{path.name} has every library Embers needs (in the runtime or built)",
              ", ".join(missing))
        app = [mod for mod in m.get("modules", []) if isinstance(mod, dict) and mod.get("name") == "embers"]
        check(len(app) == 1 and app[0].get("buildsystem") == "meson" and app[0].get("run-tests") is True,
              f"{path.name} builds the app with meson and runs its tests")
        if app:
            devel = app_id.endswith(".Devel")
            check(("-Ddevelopment=true" in app[0].get("config-opts", [])) == devel,
                  f"{path.name} {'is' if devel else 'is not'} a development build")
            dirs = [s for s in app[0].get("sources", []) if s.get("type") == "dir"]
            skipped = set(dirs[0].get("skip", [])) if dirs else set()
            check(bool(dirs) and {"_build", ".git"} <= skipped,
                  f"{path.name} copies the checkout without _build and .git",
                  ", ".join(sorted(skipped)))
            commands = " ".join(app[0].get("test-commands", []))
            suites = set(re.findall(r"--suite[ =](\S+)", commands))
            check({"core", "data"} <= suites and "app" not in suites,
                  f"{path.name} runs the display-free suites (core, data…), not the window tests",
                  ", ".join(sorted(suites)))
            check_generated(root, app_id, m, app[0])

    # The data files are templated on the app id (checked built above)
    for path in (desktop, metainfo, schema):
        check(path.exists(), f"{path.relative_to(root)} exists")
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
