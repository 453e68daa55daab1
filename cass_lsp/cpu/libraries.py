"""The GPU libraries programs use and those the CPU runtime executes (cuBLAS/hipBLAS through
OpenBLAS, cuFFT/hipFFT in :file:`include/cass_cpu/fft.hpp`, cuRAND/hipRAND/rocRAND in
:file:`include/cass_cpu/curand.hpp`, ...): which of their names it defines, which of their headers it
provides, and what a program using them needs at link time.

A library is executed when the runtime's headers define names of it; a name of such a library that
the API tables know and those headers do not define is refused by name before building
(:mod:`cass_lsp.cpu.refuse`), so a call never compiles to nothing, while a program's own name
spelled like the library's (its ``CURAND_CHECK`` macro) is not refused.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.translate import tables

_INCLUDE_DIR = Path(__file__).resolve().parent / "include"

# First path component or name prefix of a library -> the library's name in messages.
LIBRARIES: dict[str, str] = {
    "cublas": "cuBLAS", "cufft": "cuFFT", "curand": "cuRAND", "cusparse": "cuSPARSE", "cusolver": "cuSOLVER",
    "cudnn": "cuDNN", "cutensor": "cuTENSOR", "nccl": "NCCL", "nvrtc": "NVRTC", "nvml": "NVML", "npp": "NPP",
    "nvjpeg": "nvJPEG", "cutlass": "CUTLASS", "thrust": "Thrust", "cub": "CUB", "hipblas": "hipBLAS",
    "hipfft": "hipFFT", "hiprand": "hipRAND", "hipsparse": "hipSPARSE", "hipsolver": "hipSOLVER",
    "hipcub": "hipCUB", "rocblas": "rocBLAS", "rocfft": "rocFFT", "rocrand": "rocRAND", "rocsparse": "rocSPARSE",
    "rocsolver": "rocSOLVER", "rocprim": "rocPRIM", "rocthrust": "rocThrust", "miopen": "MIOpen", "rccl": "RCCL",
    "hiprtc": "hipRTC", "rocwmma": "rocWMMA",
}  # fmt: skip
NAME_LIBRARY = re.compile(r"^(?P<lib>cublas|cufft|curand|cusparse|cusolver|cudnn|cutensor|nccl|nvrtc|nvml|hipblas|hipfft|"
                          r"hiprand|hipsparse|hipsolver|rocblas|rocfft|rocrand|rocsparse|rocsolver|miopen|rccl|hiprtc)",
                          re.I)
"""A name spelled as one of a library's (its prefix, any case)."""
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
# A function-like macro's definition, and a file-scope line that invokes one: cass_cpu/blas.hpp
# writes each BLAS routine once and builds its S, D, C and Z names by token pasting.
_MACRO = re.compile(r"^#define (?P<name>\w+)\((?P<params>[^)]*)\)(?P<body>(?:[^\n]*\\\n)*[^\n]*)", re.M)
_INVOCATION = re.compile(r"^(?P<name>\w+)\((?P<args>[^()]*)\)[ \t]*$", re.M)
_CALL = re.compile(r"\b(?P<name>\w+)\((?P<args>[^()]*)\)")
_PASTE = re.compile(r"\s*##\s*")
# The libraries linked for a program that includes one of their headers.
_LINKED: dict[str, tuple[str, str, str]] = {
    # library: (shared object the linker finds, linker flag, Debian package)
    "cuBLAS": ("libopenblas.so", "-lopenblas", "libopenblas-dev"),
    "hipBLAS": ("libopenblas.so", "-lopenblas", "libopenblas-dev"),
}
# System headers whose functions g++ does not link by default: <omp.h>'s omp_* are libgomp's. A
# CMake build links them through OpenMP::OpenMP_CXX, which the CPU runner's one g++ command lacks;
# linking alone adds no -fopenmp: the pragmas stay as the program's own compile flags have them.
_SYSTEM_LINKED = {"omp.h": "-lgomp"}
_INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*[<"](?P<path>[^>"]+)[>"]', re.M)


def header_library(path: str) -> str | None:
    """The library whose public header ``path`` (as an #include names it) the runtime provides."""
    for library, headers in _HEADERS.items():
        if path in headers and not path.startswith("cass_cpu/"):
            return library
    return None


def provides(path: str) -> bool:
    """Whether ``path`` (as an #include names it) is one of the runtime's own headers."""
    return ".." not in path and not path.startswith("/") and (_INCLUDE_DIR / path).is_file()


def implemented(library: str) -> bool:
    """Whether the CPU runtime executes ``library`` (a name of :data:`LIBRARIES`), in part at least."""
    return library in _HEADERS or library in runtime_library_names().values()


@functools.cache
def runtime_library_names() -> dict[str, str]:
    """Each name spelled like a library's that the runtime's headers mention, with its library."""
    names: dict[str, str] = {}
    for header in sorted(_INCLUDE_DIR.rglob("*.h*")):
        text = _COMMENT.sub(" ", header.read_text(encoding="utf-8"))
        for token in _IDENTIFIER.findall(text):
            m = NAME_LIBRARY.match(token)
            if m:
                names[token] = LIBRARIES[m["lib"].lower()]
    return names


@functools.cache
def _api_names() -> frozenset[str]:
    """Every CUDA, HIP and ROCm library name the API tables know."""
    names: set[str] = set()
    for cuda in tables.names():
        row = tables.row(cuda)
        if row is not None:
            names.update(n for n in (row.cuda, row.hip, row.alt) if n)
    return frozenset(names)


@functools.cache
def defined_names(library: str) -> frozenset[str]:
    """Every identifier the runtime's headers of ``library`` define (and some they only use: a name
    of another library they mention is not one of this library's). A library without a header list
    here: the names of it its headers mention."""
    if library not in _HEADERS:
        return frozenset(name for name, owner in runtime_library_names().items() if owner == library)
    names: set[str] = set()
    for header in _HEADERS[library]:
        text = _COMMENT.sub(" ", (_INCLUDE_DIR / header).read_text(encoding="utf-8"))
        names.update(_IDENTIFIER.findall(text))
        names.update(_IDENTIFIER.findall(_pasted(text)))
    return frozenset(names)


def _pasted(text: str) -> str:
    """The expansions of the function-like macros that ``text`` invokes on a line of their own, with
    the macros they invoke in turn: where a header builds names by token pasting, which its text
    does not spell out."""
    macros = {m["name"]: ([p.strip() for p in m["params"].split(",")], m["body"].replace("\\\n", " "))
              for m in _MACRO.finditer(text)}

    def expand(name: str, args: str) -> str:
        params, body = macros[name]
        values = dict(zip(params, (a.strip() for a in args.split(",")), strict=False))
        body = _PASTE.sub("", _IDENTIFIER.sub(lambda token: values.get(token[0], token[0]), body))
        return body + "".join(expand(call["name"], call["args"]) for call in _CALL.finditer(body)
                              if call["name"] in macros)

    return "".join(expand(m["name"], m["args"]) for m in _INVOCATION.finditer(text) if m["name"] in macros)


def unexecuted(library: str, name: str) -> bool:
    """Whether ``name``, spelled like one of ``library``'s, is an API name of it (in the CUDA<->HIP
    tables) that the runtime does not define. A name of the program's own (its ``CUFFT_CHECK`` macro)
    is not one."""
    if name in defined_names(library):
        return False
    return name in _api_names() or name in tables.reverse_names()


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
            flag = _LINKED[library][1] if library in _LINKED else _SYSTEM_LINKED.get(m["path"])
            if flag is not None and flag not in flags:
                flags.append(flag)
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
