#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs every Debian/Ubuntu package Embers needs to build, run and test.
# Works as root or through sudo. Usage: build-aux/install-deps.sh [--tests]
set -euo pipefail

packages=(
  # build
  meson ninja-build pkg-config gcc gettext
  libglib2.0-dev libglib2.0-dev-bin libgtk-4-dev libadwaita-1-dev
  libprotobuf-c-dev protobuf-c-compiler libsoup-3.0-dev libjson-glib-dev
  libsecret-1-dev zlib1g-dev libcairo2-dev libpango1.0-dev
  # data file validation
  desktop-file-utils appstream
)
test_packages=(
  # display for window tests, keyring, screenshots
  xvfb xauth dbus dbus-x11 gnome-keyring at-spi2-core
  # fuzzing and sanitizers
  clang libclang-rt-14-dev llvm
  # the pprof oracle
  golang-go
  # JSON checks of the Flatpak manifest
  python3
)

want=("${packages[@]}")
if [[ "${1:-}" == "--tests" ]]; then
  want+=("${test_packages[@]}")
fi

missing=()
for p in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#want[@]} packages present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  sudo="sudo"
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
