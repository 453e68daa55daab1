"""Compile a CUDA or HIP program against the CPU runtime with the host C++ compiler."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import msgspec

from cass_lsp.core import proc
from cass_lsp.core import settings as config
from cass_lsp.core.filekinds import COMMAND_UNIT_SUFFIXES, CUDA_HEADER_SUFFIX, HEADER_SUFFIXES
from cass_lsp.core.wheels import cccl_include_dir
from cass_lsp.cpu import libraries
from cass_lsp.cpu.rewrite import prepare_source

_INCLUDE_DIR = Path(__file__).resolve().parent / "include"
_DEFAULT_CXX = "g++"
_HIP_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]hip/', re.M)
_VERSION_TIMEOUT_S = 10.0
# The runtime's headers are C++17 (inline variables, std::apply): an older standard a unit asks for is
# raised to it, and C++17's removals that old code still uses are let through where g++ allows it.
_STANDARD = re.compile(r"^-std=(?P<dialect>c|gnu)\+\+(?P<year>98|03|0x|11|1y|14)$")
_RAISED_STANDARD_FLAGS = ("-Wno-register",)
_SOURCE_SUFFIXES = frozenset({*COMMAND_UNIT_SUFFIXES, CUDA_HEADER_SUFFIX, *HEADER_SUFFIXES})


class BuildResult(msgspec.Struct, frozen=True):
    ok: bool
    exe: str  # path of the executable ("" when the build failed)
    log: str  # compiler output
    command: list[str]
    duration: float  # seconds
    bound: str | None = None  # the bound of cass.compilerLimits that stopped the compiler, in words


def include_dir() -> Path:
    """The runtime's headers (cuda_runtime.h, hip/hip_runtime.h, cass_cpu/*.hpp)."""
    return _INCLUDE_DIR


def is_hip(source_path: Path, text: str) -> bool:
    """HIP mode (64-bit ballot masks, hip* names) for .hip files and sources that include hip/ headers."""
    return source_path.suffix.lower() == ".hip" or _HIP_INCLUDE.search(text) is not None


def command(source_path: Path, prepared: Path, exe: Path, *, hip: bool, warp_size: int, cxx: str,
            extra_args: Sequence[str] = (), platform: Literal["amd", "nvidia"] | None = None,
            more_units: Sequence[Path] = (), link: Sequence[str] = ()) -> list[str]:
    """The g++ command line. ``platform`` is the GPU a HIP run stands for: its ``__HIP_PLATFORM_*__``
    macro is independent of the warp size (an RDNA target runs wave-32 and is still AMD); by default
    a 64-wide warp means AMD and a 32-wide one NVIDIA. ``more_units`` are compiled and linked with
    ``prepared`` (a program of several units); ``link`` names the libraries its includes need
    (:func:`library_link_flags`)."""
    defines = [f"-DCASS_CPU_WARP_SIZE={warp_size}", "-DCASS_CPU=1"]
    if hip:
        amd = platform == "amd" if platform is not None else warp_size == 64
        defines += ["-DCASS_CPU_HIP=1", "-D__HIPCC__=1",
                    "-D__HIP_PLATFORM_AMD__=1" if amd else "-D__HIP_PLATFORM_NVIDIA__=1"]
    else:
        defines += ["-D__CUDACC__=1"]
    return [
        cxx, "-std=c++17", "-O2", "-pthread",
        # CUDA code reinterprets buffers freely (float4 loads of float arrays); nvcc tolerates it.
        "-fno-strict-aliasing",
        # A frame larger than the guard below a fiber's stack (a big local array) is probed page by
        # page, so an overflow lands in the guard and is reported instead of corrupting a neighbour.
        "-fstack-clash-protection",
        "-I", str(_INCLUDE_DIR), "-I", str(source_path.parent), *_library_includes(), *defines,
        # nvcc includes cuda_runtime.h implicitly; many .cu files never include it, and headers such
        # as cuda-samples' helper_cuda.h test its include guard
        "-include", "cass_cpu/hip_api.hpp" if hip else "cuda_runtime.h",
        *raised_standard(extra_args)[0],
        "-x", "c++", str(prepared), *map(str, more_units), "-o", str(exe), *link,
    ]  # fmt: skip


def library_link_flags(units: Sequence[Path]) -> list[str]:
    """The libraries (OpenBLAS for cuBLAS/hipBLAS) the program of ``units`` includes the headers of:
    its units and the files beside them in their folder tree (where its headers are written), so a
    program that uses none links none."""
    root = Path(os.path.commonpath([u.parent for u in units]))
    files = {*units, *(p for p in root.rglob("*") if p.suffix.lower() in _SOURCE_SUFFIXES and p.is_file())}
    return libraries.link_flags(p.read_text(encoding="utf-8", errors="replace") for p in sorted(files))


def _library_includes() -> list[str]:
    """CCCL's headers, for Thrust (and rocThrust's same-named headers): after the runtime's, whose
    ``thrust/`` shadows configure them (``cass_cpu/thrust_config.hpp``)."""
    cccl = cccl_include_dir()
    return ["-isystem", str(cccl)] if cccl is not None else []


