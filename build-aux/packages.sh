# SPDX-License-Identifier: GPL-3.0-or-later
#
# The packages Embers needs, in one place, sourced by install-deps.sh and
# buildroot.sh. Debian and Ubuntu names; version-neutral where Debian has
# them. The minimum platform is Debian 13 "trixie": GTK 4.18, libadwaita 1.7,
# GLib 2.84.

# pkg-config modules and the minimum versions meson.build asks for
embers_min_gtk=4.18
embers_min_adw=1.7
embers_min_glib=2.84
embers_pkgconfig=(
  "gtk4 >= $embers_min_gtk"
  "libadwaita-1 >= $embers_min_adw"
  "glib-2.0 >= $embers_min_glib"
  "gio-2.0 >= $embers_min_glib"
  "libsoup-3.0 >= 3.4"
  "json-glib-1.0 >= 1.6"
  "libprotobuf-c >= 1.4"
  "libsecret-1"
  "zlib"
  "cairo >= 1.16"
  "pangocairo"
  "gtksourceview-5 >= 5.16"
)

# Building Embers
embers_build_packages=(
  meson ninja-build pkg-config gcc gettext
  libglib2.0-dev libglib2.0-dev-bin libgtk-4-dev libadwaita-1-dev
  libprotobuf-c-dev protobuf-c-compiler libsoup-3.0-dev libjson-glib-dev
  libsecret-1-dev zlib1g-dev libcairo2-dev libpango1.0-dev
  libgtksourceview-5-dev
  # data file validation
  desktop-file-utils appstream
)

# Running it (in a build root these are not pulled in by the -dev packages)
embers_run_packages=(
  libglib2.0-bin glib-networking ca-certificates dconf-gsettings-backend
  fonts-cantarell fonts-dejavu-core adwaita-icon-theme hicolor-icon-theme
  libgl1-mesa-dri libegl-mesa0 libgles2 libvulkan1 mesa-vulkan-drivers
  locales-all tzdata dbus librsvg2-common
)

# Testing it
embers_test_packages=(
  # display for window tests, keyring, screenshots
  xvfb xauth dbus dbus-x11 gnome-keyring at-spi2-core imagemagick xdotool
  # a Wayland compositor for window tests (GTK 4.24 on Xvfb warns on popovers)
  weston
  # fuzzing and sanitizers
  clang libclang-rt-dev llvm
  # the pprof oracle and the Go uploads
  golang-go
  # the official Node SDK's uploads (npm install @pyroscope/nodejs)
  nodejs npm
  # the readers' second tools: perf script and perf report, the JDK's
  # Flight Recorder and its jfr tool, a Chrome trace with profile chunks
  linux-perf openjdk-21-jdk-headless chromium
  # JSON checks of the Flatpak manifest
  python3
  git gdb
)

# Fedora and Arch names of the build packages, for hosts without apt
embers_fedora_packages="meson ninja-build gcc gettext glib2-devel gtk4-devel libadwaita-devel gtksourceview5-devel protobuf-c-devel protobuf-c-compiler libsoup3-devel json-glib-devel libsecret-devel zlib-devel cairo-devel pango-devel desktop-file-utils appstream"
embers_arch_packages="meson ninja gcc gettext glib2 gtk4 libadwaita gtksourceview5 protobuf-c libsoup3 json-glib libsecret zlib cairo pango desktop-file-utils appstream"
