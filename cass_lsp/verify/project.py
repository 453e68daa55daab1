"""``cass-lsp verify --project DIR``: a project verified as its own build defines it.

The original's build is read (:mod:`cass_lsp.verify.discovery`: CMake configured with nvcc into a
scratch folder, or ``make -n``): its executables, the units and flags each links, and its tests.
Each test (or the command the user names) becomes a *check*: the executable's program
(:class:`cass_lsp.compile.program.Program`, rooted at the project, so the project's data files reach the
run) with the test's arguments, verified by the engine like any program: compiled with nvcc and
clang-19 and, with a runner, run on both sides and judged by the same rules (clean runs of the
original only, run-to-run noise, numeric tolerance).

With ``--translation OUT`` (the tree ``cass-lsp translate DIR --out-dir OUT`` wrote), each unit takes
its file from OUT and the translated build is read too: it must configure (or dry-run) and make the
same executables from the corresponding units. A translated build that cannot be read because this
machine lacks a package or the HIP toolchain is "could not verify", never "failed". Without OUT,
each unit takes its rule translation.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

import msgspec

from cass_lsp import toolchains
from cass_lsp.buildfiles import files, options
from cass_lsp.buildfiles import tools as build_tools
from cass_lsp.compile import program as program_module
from cass_lsp.compile.program import Program, Unit
from cass_lsp.core.pairs import Pair
from cass_lsp.translate import naming
from cass_lsp.verify import command as run_command
from cass_lsp.verify import discovery as introspect
from cass_lsp.verify.discovery import BuildError, Discovery, Executable, System
from cass_lsp.verify.engine import Report, Verdict
from cass_lsp.verify.stages import Inputs, StageResult

_MISSING_PACKAGE = re.compile(
    r'Could not find a package configuration file provided by\s+"(?P<config>[^"]+)"|Could NOT find (?P<module>\w+)'
)
_ROCM_HIP_LANG = Path(build_tools.ROCM_HIP_LANG)


@dataclasses.dataclass(frozen=True)
class Check:
    """One program of the project to verify: an executable and the arguments it runs with, or
    the script of the project that runs it."""

    name: str
    executable: Executable
    args: tuple[str, ...]
    env: dict[str, str] = dataclasses.field(default_factory=dict)
    """Variables the run line sets (``VAR=value ./prog``)."""
    script: tuple[str, ...] = ()
    """The script that runs the executable and its arguments (its shell first when the line
    names one), relative to the project; empty: the executable runs itself."""
    program_path: str = ""
    """Where the script finds the executable, relative to the project (as the build writes it)."""

    def verification(self) -> dict[str, object]:
        """The ``cass.verification`` settings this check runs with, over the user's."""
        return {"args": list(self.args), "env": self.env, "script": list(self.script), "programPath": self.program_path}


@dataclasses.dataclass(frozen=True)
class Project:
    root: Path
    translation_root: Path | None
    original: Discovery
    checks: list[Check]
    configure_args: tuple[str, ...] = ()
    """The user's options for the original's configure (the translated build gets their HIP form)."""
    make_args: tuple[str, ...] = ()


def read(
    root: Path,
    *,
    run: str | None,
    system: System | None,
    configure_args: tuple[str, ...] = (),
    make_args: tuple[str, ...] = (),
    translation_root: Path | None = None,
    scratch: Path,
) -> Project:
    """The project at ``root`` and what to verify in it: the command ``run`` names, else its tests.
    Raises BuildError (the original's build cannot be read), ToolchainMissing (no nvcc) or ValueError."""
    nvcc = toolchains.nvidia.require()
    args = (*_nvcc_configure_args(nvcc.nvcc), *configure_args)
    original = introspect.discover(
        root, scratch / "original", system=system, configure_args=args, make_args=make_args, env=nvcc.env()
    )
    if not original.executables:
        raise ValueError(f"{root}: its {original.system} build makes no executable with a CUDA or C++ unit")
    return Project(root, translation_root, original, _checks(original, run, root), configure_args, make_args)


def _nvcc_configure_args(nvcc: Path) -> list[str]:
    """CMake's CUDA language with this nvcc; for the PyPI wheels' layout (``lib/libcudart.so.<major>``
    only), FindCUDAToolkit's cudart named, and the libraries of :func:`_library_stand_ins`."""
    out = [f"-DCMAKE_CUDA_COMPILER={nvcc}"]
    cudart = toolchains.nvidia.versioned_cudart(nvcc)
    if cudart is not None:
        out += [f"-DCUDA_CUDART={cudart}", f"-DCUDA_cudart_LIBRARY={cudart}"]
        out += [f"-DCUDA_{target}_LIBRARY={cudart.parent / file}" for target, file in _library_stand_ins()]
    return out


