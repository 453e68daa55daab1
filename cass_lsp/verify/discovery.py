"""What a project's own build makes: its executables, the units and flags each one links, and its
tests. ``cass-lsp verify --project`` verifies these programs (:mod:`cass_lsp.verify.project`).

* **CMake**: the project is configured into a scratch build folder (never the user's) with a File
  API query and ``CMAKE_EXPORT_COMPILE_COMMANDS``. The codemodel gives each executable's sources and
  those of the libraries it links (static, object and shared, transitively); compile_commands.json
  gives each unit's flags; the CTestTestfile.cmake files it writes give the tests, each an
  executable of the build and its arguments.
* **Make**: ``make -n -B -w`` prints every command of a full build and runs none (except what make
  itself always runs: ``$(shell …)`` and recursive ``$(MAKE)`` lines). Compile lines (``-c``) give the
  units and their flags (nvcc's ``-dc``/``-dw`` too), ``ar`` and ``nvcc -lib`` lines the archives, link
  lines (``-o prog objects…``) the executables (nvcc's ``-dlink`` device link makes none).
  A Makefile declares no tests: the command to run is the user's.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import msgspec

from cass_lsp.buildfiles import cmake_syntax
from cass_lsp.buildfiles.files import MAKE_NAMES
from cass_lsp.compile import commands as ccdb
from cass_lsp.core import filekinds, proc

System = Literal["cmake", "make"]
UNIT_SUFFIXES = (*filekinds.UNIT_SUFFIXES, filekinds.HIP_SUFFIX)  # the translated tree's units too
_QUERY = Path(".cmake", "api", "v1", "query", "codemodel-v2")
_REPLY = Path(".cmake", "api", "v1", "reply")
_LINKED = {"STATIC_LIBRARY", "OBJECT_LIBRARY", "SHARED_LIBRARY", "MODULE_LIBRARY"}
_COMPILER = re.compile(r"^(?:nvcc|hipcc|(?:clang|g|c)\+\+(?:-\d+)?|clang(?:-\d+)?|gcc(?:-\d+)?|cc)$")
_ENTERING = re.compile(r"^\S*make(?:\[\d+\])?: Entering directory ['`](?P<dir>.+)'$")
_LEAVING = re.compile(r"^\S*make(?:\[\d+\])?: Leaving directory ")
_LOG_TAIL = 4000
# compile lines: an object per unit (nvcc's -dc/-dw: relocatable device code, linked later)
_COMPILE_ONLY = frozenset({"-c", "--compile", "-dc", "--device-c", "-dw", "--device-w"})
# lines that make no executable: nvcc's device link (an object), preprocessing, dependencies, PTX
_NOT_A_LINK = frozenset({"-dlink", "--device-link", "-E", "-M", "-MM", "-S", "-ptx", "--ptx", "-cubin", "--cubin",
                         "-fatbin", "--fatbin"})
_Json = dict[str, Any]  # a File API reply object


class Source(msgspec.Struct, frozen=True):
    file: str
    """Absolute path of the unit."""
    arguments: tuple[str, ...]
    """Its compile command, compiler left out."""
    directory: str
    """Where the command runs (relative paths start here)."""
    project: str | None = None
    """The folder its response files must lie in: CMake's build folder, make's top folder."""


class Executable(msgspec.Struct, frozen=True):
    name: str
    """The CMake target's name, or the program's file name for make."""
    path: str
    """Where the build writes it (absolute)."""
    sources: tuple[Source, ...]


class BuildTest(msgspec.Struct, frozen=True):
    name: str
    argv: tuple[str, ...]
    """The command ctest runs: an executable of the build, then its arguments."""
    cwd: str | None = None


class Discovery(msgspec.Struct, frozen=True):
    system: System
    executables: tuple[Executable, ...]
    tests: tuple[BuildTest, ...] = ()


class BuildError(Exception):
    """The build could not be read: configure failed, a tool is missing. ``log`` is the tail of its output."""

    def __init__(self, message: str, log: str = "") -> None:
        super().__init__(message)
        self.log = log


def system_of(root: Path) -> System | None:
    """The build system at the top of ``root``: CMake when it has a CMakeLists.txt, else make."""
    if (root / "CMakeLists.txt").is_file():
        return "cmake"
    if any((root / name).is_file() for name in MAKE_NAMES):
        return "make"
    return None


def discover(
    root: Path,
    build_dir: Path,
    *,
    system: System | None = None,
    configure_args: tuple[str, ...] = (),
    make_args: tuple[str, ...] = (),
    env: Mapping[str, str] | None = None,
    timeout: float = 300.0,
) -> Discovery:
    """The executables and tests of the project at ``root``. ``build_dir`` is a scratch folder for
    CMake's configure; ``system`` chooses where a project has both. Raises BuildError."""
    system = system or system_of(root)
    if system == "cmake":
        return _cmake(root, build_dir, configure_args, env, timeout)
    if system == "make":
        return _make(root, make_args, env, timeout)
    raise BuildError(f"{root}: no CMakeLists.txt or Makefile at its top")


