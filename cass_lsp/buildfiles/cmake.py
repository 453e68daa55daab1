"""CMake build files (``CMakeLists.txt``, ``*.cmake``) ported CUDA -> HIP, and back where symmetric.

The rules are data (the tables below); :func:`translate` walks the commands
(:mod:`cass_lsp.buildfiles.cmake_syntax`) and rewrites arguments in place, so what no rule touches stays
as written. What it does:

* languages: ``CUDA`` -> ``HIP`` in ``project``, ``enable_language``, ``check_language``; the HIP
  language needs CMake 3.21 (``cmake_minimum_required`` is raised, with a finding);
* device optimisation: the language's first enabling is followed by :data:`DEVICE_OPTIMISATION`
  (``-Xarch_device -O3``): nvcc optimises device code whatever its ``-O``, clang's HIP ``-O`` is both
  sides', and a build with no build type passes none;
* targets: ``CMAKE_CUDA_ARCHITECTURES``, the ``CUDA_ARCHITECTURES`` property and nvcc's ``-arch`` /
  ``-gencode`` become ``CMAKE_HIP_ARCHITECTURES`` / ``HIP_ARCHITECTURES`` with the configured AMD
  targets (a file that names none gets them as a cache default before its ``project``);
* sources: ``.cu`` names become the translation's ``.hip`` names (``renamed_sources``), or, for
  sources that keep their names, ``set_source_files_properties(... LANGUAGE HIP)`` (also after a
  call of the project's own function that takes them);
* properties, variables and generator expressions of the CUDA language become HIP's
  (:data:`VARIABLES`, :data:`PROPERTIES`, :data:`GENEX`); ``CUDA_SEPARABLE_COMPILATION`` becomes
  ``-fgpu-rdc`` compile and link options;
* nvcc flags (``CMAKE_CUDA_FLAGS*``, ``CUDA_NVCC_FLAGS``, ``target_compile_options``, …) through
  :func:`cass_lsp.compile.nvcc_flags.port`, and nvcc's options among the values of the project's own
  variables (``set``, ``list(APPEND)``, ``string(APPEND)``); a flags variable named through another
  (``CMAKE_CUDA_FLAGS_${BUILD_TYPE}``) maps by its prefix; the flags inside generator expressions
  (``$<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>``, ``$<$<CONFIG:Debug>:-G>``, nested ones)
  are ported as outside one, and an expression left with none goes;
* a chosen CUDA compiler (``set(CMAKE_CUDA_COMPILER nvcc)``, ``CMAKE_CUDA_HOST_COMPILER``) is
  commented out, never made the HIP compiler; a variable that chose NVIDIA targets is reported
  as no longer read;
* packages and targets: ``find_package(CUDAToolkit)`` / ``find_package(CUDA)`` -> ``find_package(hip)``
  plus a ``find_package`` per library the tree uses (:mod:`cass_lsp.buildfiles.libraries`), ``CUDA::x``
  and FindCUDA's ``CUDA_*_LIBRARIES`` -> the HIP targets;
* FindCUDA's macros (``cuda_add_executable``, ``cuda_add_library``, ``cuda_include_directories``,
  ``CUDA_NVCC_FLAGS``) -> the HIP language's plain commands. The HIP language, not FindHIP's
  ``hip_add_executable``: FindHIP is a module-mode package AMD has deprecated and Debian does not
  ship, while the language is CMake's own, so the ported project needs nothing but CMake and a HIP
  compiler.

Anything else CUDA-specific stays as written with an ``build-unmapped`` finding on its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cass_lsp.buildfiles import libraries
from cass_lsp.buildfiles.cmake_syntax import Argument, Command, commands
from cass_lsp.buildfiles.porting import REWRITTEN, UNMAPPED, Result, Rewriter, Settings, Severity
from cass_lsp.compile import nvcc_flags

HIP_MIN_CMAKE = (3, 21)
TOOLCHAIN_NOTE = ("the HIP language: CMake >= 3.21 with clang as the HIP compiler (ROCm's is found by itself; "
                  "on Debian's packages, configure with -DCMAKE_TOOLCHAIN_FILE=<cass-lsp>/cass_lsp/buildfiles/data/"
                  "hip-debian.cmake, which `cass-lsp translate` prints)")
# nvcc optimises device code whatever its -O (the host's; only -G turns device optimisation off), while
# clang's HIP -O sets both sides, and a build with no CMAKE_BUILD_TYPE passes none: -O0 device code,
# where rocPRIM's kernels overflow LDS under clang-15 (every one not inlined shares one LDS block)
DEVICE_OPTIMISATION = 'string(APPEND CMAKE_HIP_FLAGS " -Xarch_device -O3")'
DEVICE_OPTIMISATION_NOTE = ("device code at -O3 as nvcc's (its -O is the host's; -G turned device optimisation "
                            "off): clang's HIP -O sets both, and a build with no CMAKE_BUILD_TYPE passes none; a "
                            "later -O (a build type's, -G's -O0) still decides")

VARIABLES: dict[str, str] = {
    "CMAKE_CUDA_ARCHITECTURES": "CMAKE_HIP_ARCHITECTURES",
    "CMAKE_CUDA_STANDARD": "CMAKE_HIP_STANDARD",
    "CMAKE_CUDA_STANDARD_REQUIRED": "CMAKE_HIP_STANDARD_REQUIRED",
    "CMAKE_CUDA_EXTENSIONS": "CMAKE_HIP_EXTENSIONS",
    "CMAKE_CUDA_COMPILER": "CMAKE_HIP_COMPILER",
    "CMAKE_CUDA_COMPILER_ID": "CMAKE_HIP_COMPILER_ID",
    "CMAKE_CUDA_COMPILER_VERSION": "CMAKE_HIP_COMPILER_VERSION",
    "CMAKE_CUDA_COMPILER_LOADED": "CMAKE_HIP_COMPILER_LOADED",
    "CMAKE_CUDA_VISIBILITY_PRESET": "CMAKE_HIP_VISIBILITY_PRESET",
    "CMAKE_CUDA_FLAGS": "CMAKE_HIP_FLAGS",
    "CMAKE_CUDA_FLAGS_DEBUG": "CMAKE_HIP_FLAGS_DEBUG",
    "CMAKE_CUDA_FLAGS_RELEASE": "CMAKE_HIP_FLAGS_RELEASE",
    "CMAKE_CUDA_FLAGS_RELWITHDEBINFO": "CMAKE_HIP_FLAGS_RELWITHDEBINFO",
    "CMAKE_CUDA_FLAGS_MINSIZEREL": "CMAKE_HIP_FLAGS_MINSIZEREL",
    "CUDAToolkit_FOUND": "hip_FOUND",
    "CUDA_FOUND": "hip_FOUND",
    "CUDAToolkit_INCLUDE_DIRS": "hip_INCLUDE_DIRS",
    "CUDA_INCLUDE_DIRS": "hip_INCLUDE_DIRS",
    "CUDA_TOOLKIT_INCLUDE": "hip_INCLUDE_DIRS",
    "CUDAToolkit_LIBRARY_DIR": "hip_LIB_INSTALL_DIR",
    "CUDAToolkit_VERSION": "hip_VERSION",
    "CUDA_VERSION": "hip_VERSION",
    "CUDAToolkit_VERSION_MAJOR": "hip_VERSION_MAJOR",
    "CUDA_VERSION_MAJOR": "hip_VERSION_MAJOR",
    "CUDAToolkit_ROOT": "ROCM_PATH",
    "CUDA_TOOLKIT_ROOT_DIR": "ROCM_PATH",
    "CUDAToolkit_NVCC_EXECUTABLE": "CMAKE_HIP_COMPILER",
    "CUDA_NVCC_EXECUTABLE": "CMAKE_HIP_COMPILER",
}
VARIABLE_NOTES: dict[str, tuple[Severity, str]] = {
    "CMAKE_CUDA_COMPILER_ID": ("warning", "the HIP compiler's id is Clang, not NVIDIA"),
    "CMAKE_CUDA_COMPILER_VERSION": ("warning", "clang's version, not CUDA's: compare against clang releases"),
    "CUDAToolkit_VERSION": ("warning", "HIP's version numbers (5.x, 6.x) are not CUDA's"),
    "CUDA_VERSION": ("warning", "HIP's version numbers (5.x, 6.x) are not CUDA's"),
    "CUDAToolkit_VERSION_MAJOR": ("warning", "HIP's major version is not CUDA's"),
    "CUDA_VERSION_MAJOR": ("warning", "HIP's major version is not CUDA's"),
    "CUDAToolkit_ROOT": ("info", "ROCm's root: set ROCM_PATH where ROCm is not in /opt/rocm"),
    "CUDA_TOOLKIT_ROOT_DIR": ("info", "ROCm's root: set ROCM_PATH where ROCm is not in /opt/rocm"),
}
# the CUDA compilers a project may choose: the port's HIP compiler is clang, chosen by CMake (or
# the toolchain file), so a choice of nvcc must not become CMAKE_HIP_COMPILER
COMPILER_VARIABLES: dict[str, str] = {
    "CMAKE_CUDA_COMPILER": "the HIP compiler is clang, which CMake finds (or the toolchain file names); "
                           "a -DCMAKE_CUDA_COMPILER on the command line is unused by the port",
    "CMAKE_CUDA_HOST_COMPILER": "the HIP compiler compiles host code itself: there is no host compiler to choose",
}
PROPERTIES: dict[str, str] = {
    "CUDA_ARCHITECTURES": "HIP_ARCHITECTURES",
    "CUDA_STANDARD": "HIP_STANDARD",
    "CUDA_STANDARD_REQUIRED": "HIP_STANDARD_REQUIRED",
    "CUDA_EXTENSIONS": "HIP_EXTENSIONS",
    "CUDA_VISIBILITY_PRESET": "HIP_VISIBILITY_PRESET",
}
# properties that have no HIP property: what replaces them ("" dropped), severity, why
SPECIAL_PROPERTIES: dict[str, tuple[Severity, str]] = {
    "CUDA_SEPARABLE_COMPILATION": ("warning", "relocatable device code is clang's -fgpu-rdc at compile and link "
                                   "time; a target linking this one must link as HIP (LINKER_LANGUAGE HIP when it "
                                   "has no HIP source)"),
    "CUDA_RESOLVE_DEVICE_SYMBOLS": ("info", "clang has no separate device-link step: the final -fgpu-rdc link "
                                    "resolves device symbols"),
    "CUDA_RUNTIME_LIBRARY": ("info", "the HIP runtime is a shared library only"),
    "CUDA_PTX_COMPILATION": ("error", "PTX has no AMD counterpart: build code objects instead"),
}
GENEX: dict[str, str] = {
    "$<COMPILE_LANGUAGE:CUDA>": "$<COMPILE_LANGUAGE:HIP>",
    "$<LINK_LANGUAGE:CUDA>": "$<LINK_LANGUAGE:HIP>",
    "$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>": "$<COMPILE_LANG_AND_ID:HIP,Clang>",
    "$<COMPILE_LANGUAGE:CXX,CUDA>": "$<COMPILE_LANGUAGE:CXX,HIP>",
    "$<COMPILE_LANGUAGE:CUDA,CXX>": "$<COMPILE_LANGUAGE:HIP,CXX>",
}
FLAG_VARIABLES = frozenset({"CUDA_NVCC_FLAGS", "CUDA_NVCC_FLAGS_DEBUG", "CUDA_NVCC_FLAGS_RELEASE",
                            *(v for v in VARIABLES if v.startswith("CMAKE_CUDA_FLAGS"))})
LEGACY_FLAG_VARIABLES = {"CUDA_NVCC_FLAGS": "CMAKE_HIP_FLAGS", "CUDA_NVCC_FLAGS_DEBUG": "CMAKE_HIP_FLAGS_DEBUG",
                         "CUDA_NVCC_FLAGS_RELEASE": "CMAKE_HIP_FLAGS_RELEASE"}
_ALL_VARIABLES = {**VARIABLES, **LEGACY_FLAG_VARIABLES}
# a flags variable whose name ends in another variable's value
_BUILT_NAME = re.compile(r"^(?P<prefix>(?:CMAKE_CUDA_FLAGS|CUDA_NVCC_FLAGS)_)\$\{\w+\}$")
LANGUAGE_COMMANDS = frozenset({"project", "enable_language", "check_language"})
FLAG_COMMANDS = frozenset({"target_compile_options", "add_compile_options", "target_link_options",
                           "add_link_options"})
LINK_COMMANDS = frozenset({"target_link_libraries", "link_libraries"})
SOURCE_COMMANDS = frozenset({"add_executable", "add_library", "target_sources"})
LEGACY_RENAMED = {"cuda_add_executable": "add_executable", "cuda_add_library": "add_library",
                  "cuda_include_directories": "include_directories"}
LEGACY_LIBRARY_MACROS = {"cuda_add_cublas_to_target": "blas", "cuda_add_cufft_to_target": "fft"}
# FindCUDA's options, set before its macros run: severity and what becomes of them
LEGACY_SETTINGS: dict[str, tuple[Severity, str]] = {
    "CUDA_SEPARABLE_COMPILATION": ("warning", "relocatable device code is clang's -fgpu-rdc at compile and link "
                                   "time (HIP flags and link options of the directory)"),
    "CUDA_PROPAGATE_HOST_FLAGS": ("info", "the HIP compiler compiles host code itself: CMAKE_CXX_FLAGS do not "
                                  "reach HIP sources, set CMAKE_HIP_FLAGS for them"),
    "CUDA_HOST_COMPILER": ("warning", "the HIP compiler compiles host code itself: there is no host compiler "
                           "to choose"),
    "CUDA_64_BIT_DEVICE_CODE": ("info", "AMD device code is always 64-bit"),
    "CUDA_VERBOSE_BUILD": ("info", "use CMAKE_VERBOSE_MAKEFILE"),
    "CUDA_ATTACH_VS_BUILD_RULE_TO_CUDA_FILE": ("info", "a Visual Studio option of FindCUDA"),
    "CUDA_BUILD_CUBIN": ("warning", "cubins have no AMD counterpart"),
    "CUDA_GENERATED_OUTPUT_DIR": ("info", "the HIP language keeps objects where CMake keeps every object"),
}
LEGACY_REMOVED = {"cuda_build_clean_target": "FindCUDA's clean target for its generated dependency files; the "
                  "HIP language keeps none"}
LEGACY_UNMAPPED = {
    "cuda_compile": "compiles .cu files to objects outside a target: list them in a HIP target instead",
    "cuda_compile_ptx": "PTX has no AMD counterpart",
    "cuda_compile_fatbin": "fatbins have no AMD counterpart: clang bundles code objects itself",
    "cuda_compile_cubin": "cubins have no AMD counterpart",
    "cuda_wrap_srcs": "FindCUDA's internal source wrapping: list the sources in a HIP target instead",
    "cuda_select_nvcc_arch_flags": "NVIDIA target selection: use CMAKE_HIP_ARCHITECTURES",
    "cuda_detect_installed_gpus": "NVIDIA GPU detection: rocm_agent_enumerator lists AMD GPUs",
    "cuda_add_cufft_to_target": "",
    "cuda_compute_separable_compilation_object_file_name": "FindCUDA's separate device-link object: clang links "
    "-fgpu-rdc objects itself",
    "cuda_link_separable_compilation_objects": "FindCUDA's separate device link: clang links -fgpu-rdc objects "
    "itself (list them in a HIP target)",
}
"""FindCUDA's commands with no HIP counterpart. Any other ``cuda_*`` command is the project's own
(``function(cuda_add_benchmark ...)``, often in another file): ported as any call, its ``.cu``
arguments following the rename."""
_VARIABLE = re.compile(r"\b(?:CMAKE_CUDA_\w+|CUDAToolkit_\w+|CUDA_\w+)\b")
_REFERENCE = re.compile(r"\$\{(?P<name>\w+)\}")
_NVML_LIBRARY = re.compile(r"^(?:-l)?(?:lib)?nvidia-ml(?:\.so[\d.]*)?$")
_CUDA_TARGET = re.compile(r"^CUDA::(?P<name>\w+)$")
_LEGACY_REFERENCE = re.compile(r"\$\{(?P<name>CUDA_\w+)\}")
_CU_SUFFIX = re.compile(r"\.cu(?=$|[;\s\"])", re.IGNORECASE)
_CUDA_GENEX = re.compile(r"^\$<\$<COMPILE_LANGUAGE:HIP>:(?P<body>.*)>$", re.DOTALL)
_SCOPE_WORDS = frozenset({"CACHE", "PARENT_SCOPE", "FORCE"})
_KEYWORDS = frozenset({"PRIVATE", "PUBLIC", "INTERFACE", "BEFORE"})
# a project variable naming NVIDIA targets in the flags (-arch=${CUDA_ARCH}, --cuda-gpu-arch=${X},
# -gencode arch=compute_${X}, CUDA_ARCHITECTURES ${X}): the port reads it nowhere
_TARGET_VARIABLE = re.compile(r"(?:-arch|--gpu-architecture|--cuda-gpu-arch|-code|\barch|\bcode|CUDA_ARCHITECTURES)"
                              r"[=\s\"]+(?:compute_|sm_)?\$\{(?P<name>\w+)\}")
# CMake's own commands whose first argument is a variable they read or write: not a project's
# declaration of an option
_VARIABLE_COMMANDS = frozenset({"if", "elseif", "while", "foreach", "option", "unset", "mark_as_advanced",
                                "separate_arguments", "math", "get_filename_component", "cmake_path",
                                "variable_watch", "get_property", "find_program", "find_path", "find_library",
                                "find_file", "message", "macro", "function", "cmake_parse_arguments"})
_FINDS_TOOLKIT = re.compile(r"\bfind_package\s*\(\s*(?:CUDAToolkit|CUDA)\b", re.IGNORECASE)


class _Port(Rewriter):
    """A CMake file's port in progress."""

    def __init__(self, text: str, settings: Settings, families: frozenset[str], parsed: list[Command]) -> None:
        super().__init__(text, settings)
        self.families = families
        self.sets_architectures = "CUDA_ARCHITECTURES" in text or "-arch" in text or "-gencode" in text
        self.architectures_placed = False
        self.first_language: Command | None = None  # the first command enabling the language
        self.targets_seen = False  # the last flags ported named NVIDIA targets
        self.arch_variables: set[str] = set()  # project variables that held NVIDIA targets (reported once)
        # the variables the port reads nowhere: the CUDA compiler and those naming NVIDIA targets
        self.unread = {**COMPILER_VARIABLES, **{m.group("name"): "it named NVIDIA targets; AMD targets come from "
                                                "CMAKE_HIP_ARCHITECTURES / HIP_ARCHITECTURES (cass.target.arch)"
                                                for m in _TARGET_VARIABLE.finditer(text)}}
        # HIP targets need their package found where nothing finds the toolkit (a CUDA-language
        # project linking "cublas" by name)
        self.packages_found: set[str] | None = (
            None if settings.toolkit_found or finds_toolkit(text) else set())
        self.static_libraries = {c.args[0].text for c in parsed if c.name in ("add_library", "cuda_add_library")
                                 and len(c.args) > 1 and c.args[1].text not in ("SHARED", "MODULE", "OBJECT",
                                                                                  "INTERFACE", "IMPORTED", "ALIAS")}

    def indent(self, command: Command) -> str:
        line_start = self.text.rfind("\n", 0, command.start) + 1
        prefix = self.text[line_start : command.start]
        return prefix if prefix.isspace() else ""

    def after(self, command: Command, lines: list[str], kind: str) -> None:
        indent = self.indent(command)
        self.insert(command.end, "".join(f"\n{indent}{line}" for line in lines), kind)

    def before(self, command: Command, lines: list[str], kind: str) -> None:
        indent = self.indent(command)
        self.insert(command.start, "".join(f"{line}\n{indent}" for line in lines), kind)

    @property
    def arch_list(self) -> str:
        return ";".join(self.settings.arches)


