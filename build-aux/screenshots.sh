#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The README's screenshots as Flathub's and GNOME's guidelines want them:
# the window with its frame (the client-side decoration's rounded corners
# and shadow) on a transparent background, focused, default settings, light
# and dark, no pointer, at most 1000 × 700 pixels.
#
# Each state is kept on screen by tests/app/embers-shot in weston (headless,
# pixman renderer), whose screenshooter takes the output over a black
# background. The empty window of the same size and style, taken over black
# and over white, gives each pixel's opacity (what differs is the shadow and
# the corners); the picture's colour is divided by it, and the picture is
# cut to the window and its shadow.
#
# Usage: screenshots.sh BUILD_DIR OUT_DIR [NAME]
#   (rule.png needs BUILD_DIR/tests/server/embers-test-server built too)
#   (in a build root with weston and ImageMagick: buildroot.sh run forky …)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "$1" && pwd)
out=$2
only=${3:-}
fixtures=$top/tests/fixtures/go
size=${EMBERS_SHOT_SIZE:-900x600}
mkdir -p "$out"
out=$(cd "$out" && pwd)

for tool in weston weston-screenshooter magick dbus-run-session; do
  command -v "$tool" >/dev/null || { echo "screenshots: needs $tool" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/run
mkdir -m 700 "$XDG_RUNTIME_DIR"

# One picture of STATE… over the background colour $1, as $2
take() {
  local background=$1 picture=$2; shift 2
  cat > "$work/weston.ini" <<INI
[core]
idle-time=0
[shell]
background-color=$background
panel-position=none
locking=false
animation=none
startup-animation=none
INI
  weston --backend=headless --renderer=pixman --debug --config="$work/weston.ini" \
    --socket=embers-shot --width=1200 --height=900 > "$work/weston.log" 2>&1 &
  local weston=$! shot
  for _ in $(seq 200); do [[ -S $XDG_RUNTIME_DIR/embers-shot ]] && break; sleep 0.05; done
  WAYLAND_DISPLAY=embers-shot GDK_BACKEND=wayland GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 \
    GSETTINGS_SCHEMA_DIR="$build/data" EMBERS_SHOT_SIZE=$size \
    "$build/tests/app/embers-shot" "$@" > "$work/shot.out" 2> "$work/shot.err" &
  shot=$!
  # Until the window has painted its state (embers-shot says so)
  for _ in $(seq 600); do grep -q '^embers-shot: ready' "$work/shot.out" && break; sleep 0.05; done
  if ! grep -q '^embers-shot: ready' "$work/shot.out"; then
    kill "$shot" "$weston" 2>/dev/null || true
    echo "screenshots: $* never got ready" >&2
    cat "$work/shot.err" >&2
    return 1
  fi
  rm -f "$work"/wayland-screenshot-*.png
  (cd "$work" && WAYLAND_DISPLAY=embers-shot weston-screenshooter)
  mv "$work"/wayland-screenshot-*.png "$picture"
  kill "$shot" "$weston"
  wait "$shot" "$weston" 2>/dev/null || true
}

# The window's opacity (its rounded corners and shadow) for a style, from
# the empty window over black and over white: 1 - (white - black). It
# depends on the window's size and style only, not on what it shows.
opacity() {
  local style=$1-$size
  [[ -f $work/alpha-$style.png ]] && return 0
  take 0xff000000 "$work/black-$style.png" empty "$1"
  take 0xffffffff "$work/white-$style.png" empty "$1"
  magick "$work/white-$style.png" "$work/black-$style.png" -compose difference -composite \
    -colorspace gray -negate "$work/alpha-$style.png"
}

# NAME STATE STYLE [ARG…]: one picture over black (a state shown twice
# could differ: times move on), its colour divided by the opacity
picture() {
  local name=$1 style=$3-$size
  shift
  [[ -z $only || $only == "$name" ]] || return 0
  opacity "$2"
  take 0xff000000 "$work/shot.png" "$@"
  magick "$work/shot.png" "$work/alpha-$style.png" -fx 'v <= 0 ? 0 : min(1, u / v)' "$work/colour.png"
  magick "$work/colour.png" "$work/alpha-$style.png" -alpha off -compose copy_opacity -composite \
    -trim +repage -strip "$out/$name.png"
  echo "$name.png: $(magick identify -format '%w×%h' "$out/$name.png")"
}

picture profile search light "$fixtures/cpu-labels.pb.gz"
picture sandwich-dark sandwich dark "$fixtures/cpu-labels.pb.gz"
picture compare compare light "$fixtures/cpu-before.pb.gz" "$fixtures/cpu-after.pb.gz"
picture explore demo light "$fixtures"
picture services demo-services light "$fixtures"
picture labels demo-labels light "$fixtures"
# Line Up: five versions of a service (lineup-demo.py), a folder each; a
# wider window, so that every version's column shows
if [[ -z $only || $only == lineup ]]; then
  python3 "$top/build-aux/lineup-demo.py" "$work/checkout"
  size=958x656 picture lineup regressions light "$work/checkout"
fi

# The rule dialog, against the test server's recording rules
server=$build/tests/server/embers-test-server
if [[ -x $server && ( -z $only || $only == rule ) ]]; then
  "$server" --port 0 --recording-rules > "$work/server.out" 2> "$work/server.err" &
  server_pid=$!
  for _ in $(seq 200); do grep -q '^listening on' "$work/server.out" && break; sleep 0.05; done
  url=$(sed -n 's/^listening on //p' "$work/server.out")
  picture rule server-rule light "$url" api runtime.gcBgMarkWorker
  kill "$server_pid"
fi
