#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the manifest a Flathub submission needs, from
flatpak/io.github.emberslab.Embers.json: the app from a git tag (pinned by
its commit) instead of this checkout, and update-checker data
(x-checker-data, read by flatpak-external-data-checker) for protobuf-c.

Usage: flathub-manifest.py --git-url URL --tag TAG [--commit SHA] [--out FILE]

The commit is read from this checkout (`git rev-parse TAG^{commit}`) unless
given. Embers is not submitted to Flathub: the project has no public
repository or tagged release yet (README.md, "Install"). This keeps the
manifest one command away for the day it has.
"""
import argparse
import copy
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTOBUF_C_CHECKER = {
    "type": "json",
    "url": "https://api.github.com/repos/protobuf-c/protobuf-c/releases/latest",
    "version-query": ".tag_name | sub(\"^v\"; \"\")",
    "url-query": ".assets[] | select(.name == \"protobuf-c-\" + $version + \".tar.gz\") | .browser_download_url",
}


def flathub_manifest(local, git_url, tag, commit):
    m = copy.deepcopy(local)
    for module in m["modules"]:
        if not isinstance(module, dict):
            continue
        if module["name"] == "embers":
            module["sources"] = [{"type": "git", "url": git_url, "tag": tag, "commit": commit}]
        elif module["name"] == "protobuf-c":
            for source in module["sources"]:
                if source.get("type") == "archive":
                    source["x-checker-data"] = dict(PROTOBUF_C_CHECKER)
    return m


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git-url", required=True)
    parser.add_argument("--tag", required=True)
    parser.add_argument("--commit")
    parser.add_argument("--repo", default=str(ROOT), help="the checkout to read the tag from")
    parser.add_argument("--manifest", default=str(ROOT / "flatpak" / "io.github.emberslab.Embers.json"))
    parser.add_argument("--out", default="-")
    args = parser.parse_args(argv)

    commit = args.commit
    if commit is None:
        got = subprocess.run(["git", "-C", args.repo, "rev-parse", "--verify", "--quiet", f"{args.tag}^{{commit}}"],
                             capture_output=True, text=True)
        if got.returncode != 0:
            parser.error(f"this checkout has no tag {args.tag}: tag the release first (git tag -s {args.tag})")
        commit = got.stdout.strip()
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        parser.error(f"not a full commit id: {commit}")

    local = json.loads(Path(args.manifest).read_text(encoding="utf-8"))
    text = json.dumps(flathub_manifest(local, args.git_url, args.tag, commit), indent=2) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