def _quote(text: str) -> str:
    return f'"{text}"' if not text or any(c.isspace() or c in ';()#"' for c in text) else text


def _rewrite_text(port: _Port, arg: Argument) -> str | None:
    """An argument with CUDA's generator expressions, variables, targets and source names renamed;
    None: the argument goes (a library HIP needs no counterpart of)."""
    text = arg.text
    if _NVML_LIBRARY.match(text):
        port.find(arg.start, "error", f"{text}: {libraries.NVML}", UNMAPPED)
    for cuda, hip in GENEX.items():
        if cuda in text:
            text = text.replace(cuda, hip)
    target = _CUDA_TARGET.match(text)
    if target is not None:
        return _target(port, arg, target.group("name"), text)

    def legacy(match: re.Match[str]) -> str:
        family = libraries.LEGACY_VARIABLES.get(match.group("name"))
        if family is None:
            return match.group()
        if family == "devrt":
            return ""
        return libraries.hip(family, port.settings.libraries).target

    text = _LEGACY_REFERENCE.sub(legacy, text)
    if not text and arg.text:
        port.find(arg.start, "info", f"{arg.text} dropped: {libraries.DROPPED_LINK['cudadevrt']}")
        return None

    def variable(match: re.Match[str]) -> str:
        name = match.group()
        prefix = _hip_prefix(name) if match.string.startswith("${", match.end()) else None
        if prefix is not None:
            return prefix
        if name in VARIABLES:
            if name in VARIABLE_NOTES:
                severity, why = VARIABLE_NOTES[name]
                port.find(arg.start, severity, f"{name} -> {VARIABLES[name]}: {why}")
            return VARIABLES[name]
        if name in PROPERTIES:
            return PROPERTIES[name]
        if name.startswith("CMAKE_CUDA_"):
            port.find(arg.start, "warning", f"{name} has no HIP counterpart cass-lsp knows; kept", UNMAPPED)
        return name

    text = _VARIABLE.sub(variable, text)
    if port.settings.renamed_sources and not text.startswith("-"):
        text = _CU_SUFFIX.sub(".hip", text)
    return text


