"""Which files are build files, and their port: the one entry the CLI and the server share (light to
import: the rules load on the first port)."""

from __future__ import annotations

import os
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


def families(sources: Iterable[str], build_files: Iterable[str]) -> frozenset[str]:
    """The library families a tree uses: its sources' API names and includes, its CMake files'
    CUDA targets. Unreadable files count for nothing (their own port reports them)."""
    from cass_lsp.buildfiles import cmake, libraries

    found: set[str] = set()
    for path in sources:
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                found |= libraries.families_in_source(f.read())
        except OSError:
            continue
    for path in build_files:
        if kind(path) == "cmake":
            try:
                with open(path, encoding="utf-8", errors="surrogateescape") as f:
                    found |= cmake.families_in(f.read())
            except OSError:
                continue
    return frozenset(found)