def _ended(result: proc.ProcResult) -> str:
    return "timed out" if result.timed_out else f"exit {result.returncode}"


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BuildError(f"{name} not found (apt-get install {name})")
    return path


# ------------------------------------------------------------------------------------------ CMake


def _cmake(root: Path, build: Path, configure_args: tuple[str, ...], env: Mapping[str, str] | None, timeout: float) -> Discovery:
    query = build / _QUERY
    query.parent.mkdir(parents=True, exist_ok=True)
    query.touch()
    argv = [_tool("cmake"), "-S", str(root), "-B", str(build), "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", *configure_args]
    configured = proc.run(argv, env=env, timeout=timeout)
    if not configured.ok:
        raise BuildError(f"configuring {root} failed ({_ended(configured)})", configured.text()[-_LOG_TAIL:])
    database = build / ccdb.NAME
    targets = _codemodel_targets(build)
    by_id = {t["id"]: t for t in targets}
    executables = []
    for target in targets:
        if target.get("type") != "EXECUTABLE":
            continue
        artifacts = [a["path"] for a in target.get("artifacts", []) if isinstance(a, dict) and "path" in a]
        if not artifacts:
            continue
        sources = _linked_sources(target, by_id, root, database)
        executables.append(Executable(target["name"], os.path.normpath(os.path.join(build, artifacts[0])), tuple(sources)))
    return Discovery("cmake", tuple(executables), _tests(build))


def _codemodel_targets(build: Path) -> list[_Json]:
    reply = build / _REPLY
    indexes = sorted(glob.glob(str(reply / "index-*.json")))
    try:
        index = json.loads(Path(indexes[-1]).read_text())
        model = json.loads((reply / index["reply"]["codemodel-v2"]["jsonFile"]).read_text())
        configuration = model["configurations"][0]
        return [json.loads((reply / t["jsonFile"]).read_text()) for t in configuration["targets"]]
    except (IndexError, KeyError, TypeError, OSError, ValueError) as error:
        raise BuildError(f"CMake wrote no readable codemodel in {reply} ({error!r}); CMake 3.14 or newer is needed") from None


def _linked_sources(target: _Json, by_id: dict[str, _Json], root: Path, database: Path) -> list[Source]:
    """The compiled units of ``target`` and of every library it links, each once, the target's first."""
    seen_targets: set[str] = set()
    found: dict[str, Source] = {}
    pending = [target]
    while pending:
        current = pending.pop(0)
        if current["id"] in seen_targets:
            continue
        seen_targets.add(current["id"])
        for source in current.get("sources", []):
            if "compileGroupIndex" not in source:
                continue  # a header or a file the target only lists
            path = os.path.normpath(os.path.join(root, source["path"]))
            if path.lower().endswith(UNIT_SUFFIXES) and path not in found:
                found[path] = _source(path, database)
        for dependency in current.get("dependencies", []):
            linked = by_id.get(dependency.get("id", ""))
            if linked is not None and linked.get("type") in _LINKED:
                pending.append(linked)
    return list(found.values())


def _source(path: str, database: Path) -> Source:
    entry = ccdb.entry(path, database) if database.is_file() else None
    if entry is None:
        return Source(path, (), os.path.dirname(path))
    directory, arguments = entry
    return Source(path, tuple(arguments[1:]), directory, str(database.parent))


