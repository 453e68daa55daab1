"""Makefiles (``Makefile``, ``GNUmakefile``, ``*.mk``) ported CUDA -> HIP, and back where symmetric.

Rules as data (the tables below), applied to the words of each logical line, so lines no rule
touches stay as written:

* the compiler: ``nvcc`` (a bare ``nvcc``, ``$(CUDA_HOME)/bin/nvcc``, ``$(shell which nvcc)``, …)
  becomes ``hipcc``, or ``clang++`` (``Settings.compiler``) with ``-x hip`` on compile lines and
  ``--hip-link`` on link lines; a variable whose value starts with another compiler variable
  (``NVCC = $(CUDA_BIN)/nvcc``, ``CC = $(NVCC)``) is one too; under hipcc ``export HIP_PLATFORM ?=
  amd`` follows its first use, since hipcc picks the NVIDIA platform whenever an ``nvcc`` is on
  ``PATH``, and ``export HCC_AMDGPU_TARGET ?= <the AMD targets>``, the targets hipcc builds for where
  a command names none (it would ask the machine's GPU and, with none, leave clang's default target;
  llm.c's top-level Makefile adds its target flag only where ``nvidia-smi`` answers); ``$(shell which nvcc)`` elsewhere (``CUDA_PATH := $(dir $(shell which nvcc))..``) asks
  for hipcc, whose folder is ROCm's as nvcc's was CUDA's;
* nvcc's flags, on the compiler's command lines and in the variables those lines use (target-specific
  assignments too: ``omp: CUFLAGS += -Xcompiler -fopenmp``), through
  :func:`cass_lsp.compile.nvcc_flags.port` (targets become ``--offload-arch`` per AMD target, a
  ``$(foreach)`` loop that only makes NVIDIA targets too; ``-Xcompiler "a b"`` is nvcc's list
  ``a,b``);
* relocatable device code: where a line compiles with ``-dc`` / ``-rdc=true``, the link lines get
  ``-fgpu-rdc`` (nvcc device-linked such objects wherever it linked them);
* libraries: ``-lcudart`` / ``-lcublas`` / … -> ``-lamdhip64`` / ``-lhipblas`` / …
  (:mod:`cass_lsp.buildfiles.libraries`), on every line, since a program is often linked by the host compiler;
* the toolkit's root: ``$(CUDA_HOME)``, ``$(CUDA_PATH)``, … -> ``$(ROCM_PATH)`` (its ``lib64`` ->
  ``lib``), its assignment -> ``ROCM_PATH ?= /opt/rocm``;
* source names: ``.cu`` -> ``.hip`` when the tree's sources are renamed, so ``%.o: %.cu`` rules keep
  building the translated sources;
* a query of the NVIDIA GPU's compute capability (``$(shell __nvcc_device_query)``, ``$(shell
  nvidia-smi --query-gpu=compute_cap ...)``) becomes the AMD targets (``cass.target.arch``): it would
  answer nothing on a machine without an NVIDIA GPU, and the Makefile would build for hipcc's
  default target instead of the configured one.

A line no rule can port is kept as written with an error finding on it: no Makefile makes the port
raise.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from cass_lsp.buildfiles import libraries
from cass_lsp.buildfiles.porting import REWRITTEN, UNMAPPED, Result, Rewriter, Settings
from cass_lsp.compile import nvcc_flags

CUDA_ROOT_VARIABLES = ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDA_DIR", "CUDA_TOOLKIT_ROOT_DIR", "CUDA_INSTALL_PATH")
ROCM_ROOT = "ROCM_PATH"
ROCM_DEFAULT = "/opt/rocm"
HIP_PLATFORM_LINE = "export HIP_PLATFORM ?= amd"
CLANG_NOTE = (": a clang that builds HIP: ROCm's ($(ROCM_PATH)/llvm/bin/clang++), or on Debian 12's packages "
              "clang++-15 --rocm-path=/usr --hip-device-lib-path=/usr/lib/<multiarch>/amdgcn/bitcode (give it as "
              "the compiler variable's value)")
HIP_PLATFORM_WHY = ("hipcc picks the NVIDIA platform when an nvcc is on PATH: the Makefile now asks for AMD "
                    "(HIP_PLATFORM=amd) unless the environment says otherwise")
HIP_TARGET_VARIABLE = "HCC_AMDGPU_TARGET"
HIP_TARGET_WHY = ("where a command names no --offload-arch, hipcc builds for HCC_AMDGPU_TARGET's targets "
                  "(now the AMD targets {} of cass.target.arch, unless the environment says otherwise), not for "
                  "the machine's GPU or, with none, clang's default target")


def _target_line(settings: Settings) -> str:
    """``export HCC_AMDGPU_TARGET ?= gfx1030,gfx1100``: hipcc's targets where a command gives none."""
    return f"export {HIP_TARGET_VARIABLE} ?= {','.join(settings.arches)}"
