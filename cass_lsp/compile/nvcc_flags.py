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
* ``-Xcompiler`` options go to the host compilers (clang, g++) when they are on the safe list;
  ``-Xptxas`` and ``-Xnvlink`` options stay with nvcc when on theirs.

Flags from a build file are the workspace's, and this is the one filter they pass wherever they reach
a compiler (verification, listings, ``verify --project``): anything that could load or run code of the
workspace's choosing (``-ccbin``, ``-B``, ``-specs``, a path a tool loads code from such as nvlink's
``--nvvmpath`` or ``-fplugin=``, a value nvcc's shell would expand) is never passed on, and an option
handing values to another tool passes only element by element from that tool's allow-list; every flag
left out is listed in ``dropped`` with the reason, so the verdict can say what was not applied.
Response files (``@file``, ``--options-file``: CMake puts an nvcc unit's include folders in one) are
read where they stand, never as an option's value, only when they are regular files inside the
build's folder, and the flags in them pass the same filter as the rest.

Porting a build (:mod:`cass_lsp.buildfiles.cmake`, :mod:`cass_lsp.buildfiles.make`) rewrites a build's own
command lines instead: :func:`port` turns nvcc's flags into the HIP compiler's (targets into
``--offload-arch`` per AMD target, ``-Xcompiler`` options unwrapped, each flag whose meaning differs
or that has none with a :class:`Note` saying why), :func:`port_back` the reverse where symmetric.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import stat
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from cass_lsp.compile import includes
from cass_lsp.core.filekinds import COMMAND_UNIT_SUFFIXES

# option → takes a value (as the next argument when not attached)
_PREPROCESSOR = {"-D": False, "-U": False, "-I": True, "-isystem": True, "-iquote": True, "-include": True}
_LONG_PREPROCESSOR = {
    "--define-macro": "-D",
    "--undefine-macro": "-U",
    "--include-path": "-I",
    "--system-include": "-isystem",
    "--pre-include": "-include",
}
# nvcc-only options: None, or the value they take (as the next argument when not attached)
_NVCC_ONLY: dict[str, str | None] = {
    "--expt-relaxed-constexpr": None,
    "-expt-relaxed-constexpr": None,
    "--extended-lambda": None,
    "-extended-lambda": None,
    "--expt-extended-lambda": None,
    "-expt-extended-lambda": None,
    "-lineinfo": None,
    "--generate-line-info": None,
    "-G": None,
    "--device-debug": None,
    "-maxrregcount": r"\d+",
    "--maxrregcount": r"\d+",
    "--default-stream": "legacy|null|per-thread",
    "-default-stream": "legacy|null|per-thread",
    "--keep": None,
    "-keep": None,
    "-res-usage": None,
    "--resource-usage": None,
    "-Wno-deprecated-gpu-targets": None,
    "--use-local-env": None,
    "-t": r"\d+",
    "--threads": r"\d+",
    "-forward-unknown-to-host-compiler": None,
    "--forward-unknown-to-host-compiler": None,
}
# the NVIDIA target of a verification is cass.verification.nvidiaArch, the AMD ones its arches
_TARGETS = {"-arch": True, "--gpu-architecture": True, "-code": True, "--gpu-code": True, "-gencode": True, "--generate-code": True}
# options that would choose what runs (the host compiler, its spec files): never from a build file
_REFUSED = {"-ccbin": True, "--compiler-bindir": True, "-B": True, "-specs": True, "--specs": True}
_FAST_MATH = {"-use_fast_math", "--use_fast_math"}
_RDC = re.compile(r"^-{1,2}(?:rdc|relocatable-device-code)(?:=(?P<value>\w+))?$")
_STD = re.compile(r"^-{1,2}std(?:=(?P<value>.+))?$")
_STD_VALUE = re.compile(r"^[\w+]+$")
_HOST_PASSING = {"-Xcompiler", "--compiler-options"}
# host compiler options safe to pass on: optimisation, warnings, language dialect, OpenMP, threads
# (-Wl, -Wa and -Wp hand what follows them to another tool: a value split at commas leaves them bare)
_SAFE_HOST = re.compile(r"^(?:-O[0-3sgz]?|-W(?![lap](?:,|$))[\w=+-]*|-w|-g\d?|-fopenmp|-pthread|-fPIC|-fpic|-fPIE|-fpie|-f(?:no-)?(?:exceptions|rtti|strict-aliasing|omit-frame-pointer|fast-math|finite-math-only|permissive)|-march=native|-mtune=native|-ffp-contract=\w+)$")
# Options whose value nvcc or clang hands to another tool, and what of it that tool may take from a
# build. nvcc splits the value at commas and puts each element on the tool's command line unquoted, so
# each element is checked alone and must be whole: none takes its value from the next element (a path
# there would be the value of the element before it, as in `--nvvmpath,DIR`).
_SUB_TOOLS: dict[str, tuple[str, re.Pattern[str] | None]] = {
    "-Xptxas": ("ptxas", re.compile(
        r"^(?:-v|--verbose|-O[0-3]|--opt-level=[0-3]|--?maxrregcount=\d+|--warn-on-spills|-warn-spills"
        r"|--warn-on-local-memory-usage|-warn-lmem-usage|--warn-on-double-precision-use|-warn-double-usage"
        r"|--?suppress-stack-size-warning|--?allow-expensive-optimizations=(?:true|false)"
        r"|--def-load-cache=\w+|-dlcm=\w+|--def-store-cache=\w+|-dscm=\w+|--?fmad=(?:true|false)"
        r"|-lineinfo|--generate-line-info)$")),
    "-Xnvlink": ("nvlink", re.compile(r"^(?:-v|--verbose|--?suppress-stack-size-warning|--disable-warnings|-w)$")),
    "-Xcompiler": ("host", _SAFE_HOST),
    # verification links the program itself: nothing of a build's goes to the linker or elsewhere
    "-Xlinker": ("linker", None),
    "-Wl": ("linker", None),
    "-Wa": ("assembler", None),
    "-Wp": ("preprocessor", None),
}
_SUB_TOOL_ALIASES = {"--ptxas-options": "-Xptxas", "--nvlink-options": "-Xnvlink", "--compiler-options": "-Xcompiler",
                     "--linker-options": "-Xlinker"}
# every other option that hands its value to another tool: nvcc's -Xarchive, clang's -Xclang, -mllvm, -Xarch_<arch>
_OTHER_SUB_TOOL = re.compile(r"^(?:-X\w[\w-]*|--?\w[\w-]*-options|-mllvm)$")
# an option naming a path that a compiler, a linker or one of their tools loads code from
_LOADS_CODE = re.compile(
    r"^(?:-B.*|--?(?:nvvmpath|fplugin|fpass-plugin|load|plugin|cuda-path|resource-dir|gcc-toolchain|gcc-install-dir"
    r"|sysroot|rocm-path|hip-path|hip-device-lib-path|libdevice-directory|ldir|ptxas-path|ld-path|fuse-ld|prefix"
    r"|dynamic-linker|rpath|rpath-link|specs|ccbin|compiler-bindir)(?:=.*)?)$"
)
_LOADS_CODE_WHY = "loads code from a path of the build's choosing"
# nvcc runs its tools through a shell, quoting a -D or -I value in double quotes, where $, ` and \ act;
# the allow-lists' patterns are matched whole (fullmatch), so no value ends in a newline either
_SHELL = re.compile(r"[$`\\]")
_SHELL_WHY = "nvcc runs its tools through a shell, which would expand it"
_WERROR = re.compile(r"^-Werror(?:=.*)?$")
_NVCC_KNOWS = re.compile(r"^(?:-O[0-3]?|-g|-w)$")
_DEVICE_COMPILE = ("-dc", "--device-c")
_SKIPPED = {"-c", "-x", "--x", "-o", "--compile", "--output-file", "-M", "-MD", "-MMD", "-MF", "-MT", "-MQ"}
_SKIPPED_WITH_VALUE = {"-x", "-o", "--output-file", "-MF", "-MT", "-MQ", "--x"}
_CUDA_LANGUAGES = ("cu", "cuda")
_OPTIONS_FILE = {"--options-file", "-optf"}
_RESPONSE_FILE_BYTES = 64 * 1024
_RESPONSE_FILE_DEPTH = 2


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
    preprocessor: tuple[str, ...] = ()
    """The preprocessor and language-standard options alone, as nvcc takes them (listings use these)."""
    cuda_source: bool = False
    """``-x cu``: the unit is CUDA whatever its suffix (a Makefile's ``nvcc -x cu -dc v3.cpp``)."""

    def __add__(self, other: Flags) -> Flags:
        return Flags(
            self.nvcc + other.nvcc,
            self.clang + other.clang,
            self.gxx + other.gxx,
            self.dropped + other.dropped,
            self.rdc or other.rdc,
            self.preprocessor + other.preprocessor,
            self.cuda_source or other.cuda_source,
        )


def split(arguments: Sequence[str], directory: str | None = None, project: str | None = None) -> Flags:
    """nvcc's ``arguments`` (no compiler name; input files are skipped) sorted for nvcc, clang and
    g++; relative paths of path options are made absolute against ``directory``. Response files are
    read only when they are regular files inside ``project`` (None: none is read): the entry's
    ``directory`` is the build database's to choose, the project is not."""
    nvcc: list[str] = []
    clang: list[str] = []
    gxx: list[str] = []
    dropped: list[str] = []
    preprocessor: list[str] = []
    rdc = False
    cuda_source = False
    arguments = list(arguments)
    # how many response files deep each argument came from
    depths = [0] * len(arguments)

    def everywhere(*flag: str) -> None:
        nvcc.extend(flag)
        clang.extend(flag)
        gxx.extend(flag)

    i = 0
    while i < len(arguments):
        arg = arguments[i]
        i += 1
        if _SHELL.search(arg):
            dropped.append(f"{arg}: {_SHELL_WHY}")
            continue
        response = _response_file(arg, arguments, i)
        if response is not None:
            shown, path, consumed = response
            i += consumed
            try:
                read = _read_response_file(path, directory, project, depths[i - 1])
            except (OSError, ValueError) as error:
                reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
                dropped.append(f"{shown}: response file not read ({reason})")
                continue
            # its arguments stand where it stood, so a value they leave open is not read as one
            arguments[i:i] = read
            depths[i:i] = [depths[i - 1] + 1] * len(read)
            continue
        option, value, consumed = _preprocessor(arg, arguments, i)
        if option is not None:
            i += consumed
            if value is None:
                dropped.append(f"{arg}: no value")
                continue
            if _PREPROCESSOR[option] and directory is not None:
                value = os.path.normpath(os.path.join(directory, value))
            if _SHELL.search(value):
                dropped.append(f"{option} {value}: {_SHELL_WHY}")
                continue
            flag = [option, value] if option in ("-isystem", "-iquote", "-include") else [option + value]
            preprocessor.extend(flag)
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
            if value and _STD_VALUE.fullmatch(value):
                everywhere(f"-std={value}")
                preprocessor.append(f"-std={value}")
            elif value:
                dropped.append(f"-std={value}: not a language standard")
            continue
        rdc_match = _RDC.match(arg)
        if rdc_match or arg in _DEVICE_COMPILE:
            # -dc is -rdc=true -c; verification chooses what to compile and link itself
            on = rdc_match is None or (rdc_match.group("value") or "true").lower() in ("true", "1", "yes")
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
            pattern = _NVCC_ONLY[name]
            if pattern is None:
                if arg == name:
                    nvcc.append(arg)
                else:
                    dropped.append(f"{arg}: {name} takes no value")
                continue
            given = arg.split("=", 1)[1] if "=" in arg else (arguments[i] if i < len(arguments) else "")
            i += 0 if "=" in arg else 1
            if re.fullmatch(pattern, given):
                nvcc.extend([arg] if "=" in arg else [arg, given])
            else:
                dropped.append(f"{name} {given}: not a value verification passes on")
            continue
        tool = _sub_tool(arg)
        if tool is not None:
            option, host = tool
            if host is None:
                host = arguments[i] if i < len(arguments) else ""
                i += 1
            for element in filter(None, host.split(",")):
                passed = _passed(option, element)
                if passed is not None:
                    dropped.append(f"{option}{',' if option.startswith('-W') else ' '}{element}: {passed}")
                elif option == "-Xcompiler":
                    nvcc.extend(["-Xcompiler", element])
                    clang.append(element)
                    gxx.append(element)
                else:
                    nvcc.extend([option, element])
            continue
        if arg in _SKIPPED or name in _SKIPPED:
            if arg in _SKIPPED_WITH_VALUE and i < len(arguments):
                cuda_source = cuda_source or (name in ("-x", "--x") and arguments[i] in _CUDA_LANGUAGES)
                i += 1
            elif name in ("-x", "--x") and "=" in arg:
                cuda_source = cuda_source or arg.split("=", 1)[1] in _CUDA_LANGUAGES
            continue
        if arg.lower().endswith(COMMAND_UNIT_SUFFIXES) and not arg.startswith("-"):
            continue  # an input file
        if _WERROR.match(arg):
            dropped.append(f"{arg}: verification judges errors, not warnings")
            continue
        if _SAFE_HOST.fullmatch(arg):
            # a host compiler's own flag (a g++ unit's entry): nvcc takes it through -Xcompiler
            # unless it is one nvcc knows itself (it rejects -fPIE, -Wall, -pthread bare)
            nvcc.extend([arg] if _NVCC_KNOWS.fullmatch(arg) else ["-Xcompiler", arg])
            clang.append(arg)
            gxx.append(arg)
            continue
        why = _LOADS_CODE_WHY if _LOADS_CODE.match(arg) else "not a flag verification knows to be safe and meaningful"
        dropped.append(f"{arg}: {why}")
    return Flags(tuple(nvcc), tuple(clang), tuple(gxx), tuple(dropped), rdc, tuple(preprocessor), cuda_source)


def _sub_tool(arg: str) -> tuple[str, str | None] | None:
    """(the option as verification names it, its attached value or None when the value is the next
    argument) when ``arg`` hands a value to another tool."""
    for prefix in ("-Wl,", "-Wa,", "-Wp,"):
        if arg.startswith(prefix):
            return prefix[:-1], arg[len(prefix) :]
    name, eq, attached = arg.partition("=")
    if name in _SUB_TOOLS or name in _SUB_TOOL_ALIASES:
        return _SUB_TOOL_ALIASES.get(name, name), attached if eq else None
    if _OTHER_SUB_TOOL.match(name):
        return name, attached if eq else None
    return None


def _passed(option: str, element: str) -> str | None:
    """None when ``element`` of ``option``'s value may reach its tool, else why not."""
    if _LOADS_CODE.match(element):
        return _LOADS_CODE_WHY
    tool, allowed = _SUB_TOOLS.get(option, (option, None))
    if allowed is None or not allowed.fullmatch(element) or _WERROR.match(element):
        return f"not on the list of {tool} options passed on"
    return None


def _response_file(arg: str, arguments: Sequence[str], i: int) -> tuple[str, str, int] | None:
    """(the argument as shown, the file's path, arguments consumed after ``arg``) when ``arg`` names a
    response file (``@file``, ``--options-file file``, ``-optf file``)."""
    name, _, attached = arg.partition("=")
    if arg.startswith("@") and len(arg) > 1:
        return arg, arg[1:], 0
    if name in _OPTIONS_FILE and attached:
        return arg, attached, 0
    if arg in _OPTIONS_FILE and i < len(arguments):
        return f"{arg} {arguments[i]}", arguments[i], 1
    return None


def _read_response_file(path: str, directory: str | None, project: str | None, depth: int) -> list[str]:
    """The arguments a response file holds. Raises ValueError or OSError (never read) when it is not a
    regular file inside ``project``: a FIFO or ``/dev/stdin`` would block the caller (the server's
    own input stream), a file elsewhere would show its lines in the verdict."""
    if depth >= _RESPONSE_FILE_DEPTH:
        raise ValueError(f"nested more than {_RESPONSE_FILE_DEPTH} deep")
    if project is None:
        raise ValueError("no project folder to read it from")
    root = os.path.realpath(project)
    full = os.path.realpath(os.path.join(directory or root, path))
    if os.path.commonpath([root, full]) != root:
        raise ValueError(f"outside the project {project}")
    # the path is resolved: opening it follows no link; O_NONBLOCK keeps a FIFO from blocking the open
    fd = os.open(full, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file")
        data = os.read(fd, _RESPONSE_FILE_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > _RESPONSE_FILE_BYTES:
        raise ValueError(f"larger than {_RESPONSE_FILE_BYTES // 1024} KiB")
    return shlex.split(data.decode("utf-8", "surrogateescape"))


def nvcc_unit_flags(flags: Flags) -> tuple[str, ...]:
    """nvcc's flags for one unit, led by ``-x cu`` where the build compiles it as CUDA whatever its
    suffix (nvcc would hand a ``.cpp`` to the host compiler)."""
    return ("-x", "cu", *flags.nvcc) if flags.cuda_source else flags.nvcc


def declares_cuda(nvcc_arguments: Sequence[str]) -> bool:
    """Whether nvcc's ``nvcc_arguments`` (as :func:`nvcc_unit_flags` writes them) compile as CUDA."""
    return tuple(nvcc_arguments[:2]) == ("-x", "cu")


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
    "-forward-unknown-to-host-compiler": ("info", "the HIP compiler compiles host code itself: it takes host "
                                          "options as they are"),
    "-forward-unknown-to-host-linker": ("info", "the HIP compiler links itself: it takes linker options as "
                                        "they are"),
    "-restrict": ("info", "nvcc's promise that kernel pointer parameters do not alias; clang reads "
                  "__restrict__ on the parameters themselves"),
    "-Xcudafe": ("info", "options of nvcc's front end (cudafe), which clang does not have"),
    "--cuda-path": ("info", "clang's CUDA installation: the HIP compiler finds ROCm by itself (--rocm-path)"),
    "-Xcuda-ptxas": ("warning", "options of clang's CUDA mode for ptxas have no AMD counterpart"),
    "--no-cuda-version-check": ("info", "clang's CUDA version check has no HIP counterpart"),
    "-prec-div": ("warning", "clang's HIP division is IEEE-exact unless -ffast-math"),
    "-prec-sqrt": ("warning", "clang's HIP square root is IEEE-exact unless -ffast-math"),
}
_PORT_ALIASES = {
    "-expt-relaxed-constexpr": "--expt-relaxed-constexpr", "-extended-lambda": "--extended-lambda",
    "--expt-extended-lambda": "--extended-lambda", "-expt-extended-lambda": "--extended-lambda",
    "-keep": "--keep", "--resource-usage": "-res-usage", "--threads": "-t", "--nvlink-options": "-Xnvlink",
    "--maxrregcount": "-maxrregcount", "--ptxas-options": "-Xptxas", "--compiler-bindir": "-ccbin",
    "--device-link": "-dlink", "-lineinfo": "-lineinfo", "--generate-line-info": "-lineinfo",
    "--device-debug": "-G", "--default-stream": "-default-stream", "--device-c": "-dc",
    "--use_fast_math": "-use_fast_math", "--x": "-x",
    "--forward-unknown-to-host-compiler": "-forward-unknown-to-host-compiler",
    "--forward-unknown-to-host-linker": "-forward-unknown-to-host-linker", "--restrict": "-restrict",
    "--cudafe-options": "-Xcudafe", "--prec-div": "-prec-div", "--prec-sqrt": "-prec-sqrt",
    "--ftz": "-ftz", "--fmad": "-fmad",
    # clang as the CUDA compiler (a project's "Clang" branch): its target option is nvcc's -arch
    "--cuda-gpu-arch": "-arch",
}
_TAKES_VALUE = {"-t", "-Xnvlink", "-maxrregcount", "-Xptxas", "-ccbin", "-default-stream", "-x", "-Xcudafe",
                "-Xcuda-ptxas"}
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
# nvcc's math switches (-ftz=true): (HIP flag or "", why) for false, then true
_PORT_SWITCHES: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "-ftz": (("", "clang keeps denormals by default"),
             ("-fgpu-flush-denormals-to-zero", "denormals flushed to zero in device code")),
    "-fmad": (("-ffp-contract=off", "no fused multiply-add"), ("", "clang's HIP mode fuses multiply-adds by default")),
}
_LINKER_PASSING = {"-Xlinker", "--linker-options"}
OPENMP_FLAG = "-fopenmp"
OPENMP_NOTE = ("-fopenmp under the HIP compiler (clang) is LLVM's OpenMP: the program links libomp, not gcc's "
               "libgomp (Debian packages it per LLVM as libomp-<version>-dev; cass-lsp doctor says whether it is "
               "here)")
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


def takes_separate_value(flag: str) -> bool:
    """``flag`` is an nvcc option whose value can follow as the next argument (``-Xcompiler -fopenmp``,
    ``-arch sm_80``): a build file that lists arguments one by one pairs them before :func:`port`."""
    canonical = _PORT_ALIASES.get(flag, flag)
    return (canonical in _TARGETS or canonical in ("-arch", "-code", "-gencode") or canonical in _HOST_PASSING
            or canonical in _TAKES_VALUE)


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
            passed = [f for f in host.split(",") if f]
            flags.extend(passed)
            if OPENMP_FLAG in passed:
                notes.append(Note(arg if value is not None else f"{arg} {host}", "info", OPENMP_NOTE))
            continue
        if canonical in _LINKER_PASSING:  # nvcc splits the list at commas, as clang's -Wl, does
            linked = value if value is not None else (arguments[i] if i < len(arguments) else "")
            i += 0 if value is not None else 1
            flags.append(f"-Wl,{linked}")
            continue
        if canonical == "-x":
            language = value if value is not None else (arguments[i] if i < len(arguments) else "")
            i += 0 if value is not None else 1
            flags.extend(["-x", "hip" if language in ("cu", "cuda") else language])
            continue
        if canonical in _PORT_SWITCHES and value is not None:
            on = value.lower() in ("true", "1", "yes")
            mapped_flag, why = _PORT_SWITCHES[canonical][on]
            flags.extend([mapped_flag] if mapped_flag else [])
            notes.append(Note(arg, "info", f"{arg} -> {mapped_flag or 'nothing'}: {why}"))
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