def _library_stand_ins() -> list[tuple[str, str]]:
    """FindCUDAToolkit's targets (``CUDA::cublas``, ``CUDA::nvrtc``, ``CUDA::cuda_driver``) of the
    libraries whose headers are here while their shared objects are not (the nvcc wheels carry
    ``cuda.h``, setup fetches the CUDA library headers), each with the file a toolkit would have.
    Verify only reads the original's build, never links it, so a path where the library would lie
    lets the build configure as on a full toolkit (and choose what it would choose there); what the
    program then needs is judged by its compile and by the runner."""
    found = [("cuda_driver", "libcuda.so")]
    if toolchains.cudalibs.installed():
        found += [(name, f"lib{name}.so") for name in (*toolchains.cudalibs.WHEELS, "cublasLt")]
    return found


def _checks(discovery: Discovery, run: str | None, root: Path) -> list[Check]:
    if run is not None:
        return [_run_check(discovery, run, root)]
    checks = []
    for test in discovery.tests:
        executable = _executable(discovery, test.argv[0], test.name)
        checks.append(Check(f"test {test.name}", executable, _arguments(test.argv[1:], root)))
    if not checks:
        names = ", ".join(e.name for e in discovery.executables)
        raise ValueError(f"the project declares no tests: name a command with --run (its executables: {names})")
    return checks


def _run_check(discovery: Discovery, run: str, root: Path) -> Check:
    """The check of a ``--run`` line (:mod:`.command`: variables, quotes, continuation lines, a
    script of the project). Raises ValueError saying why the line cannot be run."""
    line = " ".join(run.replace("\\\n", " ").split())  # the check's name, on one line
    parsed = run_command.parse(run)
    first = parsed.words[0]
    found = _matching(discovery, first)
    if found is not None and not parsed.script:
        return Check(line, found, _arguments(parsed.words[1:], root), parsed.env)
    script = _script_path(first, root)
    if script is None or not (parsed.script or _has_shebang(root / script)):
        names = ", ".join(e.name for e in discovery.executables)
        raise ValueError(
            f"{first} is not an executable the build makes (its executables: {names}), nor a script of the project that runs one"
        )
    executable = _run_by(discovery, root / script)
    words = (*((parsed.shell,) if parsed.shell else ()), script, *_arguments(parsed.words[1:], root))
    return Check(line, executable, (), parsed.env, words, _program_path(executable, root))


def _matching(discovery: Discovery, command: str) -> Executable | None:
    for executable in discovery.executables:
        if command in (executable.path, executable.name) or os.path.basename(command) == executable.name:
            return executable
    return None


def _executable(discovery: Discovery, command: str, test: str | None = None) -> Executable:
    found = _matching(discovery, command)
    if found is not None:
        return found
    names = ", ".join(e.name for e in discovery.executables)
    where = f"test {test} runs {command}, which is" if test else f"{command} is"
    raise ValueError(f"{where} not an executable the build makes (its executables: {names})")


def _script_path(command: str, root: Path) -> str | None:
    """``command`` as the path of a file of the project, relative to it (None: it names none)."""
    path = Path(os.path.normpath(root / command))
    if not path.is_relative_to(root) or path == root or not path.is_file():
        return None
    return str(path.relative_to(root))