# variables that hold nvcc flags by name, whether or not a recipe line shows it
_FLAG_VARIABLE = re.compile(r"^(?:NVCC\w*|CU\w*FLAGS|CUDA\w*FLAGS|NV\w*FLAGS|GENCODE\w*|\w*ARCH\w*FLAGS|"
                            r"CUDA_ARCH\w*|NVCC_ARCH\w*)$")
_ASSIGNMENT = re.compile(r"(?P<head>\s*(?:(?:export|override)\s+)*)(?P<name>[A-Za-z_][\w.-]*)\s*"
                         r"(?P<op>[:+?!]?=|::=)\s*")
_REFERENCE = re.compile(r"\$[({](?P<name>[A-Za-z_][\w.-]*)[)}]")
_NVCC = re.compile(r"^(?:nvcc|\S*/nvcc)$")
# nvcc found on PATH by the shell: $(shell which nvcc 2>/dev/null), $(shell command -v nvcc)
_SHELL_NVCC = re.compile(r"(\$[({]shell\s+(?:which|command\s+-v|type\s+-p)\s+)nvcc\b")
# the GPU's compute capability asked of the machine (a whole ``$(shell ...)`` word)
_DEVICE_QUERY = re.compile(r"^\$[({]shell\s+(?:__nvcc_device_query|nvidia-smi\s[^()]*compute_cap[^()]*)[)}]$")
_HIPCC = re.compile(r"^(?:hipcc|\S*/hipcc)$")
_CU_NAME = re.compile(r"\.cu(?![\w.])")
_ROOT_PATH = re.compile(r"\$[({](?:" + "|".join(CUDA_ROOT_VARIABLES) + r")[)}]")
_DEFAULT_ROOT = re.compile(r"^/usr/local/cuda(?:-[\d.]+)?$")
_COMPUTED_TARGET = re.compile(r"(?:sm|compute)_\$[({]")
_GROUPED = frozenset({"-Xcompiler", "--compiler-options", "-Xlinker", "--linker-options", "-Xptxas",
                      "--ptxas-options"})
# the targets of a target-specific assignment (``omp_stats: CUFLAGS += -Xcompiler -fopenmp``)
_TARGET_SPECIFIC = re.compile(r"[^:=#\t\n]+::?(?!=)[ \t]*(?=(?:(?:export|override)\s+)*[A-Za-z_][\w.-]*\s*(?:[:+?!]?=|::=))")
_RELOCATABLE = re.compile(r"(?<![^\s=])(?:-dc|--device-c|-rdc=(?:true|1)|--relocatable-device-code=(?:true|1))(?!\S)")
_FOREACH = re.compile(r"^\$[({]foreach\s+(?P<var>[\w.-]+)\s*,[^,()]*(?:\$[({][^,()]*[)}][^,()]*)*,(?P<body>.*)[)}]$",
                      re.DOTALL)
