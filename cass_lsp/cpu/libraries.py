"""The GPU libraries the CPU runtime executes (cuBLAS/hipBLAS through OpenBLAS, cuFFT/hipFFT in its
own headers, :file:`include/cass_cpu/fft.hpp`): which of their names it defines, which of their headers it provides, and what a
program using them needs at link time.

A name of these libraries that the runtime's headers do not define is refused by name before
building (:mod:`cass_lsp.cpu.refuse`), so a call never compiles to nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.translate import tables

_INCLUDE_DIR = Path(__file__).resolve().parent / "include"
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_PROBE_TIMEOUT_S = 10.0

# The headers of each library: what a program includes, and what defines its names.
_HEADERS: dict[str, tuple[str, ...]] = {
    "cuBLAS": ("cublas_v2.h", "cublas_api.h", "cass_cpu/blas.hpp", "cass_cpu/library_types.hpp"),
    "hipBLAS": ("hipblas/hipblas.h", "hipblas.h", "cass_cpu/hipblas.hpp", "cass_cpu/hipblas_names.hpp"),
    "cuFFT": ("cufft.h", "cass_cpu/fft.hpp", "cass_cpu/library_types.hpp"),
    "hipFFT": ("hipfft/hipfft.h", "hipfft.h", "cass_cpu/hipfft.hpp", "cass_cpu/hipfft_names.hpp"),
}
# cass_cpu/blas.hpp writes the S and D entry points of these routines once (CASS_BLAS_REAL), so
# their names are not spelled out in its text.
_REAL_ROUTINES = ("axpy", "dot", "nrm2", "asum", "scal", "copy", "swap", "gemv", "ger", "gemm", "symm", "trsm")
_REAL_UNVERSIONED = ("gemmStridedBatched", "gemmBatched")
# The libraries linked for a program that includes one of their headers.
_LINKED: dict[str, tuple[str, str, str]] = {
    # library: (shared object the linker finds, linker flag, Debian package)
    "cuBLAS": ("libopenblas.so", "-lopenblas", "libopenblas-dev"),
    "hipBLAS": ("libopenblas.so", "-lopenblas", "libopenblas-dev"),
}
_INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*[<"](?P<path>[^>"]+)[>"]', re.M)


def header_library(path: str) -> str | None:
    """The library whose public header ``path`` (as an #include names it) the runtime provides."""
    for library, headers in _HEADERS.items():
        if path in headers and not path.startswith("cass_cpu/"):
            return library
    return None


def implemented(library: str) -> bool:
    """Whether the CPU runtime executes ``library`` (a name of :data:`cass_lsp.cpu.refuse`'s table)."""
    return library in _HEADERS


@functools.cache
def defined_names(library: str) -> frozenset[str]:
    """Every identifier the runtime's headers of ``library`` define (and some they only use: a name
    of another library they mention is not one of this library's)."""
    names: set[str] = set()
    for header in _HEADERS[library]:
        text = (_INCLUDE_DIR / header).read_text(encoding="utf-8")
        names.update(_IDENTIFIER.findall(_COMMENT.sub(" ", text)))
    if library == "cuBLAS":
        for precision in "SD":
            names.update(f"cublas{precision}{r}{suffix}" for r in _REAL_ROUTINES for suffix in ("", "_v2"))
            names.update(f"cublas{precision}{r}" for r in _REAL_UNVERSIONED)
            names.update(f"cublasI{precision.lower()}{r}{suffix}" for r in ("amax", "amin") for suffix in ("", "_v2"))
    return frozenset(names)


def unexecuted(library: str, name: str) -> bool:
    """Whether ``name``, spelled like one of ``library``'s, is an API name of it (in the CUDA<->HIP
    tables) that the runtime does not define. A name of the program's own (its ``CUFFT_CHECK`` macro)
    is not one."""
    if name in defined_names(library):
        return False
    return tables.row(name) is not None or name in tables.reverse_names()


def missing(library: str, cxx: str = "g++") -> str | None:
    """Why a program using ``library`` cannot be linked here (None: it can), with the install command."""
    if library not in _LINKED:
        return None
    shared_object, _, package = _LINKED[library]
    if _found_by_linker(cxx, shared_object):
        return None
    return f"{library} runs on OpenBLAS, which is not installed (apt-get install {package})"


def linked_status(cxx: str = "g++") -> list[tuple[str, bool, str]]:
    """Each group of libraries the runner links from the system: (names, found, what or why not)."""
    out: list[tuple[str, bool, str]] = []
    for shared_object, _, package in sorted(set(_LINKED.values())):
        names = "/".join(library for library, linked in _LINKED.items() if linked[0] == shared_object)
        why = missing(next(library for library, linked in _LINKED.items() if linked[0] == shared_object), cxx)
        out.append((names, why is None, why or f"{shared_object} ({package})"))
    return out


def link_flags(texts: Iterable[str]) -> list[str]:
    """The linker flags of the libraries the sources in ``texts`` include."""
    flags: list[str] = []
    for text in texts:
        for m in _INCLUDE_LINE.finditer(text):
            library = header_library(m["path"])
            if library in _LINKED and _LINKED[library][1] not in flags:
                flags.append(_LINKED[library][1])
    return flags


@functools.cache
def _found_by_linker(cxx: str, shared_object: str) -> bool:
    """``-print-file-name`` answers a path when the compiler's linker finds the file, the bare name when not."""
    try:
        result = proc.run([cxx, f"-print-file-name={shared_object}"], timeout=_PROBE_TIMEOUT_S)
    except OSError:
        return False
    answer = result.text().strip()
    return result.ok and answer != shared_object and Path(answer).is_file()
