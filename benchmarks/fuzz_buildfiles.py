"""The build-file porters over every real build file on this machine: none may raise.

  .venv/bin/python benchmarks/fuzz_buildfiles.py [ROOT ...] [--mirrors DIR] [--skip-mirror NAME ...]

Walks each ROOT (default: /usr/share, /usr/lib, this Python's site-packages) for ``Makefile``,
``GNUmakefile``, ``makefile``, ``*.mk``, ``CMakeLists.txt`` and ``*.cmake``, and reads the same names
from each bare git mirror under ``--mirrors`` (default /work/.mirror, when it exists; ``git
ls-tree`` / ``git cat-file``, no work tree), then ports each file CUDA -> HIP (renamed sources and not,
hipcc and clang) and HIP -> CUDA through :func:`cass_lsp.buildfiles.files.translate`. Prints the
files tried, those with CUDA in them, rewrites and findings, and each exception with its file;
exit status 1 when any raised.
"""

from __future__ import annotations

import argparse
import os
import site
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cass_lsp.buildfiles import files
from cass_lsp.buildfiles.porting import Settings
from cass_lsp.core import proc

SETTINGS = (
    Settings(arches=("gfx1030", "gfx1100")),
    Settings(arches=("gfx90a",), renamed_sources=False, compiler="clang", libraries="roc"),
    Settings(reverse=True),
)
_MAX_BYTES = 4 << 20


def _on_disk(root: str) -> Iterator[tuple[str, str]]:
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(folder, name)
            if files.kind(path) and os.path.isfile(path) and not os.path.islink(path):
                try:
                    if os.path.getsize(path) > _MAX_BYTES:
                        continue
                    with open(path, encoding="utf-8", errors="surrogateescape") as f:
                        yield path, f.read()
                except OSError:
                    continue


def _in_mirror(git_dir: str) -> Iterator[tuple[str, str]]:
    listing = proc.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "-z", "HEAD"], timeout=120)
    if not listing.ok:
        return
    for entry in listing.stdout.split(b"\0"):
        meta, _, name = entry.partition(b"\t")
        path = name.decode("utf-8", "surrogateescape")
        if not path or files.kind(path) is None or not meta.startswith(b"100"):
            continue
        blob = proc.run(["git", "--git-dir", git_dir, "cat-file", "blob", meta.split()[2].decode()], timeout=60)
        if blob.ok and len(blob.stdout) <= _MAX_BYTES:
            yield f"{git_dir}/{path}", blob.stdout.decode("utf-8", "surrogateescape")


def _mirrors(folder: str, skipped: list[str]) -> Iterator[str]:
    if not os.path.isdir(folder):
        return
    for name in sorted(os.listdir(folder)):
        if name in skipped:
            continue
        base = os.path.join(folder, name)
        for candidate in (base, os.path.join(base, "repo")):
            if os.path.isfile(os.path.join(candidate, "HEAD")):
                yield candidate
                break


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("roots", nargs="*", default=["/usr/share", "/usr/lib", *site.getsitepackages()])
    parser.add_argument("--mirrors", default="/work/.mirror")
    parser.add_argument("--skip-mirror", action="append", default=[], metavar="NAME")
    args = parser.parse_args()
    sources: list[Iterator[tuple[str, str]]] = [_on_disk(root) for root in args.roots]
    sources += [_in_mirror(git_dir) for git_dir in _mirrors(args.mirrors, args.skip_mirror)]
    tried = cuda = rewrites = findings = 0
    failures: list[str] = []
    for found in sources:
        for path, text in found:
            tried += 1
            cuda += "nvcc" in text or "CUDA" in text
            for settings in SETTINGS:
                try:
                    result = files.translate(path, text, settings)
                except Exception:  # the point: every exception, whatever it is, is a porter defect
                    failures.append(f"{path} ({settings}):\n{traceback.format_exc()}")
                    continue
                rewrites += sum(result.stats.values())
                findings += len(result.findings)
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"build files: {tried} ported {len(SETTINGS)} ways ({cuda} naming CUDA or nvcc): {rewrites} rewrites, "
          f"{findings} findings, {len(failures)} exception(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
