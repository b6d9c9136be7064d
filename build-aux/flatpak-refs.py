#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the two small files that let anyone install Embers from a
Flatpak repository hosted on any web server:

  embers.flatpakrepo               `flatpak remote-add --user embers URL`
  io.github.emberslab.Embers.flatpakref
                                   `flatpak install --user URL` (adds the
                                   remote, and Flathub for the GNOME runtime)

Usage: flatpak-refs.py --url REPO_URL --out DIR [--gpg-key PUBKEY_FILE]
                       [--app-id ID] [--branch stable]

REPO_URL is where the repository (flatpak-dist.sh's repo/) is served;
PUBKEY_FILE the binary public key (`gpg --export KEYID > key.gpg`) the
repository is signed with. Without it the files carry no key and flatpak
asks for --no-gpg-verify: fine for a test, not for people.
"""
import argparse
import base64
import sys
from pathlib import Path

RUNTIME_REPO = "https://dl.flathub.org/repo/flathub.flatpakrepo"
TITLE = "Embers"
COMMENT = "Explore profiles as flame graphs"
DESCRIPTION = ("Embers shows where a program spends its time or memory: pprof, folded "
               "stacks and Pyroscope profiles as interactive flame graphs.")


def entries(section, values):
    lines = [f"[{section}]"]
    for key, value in values:
        if value is not None:
            if "\n" in value:
                raise ValueError(f"{key} holds a line break")
            lines.append(f"{key}={value}")
    return "\n".join(lines) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="where the repository is served")
    parser.add_argument("--out", required=True, help="folder for the two files")
    parser.add_argument("--gpg-key", help="the binary public key the repository is signed with")
    parser.add_argument("--app-id", default="io.github.emberslab.Embers")
    parser.add_argument("--branch", default="stable")
    args = parser.parse_args(argv)

    if not args.url.startswith(("https://", "http://", "file://")):
        parser.error("--url must be an https://, http:// or file:// URL")
    url = args.url if args.url.endswith("/") else args.url + "/"
    key = None
    if args.gpg_key:
        data = Path(args.gpg_key).read_bytes()
        if not data or data.lstrip().startswith(b"-----BEGIN"):
            parser.error("--gpg-key takes a binary key (gpg --export KEYID), not an armored one")
        key = base64.b64encode(data).decode("ascii")

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    repo = entries("Flatpak Repo", [
        ("Title", TITLE),
        ("Url", url),
        ("Comment", COMMENT),
        ("Description", DESCRIPTION),
        ("DefaultBranch", args.branch),
        ("GPGKey", key),
    ])
    ref = entries("Flatpak Ref", [
        ("Title", TITLE),
        ("Name", args.app_id),
        ("Branch", args.branch),
        ("Url", url),
        ("SuggestRemoteName", "embers"),
        ("IsRuntime", "false"),
        ("RuntimeRepo", RUNTIME_REPO),
        ("GPGKey", key),
    ])
    (out / "embers.flatpakrepo").write_text(repo, encoding="utf-8")
    (out / f"{args.app_id}.flatpakref").write_text(ref, encoding="utf-8")
    print(f"{out / 'embers.flatpakrepo'}\n{out / (args.app_id + '.flatpakref')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