_OFFLOAD_FLAG = re.compile(r"^--offload-arch=\S+$")
_NVCC_IN_PATH = re.compile(r"/nvcc(?![\w.-])")
_SOURCE_NAME = re.compile(r"\.(?:cu|hip)$")
_OBJECT_NAME = re.compile(r"\.(?:o|obj|a|so)$|^\$[\^+]$")
_RULE = re.compile(r"^(?P<targets>[^=\t#]*?[^:=\s\\]\s*)::?(?!=)(?P<prerequisites>[^=;|#]*)")


class _Line(NamedTuple):
    start: int  # offset of the logical line (continuations joined)
    end: int
    recipe: bool


class _Token(NamedTuple):
    text: str
    start: int
    end: int


def _lines(text: str) -> list[_Line]:
    lines: list[_Line] = []
    i = 0
    while i < len(text):
        j = i
        while True:
            newline = text.find("\n", j)
            if newline < 0:
                j = len(text)
                break
            if newline > 0 and text[newline - 1] == "\\" and text[newline - 2 : newline] != "\\\\":
                j = newline + 1
                continue
            j = newline
            break
        lines.append(_Line(i, j, text.startswith("\t", i)))
        i = j + 1
    return lines


def _tokens(text: str, start: int, end: int) -> list[_Token]:
    """Whitespace-separated words, a ``$(...)`` / ``${...}`` group and a shell quote (``"-O3 -Wall"``;
    spaces and all) inside one."""
    tokens: list[_Token] = []
    i = start
    while i < end:
        if text[i].isspace() or (text[i] == "\\" and i + 1 < end and text[i + 1] == "\n"):
            i += 1
            continue
        j = i
        depth = 0
        while j < end:
            c = text[j]
            if c == "$" and j + 1 < end and text[j + 1] in "({":
                depth += 1
                j += 2
                continue
            if c in "'\"" and depth == 0 and text.find(c, j + 1, end) > 0:
                j = text.find(c, j + 1, end) + 1
                continue
            if c in ")}" and depth:
                depth -= 1
            elif depth == 0 and (c.isspace() or (c == "\\" and j + 1 < end and text[j + 1] == "\n")):
                break
            j += 1
        tokens.append(_Token(text[i:j], i, j))
        i = j
    return tokens


class _Port(Rewriter):
    """A Makefile's port in progress."""

    def __init__(self, text: str, settings: Settings) -> None:
        super().__init__(text, settings)
        self.platform_placed = False
        self.relocatable = _RELOCATABLE.search(text) is not None
        """Some line compiles relocatable device code (``-dc``, ``-rdc=true``): nvcc device-links the
        objects wherever it links them, clang only with ``-fgpu-rdc`` on the link line."""
        self.rule_builds_sources = False
        """The rule whose recipe is being read has CUDA sources, and no objects, as prerequisites
        (``%: %.cu``): its compile-and-link lines need ``-x hip`` under clang."""


def _compiler_variables(text: str, lines: list[_Line], compiler: re.Pattern[str] = _NVCC) -> set[str]:
    """Variables whose value is the compiler (``NVCC ?= $(CUDA_HOME)/bin/nvcc``, ``NVCC :=
    $(shell which nvcc)``) or starts with another such variable (``CC = $(NVCC)``)."""
    first: dict[str, set[str]] = {}
    for line in lines:
        match = _ASSIGNMENT.match(text, line.start, line.end)
        if match and not line.recipe:
            words = _tokens(text, match.end(), line.end)
            if words:
                first.setdefault(match.group("name"), set()).add(words[0].text)
    found: set[str] = set()
    while True:
        more = {name for name, values in first.items() if name not in found
                and any(_is_compiler(value, found, compiler) for value in values)}
        if not more:
            return found
        found |= more


def _is_compiler(token: str, compilers: set[str], compiler: re.Pattern[str] = _NVCC) -> bool:
    token = token.strip("\"'")
    reference = _REFERENCE.fullmatch(token)
    return (bool(compiler.match(token)) or (reference is not None and reference.group("name") in compilers)
            or (compiler is _NVCC and _is_shell_nvcc(token)))


