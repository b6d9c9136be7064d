#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Embers as the desktop sees it, installed into a private XDG_DATA_HOME:
#
#   test-file-types.sh mime BUILDDIR SRCDIR APP_ID
#     the shared-mime-info package names pprof, folded stacks and Pyroscope
#     JSON (gio info), and the desktop file makes Embers their default
#     application (gio mime)
#   test-file-types.sh open BUILDDIR SRCDIR APP_ID EMBERS
#     (needs a display) `gio open` on two profiles, as a file manager's
#     double-click does: D-Bus activation starts one Embers through the
#     service file, which opens both, each in a tab
#
# TAP output.
set -euo pipefail

mode=$1 build=$2 src=$3 app_id=$4 embers=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

export XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache
export XDG_DATA_DIRS=${XDG_DATA_DIRS:-/usr/local/share:/usr/share}
mkdir -p "$XDG_DATA_HOME/mime/packages" "$XDG_DATA_HOME/applications" \
         "$XDG_DATA_HOME/dbus-1/services" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"

# As installed: `embers` on the PATH (the desktop file runs it by name)
mkdir -p "$tmp/bin"
ln -s "$build/src/app/embers" "$tmp/bin/embers"
export PATH=$tmp/bin:$PATH

cp "$build/data/$app_id.xml" "$XDG_DATA_HOME/mime/packages/"
update-mime-database "$XDG_DATA_HOME/mime"
cp "$build/data/$app_id.desktop" "$XDG_DATA_HOME/applications/"
update-desktop-database "$XDG_DATA_HOME/applications"

n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n $1"; }

content_type() {
  gio info -a standard::content-type "$1" | sed -n 's/^ *standard::content-type: //p'
}

if [[ $mode == mime ]]; then
  files=$tmp/files
  mkdir -p "$files"
  cp "$src/tests/fixtures/go/cpu-labels.pb.gz" "$files/cpu.pb.gz"
  cp "$src/tests/fixtures/go/cpu-labels.pb.gz" "$files/pprof.embers.samples.cpu.001.pb.gz"
  gzip -dc "$src/tests/fixtures/go/cpu-labels.pb.gz" > "$files/cpu.pprof"
  cp "$src/tests/fuzz/corpus/pprof/cpu.pb" "$files/cpu.pb"
  cp "$src/tests/fixtures/folded/perf.folded" "$files/perf.folded"
  cp "$src/tests/fixtures/folded/perf.folded" "$files/perf.collapsed"
  cp "$src/tests/fuzz/corpus/flamebearer/render-single.json" "$files/export.json"
  cp "$src/tests/fuzz/corpus/flamebearer/connect-flamegraph.json" "$files/connect.json"
  printf '{"version":1,"other":true}\n' > "$files/other.json"
  printf 'not a profile\n' | gzip -c > "$files/notes.gz"
  cp "$src/tests/fuzz/corpus/session/seed-file" "$files/view.embers"
  cp "$src/tests/fuzz/corpus/session/seed-file" "$files/view-without-extension"

  while read -r name want; do
    got=$(content_type "$files/$name")
    if [[ $got == "$want" ]]; then
      ok "$name is $want"
    else
      not_ok "$name is $want, not $got"
    fi
  done <<LIST
cpu.pb.gz application/x-pprof
pprof.embers.samples.cpu.001.pb.gz application/x-pprof
cpu.pprof application/x-pprof
cpu.pb application/x-pprof
perf.folded text/x-folded-stacks
perf.collapsed text/x-folded-stacks
export.json application/x-pyroscope-json
other.json application/json
notes.gz application/gzip
view.embers application/x-embers-view
view-without-extension application/x-embers-view
LIST
  # The magic claims only what Pyroscope writes at the start of an export;
  # a Connect answer ({"flamegraph":…}) is plain JSON to the desktop
  got=$(content_type "$files/connect.json")
  if [[ $got == application/json ]]; then ok "a Connect answer stays application/json"; else not_ok "connect.json is $got"; fi

  for type in application/x-pprof text/x-folded-stacks application/x-pyroscope-json application/x-embers-view; do
    if [[ $(gio mime "$type") == *"$app_id.desktop"* ]]; then
      ok "Embers opens $type"
    else
      not_ok "Embers is not the application for $type: $(gio mime "$type")"
    fi
  done
  # Subclasses: a folded file is still text, Pyroscope JSON still JSON
  if gio info -a standard::content-type "$files/perf.folded" >/dev/null &&
     [[ $(gio mime text/x-folded-stacks | head -1) == *"$app_id"* ]]; then
    ok "folded stacks default to Embers"
  else
    not_ok "folded stacks do not default to Embers"
  fi

