#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Proves the Flatpak app module's build commands without the GNOME runtime,
# for the stable and the development manifest: configures with the
# manifest's own meson options and prefix /app, builds, runs the manifest's
# test commands without a display (as flatpak-builder runs them) and
# installs into a DESTDIR, then checks what was installed under the
# manifest's id: the program, desktop file, metainfo, schema, icons, the
# German catalog and the licence. Prints TAP-style lines.
# Usage: flatpak-build-check.sh
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
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

manifest_field() {
  python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
app = [x for x in m["modules"] if isinstance(x, dict) and x["name"] == "embers"][0]
value = m.get(sys.argv[2]) if sys.argv[2] in ("id", "command") else app.get(sys.argv[2], [])
print("\n".join(value) if isinstance(value, list) else value)' "$@"
}

mkdir -p _build
for manifest in flatpak/io.github.emberslab.Embers.json flatpak/io.github.emberslab.Embers.Devel.json; do
  id=$(manifest_field "$manifest" id)
  command=$(manifest_field "$manifest" command)
  mapfile -t opts < <(manifest_field "$manifest" config-opts)
  mapfile -t tests < <(manifest_field "$manifest" test-commands)
  build=_build/flatpak-${id##*.}
  dest=$(mktemp -d)

  rm -rf "$build"
  label="$id: configure as the manifest does (--prefix=/app ${opts[*]})"
  step meson setup "$build" --prefix=/app "${opts[@]}"
  label="$id: build"
  step ninja -C "$build"
  for t in "${tests[@]}"; do
    label="$id: manifest test command, without a display: $t"
    step env -u DISPLAY -u WAYLAND_DISPLAY bash -c "cd '$build' && $t"
  done
  label="$id: install into a DESTDIR"
  step env DESTDIR="$dest" meson install -C "$build" --no-rebuild
  for f in "bin/$command" \
           "share/applications/$id.desktop" \
           "share/metainfo/$id.metainfo.xml" \
           "share/glib-2.0/schemas/$id.gschema.xml" \
           "share/icons/hicolor/scalable/apps/$id.svg" \
           "share/icons/hicolor/symbolic/apps/$id-symbolic.svg" \
           "share/locale/de/LC_MESSAGES/embers.mo" \
           "share/licenses/$id/COPYING"; do
    label="$id: installs /app/$f"
    step test -s "$dest/app/$f"
  done
  label="$id: the installed catalog is German (Language: de)"
  step bash -c "msgunfmt '$dest/app/share/locale/de/LC_MESSAGES/embers.mo' | grep -q '^\"Language: de'"
  label="$id: the installed licence is the GPL version 3"
  step grep -q 'GNU GENERAL PUBLIC LICENSE' "$dest/app/share/licenses/$id/COPYING"
  rm -rf "$dest"
done
echo "1..$n"
exit $status