def _is_shell_nvcc(token: str) -> bool:
    match = _SHELL_NVCC.match(token)
    return match is not None and _REFERENCE.fullmatch(token) is None and token.endswith((")", "}")) \
        and "$(" not in token[match.end():] and "${" not in token[match.end():]


def _flag_variables(text: str, lines: list[_Line], compilers: set[str], compiler: re.Pattern[str] = _NVCC) -> set[str]:
    """Variables used on the compiler's command lines or in other flag variables, and those named
    like nvcc flags."""
    used: set[str] = set()
    assigned: dict[str, list[str]] = {}
    for line in lines:
        match = _ASSIGNMENT.match(text, line.start, line.end)
        if match and not line.recipe:
            assigned.setdefault(match.group("name"), []).append(text[match.end() : line.end])
            continue
        tokens = _tokens(text, line.start, line.end)
        if any(_is_compiler(t.text, compilers, compiler) for t in tokens):
            used.update(m.group("name") for t in tokens for m in _REFERENCE.finditer(t.text))
    used.update(name for name in assigned if _FLAG_VARIABLE.match(name))
    pending = list(used)
    while pending:  # a flag variable's own references hold flags too
        for value in assigned.get(pending.pop(), []):
            for m in _REFERENCE.finditer(value):
                if m.group("name") not in used:
                    used.add(m.group("name"))
                    pending.append(m.group("name"))
    return used - compilers - set(CUDA_ROOT_VARIABLES)


def _rename_word(port: _Port, token: _Token) -> str:
    """Libraries, the toolkit root and source names of one word."""
    text = token.text
    if text.startswith("-l"):
        name = text[2:]
        if name in libraries.DROPPED_LINK and name != "cudart_static":
            port.find(token.start, "info", f"{text} dropped: {libraries.DROPPED_LINK[name]}")
            return ""
        if name in libraries.UNPORTED_LINK:
            port.find(token.start, "error", f"{text}: {libraries.UNPORTED_LINK[name]}", UNMAPPED)
            return text
        family = libraries.CUDA_LINK.get(name)
        if family is not None:
            hip = libraries.hip(family, port.settings.libraries)
            if hip.note or name in libraries.DROPPED_LINK:
                port.find(token.start, "info", f"{text} -> -l{hip.link}: "
                          f"{libraries.DROPPED_LINK.get(name) or hip.note}")
            return f"-l{hip.link}" if hip.link else ""
    if _DEVICE_QUERY.match(text):
        arches = " ".join(port.settings.arches)
        port.find(token.start, "info", f"{text} asks the machine's NVIDIA GPU for its target: now the AMD targets "
                  f"{arches} (cass.target.arch; translate with --arch for others), which need no GPU to build for")
        return arches
    if _SHELL_NVCC.search(text):
        text = _SHELL_NVCC.sub(r"\1hipcc", text)
    if text.startswith(("$(", "${")):  # $(patsubst %/bin/nvcc,%,$(NVCC)): the compiler's path, now hipcc's
        text = _NVCC_IN_PATH.sub("/hipcc", text)
    if _ROOT_PATH.search(text):
        text = _ROOT_PATH.sub(f"$({ROCM_ROOT})", text)
        text = re.sub(r"(\$\(" + ROCM_ROOT + r"\)(?:/targets/[\w-]+)?)/lib64\b", rf"$({ROCM_ROOT})/lib", text)
    if port.settings.renamed_sources and not text.startswith("-"):
        text = _CU_NAME.sub(".hip", text)
    return text


