#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Proves the Flatpak app module's build commands without the GNOME runtime:
# configures with the manifest's own meson options and prefix /app, builds,
# runs the manifest's test commands and installs into a DESTDIR, then checks
# what was installed. Prints TAP-style lines. Usage: flatpak-build-check.sh
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
manifest=flatpak/io.github.emberslab.Embers.json
build=_build/flatpak
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
n=0
status=0

step() {
  n=$((n + 1))
  if "$@" > "$build.log.$n" 2>&1; then
    echo "ok $n - $label"
  else
    echo "not ok $n - $label"
    tail -20 "$build.log.$n" | sed 's/^/#   /'
    status=1
  fi
}

mkdir -p _build
mapfile -t opts < <(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
app = [x for x in m["modules"] if isinstance(x, dict) and x["name"] == "embers"][0]
print("\n".join(app.get("config-opts", [])))' "$manifest")
mapfile -t tests < <(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
app = [x for x in m["modules"] if isinstance(x, dict) and x["name"] == "embers"][0]
print("\n".join(app.get("test-commands", [])))' "$manifest")

rm -rf "$build"
label="configure as the manifest does (--prefix=/app ${opts[*]})"
step meson setup "$build" --prefix=/app "${opts[@]}"
label="build"
step ninja -C "$build"
for t in "${tests[@]}"; do
  label="manifest test command: $t"
  step bash -c "cd '$build' && $t"
done
label="install into a DESTDIR"
step env DESTDIR="$dest" meson install -C "$build" --no-rebuild
for f in bin/embers \
         share/applications/io.github.emberslab.Embers.desktop \
         share/metainfo/io.github.emberslab.Embers.metainfo.xml \
         share/glib-2.0/schemas/io.github.emberslab.Embers.gschema.xml \
         share/icons/hicolor/scalable/apps/io.github.emberslab.Embers.svg \
         share/icons/hicolor/symbolic/apps/io.github.emberslab.Embers-symbolic.svg; do
  label="installs /app/$f"
  step test -e "$dest/app/$f"
done
exit $status
