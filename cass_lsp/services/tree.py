"""``cass-lsp translate`` over build files: after the sources, each build file of the inputs is
ported with what the whole tree uses (its libraries, whether its sources were renamed), written
as the sources are (``-o``, ``--out-dir``, ``--in-place`` with its backup), and reported per file."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from cass_lsp.buildfiles import files
from cass_lsp.core.terminal import escape

if TYPE_CHECKING:
    import argparse

    from cass_lsp.buildfiles.porting import Result, Settings
    from cass_lsp.services.outputs import Outcome, Unit


def split(units: list[Unit]) -> tuple[list[Unit], list[Unit]]:
    """(source units, build-file units); the files CMake generated in a build tree (a folder holding
    ``CMakeCache.txt``: its Makefiles, ``CMakeFiles/*.cmake``) are neither."""
    sources = [u for u in units if files.kind(u.source) is None]
    build = [u for u in units if files.kind(u.source) and not _generated(u.source)]
    return sources, build


def _generated(path: str) -> bool:
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        if os.path.isfile(os.path.join(folder, "CMakeCache.txt")):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def settings_for(args: argparse.Namespace, arch: str, sources: list[Unit], build_units: list[Unit]) -> Settings:
    from cass_lsp.buildfiles.porting import Settings

    return Settings(
        arches=tuple(a for a in arch.split(",") if a),
        libraries="roc" if args.roc else "hip",
        renamed_sources=args.out_dir is not None,
        reverse=args.reverse,
        compiler=args.make_compiler,
        families=files.families([u.source for u in sources], [u.source for u in build_units]),
        toolkit_found=files.finds_toolkit([u.source for u in build_units]),
    )


def _ported(path: str, text: str, settings: Settings) -> Result:
    """``text`` ported, or, where a porter's rule fails on it, kept as written with an error saying
    so: the port still gets the build file, and the translation goes on."""
    from cass_lsp.buildfiles.porting import UNMAPPED, Finding, Result

    try:
        return files.translate(path, text, settings)
    except Exception as error:  # a rule's defect on text it does not expect; any kind is the same defect
        message = f"this build file could not be ported ({type(error).__name__}: {error}); kept as written"
        return Result(text, {}, [Finding(1, 1, "error", UNMAPPED, message)])


def port(units: list[Unit], settings: Settings, quiet: bool) -> list[Outcome]:
    """Each build file ported and written; a line per file on standard error unless ``quiet``."""
    from cass_lsp.compile import nvcc_flags
    from cass_lsp.services.outputs import Located, Outcome, backup, write_atomic

    outcomes: list[Outcome] = []
    toolchain_needed = False
    openmp = False
    for unit in units:
        try:
            with open(unit.source, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
            mode = os.stat(unit.source).st_mode & 0o7777
        except OSError as e:
            outcomes.append(Outcome(unit, 0, {}, [], None, f"{unit.source}: {e.strerror or e}"))
            continue
        result = _ported(unit.source, text, settings)
        found = [Located(f.code, f.severity, f.message, f.line, f.column) for f in result.findings]
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        toolchain_needed |= files.kind(unit.source) == "cmake" and "HIP" in result.text and not settings.reverse
        openmp |= any(f.message == nvcc_flags.OPENMP_NOTE for f in result.findings)
        error = None
        output = None
        data = result.text.encode("utf-8", "surrogateescape")
        try:
            if unit.target is None:
                output = result.text
            elif unit.in_place:
                if result.changed:
                    backup(unit.source)
                    write_atomic(unit.target, data, mode)
            else:
                write_atomic(unit.target, data, None)
        except OSError as e:
            error = f"{unit.target}: {e.strerror or e}"
        outcomes.append(Outcome(unit, lines, result.stats, found, output, error))
        if not quiet:
            detail = ", ".join(f"{k} {v}" for k, v in sorted(result.stats.items()))
            print(escape(f"cass-lsp translate: {unit.source}: {sum(result.stats.values())} build rewrite(s)"
                         + (f" [{detail}]" if detail else "") + f", {len(found)} finding(s)"), file=sys.stderr)
            for finding in found:  # what changed and why (errors and warnings follow with the sources')
                if finding.severity == "info":  # a finding quotes the build file
                    print(escape(f"  {unit.source}:{finding.line}: {finding.message}"), file=sys.stderr)
    if quiet:
        return outcomes
    # the toolchains load only once a report is printed (`translate` starts without them)
    from cass_lsp.buildfiles import tools
    from cass_lsp.toolchains import devlibs15

    if toolchain_needed:
        print("cass-lsp translate: the CMake project now uses the HIP language; on Debian's ROCm packages "
              f"(no /opt/rocm) configure it with -DCMAKE_TOOLCHAIN_FILE={files.TOOLCHAIN_FILE}", file=sys.stderr)
    if openmp:
        runtime = tools.openmp()
        if not runtime.found:
            print(f"cass-lsp translate: the port builds with -fopenmp, LLVM's OpenMP (libomp) under the HIP compiler, "
                  f"which this machine lacks: {runtime.hint}", file=sys.stderr)
    if units and not settings.reverse:
        hints = [tools.library_headers_hint(settings.families),
                 tools.missing_libraries_hint(settings.families, settings.libraries)]
        if settings.compiler == "clang" and any(files.kind(u.source) == "make" for u in units):
            hints.append(tools.make_clang_hint())
        for hint in filter(None, hints):
            print(f"cass-lsp translate: {hint}", file=sys.stderr)

        libraries = devlibs15.hint(settings.arches)
        if libraries:
            print(f"cass-lsp translate: {libraries}", file=sys.stderr)
    return outcomes
