"""A program's nvcc flags, and what each means to the other compilers that build it.

Verification compiles a program three ways: the original with nvcc, the HIP translation with
clang-19, and both with g++ against the CPU runtime. The flags come from the program's build
(``compile_commands.json``) and from the user (settings, CLI). :func:`split` sorts nvcc's flags into
what each compiler takes:

* preprocessor and language options (``-D``, ``-U``, ``-I``, ``-isystem``, ``-include``, ``-std``)
  mean the same everywhere;
* nvcc front-end options that only relax nvcc (``--expt-relaxed-constexpr``,
  ``--extended-lambda``) mean nothing to clang and g++, which accept what they allow;
* the targets (``-arch``, ``-gencode``, ``-code``) are the verification's own
  (``cass.verification.nvidiaArch`` and ``arches``), so a build's are left out;
* device code generation options (``-lineinfo``, ``-maxrregcount``, ``--ptxas-options``, ``-G``)
  are nvcc's own;
* ``-rdc=true`` is clang's ``-fgpu-rdc``; ``-use_fast_math`` is clang's ``-ffast-math`` (device
  and host alike in HIP); the CPU build keeps IEEE arithmetic (the numeric comparison's tolerances
  cover the difference);
* ``-Xcompiler`` options go to the host compilers (clang, g++) when they are on the safe list.

Flags from a build file are the workspace's: anything that could load or run code of the
workspace's choosing (``-ccbin``, ``-Xcompiler -fplugin=…``, ``-B``, ``-specs``) is never passed on;
every flag left out is listed in ``dropped`` with the reason, so the verdict can say what was not
applied. Response files (``@file``, ``--options-file``: CMake puts an nvcc unit's include folders in
one) are read, and the flags in them pass the same filter as the rest.

Porting a build (:mod:`cass_lsp.build.cmake`, :mod:`cass_lsp.build.make`) rewrites a build's own
command lines instead: :func:`port` turns nvcc's flags into the HIP compiler's (targets into
``--offload-arch`` per AMD target, ``-Xcompiler`` options unwrapped, each flag whose meaning differs
or that has none with a :class:`Note` saying why), :func:`port_back` the reverse where symmetric.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from cass_lsp.asm import includes

# option → takes a value (as the next argument when not attached)
_PREPROCESSOR = {"-D": False, "-U": False, "-I": True, "-isystem": True, "-iquote": True, "-include": True}
_LONG_PREPROCESSOR = {
    "--define-macro": "-D",
    "--undefine-macro": "-U",
    "--include-path": "-I",
    "--system-include": "-isystem",
    "--pre-include": "-include",
}
# nvcc-only options and whether they take a value
_NVCC_ONLY = {
    "--expt-relaxed-constexpr": False,
    "-expt-relaxed-constexpr": False,
    "--extended-lambda": False,
    "-extended-lambda": False,
    "--expt-extended-lambda": False,
    "-expt-extended-lambda": False,
    "-lineinfo": False,
    "--generate-line-info": False,
    "-G": False,
    "--device-debug": False,
    "-maxrregcount": True,
    "--maxrregcount": True,
    "-Xptxas": True,
    "--ptxas-options": True,
    "-Xnvlink": True,
    "--nvlink-options": True,
    "--default-stream": True,
    "-default-stream": True,
    "--keep": False,
    "-keep": False,
    "-res-usage": False,
    "--resource-usage": False,
    "-Wno-deprecated-gpu-targets": False,
    "--use-local-env": False,
    "-t": True,
    "--threads": True,
    "-forward-unknown-to-host-compiler": False,
    "--forward-unknown-to-host-compiler": False,
}
# the NVIDIA target of a verification is cass.verification.nvidiaArch, the AMD ones its arches
_TARGETS = {"-arch": True, "--gpu-architecture": True, "-code": True, "--gpu-code": True, "-gencode": True, "--generate-code": True}
# options that would choose what runs (the host compiler, its plugins, linker scripts): never from a build file
_REFUSED = {"-ccbin": True, "--compiler-bindir": True, "-B": True, "-Xlinker": True, "--linker-options": True, "-specs": True, "--specs": True}
_FAST_MATH = {"-use_fast_math", "--use_fast_math"}
_RDC = re.compile(r"^-{1,2}(?:rdc|relocatable-device-code)(?:=(?P<value>\w+))?$")
_STD = re.compile(r"^-{1,2}std(?:=(?P<value>.+))?$")
_HOST_PASSING = {"-Xcompiler", "--compiler-options"}
# host compiler options safe to pass on: optimisation, warnings, language dialect, OpenMP, threads
_SAFE_HOST = re.compile(r"^(?:-O[0-3sgz]?|-W(?!l,|a,|p,)[\w=+-]*|-w|-g\d?|-fopenmp|-pthread|-fPIC|-fpic|-fPIE|-fpie|-f(?:no-)?(?:exceptions|rtti|strict-aliasing|omit-frame-pointer|fast-math|finite-math-only|permissive)|-march=native|-mtune=native|-ffp-contract=\w+)$")
_WERROR = re.compile(r"^-Werror(?:=.*)?$")
_NVCC_KNOWS = re.compile(r"^(?:-O[0-3]?|-g|-w)$")
_SKIPPED = {"-c", "-x", "-o", "--compile", "--output-file", "-M", "-MD", "-MMD", "-MF", "-MT", "-MQ"}
_SKIPPED_WITH_VALUE = {"-x", "-o", "--output-file", "-MF", "-MT", "-MQ", "--x"}
_OPTIONS_FILE = {"--options-file", "-optf"}
_RESPONSE_FILE_BYTES = 64 * 1024
_RESPONSE_FILE_DEPTH = 2
_UNIT_SUFFIXES = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip")


@dataclasses.dataclass(frozen=True)
class Flags:
    """One program's (or unit's) flags as each compiler takes them."""

    nvcc: tuple[str, ...] = ()
    clang: tuple[str, ...] = ()
    """clang-19 compiling the HIP translation."""
    gxx: tuple[str, ...] = ()
    """g++ compiling either side against the CPU runtime."""
    dropped: tuple[str, ...] = ()
    """``flag: why`` for each flag no compiler was given."""
    rdc: bool = False
    """Relocatable device code (``-rdc=true``): units call each other's device functions."""

    def __add__(self, other: Flags) -> Flags:
        return Flags(
            self.nvcc + other.nvcc,
            self.clang + other.clang,
            self.gxx + other.gxx,
            self.dropped + other.dropped,
            self.rdc or other.rdc,
        )


