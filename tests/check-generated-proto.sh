#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The committed protobuf-c output (used where protoc-c is missing, as in the
# Flatpak SDK) must equal what protoc-c generates from our .proto files.
# Usage: check-generated-proto.sh PROTOC_C SOURCE_ROOT
set -euo pipefail
protoc=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for dir in src/core/proto src/pyroscope/proto; do
  for proto in "$root/$dir"/*.proto; do
    "$protoc" --c_out="$tmp" --proto_path="$root/$dir" "$proto"
    base=$(basename "$proto" .proto)
    for ext in c h; do
      if ! cmp -s "$tmp/$base.pb-c.$ext" "$root/$dir/generated/$base.pb-c.$ext"; then
        echo "stale: $dir/generated/$base.pb-c.$ext; regenerate with:"
        echo "  protoc-c --c_out=$dir/generated --proto_path=$dir $dir/$base.proto"
        status=1
      fi
    done
  done
done
[[ $status -eq 0 ]] && echo "generated protobuf-c code is up to date"
exit $status
