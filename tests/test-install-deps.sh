#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The set-up scripts on hosts unlike this one, made with a PATH of our own:
# a host without apt (Fedora, Arch) is told, once, what to install by
# pkg-config name and by Fedora's and Arch's package names, never
# "apt-get: command not found"; a host whose libraries are all there is
# left alone whatever dpkg knows (pkg-config decides). TAP output.
#
# Usage: test-install-deps.sh SOURCE_ROOT
set -uo pipefail

src=$1
# As on a host of its own, not inside the build root
unset EMBERS_BUILDROOT EMBERS_BUILD_IN
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
status=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; status=1; }
expect() {   # expect WHAT TEXT FRAGMENT…
  local what=$1 text=$2; shift 2
  for fragment in "$@"; do
    if [[ $text != *"$fragment"* ]]; then
      not_ok "$what: lacks “$fragment”"
      printf '#   %s\n' "${text//$'\n'/$'\n#   '}"
      return
    fi
  done
  ok "$what"
}

# A host with the basic tools only: no apt-get, apt-cache, dpkg, sudo
host() {
  local bin=$1
  mkdir -p "$bin"
  for tool in bash sh env dirname cat sed printf id grep tr head tail sort uname mkdir rm; do
    local found
    found=$(command -v "$tool") && [[ $found == /* ]] && ln -sf "$found" "$bin/$tool"
  done
}

# pkg-config that knows gtk4 4.8.3 and libadwaita 1.2.2 (a Debian 12 host)
old_host=$tmp/old/bin
host "$old_host"
cat > "$old_host/pkg-config" <<'PC'
#!/bin/bash
case $1 in
  --exists) exit 1 ;;
  --modversion)
    case $2 in gtk4) echo 4.8.3 ;; libadwaita-1) echo 1.2.2 ;; *) exit 1 ;; esac ;;
esac
exit 1
PC
chmod +x "$old_host/pkg-config"

out=$(PATH=$old_host bash "$src/build-aux/install-deps.sh" 2>&1)
code=$?
[[ $code == 1 ]] && ok "without apt, install-deps.sh stops (exit 1)" || not_ok "exit $code"
expect "it names the pkg-config modules" "$out" "gtk4 >= 4.18" "libadwaita-1 >= 1.7" "libprotobuf-c >= 1.4"
expect "it says what is too old here" "$out" "gtk4 >= 4.18 (4.8.3 here)" "libadwaita-1 >= 1.7 (1.2.2 here)" "json-glib-1.0 >= 1.6 (not found)"
expect "it gives Fedora's and Arch's package names" "$out" "sudo dnf install" "gtk4-devel" "libadwaita-devel" "sudo pacman -S --needed" " gtk4 " " protobuf-c "
if [[ $out == *"command not found"* || $out == *"apt-get install"* ]]; then
  not_ok "no apt-get is tried"
else
  ok "no apt-get is tried"
fi
[[ $(grep -c "Embers needs these libraries" <<< "$out") == 1 ]] && ok "one message" || not_ok "the message comes more than once"

# dev.sh on that host: the same message, and no build root (it needs apt)
out=$(PATH=$old_host bash "$src/build-aux/dev.sh" run 2>&1)
code=$?
[[ $code != 0 ]] && ok "dev.sh run stops there (exit $code)" || not_ok "dev.sh run went on"
expect "dev.sh run names what to install" "$out" "gtk4 >= 4.18 (4.8.3 here)" "sudo dnf install"
if [[ $out == *"command not found"* || $out == *"mmdebstrap"* ]]; then
  not_ok "dev.sh tries no apt and no build root"
  printf '#   %s\n' "${out//$'\n'/$'\n#   '}"
else
  ok "dev.sh tries no apt and no build root"
fi
[[ $(grep -c "Embers needs these libraries" <<< "$out") == 1 ]] && ok "dev.sh: one message" || not_ok "dev.sh: the message comes more than once"

# Everything there (by pkg-config and the tools on PATH), no dpkg at all
full_host=$tmp/full/bin
host "$full_host"
printf '#!/bin/sh\nexit 0\n' > "$full_host/pkg-config"
chmod +x "$full_host/pkg-config"
for tool in meson ninja gcc msgfmt protoc-c desktop-file-validate appstreamcli glib-compile-schemas; do
  printf '#!/bin/sh\nexit 0\n' > "$full_host/$tool"
  chmod +x "$full_host/$tool"
done
out=$(PATH=$full_host bash "$src/build-aux/install-deps.sh" 2>&1)
code=$?
[[ $code == 0 ]] && ok "with every library, install-deps.sh is content without dpkg" || not_ok "exit $code: $out"
expect "it says so" "$out" "everything Embers needs is here"

# The clang runtime by its version-neutral name (Ubuntu 24.04 has clang 18)
if grep -q 'libclang-rt-dev' "$src/build-aux/packages.sh" && ! grep -qE 'libclang-rt-[0-9]+-dev' "$src/build-aux/packages.sh"; then
  ok "packages.sh names libclang-rt-dev, no versioned clang runtime"
else
  not_ok "packages.sh names a versioned clang runtime"
fi

echo "1..$n"
exit $status
