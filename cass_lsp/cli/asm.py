"""``cass-lsp asm FILE``: SASS / AMDGPU listings of a file with the source lines they came from."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from pathlib import Path

import msgspec

from cass_lsp.asm.compile import DEFAULT_TARGETS, vendor_of
from cass_lsp.asm.listing import Listing, TargetResult, find_functions, instructions_at
from cass_lsp.asm.view import SourceLines, render_results
from cass_lsp.core.progress import TerminalSink
from cass_lsp.core.terminal import escape
from cass_lsp.services import listing
from cass_lsp.services.settings import resolve_cli


class AsmReport(msgspec.Struct, rename="camel"):
    file: str
    results: list[TargetResult]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a .cu, .cuh or .hip file")
    parser.add_argument(
        "--target",
        "-t",
        action="append",
        metavar="TARGET",
        help=f"sm_XX or gfxNNNN; repeatable (default: {' '.join(DEFAULT_TARGETS)})",
    )
    parser.add_argument("--kernel", "-k", help="only functions of this name (mangled, demangled or plain)")
    parser.add_argument("--line", "-l", type=int, help="only instructions generated for this line of FILE")
    parser.add_argument("--json", action="store_true", help="print the structured listings as JSON")
    parser.add_argument("--rocm", default="auto", help="HIP headers for AMD targets: 5.2, 7.1 or auto")
    parser.add_argument(
        "--compile-commands", metavar="PATH", help="compile_commands.json (default: the nearest one above FILE)"
    )
    parser.add_argument("--nvcc-arg", action="append", default=[], metavar="ARG", help="extra nvcc argument")
    parser.add_argument("--clang-arg", action="append", default=[], metavar="ARG", help="extra clang++ argument")
    parser.add_argument("--limit", type=int, metavar="N", help="show at most N instructions per function")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per target (default 120)")
    parser.add_argument("--no-cache", action="store_true", help="compile even when a cached listing exists")


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        source = path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as error:
        print(f"cass-lsp asm: cannot read {path}: {error.strerror}", file=sys.stderr)
        return 2
    targets = list(dict.fromkeys(args.target or DEFAULT_TARGETS))
    try:
        for target in targets:
            vendor_of(target)
    except ValueError as error:
        print(f"cass-lsp asm: {error}", file=sys.stderr)
        return 2
    try:
        resolved = resolve_cli(
            target={"rocm": args.rocm},
            asm={
                "targets": targets,
                "extraArgs": {"nvcc": args.nvcc_arg, "clang": args.clang_arg},
                "compileCommands": args.compile_commands,
                "timeoutSeconds": args.timeout,
            },
        )
    except ValueError as error:
        print(escape(f"cass-lsp asm: {error}"), file=sys.stderr)
        return 2
    sink = TerminalSink()
    results = listing.listings(
        resolved, source, path, targets, use_cache=not args.no_cache,
        begin=lambda target: sink.begin(f"compiling {path.name} for {target}", None),
    )  # fmt: skip
    if args.json:
        filtered = [_filtered(r, args.kernel, args.line) for r in results.values()]
        report = AsmReport(file=str(path.absolute()), results=filtered)
        sys.stdout.write(msgspec.json.encode(report).decode() + "\n")
    else:
        print(
            escape(
                render_results(
                    results,
                    _source_reader(str(path.absolute()), source),
                    kernel=args.kernel,
                    line=args.line,
                    limit=args.limit,
                )
            )
        )
    return 0 if all(isinstance(r, Listing) for r in results.values()) else 1


def _filtered(result: TargetResult, kernel: str | None, line: int | None) -> TargetResult:
    if not isinstance(result, Listing) or (kernel is None and line is None):
        return result
    functions = find_functions(result, kernel) if kernel else result.functions
    if line is not None:
        keep = {id(ins) for _, ins in instructions_at(result, result.source, line)}
        functions = [
            msgspec.structs.replace(f, instructions=[i for i in f.instructions if id(i) in keep]) for f in functions
        ]
        functions = [f for f in functions if f.instructions]
    return msgspec.structs.replace(result, functions=functions)


def _source_reader(main: str, text: str) -> SourceLines:
    lines: dict[str, Sequence[str]] = {main: text.splitlines()}

    @functools.lru_cache(maxsize=4096)
    def read(file: str, line: int) -> str:
        if file not in lines:
            try:
                lines[file] = Path(file).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                lines[file] = []
        content = lines[file]
        return content[line - 1] if 0 < line <= len(content) else ""

    return read
