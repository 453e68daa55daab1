"""The options a user gives the original's build (``cmake -D…``, ``make VAR=…``), as the port's build
takes them: the CUDA variables that have a HIP counterpart renamed (``CMAKE_CUDA_FLAGS`` ->
``CMAKE_HIP_FLAGS``, its nvcc flags ported), the CUDA-only ones (a CUDA compiler, NVIDIA targets such as
``-DCUDA_ARCH=sm_80`` or ``-DCMAKE_CUDA_ARCHITECTURES=80``, the CUDA toolkit's path) left out and said, the
rest (``-DMODEL=cuda``, ``-DCMAKE_BUILD_TYPE=Release``, ``-G Ninja``) as given: they pick what the
project builds, on both sides."""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from cass_lsp.buildfiles import cmake
from cass_lsp.compile import nvcc_flags

_DEFINE = re.compile(r"^-D(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<type>:[A-Z]+)?=(?P<value>.*)$", re.S)
_MAKE_VARIABLE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>.*)$", re.S)
_NVIDIA_TARGET = re.compile(r"^(?:sm|compute|lto)_\d+[a-z]?(?:[,;](?:sm|compute|lto)_\d+[a-z]?)*$")
_NVCC = re.compile(r"(?:^|/)nvcc(?:\.exe)?$")
# CUDA variables whose value means nothing to the port: it gets its compiler and AMD targets elsewhere
_CUDA_ONLY = {"CMAKE_CUDA_COMPILER": "the HIP compiler comes from the HIP toolchain",
              "CMAKE_CUDA_ARCHITECTURES": "the port's AMD targets are its CMAKE_HIP_ARCHITECTURES",
              "CMAKE_CUDA_HOST_COMPILER": "the HIP compiler compiles host code itself",
              **dict.fromkeys(("CUDAToolkit_NVCC_EXECUTABLE", "CUDA_NVCC_EXECUTABLE"), "a path of the CUDA toolkit")}
_TOOLKIT_PATHS = frozenset({"CUDAToolkit_ROOT", "CUDA_TOOLKIT_ROOT_DIR", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT",
                            "CUDA_DIR", "CUDA_INSTALL_PATH"})


class PortedOptions(msgspec.Struct, frozen=True):
    arguments: tuple[str, ...]
    """The options for the port's build."""
    dropped: tuple[str, ...] = ()
    """Each option left out, with why (``-DCUDA_ARCH=sm_80 (CUDA-only: NVIDIA targets)``)."""
    dropped_names: tuple[str, ...] = ()
    """The variables the dropped options set."""


def cmake_options(arguments: Sequence[str]) -> PortedOptions:
    """``cmake`` configure ``arguments`` of the original as the port's (nvcc's targets in a flags
    variable are left out: the port's targets are its ``CMAKE_HIP_ARCHITECTURES``)."""
    kept: list[str] = []
    dropped: list[str] = []
    names: list[str] = []
    for arg in _joined_defines(arguments):
        define = _DEFINE.match(arg)
        if define is None:
            kept.append(arg)
            continue
        name, kind, value = define.group("name"), define.group("type") or "", define.group("value")
        why = _CUDA_ONLY.get(name) or _cuda_only(name, value)
        if why:
            dropped.append(f"{arg} (CUDA-only: {why})")
            names.append(name)
        elif name in cmake.FLAG_VARIABLES:
            hip = cmake.LEGACY_FLAG_VARIABLES.get(name) or cmake.VARIABLES[name]
            ported = nvcc_flags.port(value.split(), (), offload=False).flags
            kept.append(f"-D{hip}{kind}={' '.join(ported)}")
        else:
            kept.append(f"-D{cmake.VARIABLES.get(name, name)}{kind}={value}")
    return PortedOptions(tuple(kept), tuple(dropped), tuple(names))


def make_options(arguments: Sequence[str]) -> PortedOptions:
    """``make`` ``arguments`` of the original as the port's: a variable naming nvcc or NVIDIA targets
    is left out (the port's Makefile names its HIP compiler and AMD targets itself)."""
    kept: list[str] = []
    dropped: list[str] = []
    names: list[str] = []
    for arg in arguments:
        variable = _MAKE_VARIABLE.match(arg)
        why = variable and (_cuda_only(variable.group("name"), variable.group("value"))
                            or ("nvcc" if _NVCC.search(variable.group("value")) else ""))
        if variable and why:
            dropped.append(f"{arg} (CUDA-only: {why})")
            names.append(variable.group("name"))
        else:
            kept.append(arg)
    return PortedOptions(tuple(kept), tuple(dropped), tuple(names))


def _joined_defines(arguments: Sequence[str]) -> list[str]:
    """``-D NAME=VALUE`` (two words, as CMake also takes it) as one."""
    out: list[str] = []
    words = iter(arguments)
    for arg in words:
        out.append(f"-D{next(words, '')}" if arg == "-D" else arg)
    return out


def _cuda_only(name: str, value: str) -> str:
    """Why an option set as ``name=value`` means nothing to a HIP build ("" when it does)."""
    if _NVIDIA_TARGET.match(value.strip()):
        return "NVIDIA targets"
    if name in _TOOLKIT_PATHS:
        return "a path of the CUDA toolkit"
    return ""