def _hip_prefix(name: str) -> str | None:
    """The HIP prefix of a variable name completed by another variable (``CMAKE_CUDA_FLAGS_`` of
    ``CMAKE_CUDA_FLAGS_${BUILD_TYPE}`` -> ``CMAKE_HIP_FLAGS_``): where every known name it can
    complete maps with the same prefix."""
    if not name.endswith("_"):
        return None
    prefixes = {hip[: len(hip) - len(cuda) + len(name)] for cuda, hip in _ALL_VARIABLES.items()
                if cuda.startswith(name) and hip.endswith(cuda[len(name):])}
    return prefixes.pop() if len(prefixes) == 1 else None


def _hip_flag_variable(name: str) -> str | None:
    """The HIP flags variable a CUDA one becomes (``CMAKE_CUDA_FLAGS_${BUILD_TYPE}`` included);
    None: not a CUDA flags variable."""
    if name in FLAG_VARIABLES:
        return LEGACY_FLAG_VARIABLES.get(name) or VARIABLES[name]
    built = _BUILT_NAME.match(name)
    prefix = _hip_prefix(built.group("prefix")) if built else None
    return prefix + name[len(built.group("prefix")):] if built and prefix else None


def _target(port: _Port, arg: Argument, name: str, text: str) -> str | None:
    if name in libraries.DROPPED_LINK and name != "cudart_static":
        port.find(arg.start, "info", f"{text} dropped: {libraries.DROPPED_LINK[name]}")
        return None
    if name in libraries.UNPORTED_LINK:
        port.find(arg.start, "error", f"{text}: {libraries.UNPORTED_LINK[name]}", UNMAPPED)
        return text
    family = libraries.CUDA_LINK.get(name)
    if family is None:
        port.find(arg.start, "warning", f"{text}: no HIP target cass-lsp knows; kept", UNMAPPED)
        return text
    hip = libraries.hip(family, port.settings.libraries)
    note = libraries.DROPPED_LINK.get(name) or hip.note
    if note:
        port.find(arg.start, "info", f"{text} -> {hip.target}: {note}")
    return hip.target


