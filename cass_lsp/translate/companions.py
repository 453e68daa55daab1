"""The other files of a tree translated with ``--out-dir``: its input data, scripts and documents,
copied so that the port builds and runs as the original does (a test that reads
``${PROJECT_SOURCE_DIR}/data/plate.txt`` finds it).

Left out: hidden folders (``.git``), build folders (those holding a ``CMakeCache.txt``), build
products (objects, archives, libraries), files the translation writes, and the output folder itself
when it lies inside the tree. Copies keep their modes and times; an existing copy is replaced. A
symbolic link is copied as a link, never as the file it names: a ``data.txt -> ~/.ssh/id_ed25519``
must not put the key into the port the user commits. A file ``rewrite`` gives new text for (a
shell script naming renamed sources) is written with that text, keeping its mode and times.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable
from typing import NamedTuple

_REWRITTEN_MAX_BYTES = 1 << 20
_PRODUCTS = (".o", ".obj", ".a", ".so", ".dylib", ".lib", ".dll", ".exe", ".cubin", ".fatbin", ".ptx", ".pyc")


class Copied(NamedTuple):
    files: int
    bytes: int
    errors: list[str]


def copy(root: str, out_dir: str, translated: Iterable[str],
         rewrite: Callable[[str, bytes], bytes | None] | None = None) -> Copied:
    """Copy ``root``'s other files under ``out_dir`` at their relative paths. ``translated``: the
    source paths the translation writes (not copied); ``rewrite(path, text)``: the text the copy of
    a file of up to 1 MiB (a script, not a data set) gets instead of its own, or None."""
    skip = {os.path.abspath(p) for p in translated}
    out_abs = os.path.abspath(out_dir)
    files = size = 0
    errors: list[str] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(
            d for d in dirs
            if not d.startswith(".")
            and os.path.abspath(os.path.join(folder, d)) != out_abs
            and not os.path.isfile(os.path.join(folder, d, "CMakeCache.txt"))
        )  # fmt: skip
        for name in sorted(names):
            source = os.path.join(folder, name)
            link = os.path.islink(source)
            if os.path.abspath(source) in skip or name.endswith(_PRODUCTS) or not (link or os.path.isfile(source)):
                continue
            target = os.path.join(out_dir, os.path.relpath(source, root))
            try:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                # Neither the copy of a link nor a file copied over a link an earlier run left there
                # may write through it (copy2 would open the link's target).
                if os.path.islink(target) or (link and os.path.lexists(target)):
                    os.unlink(target)
                shutil.copy2(source, target, follow_symlinks=False)
                if rewrite is not None and not link and os.path.getsize(source) <= _REWRITTEN_MAX_BYTES:
                    _rewrite(source, target, rewrite)
            except OSError as error:
                errors.append(f"{source}: {error.strerror or error}")
                continue
            files += 1
            size += os.lstat(source).st_size
    return Copied(files, size, errors)


def _rewrite(source: str, target: str, rewrite: Callable[[str, bytes], bytes | None]) -> None:
    with open(source, "rb") as f:
        new = rewrite(source, f.read())
    if new is not None:
        with open(target, "r+b") as f:
            f.write(new)
            f.truncate()
        shutil.copystat(source, target)
