#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A Debian build root for hosts whose libraries are older than Embers needs
# (Debian 12, Ubuntu 24.04): mmdebstrap makes it from Debian's archive, once,
# and it is kept between runs; bubblewrap runs commands inside it with the
# checkout, the home folder, the display (X11 and Wayland), the session bus
# (keyring, settings) and the host's trusted certificates.
#
#   buildroot.sh ensure SUITE          make or refresh the root (trixie, forky)
#   buildroot.sh run SUITE CMD [ARG…]  run CMD inside it, in the current folder
#   buildroot.sh path SUITE            print where the root lives
#   buildroot.sh versions SUITE        print the root's GTK, libadwaita, GLib
#
# The roots live in $EMBERS_ROOT_CACHE (default ~/.cache/embers/roots). A root
# is remade when the package list changes, and a testing suite (forky) when
# it is older than a week. Set EMBERS_ROOT_MIRROR for another Debian mirror.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=build-aux/packages.sh
source "$here/packages.sh"

cache=${EMBERS_ROOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/embers/roots}
mirror=${EMBERS_ROOT_MIRROR:-http://deb.debian.org/debian}

say() { printf 'buildroot: %s\n' "$*" >&2; }

sudo_cmd() {
  if [[ $(id -u) -eq 0 ]]; then
    "$@"
  else
    sudo "$@"
  fi
}

root_packages() {
  printf '%s\n' "${embers_build_packages[@]}" "${embers_run_packages[@]}" \
    "${embers_test_packages[@]}" | grep -v '^#' | sort -u
}

stamp_of() {
  { echo "suite=$1 mirror=$mirror version=3"; root_packages; } | sha256sum | cut -c1-16
}

host_tools() {
  local need=()
  command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
  command -v bwrap >/dev/null || need+=(bubblewrap)
  # Ubuntu has no Debian archive key by default
  [[ -e /usr/share/keyrings/debian-archive-keyring.gpg ]] || need+=(debian-archive-keyring)
  [[ ${#need[@]} -eq 0 ]] && return 0
  if ! command -v apt-get >/dev/null; then
    say "this host has no apt-get; install ${need[*]} by hand, or install Embers' libraries natively (see build-aux/install-deps.sh)"
    exit 1
  fi
  say "installing ${need[*]} on the host"
  sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
}

fresh() {
  local suite=$1 dir=$cache/$1
  [[ -f $dir/.embers-stamp ]] || return 1
  [[ $(cat "$dir/.embers-stamp") == "$(stamp_of "$suite")" ]] || return 1
  if [[ $suite == forky || $suite == testing || $suite == sid ]]; then
    # testing moves every day: remake a root older than a week
    [[ -z $(find "$dir/.embers-stamp" -mtime +7 2>/dev/null) ]] || return 1
  fi
  return 0
}

ensure() {
  local suite=$1 dir=$cache/$1
  if fresh "$suite"; then
    return 0
  fi
  host_tools
  mkdir -p "$cache"
  # One maker at a time: a second one waits, then finds the root made
  exec 9>"$cache/.$suite.lock"
  if ! flock -n 9; then
    say "another run is making the $suite root; waiting for it"
    flock 9
  fi
  if fresh "$suite"; then
    return 0
  fi
  local tmp=$cache/.$suite.new
  sudo_cmd rm -rf "$tmp"
  local pkgs
  pkgs=$(root_packages | paste -sd, -)
  local start=$SECONDS
  say "making a Debian $suite build root in $dir (once; about 2 minutes and 2.5 GB)"
  # mmdebstrap prints each step (I: lines) and apt's progress. Signatures are
  # checked; Valid-Until is not, so that a mirror that is a snapshot of the
  # archive (testing's Release files expire within a week) still serves.
  if ! sudo_cmd mmdebstrap --variant=apt --include="$pkgs" \
      --aptopt='Acquire::Retries "3"' \
      --aptopt='Acquire::Check-Valid-Until "false"' \
      --customize-hook='echo embers-root > "$1/etc/hostname"' \
      --customize-hook='for f in machine-id resolv.conf hosts; do rm -f "$1/etc/$f"; touch "$1/etc/$f"; done' \
      "$suite" "$tmp" "$mirror" 2>&1 | sed -u 's/^/buildroot: /' >&2; then
    sudo_cmd rm -rf "$tmp"
    say "could not make the $suite root (see the lines above)"
    return 1
  fi
  if [[ ! -x $tmp/usr/bin/meson ]]; then
    sudo_cmd rm -rf "$tmp"
    say "the $suite root is incomplete"
    return 1
  fi
  stamp_of "$suite" | sudo_cmd tee "$tmp/.embers-stamp" >/dev/null
  # The old root is moved aside, not deleted: a build that runs in it now
  # goes on; roots set aside earlier are deleted when nothing uses them
  if [[ -d $dir ]]; then
    sudo_cmd mv "$dir" "$cache/.$suite.old.$(date +%s)"
  fi
  sudo_cmd mv "$tmp" "$dir"
  local old
  for old in "$cache"/.*.old.*; do
    [[ -d $old ]] || continue
    # A sandbox still running in it shows the folder in its mount table
    if ! cat /proc/[0-9]*/mountinfo 2>/dev/null | grep -qF "/$(basename "$old")/"; then
      sudo_cmd rm -rf "$old" || true
    fi
  done
  say "the $suite root is ready ($((SECONDS - start)) s)"
}

# bwrap arguments that give the root the host's session. The sandbox's / is
# its own tmpfs, so the host's folders (the checkout, the home folder) can be
# mounted at their own paths even where the root has no such folder; the
# root's /usr, /etc and /var are mounted read-only.
bwrap_args() {
  local dir=$1
  local args=(
    --ro-bind "$dir/usr" /usr
    --symlink usr/bin /bin
    --symlink usr/sbin /sbin
    --symlink usr/lib /lib
    --symlink usr/lib64 /lib64
    --ro-bind "$dir/etc" /etc
    --ro-bind "$dir/var" /var
    --tmpfs /var/tmp
    --dir /root
    --proc /proc
    --dev-bind /dev /dev
    --ro-bind /sys /sys
    --tmpfs /run
    --bind /tmp /tmp
    --ro-bind-try /etc/resolv.conf /etc/resolv.conf
    --ro-bind-try /etc/hosts /etc/hosts
    --ro-bind-try /etc/passwd /etc/passwd
    --ro-bind-try /etc/group /etc/group
    --ro-bind-try /etc/machine-id /etc/machine-id
    # the host's trust store: a private CA the user trusts is trusted here too
    --ro-bind-try /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
    --setenv EMBERS_BUILDROOT "$(basename "$dir")"
    --die-with-parent
  )
  # The host's time zone by name (the root has tzdata)
  if [[ -z ${TZ:-} && -L /etc/localtime ]]; then
    local zone
    zone=$(readlink /etc/localtime | sed -n 's|.*zoneinfo/||p')
    [[ -n $zone ]] && args+=(--setenv TZ "$zone")
  fi
  local top
  top=$(cd "$here/.." && pwd)
  if [[ -n ${HOME:-} && -d $HOME && $HOME != / ]]; then
    args+=(--bind "$HOME" "$HOME")
  fi
  args+=(--bind "$top" "$top")
  if [[ $PWD != "$top" && $PWD != "$top"/* && $PWD != "${HOME:-/nonexistent}"/* && -d $PWD ]]; then
    args+=(--bind "$PWD" "$PWD")
  fi
  # Wayland, the session bus, the keyring and dconf live in the runtime dir
  if [[ -n ${XDG_RUNTIME_DIR:-} && -d $XDG_RUNTIME_DIR ]]; then
    args+=(--bind "$XDG_RUNTIME_DIR" "$XDG_RUNTIME_DIR")
  fi
  if [[ -n ${XAUTHORITY:-} && -e $XAUTHORITY ]]; then
    args+=(--ro-bind "$XAUTHORITY" "$XAUTHORITY")
  fi
  # A system bus for anything that asks (the session bus is in the runtime dir)
  if [[ -S /run/dbus/system_bus_socket ]]; then
    args+=(--ro-bind /run/dbus/system_bus_socket /run/dbus/system_bus_socket)
  fi
  args+=(--chdir "$PWD")
  printf '%s\0' "${args[@]}"
}

run() {
  local suite=$1; shift
  local dir=$cache/$suite
  if [[ ! -f $dir/.embers-stamp ]]; then
    ensure "$suite"
  fi
  local args=()
  mapfile -d '' args < <(bwrap_args "$dir")
  if bwrap "${args[@]}" true 2>/dev/null; then
    exec bwrap "${args[@]}" "$@"
  fi
  if [[ $(id -u) -ne 0 ]] && command -v sudo >/dev/null; then
    # Unprivileged user namespaces are off (Ubuntu's AppArmor default):
    # bubblewrap as root, mapped back to this user inside
    say "unprivileged bubblewrap is not allowed here; using sudo"
    exec sudo --preserve-env bwrap --unshare-user --uid "$(id -u)" --gid "$(id -g)" "${args[@]}" "$@"
  fi
  say "bubblewrap cannot run here; see the error above"
  bwrap "${args[@]}" true
  exit 1
}

versions() {
  local suite=$1
  run "$suite" sh -c 'printf "%s: GTK %s, libadwaita %s, GLib %s, libsoup %s (%s)\n" \
    "'"$suite"'" "$(pkg-config --modversion gtk4)" "$(pkg-config --modversion libadwaita-1)" \
    "$(pkg-config --modversion glib-2.0)" "$(pkg-config --modversion libsoup-3.0)" \
    "$(. /etc/os-release; echo "$PRETTY_NAME")"'
}

cmd=${1:-}
suite=${2:-}
if [[ -z $cmd || -z $suite ]]; then
  echo "usage: $0 ensure|run|path|versions SUITE [CMD…]" >&2
  exit 2
fi
shift 2
case "$cmd" in
  ensure)   ensure "$suite" ;;
  run)      run "$suite" "$@" ;;
  path)     echo "$cache/$suite" ;;
  versions) versions "$suite" ;;
  *)        echo "usage: $0 ensure|run|path|versions SUITE [CMD…]" >&2; exit 2 ;;
esac