def raised_standard(arguments: Sequence[str]) -> tuple[list[str], str | None]:
    """``arguments`` with a language standard older than the runtime's C++17 raised to C++17 (GNU
    extensions kept), and what was raised, in words (None: nothing was)."""
    out: list[str] = []
    raised: str | None = None
    for arg in arguments:
        older = _STANDARD.match(arg)
        if older is None:
            out.append(arg)
            continue
        out += [f"-std={older.group('dialect')}++17", *_RAISED_STANDARD_FLAGS]
        raised = f"{arg} raised to -std={older.group('dialect')}++17 (the CPU runtime's headers need C++17)"
    return out, raised


def build(
    source_path: Path,
    text: str,
    out: Path,
    *,
    warp_size: int = 32,
    timeout: float = 120,
    cancel: threading.Event | None = None,
    extra_args: Sequence[str] = (),
    cxx: str = _DEFAULT_CXX,
    limits: proc.Limits | None = None,
) -> BuildResult:
    """Compile ``text`` (the contents of ``source_path``) to the executable ``out``, each compiler
    process bounded by ``limits`` (default: ``cass.compilerLimits``'s defaults).

    ``out`` is a path in a directory the caller owns (an existing directory gets ``<stem>`` inside
    it); the prepared source is written next to it. ``#line`` points compiler messages at
    ``source_path`` and its own line numbers.
    """
    _check_warp(warp_size)
    exe = out / source_path.stem if out.is_dir() else out
    exe.parent.mkdir(parents=True, exist_ok=True)
    prepared = exe.with_name(exe.name + ".cpu.cpp")
    quoted = str(source_path).replace("\\", "\\\\").replace('"', '\\"')
    prepared.write_text(f'#line 1 "{quoted}"\n' + prepare_source(text), encoding="utf-8")
    argv = command(source_path, prepared, exe, hip=is_hip(source_path, text), warp_size=warp_size, cxx=cxx,
                   extra_args=extra_args, link=libraries.link_flags([text]))
    return _compile(argv, exe, timeout, cancel, limits, raised_standard(extra_args)[1])


def build_program(
    units: Sequence[Path],
    exe: Path,
    *,
    hip: bool,
    warp_size: int = 32,
    timeout: float = 120,
    cancel: threading.Event | None = None,
    extra_args: Sequence[str] = (),
    platform: Literal["amd", "nvidia"] | None = None,
    cxx: str = _DEFAULT_CXX,
    limits: proc.Limits | None = None,
) -> BuildResult:
    """Compile and link a program's ``units``, already prepared (:func:`prepare_source`) and written
    with their headers into one folder tree, to ``exe`` (``platform`` as for :func:`command`,
    ``limits`` as for :func:`build`)."""
    _check_warp(warp_size)
    first, *rest = units
    argv = command(
        first, first, exe, hip=hip, warp_size=warp_size, cxx=cxx, extra_args=extra_args, platform=platform, more_units=rest,
        link=library_link_flags(units),
    )
    return _compile(argv, exe, timeout, cancel, limits, raised_standard(extra_args)[1])


def _check_warp(warp_size: int) -> None:
    if warp_size not in (32, 64):
        raise ValueError(f"warp_size must be 32 or 64, not {warp_size}")


def _compile(
    argv: list[str], exe: Path, timeout: float, cancel: threading.Event | None, limits: proc.Limits | None,
    raised: str | None,
) -> BuildResult:
    limits = limits or config.CompilerLimits().bounds()
    result = proc.run(argv, timeout=timeout, cwd=exe.parent, cancel=cancel, nice=10, limits=limits)
    log = result.text()
    if raised is not None and not result.ok:
        log += f"\nnote: {raised}"
    bound = limits.hit(result)
    if result.timed_out:
        log += f"\ncompiler timed out after {timeout:g} s"
    elif result.cancelled:
        log += "\nbuild cancelled"
    elif bound is not None:
        log += f"\nerror: the compiler {bound}"
    return BuildResult(
        ok=result.ok, exe=str(exe) if result.ok else "", log=log, command=argv, duration=result.duration, bound=bound
    )


def available(cxx: str = _DEFAULT_CXX) -> tuple[bool, str]:
    """Whether the host compiler is there, and its version line or why not."""
    if shutil.which(cxx) is None:
        return False, f"{cxx} not found on PATH (install g++ to run CUDA/HIP programs on the CPU)"
    return True, _compiler_version(cxx)


def toolchain_version(cxx: str = _DEFAULT_CXX) -> str:
    """Compiler version and a digest of the runtime headers: a cache key for built programs."""
    digest = hashlib.sha256()
    for header in sorted(_INCLUDE_DIR.rglob("*")):
        if header.is_file():
            digest.update(header.relative_to(_INCLUDE_DIR).as_posix().encode())
            digest.update(header.read_bytes())
    cccl = cccl_include_dir()
    if cccl is not None:  # Thrust's version is part of what a program using it was built with
        digest.update((cccl / "thrust" / "version.h").read_bytes())
    return f"{_compiler_version(cxx)}; cass-cpu {digest.hexdigest()[:16]}"


@functools.cache
def _compiler_version(cxx: str) -> str:
    try:
        result = proc.run([cxx, "--version"], timeout=_VERSION_TIMEOUT_S)
    except OSError as exc:
        return f"{cxx}: {exc}"
    first = result.text().splitlines()
    return first[0].strip() if first else cxx