def _rewrite_args(port: _Port, command: Command) -> list[str | None]:
    return [_rewrite_text(port, a) if a.text not in ("(", ")") else a.text for a in command.args]


def _edit_in_place(port: _Port, command: Command, new: list[str | None], kind: str) -> None:
    """Each changed argument replaced where it stands (its quotes kept), a dropped one removed."""
    for arg, text in zip(command.args, new, strict=True):
        if text is None:
            port.replace(arg.start, arg.end, "", kind)
        elif text != arg.text:
            port.replace(arg.start, arg.end, f'"{text}"' if arg.quoted else _quote(text), kind)


def _rebuild(port: _Port, command: Command, name: str, args: list[str], kind: str) -> None:
    port.replace(command.start, command.end, f"{name}({' '.join(args)})", kind)


def _flags(port: _Port, command: Command, tokens: list[str]) -> list[str]:
    """nvcc flags ported, their targets left to HIP_ARCHITECTURES (``targets_seen``); findings on
    the command's line."""
    ported = _port_flags(tokens, port.settings.arches)
    for note in ported.notes:
        code = UNMAPPED if note.severity == "error" else REWRITTEN
        port.find(command.start, note.severity, note.message, code)
    if ported.nvidia_targets:
        port.find(command.start, "info", f"NVIDIA targets {', '.join(ported.nvidia_targets)} -> "
                  f"{', '.join(port.settings.arches)} (cass.target.arch) as HIP_ARCHITECTURES")
    for target in ported.nvidia_targets:
        named = _REFERENCE.fullmatch(target)
        if named is not None and named.group("name") not in port.arch_variables:
            port.arch_variables.add(named.group("name"))
            port.find(command.start, "info", f"{named.group('name')} chose NVIDIA targets: the port does not read it "
                      "(a -D" + named.group("name") + "=... on the command line is harmless); AMD targets come from "
                      "CMAKE_HIP_ARCHITECTURES / HIP_ARCHITECTURES (cass.target.arch)")
    port.targets_seen = bool(ported.nvidia_targets)
    return ported.flags


def _commented(port: _Port, command: Command, why: str) -> str:
    """The command as a one-line comment: kept for the reader, gone for CMake."""
    return f"# {' '.join(port.text[command.start : command.end].split())} (cass: {why})"


def _split_flags(text: str) -> list[str]:
    """A flags value's words, split at blanks and list separators outside generator expressions
    (``$<$<CONFIG:Debug>:-G;-lineinfo>`` is one word)."""
    words: list[str] = []
    word: list[str] = []
    depth = 0
    i = 0
    while i < len(text):
        if text.startswith("$<", i):
            depth += 1
            word.append("$<")
            i += 2
            continue
        char = text[i]
        if char == ">" and depth:
            depth -= 1
        if depth == 0 and (char == ";" or char.isspace()):
            words.append("".join(word))
            word = []
        else:
            word.append(char)
        i += 1
    words.append("".join(word))
    return [w for w in words if w]