def _tests(build: Path) -> tuple[BuildTest, ...]:
    """The tests of the CTestTestfile.cmake files CMake wrote (ctest's own list names no command
    until the executables are built)."""
    out: list[BuildTest] = []
    pending = [build]
    while pending:
        folder = pending.pop(0)
        try:
            text = (folder / "CTestTestfile.cmake").read_text(encoding="utf-8", errors="surrogateescape")
        except OSError:
            continue
        tests: dict[str, list[str]] = {}
        folders: dict[str, str] = {}
        for command in cmake_syntax.commands(text):
            values = [_value(a) for a in command.args]
            if command.name == "add_test" and len(values) >= 2 and values[1] != "NOT_AVAILABLE":
                tests[values[0]] = values[1:]
            elif command.name == "set_tests_properties" and "WORKING_DIRECTORY" in values:
                at = values.index("WORKING_DIRECTORY")
                if at + 1 < len(values):
                    folders[values[0]] = values[at + 1]
            elif command.name == "subdirs":
                pending.extend(folder / v for v in values)
        out.extend(BuildTest(name, tuple(argv), folders.get(name)) for name, argv in tests.items())
    return tuple(out)


def _value(argument: cmake_syntax.Argument) -> str:
    """An argument's value: a bracket argument's content, a quoted one unescaped."""
    bracket = re.fullmatch(r"\[(=*)\[(.*)\]\1\]", argument.text, re.DOTALL)
    if bracket:
        return bracket.group(2)
    return re.sub(r"\\(.)", r"\1", argument.text) if argument.quoted else argument.text


# ------------------------------------------------------------------------------------------- make


def _make(root: Path, make_args: tuple[str, ...], env: Mapping[str, str] | None, timeout: float) -> Discovery:
    argv = [_tool("make"), "-n", "-B", "-w", "-C", str(root), *make_args]
    dry = proc.run(argv, env=env, timeout=timeout)
    if not dry.ok:
        raise BuildError(f"make -n in {root} failed ({_ended(dry)})", dry.text()[-_LOG_TAIL:])
    return Discovery("make", tuple(_make_executables(dry.stdout.decode(errors="replace"), root)))


def _make_executables(printed: str, root: Path) -> list[Executable]:
    """Executables from the commands ``make -n -w`` printed."""
    directories = [str(root)]
    objects: dict[str, Source] = {}  # object file → the unit compiled into it
    archives: dict[str, list[str]] = {}  # archive → its members
    executables: dict[str, Executable] = {}
    for line in printed.splitlines():
        entering = _ENTERING.match(line)
        if entering:
            directories.append(entering.group("dir"))
            continue
        if _LEAVING.match(line):
            if len(directories) > 1:
                directories.pop()
            continue
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        for command in _commands(words):
            _read_command(command, directories[-1], str(root), objects, archives, executables)
    return list(executables.values())


def _commands(words: list[str]) -> list[list[str]]:
    """The simple commands of a shell line (split at ``&&``, ``;`` and ``||``)."""
    commands: list[list[str]] = [[]]
    for word in words:
        if word in ("&&", ";", "||"):
            commands.append([])
        else:
            commands[-1].append(word)
    return [c for c in commands if c]


def _read_command(
    words: list[str],
    directory: str,
    root: str,
    objects: dict[str, Source],
    archives: dict[str, list[str]],
    executables: dict[str, Executable],
) -> None:
    program = os.path.basename(words[0])
    absolute = [os.path.normpath(os.path.join(directory, w)) for w in words]
    if program == "ar" and len(words) >= 3:
        archives[absolute[2]] = [a for a in absolute[3:] if a.endswith(".o")]
        return
    if not _COMPILER.match(program):
        return
    output = next((absolute[i + 1] for i, w in enumerate(words[:-1]) if w == "-o"), None)
    units = [(w, a) for w, a in zip(words[1:], absolute[1:], strict=True) if w.lower().endswith(UNIT_SUFFIXES) and not w.startswith("-")]
    if "-lib" in words or "--lib" in words:  # nvcc's static library of objects, as ar makes one
        if output is not None:
            archives[output] = [a for a in absolute[1:] if a.endswith(".o")]
        return
    if not _COMPILE_ONLY.isdisjoint(words):
        for word, path in units:
            target = output or os.path.join(directory, Path(word).with_suffix(".o").name)
            objects[target] = Source(path, tuple(words[1:]), directory, root)
        return
    if not _NOT_A_LINK.isdisjoint(words):
        return
    if output is None:
        output = os.path.join(directory, "a.out")
    sources = [Source(path, tuple(words[1:]), directory, root) for _, path in units]
    for path in absolute[1:]:
        if path.endswith(".o") and path in objects:
            sources.append(objects[path])
        elif path.endswith(".a"):
            sources.extend(objects[member] for member in archives.get(path, []) if member in objects)
    if sources:
        executables[output] = Executable(os.path.basename(output), output, tuple(dict.fromkeys(sources)))
