"""`cass-lsp verify`: compile (and, with a runner, run and compare) CUDA originals and their HIP
translations. Exit 0: every pair verified; 1: a compiler or a run said a translation is wrong;
2: something could not be verified (the reason is printed), or bad arguments.

    cass-lsp verify foo.cu                          # foo.cu's program: foo.hip beside it, else the rule translation
    cass-lsp verify foo.hip --against foo.cu --runner cpu
    cass-lsp verify src/ --json                     # every program with a .cu unit under src/
    cass-lsp verify --project proj --translation proj-hip --runner cpu   # each ctest test of proj's CMake build
    cass-lsp verify --project proj --build-system make --run "./nbody 64"

A file is verified with the other units of its program (:mod:`cass_lsp.compile.program`): the units of a
compile_commands.json, or of its folder when one of them defines main. A project is verified as its
own build defines it (:mod:`cass_lsp.verify.project`): each test, or the command ``--run`` names.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import get_args

import msgspec

from cass_lsp.core.cache import ResultCache
from cass_lsp.core.pairs import Pair
from cass_lsp.core.progress import TerminalSink
from cass_lsp.core.settings import Runner
from cass_lsp.core.terminal import escape
from cass_lsp.services import verification as verification_service
from cass_lsp.services.settings import resolve_cli
from cass_lsp.toolchains import ToolchainMissing
from cass_lsp.verify.discovery import BuildError
from cass_lsp.verify.engine import Report
from cass_lsp.verify.stages import StageResult

_MARK = {"passed": "PASS", "failed": "FAIL", "unverified": "SKIP"}
_DIAGNOSTICS_SHOWN = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="a .cu original, a HIP translation, a folder of originals, or (--project) a project")
    parser.add_argument("--against", metavar="FILE", help="the other file of the pair (original or translation)")
    parser.add_argument(
        "--runner",
        choices=[r for r in get_args(Runner) if r != "auto"] + ["auto"],
        help="also build, run and compare both programs on this runner (default: compile only)",
    )
    parser.add_argument("--arch", action="append", default=[], help="AMD target for the translation (repeatable)")
    parser.add_argument("--nvidia-arch", default="sm_90", help="NVIDIA target for the original (default sm_90)")
    parser.add_argument("--rocm", default="auto", help="HIP headers: 5.2, 7.1 or auto")
    parser.add_argument("--pattern", action="append", default=[], help="where translations live (default {stem}.hip)")
    parser.add_argument("--command", nargs="+", metavar="ARG", help="argv template for --runner command ({exe})")
    parser.add_argument("--command-host", metavar="HOST", help="run --runner command's programs on HOST over ssh (copied there)")
    parser.add_argument("--command-dir", metavar="DIR", help="where on --command-host each run's copy goes (default /tmp)")
    parser.add_argument(
        "--build-for", choices=["nvidia", "amd", "cpu"], default="nvidia", help="what --runner command's programs are built for"
    )
    parser.add_argument("--arg", action="append", default=[], metavar="ARG", help="argument for both programs (repeatable)")
    parser.add_argument("--nvcc-arg", action="append", default=[], metavar="FLAG", help="extra nvcc flag for the original (repeatable)")
    parser.add_argument("--hip-arg", action="append", default=[], metavar="FLAG", help="extra clang flag for the translation (repeatable)")
    parser.add_argument("--cpu-arg", action="append", default=[], metavar="FLAG", help="extra g++ flag for CPU-runtime builds (repeatable)")
    parser.add_argument("--expect-exit", type=int, default=0, metavar="CODE", help="exit code of a clean run of the original (default 0)")
    parser.add_argument(
        "--compare", choices=["numeric", "exact", "exit-code"], default="numeric", help="how runs are compared (default numeric)"
    )
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds each program may run (default 20)")
    parser.add_argument("--compile-timeout", type=float, default=120.0, metavar="SECONDS",
                        help="seconds each compile may take (default 120; a Thrust unit takes long on a busy machine)")
    project = parser.add_argument_group("projects (--project)")
    project.add_argument("--project", action="store_true", help="PATH is a project: verify the programs its CMake or make build makes")
    project.add_argument("--translation", metavar="DIR", help="the translated tree (translate --out-dir); default: rule translations")
    project.add_argument("--run", metavar="COMMAND", help='an executable of the build and its arguments, as a Makefile writes them: "heat_app data/plate.txt 40",'
                         ' "SEED=7 ./nbody 64", or a script of the project that runs one, "./runtests.sh" (default: its tests)')
    project.add_argument("--build-system", choices=["cmake", "make"], help="which build to read where a project has both (default: CMake)")
    project.add_argument("--configure-arg", action="append", default=[], metavar="ARG", help="extra cmake argument for the original (repeatable)")
    project.add_argument("--make-arg", action="append", default=[], metavar="ARG", help="extra make argument, e.g. CUDA_HOME=... (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")
    parser.add_argument("--no-cache", action="store_true", help="compile and run even when a result is cached")


def run(args: argparse.Namespace) -> int:
    patterns = args.pattern or ["{stem}.hip"]
    verification: dict[str, object] = {
        "arches": args.arch,
        "nvidiaArch": args.nvidia_arch,
        "translationPatterns": patterns,
        "run": args.runner not in (None, "none"),
        "runner": args.runner or "none",
        "args": args.arg,
        "nvccArgs": args.nvcc_arg,
        "hipArgs": args.hip_arg,
        "cpuArgs": args.cpu_arg,
        "expectedExit": args.expect_exit,
        "compare": args.compare,
        "commandBuildsFor": args.build_for,
        "limits": {"timeoutSeconds": args.timeout},
        "compileTimeoutSeconds": args.compile_timeout,
    }
    if args.command:
        verification["command"] = args.command
    if args.command_host:
        verification["commandHost"] = args.command_host
    if args.command_dir:
        verification["commandDir"] = args.command_dir
    try:
        resolved = resolve_cli(target={"rocm": args.rocm}, verification=verification)
        found = [] if args.project else verification_service.pairs_of(args.path, args.against, patterns, resolved)
    except ValueError as error:
        print(escape(f"cass-lsp verify: {error}"), file=sys.stderr)
        return 2
    cache = None if args.no_cache else ResultCache(max_bytes=resolved.cache_max_bytes)
    if args.project:
        return _run_project(args, verification, cache)
    sink = TerminalSink()
    reports: list[Report] = []
    for report in verification_service.verify_pairs(found, resolved, cache, lambda what: sink.begin(what, None)):
        reports.append(report)
        if not args.json:
            print(render(report), flush=True)
    return _finish(args, reports)


def _finish(args: argparse.Namespace, reports: list[Report]) -> int:
    if args.json:
        sys.stdout.write(msgspec.json.encode(reports).decode() + "\n")
    verdicts = {r.verdict for r in reports}
    return 1 if "failed" in verdicts else 2 if "unverified" in verdicts else 0


def _run_project(args: argparse.Namespace, verification: dict[str, object], cache: ResultCache | None) -> int:
    root = Path(os.path.normpath(Path(args.path).absolute()))
    translation_root = Path(os.path.normpath(Path(args.translation).absolute())) if args.translation else None
    pair = Pair(str(root), str(translation_root) if translation_root else None)
    if not root.is_dir() or (translation_root is not None and not translation_root.is_dir()):
        return _refused(args, pair, f"{args.translation if root.is_dir() else args.path}: not a folder")
    sink = TerminalSink()
    reports: list[Report] = []
    found = verification_service.verify_project(
        root, translation_root, cache, lambda what: sink.begin(what, None),
        lambda check: resolve_cli(target={"rocm": args.rocm}, verification={**verification, **check.verification()}),
        run=args.run, system=args.build_system, configure_args=tuple(args.configure_arg), make_args=tuple(args.make_arg),
    )  # fmt: skip
    try:
        for report in found:
            reports.append(report)
            _show(args, report)
    except (BuildError, ToolchainMissing, ValueError) as error:
        lead = "could not verify: the original's build cannot be read here: " if isinstance(error, BuildError) else ""
        return _refused(args, pair, f"{lead}{error}", error.log if isinstance(error, BuildError) else "")
    return _finish(args, reports)


def _refused(args: argparse.Namespace, pair: Pair, message: str, log: str = "") -> int:
    """A project that cannot be verified at all: said on stderr and, with --json, as a report on stdout."""
    print(escape(f"cass-lsp verify: {message}"), file=sys.stderr)
    if log:
        print(escape(log), file=sys.stderr)
    if args.json:
        stage = StageResult("original", None, "unavailable", message, output=log)
        report = Report(pair, "unverified", f"project {pair.original}: {message}", [stage])
        sys.stdout.write(msgspec.json.encode([report]).decode() + "\n")
    return 2


def _show(args: argparse.Namespace, report: Report) -> None:
    if not args.json:
        print(render(report), flush=True)


def render(report: Report) -> str:
    """The report for a terminal: its messages carry the compilers' and programs' text, escaped."""
    lines = [f"{_MARK[report.verdict]} {report.summary}"]
    for stage in report.stages:
        lines.append(f"  {stage.outcome:<11} {stage.label}: {stage.message}")
        errors = [d for d in stage.diagnostics if d.severity == "error"][:_DIAGNOSTICS_SHOWN]
        for diagnostic in errors:
            where = f"{diagnostic.file}:{diagnostic.line}" if diagnostic.file and diagnostic.line else "?"
            lines.append(f"      {where}: {diagnostic.message}")
    return escape("\n".join(lines))