def _foreach_targets(port: _Port, token: _Token) -> str:
    """``$(foreach cc,$(GPU_ARCH),--generate-code arch=compute_$(cc),code=sm_$(cc))``, a loop that only
    makes NVIDIA targets, as the AMD targets' flags; any other word as it is."""
    loop = _FOREACH.match(token.text)
    if loop is None:
        return token.text
    reference = re.compile(r"\$[({]" + re.escape(loop.group("var")) + r"[)}]")
    sample = reference.sub("80", loop.group("body")).replace("\\\n", " ").split()
    ported = nvcc_flags.port(sample, port.settings.arches)
    if not ported.nvidia_targets or not all(_OFFLOAD_FLAG.match(f) for f in ported.flags):
        return token.text
    port.find(token.start, "info", "the NVIDIA targets this $(foreach) makes become the AMD targets "
              f"{', '.join(port.settings.arches)} (cass.target.arch)")
    return " ".join(f"--offload-arch={arch}" for arch in port.settings.arches)


def _unquoted_group(word: str) -> str:
    """``"-O3 -fopenmp"`` after ``-Xcompiler`` as nvcc reads it: the list ``-O3,-fopenmp``."""
    if len(word) > 1 and word[0] == word[-1] and word[0] in "'\"":
        return ",".join(word[1:-1].replace(",", " ").split())
    return word


def _port_tokens(port: _Port, tokens: list[_Token]) -> None:
    """A run of flags: nvcc's through :func:`nvcc_flags.port`, every word through :func:`_rename_word`.
    Words that only get renamed are replaced where they stand; a run whose flags change is written
    again on one line (its continuations joined)."""
    if not tokens:
        return
    words = [_unquoted_group(t.text) if i and tokens[i - 1].text in _GROUPED else _foreach_targets(port, t)
             for i, t in enumerate(tokens)]
    ported = nvcc_flags.port(words, port.settings.arches)
    for note in ported.notes:
        where = next((t.start for t in tokens if t.text == note.flag.split()[0]), tokens[0].start)
        port.find(where, note.severity, note.message, UNMAPPED if note.severity == "error" else REWRITTEN)
    if ported.flags == [t.text for t in tokens]:
        for token in tokens:
            port.replace(token.start, token.end, _rename_word(port, token), "flags")
        return
    renamed = [_rename_word(port, _Token(w, tokens[0].start, tokens[0].start)) for w in ported.flags]
    port.replace(tokens[0].start, tokens[-1].end, " ".join(w for w in renamed if w), "flags")


def _port_compile_line(port: _Port, line: _Line, tokens: list[_Token], compilers: set[str]) -> None:
    """A recipe (or assignment) invoking nvcc: the compiler, then its flags."""
    at = next((i for i, t in enumerate(tokens) if _is_compiler(t.text, compilers)), None)
    if at is None:
        return
    for token in tokens[:at]:
        port.replace(token.start, token.end, _rename_word(port, token), "paths")
    compiler = tokens[at]
    rest = tokens[at + 1 :]
    bare = compiler.text.strip("\"'")
    if _NVCC.match(bare) or _is_shell_nvcc(bare):
        new = "hipcc" if port.settings.compiler == "hipcc" else "clang++"
        if _is_shell_nvcc(bare) and new == "hipcc":  # still found on PATH, as the original looked for nvcc
            new = _SHELL_NVCC.sub(r"\1hipcc", bare)
        port.replace(compiler.start, compiler.end, new, "compiler")
        port.find(compiler.start, "info", f"{compiler.text} -> {new}" + ("" if port.settings.compiler == "hipcc"
                                                                          else CLANG_NOTE))
    if port.settings.compiler == "clang" and line.recipe:
        compiles = any(t.text in ("-c", "-dc") or t.text.startswith("--compile") for t in rest)
        sources = port.rule_builds_sources or (any(_SOURCE_NAME.search(t.text) for t in rest)
                                               and not any(_OBJECT_NAME.search(t.text) for t in rest))
        extra = "-x hip" if compiles else "-x hip --hip-link" if sources else "--hip-link"
        if any(t.text == "-x" or t.text.startswith("-x=") for t in rest):  # nvcc -x cu: now -x hip
            extra = extra.removeprefix("-x hip").strip()
        if extra:
            port.insert(compiler.end, f" {extra}", "compiler")
    if line.recipe and port.relocatable and not any(t.text in ("-c", "-dc") or t.text.startswith("--compile")
                                                    or _RELOCATABLE.fullmatch(t.text) for t in rest):
        port.insert(compiler.end, " -fgpu-rdc", "flags")
        port.find(compiler.start, "info", "-fgpu-rdc added to the link: nvcc device-linked the relocatable objects "
                  "(-dc, -rdc=true) it linked, clang does so only with -fgpu-rdc")
    _port_tokens(port, rest)


