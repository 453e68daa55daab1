"""Which files are build files, and their port: the one entry the CLI and the server share (light to
import: the rules load on the first port)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from cass_lsp.buildfiles.porting import Result, Settings

Kind = Literal["cmake", "make"]
MAKE_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile"})
TOOLCHAIN_FILE = os.path.join(os.path.dirname(__file__), "data", "hip-debian.cmake")
"""The toolchain file a ported CMake project needs on Debian's ROCm packages (not on /opt/rocm)."""
HIP_CLANG_WRAPPER = os.path.join(os.path.dirname(__file__), "data", "hip-clang++")
"""clang-15 with Debian's ROCm flags on every command line: the toolchain file's HIP compiler, and a
Makefile's compiler where it was ported with ``--make-compiler clang``."""


def kind(path: str) -> Kind | None:
    name = os.path.basename(path)
    if name == "CMakeLists.txt" or name.endswith(".cmake"):
        return "cmake"
    if name in MAKE_NAMES or name.endswith(".mk"):
        return "make"
    return None


def translate(path: str, text: str, settings: Settings) -> Result:
    """``text`` (the file at ``path``) ported; ValueError when ``path`` is not a build file."""
    from cass_lsp.buildfiles import cmake, cmake_reverse, make

    found = kind(path)
    if found == "cmake":
        return (cmake_reverse if settings.reverse else cmake).translate(text, settings)
    if found == "make":
        return make.translate(text, settings)
    raise ValueError(f"{path}: not a CMake or Make file")


def finds_toolkit(build_files: Iterable[str]) -> bool:
    """Some CMake file among ``build_files`` finds the CUDA toolkit."""
    from cass_lsp.buildfiles import cmake

    for path in build_files:
        if kind(path) == "cmake":
            try:
                with open(path, encoding="utf-8", errors="surrogateescape") as f:
                    if cmake.finds_toolkit(f.read()):
                        return True
            except OSError:
                continue
    return False


HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".tcc")
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](?P<path>[^>"]+)[>"]', re.MULTILINE)


def families(sources: Iterable[str], build_files: Iterable[str]) -> frozenset[str]:
    """The library families a tree uses: the API names and includes of its units and of the headers
    they include (:func:`_used`), its CMake files' CUDA targets. Unreadable files count for nothing
    (their own port reports them)."""
    from cass_lsp.buildfiles import cmake, libraries

    found: set[str] = set()
    for text in _used(list(sources)):
        found |= libraries.families_in_source(text)
    for path in build_files:
        if kind(path) == "cmake":
            try:
                with open(path, encoding="utf-8", errors="surrogateescape") as f:
                    found |= cmake.families_in(f.read())
            except OSError:
                continue
    return frozenset(found)


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()
    except OSError:
        return None


def _used(sources: list[str]) -> list[str]:
    """The texts of the units among ``sources`` (all but headers) and of the headers of ``sources``
    they include, transitively: a header of a shared helper folder (cuda-samples' ``Common/``)
    that no unit includes asks for no library. An include resolves beside its includer, else to
    the tree's header whose path ends with it; a tree of headers only is read whole."""
    headers = [s for s in sources if s.lower().endswith(HEADER_SUFFIXES)]
    units = [s for s in sources if not s.lower().endswith(HEADER_SUFFIXES)]
    if not units:
        units, headers = headers, []
    by_name: dict[str, list[str]] = {}
    for header in headers:
        by_name.setdefault(os.path.basename(header), []).append(os.path.normpath(header))
    known = {p for paths in by_name.values() for p in paths}
    pending = list(units)
    seen = set(pending)
    texts: list[str] = []
    while pending:
        path = pending.pop()
        text = _read(path)
        if text is None:
            continue
        texts.append(text)
        for match in _INCLUDE.finditer(text):
            name = match.group("path")
            beside = os.path.normpath(os.path.join(os.path.dirname(path), name))
            tail = os.sep + os.path.normpath(name)
            found = [beside] if beside in known else [
                h for h in by_name.get(os.path.basename(name), []) if h.endswith(tail)][:1]
            for header in found:
                if header not in seen:
                    seen.add(header)
                    pending.append(header)
    return texts