def split(arguments: Sequence[str], directory: str | None = None) -> Flags:
    """nvcc's ``arguments`` (no compiler name; input files are skipped) sorted for nvcc, clang and
    g++; relative paths of path options are made absolute against ``directory``."""
    nvcc: list[str] = []
    clang: list[str] = []
    gxx: list[str] = []
    dropped: list[str] = []
    rdc = False
    arguments = _with_response_files(arguments, directory, dropped)

    def everywhere(*flag: str) -> None:
        nvcc.extend(flag)
        clang.extend(flag)
        gxx.extend(flag)

    i = 0
    while i < len(arguments):
        arg = arguments[i]
        i += 1
        option, value, consumed = _preprocessor(arg, arguments, i)
        if option is not None:
            i += consumed
            if value is None:
                dropped.append(f"{arg}: no value")
                continue
            if _PREPROCESSOR[option] and directory is not None:
                value = os.path.normpath(os.path.join(directory, value))
            flag = [option, value] if option in ("-isystem", "-iquote", "-include") else [option + value]
            if option in ("-I", "-isystem") and includes.is_cuda_toolkit_dir(value):
                # the CUDA toolkit's headers (CMake's CUDAToolkit_INCLUDE_DIRS) are nvcc's own: the
                # HIP side has HIP's, the CPU runtime its own, and CUDA's vector types clash with both
                nvcc.extend(flag)
            else:
                everywhere(*flag)
            continue
        std = _STD.match(arg)
        if std:
            value = std.group("value")
            if value is None and i < len(arguments):
                value, i = arguments[i], i + 1
            if value:
                everywhere(f"-std={value}")
            continue
        rdc_match = _RDC.match(arg)
        if rdc_match:
            on = (rdc_match.group("value") or "true").lower() in ("true", "1", "yes")
            nvcc.append(f"-rdc={'true' if on else 'false'}")
            if on:
                rdc = True
                clang.append("-fgpu-rdc")
            continue
        if arg in _FAST_MATH:
            nvcc.append(arg)
            clang.append("-ffast-math")
            continue
        name = arg.split("=", 1)[0]
        if name in _TARGETS:
            if "=" not in arg and not (len(name) == 5 and arg.startswith("-arch") and len(arg) > 5):
                i += 1
            continue
        if name in _REFUSED or (arg.startswith("-B") and len(arg) > 2):
            takes_value = _REFUSED.get(name, False) and "=" not in arg
            shown = f"{arg} {arguments[i]}" if takes_value and i < len(arguments) else arg
            i += 1 if takes_value else 0
            dropped.append(f"{shown}: chooses what runs, never taken from a build")
            continue
        if name in _NVCC_ONLY:
            nvcc.append(arg)
            if _NVCC_ONLY[name] and "=" not in arg and i < len(arguments):
                nvcc.append(arguments[i])
                i += 1
            continue
        if name in _HOST_PASSING:
            host = arg.split("=", 1)[1] if "=" in arg else (arguments[i] if i < len(arguments) else "")
            if "=" not in arg:
                i += 1
            for option_text in filter(None, host.split(",")):
                if _SAFE_HOST.match(option_text) and not _WERROR.match(option_text):
                    nvcc.extend(["-Xcompiler", option_text])
                    clang.append(option_text)
                    gxx.append(option_text)
                else:
                    dropped.append(f"-Xcompiler {option_text}: not on the list of host options passed on")
            continue
        if arg in _SKIPPED or name in _SKIPPED:
            if arg in _SKIPPED_WITH_VALUE and i < len(arguments):
                i += 1
            continue
        if arg.lower().endswith(_UNIT_SUFFIXES) and not arg.startswith("-"):
            continue  # an input file
        if _WERROR.match(arg):
            dropped.append(f"{arg}: verification judges errors, not warnings")
            continue
        if _SAFE_HOST.match(arg):
            # a host compiler's own flag (a g++ unit's entry): nvcc takes it through -Xcompiler
            # unless it is one nvcc knows itself (it rejects -fPIE, -Wall, -pthread bare)
            nvcc.extend([arg] if _NVCC_KNOWS.match(arg) else ["-Xcompiler", arg])
            clang.append(arg)
            gxx.append(arg)
            continue
        dropped.append(f"{arg}: not a flag verification knows to be safe and meaningful")
    return Flags(tuple(nvcc), tuple(clang), tuple(gxx), tuple(dropped), rdc)