def _port_assignment(port: _Port, line: _Line, match: re.Match[str], compilers: set[str], flags: set[str]) -> None:
    name = match.group("name")
    value = _tokens(port.text, match.end(), line.end)
    if name in CUDA_ROOT_VARIABLES:
        port.replace(match.start("name"), match.end("name"), ROCM_ROOT, "paths")
        if len(value) == 1 and _DEFAULT_ROOT.match(value[0].text):
            port.replace(value[0].start, value[0].end, ROCM_DEFAULT, "paths")
        else:  # $(shell dirname $(shell which nvcc))/.., $(patsubst %/bin/nvcc,%,$(NVCC))
            for token in value:
                port.replace(token.start, token.end, _rename_word(port, token), "paths")
        port.find(match.start("name"), "info", f"{name} -> {ROCM_ROOT}: ROCm's root (Debian's packages install "
                  "under /usr, found by hipcc without it)")
        return
    if name in compilers:
        _port_compile_line(port, line, value, compilers)
        if port.settings.compiler == "hipcc" and not port.platform_placed:
            port.insert(line.end, f"\n{HIP_PLATFORM_LINE}\n{_target_line(port.settings)}", "compiler")
            port.find(line.start, "info", HIP_PLATFORM_WHY)
            port.find(line.start, "info", HIP_TARGET_WHY.format(", ".join(port.settings.arches)))
            port.platform_placed = True
        return
    if name in flags:
        _port_tokens(port, value)
        return
    for token in value:
        port.replace(token.start, token.end, _rename_word(port, token), "paths")


def translate(text: str, settings: Settings) -> Result:
    """A Makefile ported CUDA -> HIP (``settings.reverse``: HIP -> CUDA)."""
    if settings.reverse:
        return _reverse(text, settings)
    port = _Port(text, settings)
    lines = _lines(text)
    compilers = _compiler_variables(text, lines)
    flags = _flag_variables(text, lines, compilers)
    for line in lines:
        kept = (len(port.edits), len(port.findings), dict(port.stats), port.platform_placed)
        try:
            _port_line(port, line, compilers, flags)
            computed = _COMPUTED_TARGET.search(text, line.start, line.end)
            if computed and not any(e.start <= computed.start() < e.end for e in port.edits[kept[0]:]):
                # $(foreach sm,$(SMS),-gencode arch=compute_$(sm),...): no flag to port on this line
                port.find(computed.start(), "warning", "NVIDIA targets computed by make functions stay as written: "
                          f"give the AMD targets as --offload-arch={settings.arches[0]} (one per target) instead",
                          UNMAPPED)
        except (ValueError, IndexError, KeyError, StopIteration, AttributeError, TypeError) as error:
            # a defect of the rules on a construct they do not expect: the line stays as written
            port.edits[kept[0]:], port.findings[kept[1]:] = [], []
            port.stats, port.platform_placed = kept[2], kept[3]
            port.find(line.start, "error", f"this line could not be ported ({type(error).__name__}: {error}); "
                      "kept as written", UNMAPPED)
    return port.result()


