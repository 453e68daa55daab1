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
workspace's choosing (``-ccbin``, ``-Xcompiler -fplugin=…``, ``-B``, ``-specs``, response files) is
never passed on; every flag left out is listed in ``dropped`` with the reason, so the verdict can
say what was not applied.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterable, Sequence

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
_SAFE_HOST = re.compile(r"^(?:-O[0-3sgz]?|-W(?!l,|a,|p,)[\w=+-]*|-w|-g\d?|-fopenmp|-pthread|-fPIC|-fpic|-f(?:no-)?(?:exceptions|rtti|strict-aliasing|omit-frame-pointer|fast-math|finite-math-only|permissive)|-march=native|-mtune=native|-ffp-contract=\w+)$")
_WERROR = re.compile(r"^-Werror(?:=.*)?$")
_SKIPPED = {"-c", "-x", "-o", "--compile", "--output-file", "-M", "-MD", "-MMD", "-MF", "-MT", "-MQ"}
_SKIPPED_WITH_VALUE = {"-x", "-o", "--output-file", "-MF", "-MT", "-MQ", "--x"}
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

    def everywhere(*flag: str) -> None:
        nvcc.extend(flag)
        clang.extend(flag)
        gxx.extend(flag)

    i = 0
    while i < len(arguments):
        arg = arguments[i]
        i += 1
        if arg.startswith("@"):
            dropped.append(f"{arg}: response files are not read")
            continue
        option, value, consumed = _preprocessor(arg, arguments, i)
        if option is not None:
            i += consumed
            if value is None:
                dropped.append(f"{arg}: no value")
                continue
            if _PREPROCESSOR[option] and directory is not None:
                value = os.path.normpath(os.path.join(directory, value))
            everywhere(*([option, value] if option in ("-isystem", "-iquote", "-include") else [option + value]))
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
            everywhere(arg)
            continue
        dropped.append(f"{arg}: not a flag verification knows to be safe and meaningful")
    return Flags(tuple(nvcc), tuple(clang), tuple(gxx), tuple(dropped), rdc)


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