def _has_shebang(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return file.read(2) == b"#!"
    except OSError:
        return False


def _run_by(discovery: Discovery, script: Path) -> Executable:
    """The executable of the build ``script`` runs: the one it names (or the build's only one)."""
    try:
        text = script.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise ValueError(f"{script}: cannot read it: {error.strerror}") from None
    named = [e for e in discovery.executables if re.search(rf"(?<![\w.-]){re.escape(e.name)}(?![\w.-])", text)]
    if len(named) == 1 or (not named and len(discovery.executables) == 1):
        return (named or discovery.executables)[0]
    names = ", ".join(e.name for e in named or discovery.executables)
    how = "runs several executables of the build" if named else "names no executable of the build"
    raise ValueError(f"{script.name} {how} ({names}): a verification runs one program; name it with --run")


def _program_path(executable: Executable, root: Path) -> str:
    """Where the build writes ``executable``, relative to the project (its name when outside it)."""
    path = Path(executable.path)
    return str(path.relative_to(root)) if path.is_relative_to(root) else executable.name


def _arguments(args: list[str] | tuple[str, ...], root: Path) -> tuple[str, ...]:
    """Arguments naming files of the project point at the run folder's copies (runs start in a copy
    of the project's data files, laid out as in the project)."""
    out = []
    for arg in args:
        if os.path.isabs(arg) and Path(arg).is_relative_to(root):
            arg = os.path.relpath(arg, root)
        out.append(arg)
    return tuple(out)


def inputs_of(check: Check, project: Project) -> Inputs:
    """The engine's inputs for ``check``: its executable as a program (its units, each with its
    translation file under the translated tree, or none: its rule translation) and their texts.
    Raises OSError when a file cannot be read."""
    units = tuple(
        Unit(s.file, _translation_of(s.file, project), s.arguments, s.directory, s.project) for s in check.executable.sources
    )
    texts = {path: Path(path).read_text(encoding="utf-8", errors="surrogateescape")
             for unit in units for path in (unit.original, unit.translation) if path is not None}
    main = next((u for u in units if program_module.defines_main(texts[u.original])), None)
    origin = f"{project.original.system} target {check.executable.name}"
    program = Program(str(project.root), units, origin, main.original if main else None)
    first = main or units[0]
    return Inputs(Pair(first.original, first.translation), program, texts)


def _translation_of(original: str, project: Project) -> str | None:
    """The file ``translate --out-dir`` wrote for ``original`` under the translated tree, if any."""
    if project.translation_root is None:
        return None
    path = project.translation_root / _translated_name(os.path.relpath(original, project.root))
    return str(path) if path.is_file() else None


def translated_build(project: Project, scratch: Path) -> Report | None:
    """The translated tree's build read like the original's, judged: None without a translated tree."""
    if project.translation_root is None:
        return None
    root, out = project.root, project.translation_root
    top = "CMakeLists.txt" if project.original.system == "cmake" else _make_file(out)
    pair = Pair(str(root / top), str(out / top))
    name = f"build files of {out}"

    def verdict(outcome: Literal["passed", "failed", "unavailable"], message: str) -> Report:
        stage = StageResult("translation", project.original.system, outcome, message)
        judged: Verdict = "unverified" if outcome == "unavailable" else outcome
        lead = "could not verify: " if judged == "unverified" else ""
        return Report(pair, judged, f"{name}: {lead}{message}", [stage])

    missing = _hip_toolchain_missing(project.original.system)
    if missing:
        return verdict("unavailable", missing)
    cmake_options = options.cmake_options(project.configure_args)
    make_options = options.make_options(project.make_args)
    ported = cmake_options if project.original.system == "cmake" else make_options
    said = f" (left out: {'; '.join(ported.dropped)})" if ported.dropped else ""
    try:
        translated = introspect.discover(
            out, scratch / "translation", system=project.original.system,
            configure_args=(*_hip_configure_args(), *cmake_options.arguments), make_args=make_options.arguments,
        )  # fmt: skip
    except BuildError as error:
        package = _MISSING_PACKAGE.search(error.log)
        if package:
            needed = package.group("config") or package.group("module")
            return verdict("unavailable", f"the translated build needs the package {needed}, which this machine lacks")
        asked = [n for n in ported.dropped_names if re.search(rf"\b{re.escape(n)}\b", error.log)]
        if asked:
            return verdict("unavailable", f"the translated build stops at {', '.join(asked)}, an option of the "
                           f"original's that verify leaves out of the port's build{said}")
        tail = "; ".join(line.strip() for line in error.log.splitlines() if "Error" in line or "error" in line)[:400]
        return verdict("failed", f"{error}{': ' + tail if tail else ''}{said}")
    problems = list(_differences(project, translated))
    if problems:
        return verdict("failed", "; ".join(problems) + said)
    made = ", ".join(e.name for e in translated.executables)
    return verdict("passed", f"the translated {translated.system} build reads and makes the same executables "
                   f"({made}){said}")


def _make_file(folder: Path) -> str:
    return next((n for n in sorted(files.MAKE_NAMES) if (folder / n).is_file()), "Makefile")


def _hip_toolchain_missing(system: System) -> str | None:
    """Why this machine cannot read a HIP build (None: it can)."""
    if system == "make" or _ROCM_HIP_LANG.is_dir():
        return None
    statuses = [s for s in build_tools.status() if s.name == "build: CMake HIP language"]
    if statuses and not statuses[0].found:
        return f"no CMake HIP language here ({statuses[0].hint})"
    return None


def _hip_configure_args() -> tuple[str, ...]:
    return () if _ROCM_HIP_LANG.is_dir() else (f"-DCMAKE_TOOLCHAIN_FILE={files.TOOLCHAIN_FILE}",)


def _differences(project: Project, translated: Discovery) -> Iterator[str]:
    assert project.translation_root is not None
    made = {e.name: e for e in translated.executables}
    for executable in project.original.executables:
        counterpart = made.get(executable.name)
        if counterpart is None:
            yield f"the translated build makes no {executable.name}"
            continue
        expected = {_translated_name(os.path.relpath(s.file, project.root)) for s in executable.sources}
        got = {os.path.relpath(s.file, project.translation_root) for s in counterpart.sources}
        lost = sorted(expected - got)
        if lost:
            yield f"{executable.name} no longer builds {', '.join(lost)}"


def _translated_name(relative: str) -> str:
    return naming.translated_name(relative, reverse=False, beside_original=False)


def verify_checks(
    project: Project, verify_one: Callable[[Check, Inputs], Report], unreadable: Callable[[Pair, OSError], Report]
) -> Iterator[Report]:
    """Each check's report, its summary led by the check's name."""
    for check in project.checks:
        try:
            inputs = inputs_of(check, project)
        except OSError as error:
            yield unreadable(Pair(check.executable.sources[0].file, None), error)
            continue
        report = verify_one(check, inputs)
        yield msgspec.structs.replace(report, summary=f"{check.name}: {report.summary}")