def _with_response_files(arguments: Sequence[str], directory: str | None, dropped: list[str], depth: int = 0) -> list[str]:
    """``arguments`` with each response file (``@file``, ``--options-file file``, ``-optf file``)
    replaced by the arguments it holds; one that cannot be read is left out and named in ``dropped``."""
    out: list[str] = []
    i = 0
    while i < len(arguments):
        arg = arguments[i]
        i += 1
        name, _, attached = arg.partition("=")
        if arg.startswith("@") and len(arg) > 1:
            path = arg[1:]
        elif name in _OPTIONS_FILE and attached:
            path = attached
        elif arg in _OPTIONS_FILE and i < len(arguments):
            path, i = arguments[i], i + 1
        else:
            out.append(arg)
            continue
        full = os.path.join(directory or os.getcwd(), path)
        try:
            if depth >= _RESPONSE_FILE_DEPTH:
                raise ValueError(f"nested more than {_RESPONSE_FILE_DEPTH} deep")
            with open(full, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read(_RESPONSE_FILE_BYTES + 1)
            if len(text) > _RESPONSE_FILE_BYTES:
                raise ValueError(f"larger than {_RESPONSE_FILE_BYTES // 1024} KiB")
            out.extend(_with_response_files(shlex.split(text), directory, dropped, depth + 1))
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            dropped.append(f"{arg}: response file not read ({reason})")
    return out


def from_user(nvcc_args: Iterable[str] = (), hip_args: Iterable[str] = (), cpu_args: Iterable[str] = ()) -> Flags:
    """The user's own flags (settings, CLI): given to their compiler as they are (the user's word, not
    the workspace's)."""
    return Flags(tuple(nvcc_args), tuple(hip_args), tuple(cpu_args))


def _preprocessor(arg: str, arguments: Sequence[str], i: int) -> tuple[str | None, str | None, int]:
    """(canonical option, value, arguments consumed after ``arg``) for a preprocessor option."""
    for long, short in _LONG_PREPROCESSOR.items():
        if arg == long:
            return short, arguments[i] if i < len(arguments) else None, 1
        if arg.startswith(long + "="):
            return short, arg[len(long) + 1 :], 0
    for option in sorted(_PREPROCESSOR, key=len, reverse=True):
        if arg == option:
            return option, arguments[i] if i < len(arguments) else None, 1
        if len(option) == 2 and arg.startswith(option) and len(arg) > 2:
            return option, arg[2:], 0
    return None, None, 0


# ---------------------------------------------------------------------- porting a build's flags
PortSeverity = Literal["error", "warning", "info"]
# Verification (above) compiles the original and the translation with flags of its own choosing;
# porting a build file rewrites the build's nvcc command lines for the HIP compiler (hipcc, or clang
# in HIP mode), which compiles host and device code of a unit together, so host options need no
# -Xcompiler. What a flag becomes, and why when the meaning can differ:
_PORT_DROPPED: dict[str, tuple[PortSeverity, str]] = {
    "--expt-relaxed-constexpr": ("info", "clang's HIP mode calls constexpr functions from device code "
                                 "without an option (they are implicitly host and device)"),
    "--extended-lambda": ("info", "clang's HIP mode accepts __device__ and __host__ __device__ lambdas "
                          "without an option"),
    "--keep": ("info", "clang keeps intermediate files with -save-temps"),
    "-res-usage": ("info", "clang reports kernel resources with -Rpass-analysis=kernel-resource-usage"),
    "-Wno-deprecated-gpu-targets": ("info", "an nvcc warning about old NVIDIA targets"),
    "--use-local-env": ("info", "an nvcc option for its MSVC host compiler"),
    "-t": ("info", "clang compiles the offload targets of a unit in one process"),
    "-Xnvlink": ("warning", "nvlink options have no meaning for the AMD device linker (lld)"),
    "-maxrregcount": ("warning", "clang has no per-file register cap: give the kernels "
                      "__launch_bounds__(threads) so the compiler limits registers per kernel"),
    "-Xptxas": ("warning", "ptxas options have no AMD counterpart"),
    "-ccbin": ("warning", "the HIP compiler compiles host code itself: choose it with CXX / "
               "CMAKE_HIP_COMPILER, not a host-compiler option"),
    "-dlink": ("error", "clang has no separate device-link step: link the -fgpu-rdc objects with the "
               "HIP compiler (hipcc -fgpu-rdc, or clang++ -fgpu-rdc --hip-link)"),
}
_PORT_ALIASES = {
    "-expt-relaxed-constexpr": "--expt-relaxed-constexpr", "-extended-lambda": "--extended-lambda",
    "--expt-extended-lambda": "--extended-lambda", "-expt-extended-lambda": "--extended-lambda",
    "-keep": "--keep", "--resource-usage": "-res-usage", "--threads": "-t", "--nvlink-options": "-Xnvlink",
    "--maxrregcount": "-maxrregcount", "--ptxas-options": "-Xptxas", "--compiler-bindir": "-ccbin",
    "--device-link": "-dlink", "-lineinfo": "-lineinfo", "--generate-line-info": "-lineinfo",
    "--device-debug": "-G", "--default-stream": "-default-stream", "--device-c": "-dc",
    "--use_fast_math": "-use_fast_math", "--x": "-x",
}
_TAKES_VALUE = {"-t", "-Xnvlink", "-maxrregcount", "-Xptxas", "-ccbin", "-default-stream", "-x"}
_PORT_MAPPED: dict[str, tuple[tuple[str, ...], PortSeverity, str]] = {
    # flag -> (HIP flags, severity, why)
    "-lineinfo": (("-gline-tables-only",), "info", "line tables only, as nvcc's -lineinfo; clang "
                  "applies it to host code too"),
    "-G": (("-g", "-O0"), "warning", "device debug information; nvcc's -G also turned device "
           "optimisation off, so -O0 follows it (put a later -O to override)"),
    "-use_fast_math": (("-ffast-math",), "warning", "clang's -ffast-math relaxes host code too, and "
                       "keeps denormals unless -fgpu-flush-denormals-to-zero is added"),
    "-dc": (("-fgpu-rdc", "-c"), "info", "relocatable device code, compiled only"),
}
_HOST_ONLY = re.compile(r"^(?:-W(?!l,)[\w=+,-]*|-w|-f[\w=+-]+|-m[\w=+-]+|-pthread|-fopenmp|-pedantic)$")
_OFFLOAD = re.compile(r"^--offload-arch=(?P<arch>\S+)$")


class Note(NamedTuple):
    """What became of one flag: the flag as written, a severity and why."""

    flag: str
    severity: PortSeverity
    message: str


@dataclasses.dataclass
class Ported:
    """A command line's flags for the other compiler, and what could differ."""

    flags: list[str]
    notes: list[Note]
    nvidia_targets: list[str]
    """The NVIDIA targets the line named (``sm_80``, ``compute_70``), replaced by the AMD ones."""


def _nvidia_targets(flag: str, value: str) -> list[str]:
    found = re.findall(r"(?:sm|compute|lto)_\w+", value) if value else []
    return found or ([value] if value else [flag])


def port(arguments: Sequence[str], arches: Sequence[str], *, offload: bool = True) -> Ported:
    """nvcc's ``arguments`` as the HIP compiler's, CUDA -> HIP.

    Targets (``-arch``, ``-gencode``, ``-code``) become one ``--offload-arch`` per AMD target in
    ``arches`` where the first of them stood (``offload=False``: left out, for a build system that
    sets the targets elsewhere, e.g. ``CMAKE_HIP_ARCHITECTURES``). Build variables (``$(X)``,
    ``${X}``) and anything not an nvcc option pass through unchanged."""
    flags: list[str] = []
    notes: list[Note] = []
    targets: list[str] = []
    placed_targets = False
    i = 0
    while i < len(arguments):
        arg = arguments[i]
        i += 1
        name, eq, attached = arg.partition("=")
        canonical = _PORT_ALIASES.get(name, name)
        value = attached if eq else None
        if canonical in _TARGETS or canonical in ("-arch", "-code", "-gencode"):
            if value is None and not (name == "-arch" and len(arg) > 5 and not arg.startswith("-arch=")):
                value = arguments[i] if i < len(arguments) else ""
                i += 1
            targets.extend(_nvidia_targets(name, value or ""))
            if offload and not placed_targets:
                flags.extend(f"--offload-arch={a}" for a in arches)
                notes.append(Note(arg, "info", f"NVIDIA targets become the AMD targets {', '.join(arches)} "
                                  "(cass.target.arch)"))
            placed_targets = True
            continue
        rdc = _RDC.match(arg)
        if rdc:
            if (rdc.group("value") or "true").lower() in ("true", "1", "yes"):
                flags.append("-fgpu-rdc")
                notes.append(Note(arg, "info", "relocatable device code is clang's -fgpu-rdc; the link needs "
                                  "it too (hipcc -fgpu-rdc, clang++ -fgpu-rdc --hip-link)"))
            continue
        if canonical in _PORT_MAPPED:
            mapped, severity, why = _PORT_MAPPED[canonical]
            flags.extend(mapped)
            notes.append(Note(arg, severity, f"{arg} -> {' '.join(mapped)}: {why}"))
            continue
        if canonical in _HOST_PASSING:
            host = value if value is not None else (arguments[i] if i < len(arguments) else "")
            i += 0 if value is not None else 1
            flags.extend(filter(None, host.split(",")))
            continue
        if canonical == "-x":
            language = value if value is not None else (arguments[i] if i < len(arguments) else "")
            i += 0 if value is not None else 1
            flags.extend(["-x", "hip" if language == "cu" else language])
            continue
        if canonical == "-default-stream":
            stream = value if value is not None else (arguments[i] if i < len(arguments) else "")
            i += 0 if value is not None else 1
            flags.append(f"-fgpu-default-stream={'per-thread' if stream == 'per-thread' else 'legacy'}")
            continue
        if canonical in _PORT_DROPPED:
            shown = arg
            if canonical in _TAKES_VALUE and value is None and i < len(arguments):
                shown, i = f"{arg} {arguments[i]}", i + 1
            if canonical == "-Xptxas" and shown.split()[-1].split("=")[-1] in ("-v", "--verbose"):
                flags.append("-Rpass-analysis=kernel-resource-usage")
                notes.append(Note(shown, "info", "ptxas's resource report is clang's "
                                  "-Rpass-analysis=kernel-resource-usage"))
                continue
            severity, why = _PORT_DROPPED[canonical]
            notes.append(Note(shown, severity, f"{shown} dropped: {why}"))
            continue
        flags.append(arg)
    return Ported(flags, notes, targets)


_REVERSE_MAPPED = {"-fgpu-rdc": ("-rdc=true",), "-ffast-math": ("-use_fast_math",),
                   "-gline-tables-only": ("-lineinfo",),
                   "-Rpass-analysis=kernel-resource-usage": ("-Xptxas", "-v")}


def port_back(arguments: Sequence[str], nvidia_arch: str) -> Ported:
    """The HIP compiler's ``arguments`` as nvcc's, HIP -> CUDA, where the mapping is symmetric: the
    AMD targets become ``-arch=nvidia_arch`` and host-only options go through ``-Xcompiler``."""
    flags: list[str] = []
    notes: list[Note] = []
    placed_targets = False
    i = 0
    while i < len(arguments):
        arg = arguments[i]
        i += 1
        if _OFFLOAD.match(arg):
            if not placed_targets:
                flags.append(f"-arch={nvidia_arch}")
                notes.append(Note(arg, "info", f"AMD targets become the NVIDIA target {nvidia_arch}"))
            placed_targets = True
            continue
        if arg in _REVERSE_MAPPED:
            flags.extend(_REVERSE_MAPPED[arg])
            continue
        if arg == "-x" and i < len(arguments) and arguments[i] == "hip":
            flags.extend(["-x", "cu"])
            i += 1
            continue
        if arg.startswith("-fgpu-default-stream="):
            flags.extend(["--default-stream", arg.split("=", 1)[1]])
            continue
        if arg in ("-fgpu-flush-denormals-to-zero", "--hip-link") or arg.startswith(("--rocm-path", "--hip-")):
            notes.append(Note(arg, "info", f"{arg} dropped: a HIP compiler option nvcc does not need"))
            continue
        if _HOST_ONLY.match(arg):
            flags.extend(["-Xcompiler", arg])
            continue
        flags.append(arg)
    return Ported(flags, notes, [])