def _conditional(word: str) -> tuple[str, str] | None:
    """(``$<condition:``, the body) of a generator expression word, else None."""
    if not (word.startswith("$<") and word.endswith(">")):
        return None
    depth = 0
    i = 2
    while i < len(word) - 1:
        if word.startswith("$<", i):
            depth += 1
            i += 2
            continue
        if word[i] == ">":
            if depth == 0:
                return None  # the expression closes before the word ends: $<A:x>$<B:y>
            depth -= 1
        elif word[i] == ":" and depth == 0:
            return word[: i + 1], word[i + 1 : -1]
        i += 1
    return None


def _port_flags(tokens: list[str], arches: tuple[str, ...]) -> nvcc_flags.Ported:
    """nvcc flags ported (:func:`nvcc_flags.port`), those inside generator expressions
    (``$<$<COMPILE_LANGUAGE:HIP>:--expt-relaxed-constexpr>``, ``$<$<CONFIG:Debug>:-G>``, nested)
    the same as outside one; an expression left with no flag goes."""
    flags: list[str] = []
    notes: list[nvcc_flags.Note] = []
    targets: list[str] = []
    plain: list[str] = []

    def take(ported: nvcc_flags.Ported) -> None:
        flags.extend(ported.flags)
        notes.extend(ported.notes)
        targets.extend(ported.nvidia_targets)

    def flush() -> None:
        if plain:
            take(nvcc_flags.port(plain, arches, offload=False))
            plain.clear()

    for token in tokens:
        conditional = _conditional(token)
        if conditional is None:
            plain.append(token)
            continue
        flush()
        head, body = conditional
        inner = _port_flags(_split_flags(body), arches)
        notes.extend(inner.notes)
        targets.extend(inner.nvidia_targets)
        kept = [f for f in inner.flags if f]
        if kept:
            flags.append(f"{head}{';'.join(kept)}>")
    flush()
    return nvcc_flags.Ported(flags, notes, targets)


# ---------------------------------------------------------------------- command rules
def _language(port: _Port, command: Command) -> None:
    new = _rewrite_args(port, command)
    for i, arg in enumerate(command.args):
        if arg.text == "CUDA":
            new[i] = "HIP"
    if any(a.text == "CUDA" for a in command.args):
        port.find(command.start, "info", TOOLCHAIN_NOTE)
        if command.name != "check_language" and port.first_language is None:
            port.first_language = command
            port.after(command, [DEVICE_OPTIMISATION], "flags")
            port.find(command.start, "info", DEVICE_OPTIMISATION_NOTE)
        if not port.sets_architectures and not port.architectures_placed and command.name != "check_language":
            port.before(command, [f'set(CMAKE_HIP_ARCHITECTURES "{port.arch_list}" CACHE STRING '
                                  '"AMD targets (cass.target.arch)")'], "architectures")
            port.architectures_placed = True
    _edit_in_place(port, command, new, "languages")


def _minimum(port: _Port, command: Command) -> None:
    for i, arg in enumerate(command.args):
        if arg.text == "VERSION" and i + 1 < len(command.args):
            value = command.args[i + 1]
            low, dots, high = value.text.partition("...")
            parts = tuple(int(p) for p in re.findall(r"\d+", low)[:2])
            if parts and parts < HIP_MIN_CMAKE:
                new = ".".join(map(str, HIP_MIN_CMAKE)) + (dots + high if high else "")
                port.replace(value.start, value.end, new, "cmake-version")
                port.find(value.start, "info", f"CMake {low} -> 3.21: the HIP language needs 3.21")


def _find_package(port: _Port, command: Command) -> None:
    if not command.args:
        return
    package = command.args[0].text
    required = any(a.text == "REQUIRED" for a in command.args)
    if package in ("CUDAToolkit", "CUDA"):
        lines = []
        if package == "CUDA":
            lines += ["enable_language(HIP)", DEVICE_OPTIMISATION]
        lines.append("find_package(hip REQUIRED)" if required else "find_package(hip)")
        for family in sorted(port.families):
            hip = libraries.hip(family, port.settings.libraries)
            if hip.package is not None:
                lines.append(f"find_package({hip.package}{' REQUIRED' if required else ''})")
        indent = port.indent(command)
        port.replace(command.start, command.end, f"\n{indent}".join(lines), "packages")
        version = [a.text for a in command.args[1:2] if re.match(r"\d", a.text)]
        why = "CUDA's version is not HIP's: the version requirement is dropped" if version else ""
        port.find(command.start, "info", f"find_package({package}) -> {'; '.join(lines)}"
                  + (f" ({why})" if why else ""))
        if package == "CUDA":
            port.find(command.start, "info", TOOLCHAIN_NOTE)
            port.find(command.start, "info", DEVICE_OPTIMISATION_NOTE)
            if not port.sets_architectures and not port.architectures_placed:
                port.before(command, [f'set(CMAKE_HIP_ARCHITECTURES "{port.arch_list}" CACHE STRING '
                                      '"AMD targets (cass.target.arch)")'], "architectures")
                port.architectures_placed = True
    elif package.lower() == "cudnn":
        port.replace(command.args[0].start, command.args[0].end, "miopen", "packages")
        port.find(command.start, "warning", libraries.hip("dnn", port.settings.libraries).note)


def _set(port: _Port, command: Command) -> None:
    if not command.args:
        return
    name = command.args[0].text
    if name == "CMAKE_CUDA_ARCHITECTURES":
        _architectures(port, command, command.args[1:], "set(CMAKE_HIP_ARCHITECTURES", ")")
        return
    if _hip_flag_variable(name) is not None:
        _flag_variable(port, command, name, [a.text for a in command.args[1:]])
        return
    if name in COMPILER_VARIABLES:
        port.replace(command.start, command.end, _commented(port, command, "the HIP compiler is clang"), "variables")
        port.find(command.start, "info", f"{name} removed: {COMPILER_VARIABLES[name]}")
        return
    if name in LEGACY_SETTINGS:
        _legacy_setting(port, command, name)
        return
    new = _rewrite_args(port, command)
    if not name.startswith("CMAKE_") and _project_flags(port, command, command.args[1:], new):
        return
    _edit_in_place(port, command, new, "variables")
    if not name.startswith("CMAKE_"):
        _mark_listed_sources(port, command, 1)


def _mark_listed_sources(port: _Port, command: Command, first: int) -> None:
    """``.cu`` files listed in a project's variable (``set(SOURCES main.cu k.cu)``, ``list(APPEND
    SOURCES k.cu)``) that keep their names (``--in-place``): a target built from ``${SOURCES}`` compiles
    them as HIP only by their property (without it CMake leaves a file of a language not enabled out
    of the build)."""
    if port.settings.renamed_sources:
        return
    names = [name for a in command.args[first:] if a.text not in _SCOPE_WORDS and "$<" not in a.text
             for name in re.split(r"[;\s]+", a.text.strip('"')) if _CU_SUFFIX.search(name)]
    if names:
        port.after(command, [f"set_source_files_properties({' '.join(names)} PROPERTIES LANGUAGE HIP)"], "sources")


