#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The install routes that need no Flathub, as far as they can be run
without flatpak-builder and the GNOME runtime: the .flatpakrepo and
.flatpakref files flatpak-dist.sh writes, the Flathub manifest generator,
and flatpak-dist.sh's own refusals. TAP output.

Usage: test-flatpak-dist.py SOURCE_ROOT
"""
import base64
import configparser
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

root = Path(sys.argv[1])
n = 0
failed = False


def check(ok, what, detail=""):
    global n, failed
    n += 1
    print(f"{'ok' if ok else 'not ok'} {n} - {what}" + ("" if ok or not detail else f": {detail}"))
    failed |= not ok


def run(*args, env=None):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env)


def read_keyfile(path, section):
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read(path, encoding="utf-8")
    return parser[section] if parser.has_section(section) else {}


with tempfile.TemporaryDirectory(prefix="embers-flatpak-dist-") as tmp:
    tmp = Path(tmp)
    refs = root / "build-aux" / "flatpak-refs.py"

    # A repository signed with a key: both files carry it, base64 of the bytes
    key = bytes(range(256)) * 3
    (tmp / "key.gpg").write_bytes(key)
    r = run(sys.executable, refs, "--url", "https://example.org/embers/repo", "--out", tmp / "out",
            "--gpg-key", tmp / "key.gpg")
    check(r.returncode == 0, "flatpak-refs.py writes the files", r.stderr)
    repo = read_keyfile(tmp / "out" / "embers.flatpakrepo", "Flatpak Repo")
    ref = read_keyfile(tmp / "out" / "io.github.emberslab.Embers.flatpakref", "Flatpak Ref")
    check(repo.get("Url") == "https://example.org/embers/repo/" and repo.get("Title") == "Embers",
          ".flatpakrepo names the repository", dict(repo))
    check(repo.get("DefaultBranch") == "stable", ".flatpakrepo's branch is stable")
    check(ref.get("Name") == "io.github.emberslab.Embers" and ref.get("Branch") == "stable" and
          ref.get("Url") == "https://example.org/embers/repo/" and ref.get("IsRuntime") == "false",
          ".flatpakref names the app, its branch and the repository", dict(ref))
    check(ref.get("RuntimeRepo") == "https://dl.flathub.org/repo/flathub.flatpakrepo",
          ".flatpakref finds the GNOME runtime on Flathub")
    check(base64.b64decode(repo.get("GPGKey", "")) == key and base64.b64decode(ref.get("GPGKey", "")) == key,
          "both carry the public key")

    # Unsigned: no GPGKey line at all; an armored key or a bad URL is refused
    r = run(sys.executable, refs, "--url", "file:///srv/embers/repo/", "--out", tmp / "plain")
    check(r.returncode == 0 and "GPGKey" not in (tmp / "plain" / "embers.flatpakrepo").read_text(),
          "an unsigned repository's files carry no key")
    (tmp / "key.asc").write_text("-----BEGIN PGP PUBLIC KEY BLOCK-----\n")
    r = run(sys.executable, refs, "--url", "https://example.org/r/", "--out", tmp / "x", "--gpg-key", tmp / "key.asc")
    check(r.returncode != 0 and "binary key" in r.stderr, "an armored key is refused", r.stderr)
    r = run(sys.executable, refs, "--url", "example.org/r", "--out", tmp / "x")
    check(r.returncode != 0 and "URL" in r.stderr, "a URL without a scheme is refused", r.stderr)

    # The Flathub manifest: the app from a tag pinned by its commit, the
    # checker data for protobuf-c, the rest as the local manifest
    git = tmp / "git"
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t", GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    if shutil.which("git"):
        run("git", "init", "-q", git, env=env)
        (git / "README").write_text("x\n")
        run("git", "-C", git, "add", "README", env=env)
        run("git", "-C", git, "commit", "-q", "-m", "x", env=env)
        run("git", "-C", git, "tag", "v0.2.0", env=env)
        commit = run("git", "-C", git, "rev-parse", "HEAD", env=env).stdout.strip()
        gen = root / "build-aux" / "flathub-manifest.py"
        r = run(sys.executable, gen, "--git-url", "https://example.org/embers.git", "--tag", "v0.2.0",
                "--repo", git, "--out", tmp / "flathub.json")
        check(r.returncode == 0, "flathub-manifest.py writes the manifest", r.stderr)
        m = json.loads((tmp / "flathub.json").read_text())
        local = json.loads((root / "flatpak" / "io.github.emberslab.Embers.json").read_text())
        app = [x for x in m["modules"] if x["name"] == "embers"][0]
        check(app["sources"] == [{"type": "git", "url": "https://example.org/embers.git", "tag": "v0.2.0",
                                  "commit": commit}], "the app comes from the tag, pinned by its commit",
              json.dumps(app["sources"]))
        proto = [x for x in m["modules"] if x["name"] == "protobuf-c"][0]["sources"][0]
        checker = proto.get("x-checker-data", {})
        check(checker.get("type") == "json" and "protobuf-c/protobuf-c/releases" in checker.get("url", "") and
              "$version" in checker.get("url-query", ""), "protobuf-c carries update-checker data", json.dumps(checker))
        for key in ("id", "runtime", "runtime-version", "sdk", "command", "finish-args", "cleanup"):
            check(m.get(key) == local.get(key), f"the manifest keeps the local manifest's {key}")
        spec = importlib.util.spec_from_file_location("check_flatpak", root / "build-aux" / "check-flatpak.py")
        check_flatpak = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(check_flatpak)
        problems = [p for module in m["modules"] for p in check_flatpak.sources_pinned(module)]
        check(not problems, "every source is pinned (check-flatpak.py's rule)", "; ".join(problems))
        r = run(sys.executable, gen, "--git-url", "https://example.org/embers.git", "--tag", "v9.9.9", "--repo", git)
        check(r.returncode != 0 and "no tag v9.9.9" in r.stderr, "a tag that does not exist is refused", r.stderr)
    else:
        print(f"ok {n + 1} - the Flathub manifest # SKIP no git")
        n += 1

    # flatpak-dist.sh: its help, and what it says where it cannot run
    dist = root / "build-aux" / "flatpak-dist.sh"
    r = run("bash", dist, "--help")
    check(r.returncode == 0 and "flatpakref" in r.stdout, "flatpak-dist.sh --help", r.stderr)
    r = run("bash", dist)
    check(r.returncode == 2 and "--url" in r.stderr, "flatpak-dist.sh asks for --url", r.stderr)
    bare = tmp / "bin"
    bare.mkdir()
    for tool in ("python3", "dirname", "sed"):
        found = shutil.which(tool)
        if found:
            os.symlink(found, bare / tool)
    r = run(shutil.which("bash"), dist, "--url", "https://example.org/embers",
            env=dict(os.environ, PATH=str(bare)))
    check(r.returncode == 1 and "flatpak-builder" in r.stderr and "apt install" in r.stderr,
          "without flatpak-builder it says what to install", r.stderr)

print(f"1..{n}")
sys.exit(1 if failed else 0)
