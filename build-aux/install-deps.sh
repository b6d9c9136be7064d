#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs the Debian/Ubuntu packages Embers needs to build, run and test,
# when pkg-config and the tools on PATH say something is missing. Works as
# root or through sudo. On a host without apt, says what to install.
#
#   install-deps.sh [--tests]   install what is missing
#   install-deps.sh --explain   say what Embers needs, for hosts without apt
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=build-aux/packages.sh
source "$here/packages.sh"

# Each pkg-config module that is absent or too old here, with what is found
missing_modules() {
  local module name found
  for module in "${embers_pkgconfig[@]}"; do
    if command -v pkg-config >/dev/null && pkg-config --exists "$module" 2>/dev/null; then
      continue
    fi
    name=${module%% *}
    found=""
    if command -v pkg-config >/dev/null; then
      found=$(pkg-config --modversion "$name" 2>/dev/null || true)
    fi
    if [[ -n $found ]]; then
      printf '  %s (%s here)\n' "$module" "$found"
    else
      printf '  %s (not found)\n' "$module"
    fi
  done
}

explain() {
  local missing
  missing=$(missing_modules)
  cat <<EOF
Embers needs these libraries (pkg-config names and versions):
$(printf '  %s\n' "${embers_pkgconfig[@]}")
and meson, ninja, gcc, gettext, protoc-c, desktop-file-validate, appstreamcli.
${missing:+
Missing or too old here:
$missing
}
  Fedora 42 or newer: sudo dnf install $embers_fedora_packages
  Arch Linux:         sudo pacman -S --needed $embers_arch_packages
  Debian 13, Ubuntu 25.04 or newer: bash build-aux/install-deps.sh

On Debian 12 or Ubuntu 24.04, build-aux/dev.sh builds in a Debian 13 build
root instead (GTK $embers_min_gtk, libadwaita $embers_min_adw, GLib $embers_min_glib are newer than these hosts have).
EOF
}

want_tests=0
case "${1:-}" in
  --explain) explain; exit 0 ;;
  --tests)   want_tests=1 ;;
  "")        ;;
  *)         echo "usage: $0 [--tests | --explain]" >&2; exit 2 ;;
esac

# What is missing, by pkg-config and by the tools on PATH
missing_reason=()
if ! command -v pkg-config >/dev/null || ! pkg-config --exists "${embers_pkgconfig[@]}" 2>/dev/null; then
  missing_reason+=("libraries")
fi
for tool in meson ninja gcc msgfmt protoc-c desktop-file-validate appstreamcli glib-compile-schemas; do
  command -v "$tool" >/dev/null || missing_reason+=("$tool")
done
if [[ $want_tests -eq 1 ]]; then
  for tool in xvfb-run xauth dbus-run-session gnome-keyring-daemon clang go node npm python3 convert xdotool git; do
    command -v "$tool" >/dev/null || missing_reason+=("$tool")
  done
fi

if [[ ${#missing_reason[@]} -eq 0 ]]; then
  echo "install-deps: everything Embers needs is here"
  exit 0
fi

if ! command -v apt-get >/dev/null; then
  echo "install-deps: missing ${missing_reason[*]}, and this host has no apt-get." >&2
  explain >&2
  exit 1
fi

want=("${embers_build_packages[@]}" "${embers_run_packages[@]}")
if [[ $want_tests -eq 1 ]]; then
  want+=("${embers_test_packages[@]}")
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  sudo="sudo"
fi

echo "install-deps: missing ${missing_reason[*]}; installing Debian packages"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${want[@]}"