def _legacy_setting(port: _Port, command: Command, name: str) -> None:
    """A FindCUDA option (``set(CUDA_SEPARABLE_COMPILATION ON)``): its HIP meaning, or nothing."""
    severity, why = LEGACY_SETTINGS[name]
    on = len(command.args) > 1 and command.args[1].text.upper() in ("ON", "TRUE", "1", "YES")
    if name == "CUDA_SEPARABLE_COMPILATION" and on:
        port.replace(command.start, command.end, f"\n{port.indent(command)}".join(
            ['string(APPEND CMAKE_HIP_FLAGS " -fgpu-rdc")', f"add_link_options({_RDC_LINK})"]), "legacy")
    else:
        port.replace(command.start, command.end, _commented(port, command, "no HIP counterpart"), "legacy")
    port.find(command.start, severity, f"{name}: {why}")


def _architectures(port: _Port, command: Command, values: list[Argument], head: str, tail: str) -> None:
    # everything from CACHE on (its type, its docstring, FORCE) or PARENT_SCOPE stays as written
    scope = next((i for i, a in enumerate(values) if a.text in ("CACHE", "PARENT_SCOPE")), len(values))
    rest = [a.text for a in values[scope:]]
    shown = " ".join(a.text for a in values[:scope]) or "(none)"
    port.find(command.start, "info", f"NVIDIA architectures {shown} -> {', '.join(port.settings.arches)} "
              "(cass.target.arch)")
    extra = " ".join(f'"{a.text}"' if a.quoted else a.text for a in values[scope:])
    port.replace(command.start, command.end, f'{head} "{port.arch_list}"{" " + extra if extra else ""}{tail}',
                 "architectures")
    if "CACHE" in rest and "FORCE" not in rest and port.first_language is not None and not port.architectures_placed:
        # enabling the language wrote the cache entry (CMake's default target), so this set is a no-op,
        # as it was for CUDA: the AMD targets go before the language instead
        port.before(port.first_language, [f'set(CMAKE_HIP_ARCHITECTURES "{port.arch_list}" CACHE STRING '
                                          '"AMD targets (cass.target.arch)")'], "architectures")
        port.architectures_placed = True
        port.find(command.start, "warning", "a cache entry set after the language is enabled does nothing (CMake "
                  "sets it when enabling the language, for CUDA too): the AMD targets are set before it")


def _flag_variable(port: _Port, command: Command, name: str, values: list[str]) -> None:
    """``set(CMAKE_CUDA_FLAGS "...")`` / ``set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};...)``."""
    hip_name = _hip_flag_variable(name)
    assert hip_name is not None
    appended = False
    tokens: list[str] = []
    scope: list[str] = []
    for value in values:
        if value in ("PARENT_SCOPE", "CACHE", "STRING", "FORCE"):
            scope.append(value)
            continue
        for token in _split_flags(value):
            if token == f"${{{name}}}":
                appended = True
            else:
                tokens.append(token)
    flags = _flags(port, command, tokens)
    if appended and flags:
        lines = [f'string(APPEND {hip_name} " {" ".join(flags)}")']
    elif appended:  # every flag was nvcc's own
        lines = [_commented(port, command, "no HIP flags left")]
    else:
        lines = [f'set({hip_name} "{" ".join(flags)}"{"".join(" " + s for s in scope)})']
    if port.targets_seen:
        lines.append(f'set(CMAKE_HIP_ARCHITECTURES "{port.arch_list}")')
    port.replace(command.start, command.end, f"\n{port.indent(command)}".join(lines), "flags")


def _string_or_list(port: _Port, command: Command) -> None:
    args = command.args
    if len(args) >= 2 and args[0].text == "APPEND" and _hip_flag_variable(args[1].text) is not None:
        name = args[1].text
        values = [f"${{{name}}}", *(a.text for a in args[2:])]
        _flag_variable(port, command, name, values)
        return
    new = _rewrite_args(port, command)
    if (len(args) >= 2 and args[0].text in ("APPEND", "PREPEND") and not args[1].text.startswith("CMAKE_")
            and _project_flags(port, command, args[2:], new)):
        return
    _edit_in_place(port, command, new, "variables")
    if command.name == "list" and len(args) >= 2 and args[0].text in ("APPEND", "PREPEND", "INSERT") \
            and not args[1].text.startswith("CMAKE_"):
        _mark_listed_sources(port, command, 3 if args[0].text == "INSERT" else 2)


def _project_flags(port: _Port, command: Command, values: list[Argument], new: list[str | None]) -> bool:
    """nvcc options among the values of a project's own variable (``set(EXTRA -restrict)``,
    ``list(APPEND NVCC_OPTS --expt-relaxed-constexpr)``; CMake's own variables, the host compilers'
    flags among them, are not the project's) ported where they stand, since the variable ends up on
    a HIP command line; False when no value is an nvcc option (nothing done). ``new``: the
    command's arguments renamed (:func:`_rewrite_args`), edited here."""
    at = {id(a): i for i, a in enumerate(command.args)}
    changed = False
    i = 0
    while i < len(values):
        arg = values[i]
        if arg.text in _SCOPE_WORDS:
            break
        group = [arg]
        if nvcc_flags.takes_separate_value(arg.text) and i + 1 < len(values):
            group.append(values[i + 1])
        i += len(group)
        texts = [new[at[id(a)]] or "" for a in group]
        tokens = [t for text in texts for t in _split_flags(text)]
        ported = _port_flags(tokens, port.settings.arches)
        flags = [f for f in ported.flags if f]  # an option whose value is missing stays as it was
        if flags == tokens and not ported.notes and not ported.nvidia_targets:
            continue
        changed = True
        flags = [f for f in _flags(port, command, tokens) if f]
        first = texts[0]
        separator = ";" if ";" in first and " " not in first else " "
        joined = separator.join(flags)
        if joined:  # string(APPEND X " -flag") keeps its blanks
            joined = first[: len(first) - len(first.lstrip())] + joined + first[len(first.rstrip()):]
        new[at[id(group[0])]] = joined or (None if command.name == "list" or len(values) > 1 else "")
        for extra in group[1:]:
            new[at[id(extra)]] = None
    if not changed:
        return False
    _edit_in_place(port, command, new, "flags")
    if port.targets_seen:
        port.after(command, [f'set(CMAKE_HIP_ARCHITECTURES "{port.arch_list}")'], "flags")
    return True