def _port_line(port: _Port, line: _Line, compilers: set[str], flags: set[str]) -> None:
    text = port.text
    stripped = text[line.start : line.end].lstrip()
    if not stripped or stripped.startswith("#"):
        return
    match = None if line.recipe else _ASSIGNMENT.match(text, line.start, line.end)
    target_specific = None if line.recipe or match else _TARGET_SPECIFIC.match(text, line.start, line.end)
    if target_specific is not None:  # omp: CUFLAGS += -Xcompiler -fopenmp
        match = _ASSIGNMENT.match(text, target_specific.end(), line.end)
    if match is not None:
        _port_assignment(port, line, match, compilers, flags)
        return
    rule = None if line.recipe else _RULE.match(stripped)
    if rule is not None:
        prerequisites = rule.group("prerequisites").split()
        port.rule_builds_sources = any(_SOURCE_NAME.search(p) for p in prerequisites) and not any(
            _OBJECT_NAME.search(p) for p in prerequisites)
    tokens = _tokens(text, line.start, line.end)
    if any(_is_compiler(t.text, compilers) for t in tokens):
        _port_compile_line(port, line, tokens, compilers)
        if port.settings.compiler == "hipcc" and not port.platform_placed and not compilers:
            port.find(line.start, "warning", "hipcc picks the NVIDIA platform when an nvcc is on PATH: run make "
                      f"with HIP_PLATFORM=amd (and {HIP_TARGET_VARIABLE}={','.join(port.settings.arches)} for commands that "
                      "name no --offload-arch)", UNMAPPED)
            port.platform_placed = True
        return
    if "-dlink" in stripped or "--device-link" in stripped:
        port.find(line.start, "error", "a separate device-link step has no clang counterpart: link the -fgpu-rdc "
                  "objects with the HIP compiler", UNMAPPED)
    for token in tokens:
        port.replace(token.start, token.end, _rename_word(port, token), "paths")


_REVERSE_LINK = libraries.reverse_link()


def _reverse(text: str, settings: Settings) -> Result:
    """HIP -> CUDA where the mapping is symmetric: hipcc -> nvcc, its flags (on its lines and in the
    variables they use) through :func:`nvcc_flags.port_back`, HIP libraries -> CUDA's,
    ``$(ROCM_PATH)`` -> ``$(CUDA_HOME)``, ``.hip`` -> ``.cu``."""
    port = _Port(text, settings)
    lines = _lines(text)
    compilers = _compiler_variables(text, lines, _HIPCC)
    flags = _flag_variables(text, lines, compilers, _HIPCC)
    for line in lines:
        stripped = text[line.start : line.end].lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith((HIP_PLATFORM_LINE, f"export {HIP_TARGET_VARIABLE} ?= ")):
            port.replace(line.start, min(line.end + 1, len(text)), "", "compiler")
            continue
        match = None if line.recipe else _ASSIGNMENT.match(text, line.start, line.end)
        tokens = _tokens(text, match.end() if match else line.start, line.end)
        if match is not None and match.group("name") == ROCM_ROOT:
            port.replace(match.start("name"), match.end("name"), "CUDA_HOME", "paths")
            if len(tokens) == 1 and tokens[0].text == ROCM_DEFAULT:
                port.replace(tokens[0].start, tokens[0].end, "/usr/local/cuda", "paths")
            continue
        compiles = (match is not None and match.group("name") in flags) or any(
            _is_compiler(t.text, compilers, _HIPCC) for t in tokens)
        if compiles and tokens:
            words = [t.text for t in tokens]
            ported = nvcc_flags.port_back(words, settings.nvidia_arch)
            for note in ported.notes:
                port.find(line.start, note.severity, note.message)
            new = [_reverse_word(w) for w in ported.flags]
            if new != words:
                port.replace(tokens[0].start, tokens[-1].end, " ".join(new), "flags")
            continue
        for token in tokens:
            port.replace(token.start, token.end, _reverse_word(token.text), "paths")
    return port.result()


def _reverse_word(word: str) -> str:
    if _HIPCC.match(word):
        return "nvcc"
    if word.startswith("-l") and word[2:] in _REVERSE_LINK:
        return f"-l{_REVERSE_LINK[word[2:]]}"
    word = word.replace(f"$({ROCM_ROOT})/lib", "$(CUDA_HOME)/lib64").replace(f"$({ROCM_ROOT})", "$(CUDA_HOME)")
    return re.sub(r"\.hip(?![\w.])", ".cu", word)
