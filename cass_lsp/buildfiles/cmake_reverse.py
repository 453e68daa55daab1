"""CMake files ported HIP -> CUDA, where the forward tables (:mod:`cass_lsp.buildfiles.cmake`) are
symmetric: the HIP language, its variables, properties and generator expressions, ``hip``'s
packages and targets, ``.hip`` sources, and HIP compiler flags (:func:`nvcc_flags.port_back`). The
AMD targets become the NVIDIA target ``Settings.nvidia_arch``; HIP library packages go, since the
CUDA toolkit's package provides every library."""

from __future__ import annotations

import re

from cass_lsp.buildfiles import cmake, libraries
from cass_lsp.buildfiles.cmake_syntax import Argument, Command, commands
from cass_lsp.buildfiles.porting import Result, Rewriter, Settings
from cass_lsp.compile import nvcc_flags

_VARIABLES = {hip: cuda for cuda, hip in cmake.VARIABLES.items() if cuda.startswith("CMAKE_CUDA_")}
_VARIABLES.update({"hip_FOUND": "CUDAToolkit_FOUND", "hip_INCLUDE_DIRS": "CUDAToolkit_INCLUDE_DIRS",
                   "hip_LIB_INSTALL_DIR": "CUDAToolkit_LIBRARY_DIR", "hip_VERSION": "CUDAToolkit_VERSION",
                   "ROCM_PATH": "CUDAToolkit_ROOT"})
_PROPERTIES = {hip: cuda for cuda, hip in cmake.PROPERTIES.items()}
_GENEX = {hip: cuda for cuda, hip in cmake.GENEX.items()}
_TARGETS = {hip: cuda for hip, cuda in libraries.reverse_link().items() if "::" in hip}
_HIP_PACKAGES = {h.package for f in ("blas", "sparse", "rand", "solver", "fft", "cub", "thrust")
                 for lib in ("hip", "roc") if (h := libraries.hip(f, lib)).package}
_WORD = re.compile(r"\b(?:CMAKE_HIP_\w+|hip_\w+|ROCM_PATH|HIP_\w+)\b")
_HIP_SUFFIX = re.compile(r"\.hip(?=$|[;\s\"])", re.IGNORECASE)
_FLAGGED = re.compile(r"^\$<\$<COMPILE_LANGUAGE:CUDA>:(?P<body>.*)>$", re.DOTALL)


def _nvidia_number(arch: str) -> str:
    return re.sub(r"^(?:sm|compute)_", "", arch)


def translate(text: str, settings: Settings) -> Result:
    port = Rewriter(text, settings)
    replace = port.replace

    def note(offset: int, message: str) -> None:
        port.find(offset, "info", message)

    def word(arg: Argument) -> str:
        new = arg.text
        for hip, cuda in _GENEX.items():
            new = new.replace(hip, cuda)
        if new in _TARGETS:
            return _TARGETS[new]
        new = _WORD.sub(lambda m: _VARIABLES.get(m.group(), _PROPERTIES.get(m.group(), m.group())), new)
        return _HIP_SUFFIX.sub(".cu", new)

    def write(arg: Argument, new: str) -> None:
        if new != arg.text:
            replace(arg.start, arg.end, f'"{new}"' if arg.quoted else new, "names")

    for command in commands(text):
        args = command.args
        if text[command.start:command.end] == cmake.DEVICE_OPTIMISATION:  # the forward port's own line
            line = text.rfind("\n", 0, command.start)
            replace(line if line >= 0 and not text[line:command.start].strip() else command.start, command.end, "",
                    "flags")
            note(command.start, "the port's device optimisation dropped: nvcc optimises device code itself")
            continue
        if command.name == "find_package" and args:
            if args[0].text == "hip":
                replace(command.start, command.end, "find_package(CUDAToolkit REQUIRED)", "packages")
                continue
            if args[0].text in _HIP_PACKAGES:
                replace(command.start, command.end, "", "packages")
                note(command.start, f"find_package({args[0].text}) dropped: the CUDA toolkit provides the library")
                continue
        arch_values = _architecture_values(command)
        flagged = _flag_arguments(command)
        for i, arg in enumerate(args):
            if command.name in cmake.LANGUAGE_COMMANDS and arg.text == "HIP":
                write(arg, "CUDA")
            elif i in arch_values:
                write(arg, ";".join(dict.fromkeys(_nvidia_number(settings.nvidia_arch) for _ in arg.text.split(";"))))
                note(arg.start, f"AMD targets {arg.text} -> {settings.nvidia_arch}")
            elif i in flagged:
                write(arg, _port_flags(word(arg), settings))
            elif arg.text == "HIP" and i > 0 and args[i - 1].text == "LANGUAGE":
                write(arg, "CUDA")
            else:
                write(arg, word(arg))
    return port.result()


def _architecture_values(command: Command) -> set[int]:
    names = [a.text for a in command.args]
    for key in ("CMAKE_HIP_ARCHITECTURES", "HIP_ARCHITECTURES"):
        if key in names:
            at = names.index(key)
            if command.name == "set" or command.name == "set_property":
                return {i for i in range(at + 1, len(names)) if names[i] not in ("CACHE", "STRING", "FORCE")
                        and not (command.args[i].quoted and " " in names[i])}
            return {at + 1} if at + 1 < len(names) else set()
    return set()


def _flag_arguments(command: Command) -> set[int]:
    names = [a.text for a in command.args]
    if command.name in cmake.FLAG_COMMANDS:
        return {i for i, n in enumerate(names) if n.startswith("-") or "COMPILE_LANGUAGE:HIP" in n}
    if command.name in ("set", "string") and any(n.startswith("CMAKE_HIP_FLAGS") for n in names[:2]):
        return set(range(2 if command.name == "string" else 1, len(names)))
    return set()


def _port_flags(text: str, settings: Settings) -> str:
    flagged = _FLAGGED.match(text)
    body = flagged.group("body") if flagged else text
    separator = ";" if flagged or ";" in body else " "
    ported = nvcc_flags.port_back([t for t in re.split(r"[;\s]+", body) if t], settings.nvidia_arch)
    joined = separator.join(ported.flags)
    return f"$<$<COMPILE_LANGUAGE:CUDA>:{joined}>" if flagged else (" " + joined if body.startswith(" ") else joined)