def _properties(port: _Port, command: Command) -> None:
    """``set_target_properties(t ... PROPERTIES K V ...)``, ``set_property(TARGET t PROPERTY K V...)``,
    ``set_source_files_properties(... PROPERTIES LANGUAGE CUDA)``."""
    args = command.args
    new = _rewrite_args(port, command)
    targets: list[str] = []
    pairs: list[tuple[int, int]] = []  # (key index, end of its values)
    if command.name == "set_property":
        if "PROPERTY" not in [a.text for a in args]:
            return
        key = [a.text for a in args].index("PROPERTY") + 1
        scope_end = key - 1
        targets = [a.text for a in args[1:scope_end] if a.text not in ("APPEND", "APPEND_STRING")]
        if key < len(args):
            pairs.append((key, len(args)))
    else:
        names = [a.text for a in args]
        if "PROPERTIES" not in names:
            return
        start = names.index("PROPERTIES") + 1
        targets = names[: start - 1]
        pairs.extend((k, min(k + 2, len(args))) for k in range(start, len(args), 2))
    rdc_targets: list[str] = []
    for key, end in pairs:
        name = args[key].text
        values = args[key + 1 : end]
        if name in SPECIAL_PROPERTIES:
            severity, why = SPECIAL_PROPERTIES[name]
            on = bool(values) and values[0].text.upper() in ("ON", "TRUE", "1", "YES")
            code = UNMAPPED if severity == "error" else REWRITTEN
            port.find(args[key].start, severity, f"{name}: {why}", code)
            if severity != "error":
                for i in range(key, end):
                    new[i] = None
                if name == "CUDA_SEPARABLE_COMPILATION" and on:
                    rdc_targets = targets
            continue
        if name in ("CUDA_ARCHITECTURES", "HIP_ARCHITECTURES") and values:
            port.find(args[key].start, "info", f"NVIDIA architectures {' '.join(v.text for v in values)} -> "
                      f"{', '.join(port.settings.arches)} (cass.target.arch)")
            new[key + 1] = port.arch_list
            for i in range(key + 2, end):
                new[i] = None
        if name == "LANGUAGE" and values and values[0].text == "CUDA":
            new[key + 1] = "HIP"
    added = [line for target in rdc_targets for line in _rdc_lines(target, target in port.static_libraries)]
    if all(new[k] is None for k, _ in pairs) and pairs:
        port.replace(command.start, command.end, f"\n{port.indent(command)}".join(added), "properties")
    else:
        _edit_in_place(port, command, new, "properties")
        if added:
            port.after(command, added, "properties")


# clang links relocatable device code itself, for the linked target's own AMD targets
_RDC_LINK = ('"$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link;'
             '--offload-arch=$<JOIN:$<TARGET_PROPERTY:HIP_ARCHITECTURES>,;--offload-arch=>>"')


def _rdc_lines(target: str, static_library: bool) -> list[str]:
    lines = [f"target_compile_options({target} PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)",
             f"target_link_options({target} PUBLIC {_RDC_LINK})"]
    if static_library:
        # clang (15) links the device code of a static library into an -fgpu-rdc program only when
        # the library comes as -l<name>; CMake names it by path, which links its host code
        lines.append(f'target_link_options({target} INTERFACE "$<$<LINK_LANGUAGE:HIP>:-L$<TARGET_FILE_DIR:{target}>;'
                     f'-l$<TARGET_FILE_BASE_NAME:{target}>>")')
    return lines


def _flag_command(port: _Port, command: Command) -> None:
    new = _rewrite_args(port, command)
    out: list[str] = []
    plain: list[str] = []
    changed = any(n != a.text for n, a in zip(new, command.args, strict=True))
    start = 1 if command.name.startswith("target_") else 0

    def flush() -> None:
        if plain:  # a generator expression whose flags became several is a list: quoted whole
            out.extend(f'"{f}"' if ";" in f else f for f in _flags(port, command, plain))
            plain.clear()

    for i, text in enumerate(new):
        if text is None:
            continue
        if i < start or text in _KEYWORDS:
            flush()
            out.append(text)
            continue
        genex = _CUDA_GENEX.match(text)
        if genex is not None:
            flush()
            body = _flags(port, command, _split_flags(genex.group("body")))
            if body:
                out.append(_quote(f"$<$<COMPILE_LANGUAGE:HIP>:{';'.join(body)}>"))
            continue
        plain.append(text)
    flush()
    original = [a.text if not a.quoted else f'"{a.text}"' for a in command.args]
    if changed or out != original:
        _rebuild(port, command, port.text[command.start : command.start + len(command.name)], out, "flags")


def _link(port: _Port, command: Command) -> None:
    new = _rewrite_args(port, command)
    for i, arg in enumerate(command.args):
        text = new[i]
        if text is None or (i == 0 and command.name == "target_link_libraries"):
            continue
        bare = text[2:] if text.startswith("-l") else text
        family = libraries.CUDA_LINK.get(bare)
        if family is not None and not text.startswith(("$", "CUDA::")):
            new[i] = libraries.hip(family, port.settings.libraries).target
            port.find(arg.start, "info", f"{text} -> {new[i]}")
        elif bare in libraries.DROPPED_LINK:
            new[i] = None
            port.find(arg.start, "info", f"{text} dropped: {libraries.DROPPED_LINK[bare]}")
    _edit_in_place(port, command, new, "libraries")
    if port.packages_found is not None:
        needed = [p for t in new if t and (p := libraries.package_of(t)) and p not in port.packages_found]
        for package in dict.fromkeys(needed):
            port.packages_found.add(package)
            port.find(command.start, "info", f"find_package({package} REQUIRED) added: nothing in the tree finds the "
                      "CUDA toolkit, whose package would have become HIP's")
        if needed:
            port.before(command, [f"find_package({p} REQUIRED)" for p in dict.fromkeys(needed)], "packages")


def _cu_sources(command: Command, first: int) -> list[str]:
    return [a.text for a in command.args[first:] if _CU_SUFFIX.search(a.text)]


def _sources(port: _Port, command: Command) -> None:
    new = _rewrite_args(port, command)
    _edit_in_place(port, command, new, "sources")
    cu = _cu_sources(command, 1)
    if cu and not port.settings.renamed_sources:
        port.after(command, [f"set_source_files_properties({' '.join(cu)} PROPERTIES LANGUAGE HIP)"], "sources")


def _file(port: _Port, command: Command) -> None:
    new = _rewrite_args(port, command)
    _edit_in_place(port, command, new, "sources")
    if (len(command.args) > 2 and command.args[0].text in ("GLOB", "GLOB_RECURSE")
            and _cu_sources(command, 2) and not port.settings.renamed_sources):
        port.after(command, [f"set_source_files_properties(${{{command.args[1].text}}} PROPERTIES LANGUAGE HIP)"],
                   "sources")