elif [[ $mode == open ]]; then
  if [[ -z ${DISPLAY:-} ]] || ! command -v dbus-run-session >/dev/null || ! command -v xdotool >/dev/null; then
    echo "1..0 # SKIP needs a display, dbus-run-session and xdotool"
    exit 0
  fi
  # The service file meson built, pointed at this build's binary
  sed "s|^Exec=.* --gapplication-service|Exec=$embers --gapplication-service|" \
    "$build/data/$app_id.service" > "$XDG_DATA_HOME/dbus-1/services/$app_id.service"
  files=$tmp/files
  mkdir -p "$files"
  cp "$src/tests/fixtures/go/cpu-labels.pb.gz" "$files/first.pb.gz"
  cp "$src/tests/fixtures/folded/perf.folded" "$files/second.folded"
  # Saved views (.embers) of two more copies, named relative to the view
  cp "$src/tests/fixtures/go/cpu-labels.pb.gz" "$files/third.pb.gz"
  cp "$src/tests/fixtures/go/cpu-labels.pb.gz" "$files/fourth.pb.gz"
  for name in third fourth; do
    printf '{"format": "embers-view", "version": 1, "source": {"file": "%s.pb.gz"},\n "view": {"mode": "flame"}}\n' \
      "$name" > "$files/$name.embers"
  done
  export APP_ID=$app_id FILES=$files EMBERS=$embers
  # Inside a private session bus: gio open activates Embers over D-Bus
  dbus-run-session -- bash -s <<'INNER'
set -euo pipefail
n=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n $1"; exit 1; }
path=/${APP_ID//./\/}
# Waits (up to a safety limit) until the command succeeds
wait_for() {
  local what=$1; shift
  for _ in $(seq 1200); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  not_ok "$what"
}
has_owner() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner "$APP_ID" | grep -q true
}
window_titled() { xdotool search --name "^$1 — Embers\$"; }

if has_owner; then not_ok "nothing owns $APP_ID before"; fi
gio open "$FILES/first.pb.gz"
wait_for "D-Bus activation starts Embers" has_owner
ok "gio open activates $APP_ID over D-Bus"
wait_for "the window shows first.pb.gz" window_titled first.pb.gz
ok "the profile opens in the window"
gio open "$FILES/second.folded"
wait_for "the window shows second.folded" window_titled second.folded
ok "a second profile opens in the same window"
gio open "$FILES/third.embers"
wait_for "the window shows third.pb.gz (from third.embers)" window_titled third.pb.gz
ok "a saved view opens its profile in the same window"
"$EMBERS" "$FILES/fourth.embers"
wait_for "the window shows fourth.pb.gz (embers fourth.embers)" window_titled fourth.pb.gz
ok "embers FILE.embers opens it in the running Embers"
count=$(pgrep -c -f -- "$EMBERS --gapplication-service" || true)
if [[ $count == 1 ]]; then ok "one Embers"; else not_ok "$count Embers processes"; fi
actions=$(gdbus call --session --dest "$APP_ID" --object-path "$path" --method org.gtk.Actions.List)
if [[ $actions == *"'compare'"* && $actions == *"'connect'"* ]]; then
  ok "app.compare and app.connect are on the bus"
else
  not_ok "actions: $actions"
fi
gdbus call --session --dest "$APP_ID" --object-path "$path" \
  --method org.gtk.Actions.Activate quit '[]' '{}' >/dev/null
wait_for "Embers quits" bash -c "! gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.NameHasOwner $APP_ID | grep -q true"
ok "app.quit ends it"
echo "1..$n"
INNER
  exit $?
fi

echo "1..$n"
exit $fail
