#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds what anyone can host to let people install Embers with Flatpak,
# without Flathub:
#
#   OUT/repo/                               a Flatpak repository (branch stable)
#   OUT/embers.flatpak                      a single-file bundle
#   OUT/embers.flatpakrepo                  flatpak remote-add --user embers URL/embers.flatpakrepo
#   OUT/io.github.emberslab.Embers.flatpakref
#                                           flatpak install --user URL/io.github.emberslab.Embers.flatpakref
#
# Usage: flatpak-dist.sh --url BASE_URL [--gpg-sign KEYID [--gpg-homedir DIR]]
#                        [--out DIR] [--manifest FILE]
#
# BASE_URL is where OUT will be served (the repository is BASE_URL/repo/).
# Sign with a GPG key for people: the .flatpakrepo and .flatpakref carry its
# public half. Needs flatpak and flatpak-builder, and Flathub's GNOME runtime
# and SDK (installed from Flathub on the first run). Copy OUT to the web
# server as it is.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
app_id=io.github.emberslab.Embers
branch=stable
url= key= homedir= out=$top/_build/flatpak-dist manifest=$top/flatpak/$app_id.json

usage() { sed -n '3,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --url) url=$2; shift 2 ;;
    --url=*) url=${1#*=}; shift ;;
    --gpg-sign) key=$2; shift 2 ;;
    --gpg-sign=*) key=${1#*=}; shift ;;
    --gpg-homedir) homedir=$2; shift 2 ;;
    --gpg-homedir=*) homedir=${1#*=}; shift ;;
    --out) out=$2; shift 2 ;;
    --out=*) out=${1#*=}; shift ;;
    --manifest) manifest=$2; shift 2 ;;
    --manifest=*) manifest=${1#*=}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "flatpak-dist: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
if [[ -z $url ]]; then
  echo "flatpak-dist: --url is needed: where OUT will be served" >&2
  exit 2
fi
missing=()
for tool in flatpak flatpak-builder python3; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "flatpak-dist: install ${missing[*]} first (Debian and Ubuntu: apt install flatpak flatpak-builder; Fedora: dnf install flatpak flatpak-builder; Arch: pacman -S flatpak flatpak-builder)" >&2
  exit 1
fi

sign=()
if [[ -n $key ]]; then
  sign=(--gpg-sign="$key")
  [[ -n $homedir ]] && sign+=(--gpg-homedir="$homedir")
else
  echo "flatpak-dist: no --gpg-sign: the repository is unsigned (people would need --no-gpg-verify)" >&2
fi

mkdir -p "$out"
flatpak remote-add --user --if-not-exists flathub https://dl.flathub.org/repo/flathub.flatpakrepo
flatpak-builder --user --force-clean --install-deps-from=flathub \
  --default-branch="$branch" --repo="$out/repo" "${sign[@]}" \
  "$top/_build/flatpak-dist-build" "$manifest"
flatpak build-update-repo --title=Embers --default-branch="$branch" \
  --generate-static-deltas --prune "${sign[@]}" "$out/repo"
flatpak build-bundle --runtime-repo=https://dl.flathub.org/repo/flathub.flatpakrepo \
  "${sign[@]}" "$out/repo" "$out/embers.flatpak" "$app_id" "$branch"

refs=(--url "${url%/}/repo/" --out "$out" --app-id "$app_id" --branch "$branch")
if [[ -n $key ]]; then
  gpg ${homedir:+--homedir "$homedir"} --export "$key" > "$out/key.gpg"
  refs+=(--gpg-key "$out/key.gpg")
fi
python3 "$top/build-aux/flatpak-refs.py" "${refs[@]}"
echo "flatpak-dist: copy $out to ${url%/}/ — then people run:"
echo "  flatpak install --user ${url%/}/$app_id.flatpakref"