def _legacy_target(port: _Port, command: Command) -> None:
    """``cuda_add_executable(name sources... [OPTIONS flags...])`` -> ``add_executable`` with the
    flags as HIP compile options and the runtime linked, as FindCUDA's macro did."""
    new = _rewrite_args(port, command)
    names = [a.text for a in command.args]
    options_at = names.index("OPTIONS") if "OPTIONS" in names else len(names)
    head = [t for t in new[:options_at] if t is not None]
    name = head[0] if head else ""
    lines = [f"{LEGACY_RENAMED[command.name]}({' '.join(_quote(t) for t in head)})"]
    flags = _flags(port, command, [t for t in new[options_at + 1 :] if t is not None and t not in
                                   ("RELEASE", "DEBUG", "MINSIZEREL", "RELWITHDEBINFO")])
    if flags:
        genex = _quote("$<$<COMPILE_LANGUAGE:HIP>:" + ";".join(flags) + ">")
        lines.append(f"target_compile_options({name} PRIVATE {genex})")
    if port.targets_seen:
        lines.append(f'set_property(TARGET {name} PROPERTY HIP_ARCHITECTURES "{port.arch_list}")')
    lines.append(f"target_link_libraries({name} {libraries.hip('runtime', port.settings.libraries).target})")
    cu = _cu_sources(command, 1)
    if cu and not port.settings.renamed_sources:
        lines.append(f"set_source_files_properties({' '.join(cu)} PROPERTIES LANGUAGE HIP)")
    port.replace(command.start, command.end, f"\n{port.indent(command)}".join(lines), "legacy")
    port.find(command.start, "info", f"{command.name} -> {LEGACY_RENAMED[command.name]} in the HIP language, "
              "linked to the HIP runtime as FindCUDA linked cudart (not FindHIP's hip_add_executable: AMD "
              "deprecated that module and Debian does not ship it)")


def _legacy_rename(port: _Port, command: Command) -> None:
    new = _rewrite_args(port, command)
    name_end = command.start + len(command.name)
    port.replace(command.start, name_end, LEGACY_RENAMED[command.name], "legacy")
    _edit_in_place(port, command, new, "legacy")


def _legacy_library(port: _Port, command: Command) -> None:
    family = LEGACY_LIBRARY_MACROS[command.name]
    target = command.args[0].text if command.args else ""
    hip = libraries.hip(family, port.settings.libraries)
    port.replace(command.start, command.end, f"target_link_libraries({target} {hip.target})", "legacy")
    port.find(command.start, "info", f"{command.name} -> target_link_libraries with {hip.target}")


def _legacy_removed(port: _Port, command: Command) -> None:
    port.replace(command.start, command.end, _commented(port, command, "removed"), "legacy")
    port.find(command.start, "info", f"{command.name} removed: {LEGACY_REMOVED[command.name]}")


def _generic(port: _Port, command: Command) -> None:
    if command.name in LEGACY_UNMAPPED:
        why = LEGACY_UNMAPPED[command.name]
        port.find(command.start, "error", f"{command.name}: {why}; kept", UNMAPPED)
        return
    new = _rewrite_args(port, command)
    if command.args and command.args[0].text in COMPILER_VARIABLES and command.name not in _VARIABLE_COMMANDS:
        # a project's macro declaring the option (register_flag_optional(CMAKE_CUDA_COMPILER ...)): a
        # default of nvcc must not become the HIP compiler, and the CUDA one is never used; CMake's
        # own if(CMAKE_CUDA_COMPILER) after check_language asks whether the (now HIP) compiler exists
        new[0] = command.args[0].text
        port.find(command.start, "info", f"{command.args[0].text} kept as written: "
                  f"{COMPILER_VARIABLES[command.args[0].text]}")
    _edit_in_place(port, command, new, "variables")
    if command.args and command.args[0].text in port.unread and command.name not in _VARIABLE_COMMANDS:
        _define_unread(port, command, command.args[0].text)
    # a project's own function taking sources (add_cuda_bench(name main.cu)): the .cu files it hands
    # on to a target compile as HIP only by their property where they keep their names
    cu = _cu_sources(command, 0)
    if cu and not port.settings.renamed_sources:
        port.after(command, [f"set_source_files_properties({' '.join(cu)} PROPERTIES LANGUAGE HIP)"], "sources")


def _define_unread(port: _Port, command: Command, name: str) -> None:
    """A project's own command declaring or checking a variable the port reads nowhere
    (``register_flag_required(CMAKE_CUDA_COMPILER ...)``, ``require_option(CUDA_ARCH)``): the variable
    is defined, empty, before it where the user did not pass it, so the port configures without
    the CUDA-only option and a value given still reaches the command."""
    port.before(command, [f"if(NOT DEFINED {name})  # cass: the port does not read {name}", f'  set({name} "")',
                          "endif()"], "variables")
    port.find(command.start, "info", f"{name} defined (empty) before {command.name} where not given: the port "
              f"does not read it ({port.unread[name]}), so it configures without -D{name}")


_RULES: dict[str, Callable[[_Port, Command], None]] = {
    **dict.fromkeys(LANGUAGE_COMMANDS, _language),
    "cmake_minimum_required": _minimum,
    "find_package": _find_package,
    "set": _set,
    "string": _string_or_list,
    "list": _string_or_list,
    "set_target_properties": _properties,
    "set_property": _properties,
    "set_source_files_properties": _properties,
    **dict.fromkeys(FLAG_COMMANDS, _flag_command),
    **dict.fromkeys(LINK_COMMANDS, _link),
    **dict.fromkeys(SOURCE_COMMANDS, _sources),
    "file": _file,
    "cuda_add_executable": _legacy_target,
    "cuda_add_library": _legacy_target,
    "cuda_include_directories": _legacy_rename,
    **dict.fromkeys(LEGACY_LIBRARY_MACROS, _legacy_library),
    **dict.fromkeys(LEGACY_REMOVED, _legacy_removed),
}


def finds_toolkit(text: str) -> bool:
    return _FINDS_TOOLKIT.search(text) is not None


def families_in(text: str, parsed: list[Command] | None = None) -> set[str]:
    """The library families a CMake file links (``CUDA::cublas``, ``${CUDA_CUBLAS_LIBRARIES}``,
    ``cuda_add_cublas_to_target``): their HIP packages are found where the toolkit was."""
    found: set[str] = set()
    for command in commands(text) if parsed is None else parsed:
        if command.name in LEGACY_LIBRARY_MACROS:
            found.add(LEGACY_LIBRARY_MACROS[command.name])
        for arg in command.args:
            target = _CUDA_TARGET.match(arg.text)
            name = target.group("name") if target else arg.text[2:] if arg.text.startswith("-l") else ""
            if command.name in LINK_COMMANDS and not name:
                name = arg.text
            if name in libraries.CUDA_LINK:
                found.add(libraries.CUDA_LINK[name])
            for legacy in _LEGACY_REFERENCE.finditer(arg.text):
                family = libraries.LEGACY_VARIABLES.get(legacy.group("name"))
                if family is not None and family != "devrt":
                    found.add(family)
    return found


def translate(text: str, settings: Settings) -> Result:
    """A CMake file ported CUDA -> HIP (HIP -> CUDA is :mod:`.cmake_reverse`'s)."""
    parsed = commands(text)
    families = frozenset(settings.families | families_in(text, parsed)) - {"runtime", "driver", "nvtx"}
    port = _Port(text, settings, families, parsed)
    for command in parsed:
        _RULES.get(command.name, _generic)(port, command)
    return port.result()
