"""``cass-lsp translate``: rule-based CUDA -> HIP (or HIP -> CUDA) for files and trees.

The files' translation is the use case :mod:`cass_lsp.services.translation` (which enters the engine
where the language server does, :func:`cass_lsp.translate.jobs.translate_bytes`, with settings from
:func:`cass_lsp.translate.rules.engine_settings`); this module parses, plans the units and reports.
Start-up matters (build scripts
call translators once per file), so the engine is imported only when ``run`` needs it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, NamedTuple

from cass_lsp.buildfiles import files as build_files
from cass_lsp.core.filekinds import REVERSE_TRANSLATED_SUFFIXES, TRANSLATED_SUFFIXES
from cass_lsp.services import translation
from cass_lsp.services import tree as build_tree
from cass_lsp.services.outputs import BACKUP_SUFFIX, Located, Outcome, Unit

if TYPE_CHECKING:
    from cass_lsp.core.targets import Target
    from cass_lsp.translate.renames import Renamer

PROG = "cass-lsp translate"
_SHOWN_SEVERITIES = ("error", "warning")


class Link(NamedTuple):
    """A symbolic link among the inputs, which translate never follows: its content is not read."""

    source: str
    relative: str  # its path relative to the output root
    target: str | None  # what it names relative to the input tree; None when that lies outside it


class Plan(NamedTuple):
    units: list[Unit]
    links: list[Link]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="CUDA files or directories to translate")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("-o", "--output", metavar="OUT", help="output file (one input file only)")
    out.add_argument("--out-dir", metavar="DIR", help="write translations under DIR, keeping relative paths")
    out.add_argument("--in-place", action="store_true",
                     help=f"rewrite files atomically, keeping the original as <file>{BACKUP_SUFFIX}")
    parser.add_argument("--reverse", action="store_true", help="translate HIP to CUDA")
    parser.add_argument("--arch", default="gfx1100",
                        help="target GPU (gfx1100, gfx1030, gfx1200, gfx90a, gfx942), or several comma-separated: "
                             "build files list them all, sources are translated for the first")
    parser.add_argument("--rocm", default="auto", help="target ROCm (5.2, 6.2, 7.1; auto: the installed headers)")
    parser.add_argument("--launch-style", choices=("chevron", "hipLaunchKernelGGL"), default="chevron",
                        help="keep <<<>>> launches or emit hipLaunchKernelGGL")
    parser.add_argument("--rewrite-strings-and-comments", action="store_true",
                        help="also translate names inside string literals and comments")
    parser.add_argument("--roc", action="store_true",
                        help="cuBLAS/cuSPARSE/cuRAND/cuSOLVER to rocBLAS/rocSPARSE/rocRAND/rocSOLVER "
                             "(hipify's -roc) instead of their hip* layers")
    parser.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="worker processes for trees")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON on standard output")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when an unsupported construct remains (default: 0 once every output is written)")
    parser.add_argument("--model", metavar="NAME|PATH",
                        help="translate with a CASS model (added with `cass-lsp models add`, or a GGUF path)")
    parser.add_argument("--kernel", metavar="NAME", help="with --model: only this function")
    parser.add_argument("--make-compiler", choices=("hipcc", "clang"), default="hipcc",
                        help="what a Makefile's nvcc becomes: hipcc, or clang++ -x hip (--hip-link to link)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0] if __doc__ else None)
    add_arguments(parser)
    return run(parser.parse_args(argv))


def _fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2


def _walk(root: str, suffixes: tuple[str, ...]) -> list[str]:
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith(suffixes) or build_files.kind(f))
    return found


def _inside(link: str, root: str) -> str | None:
    """The file ``link`` names, relative to ``root``, when it is one of the tree's files."""
    real, top = os.path.realpath(link), os.path.realpath(root)
    if os.path.commonpath([real, top]) != top or not os.path.isfile(real):
        return None
    return os.path.relpath(real, top)


def _plan_units(args: argparse.Namespace) -> Plan | str:
    """Inputs -> units of work and the symbolic links among them, or an error message.

    A repository's ``kernels.cu -> ~/.ssh/id_ed25519`` must not become a regular file holding the
    key (``--out-dir``, ``--in-place``), which the user would then commit: a link found in a tree is
    never read, nor is a link named with ``--in-place``. A file named otherwise is read as named."""
    suffixes = REVERSE_TRANSLATED_SUFFIXES if args.reverse else TRANSLATED_SUFFIXES
    pairs: list[tuple[str, str]] = []  # (source, path relative to the output root)
    links: list[Link] = []
    for path in args.paths:
        if os.path.isdir(path):
            for found in _walk(path, suffixes):
                relative = os.path.relpath(found, path)
                if os.path.islink(found):
                    links.append(Link(found, relative, _inside(found, path)))
                else:
                    pairs.append((found, relative))
        elif os.path.islink(path) and args.in_place:
            links.append(Link(path, os.path.basename(path), None))
        elif os.path.isfile(path):
            pairs.append((path, os.path.basename(path)))
        else:
            return f"{path}: no such file or directory"
    if not pairs and not links:
        return "no input files"
    if args.output is not None:
        if len(pairs) != 1:
            return "-o needs exactly one input file (use --out-dir for several)"
        return Plan([Unit(pairs[0][0], args.output, False)], links)
    if args.out_dir is not None:
        units = [Unit(src, _out_path(args, rel), False) for src, rel in pairs]
        targets = [u.target for u in units]
        if len(set(targets)) != len(targets):
            return "two inputs map to the same output path under --out-dir"
        return Plan(units, links)
    if args.in_place:
        return Plan([Unit(src, src, True) for src, _ in pairs], links)
    if len(pairs) > 1:
        return "several inputs need --out-dir or --in-place"
    return Plan([Unit(src, None, False) for src, _ in pairs], links)


def _out_path(args: argparse.Namespace, relative: str) -> str:
    from cass_lsp.translate.naming import translated_name

    return os.path.join(args.out_dir, translated_name(relative, reverse=args.reverse, beside_original=False))


def _place_links(args: argparse.Namespace, links: list[Link]) -> list[Outcome]:
    """With ``--out-dir``, a link to a file of the tree becomes the same link between the
    translations, so the port keeps its shape; any other link is left alone with a warning. In place
    and to standard output, a link within the tree needs nothing: the file it names is an input."""
    outcomes: list[Outcome] = []
    for link in links:
        if link.target is None:
            warning = Located("symlink", "warning", "a symbolic link: left alone, its target not read", 1, 1)
            outcomes.append(Outcome(Unit(link.source, None, args.in_place), 0, {}, [warning], None, None))
            continue
        if args.out_dir is None:
            continue
        at, to = _out_path(args, link.relative), _out_path(args, link.target)
        unit = Unit(link.source, at, False)
        try:
            os.makedirs(os.path.dirname(at), exist_ok=True)
            if os.path.lexists(at):
                os.unlink(at)
            os.symlink(os.path.relpath(to, os.path.dirname(at)), at)
        except OSError as e:
            outcomes.append(Outcome(unit, 0, {}, [], None, f"{at}: {e.strerror or e}"))
            continue
        outcomes.append(Outcome(unit, 0, {}, [], None, None))
    return outcomes


def run(args: argparse.Namespace) -> int:
    """The translate verb; returns the exit status.

    0: every output was written (findings go to standard error and ``--json``, as hipify's do, so a
    build that translates its sources keeps going); 1: with ``--strict``, an unsupported construct
    remains; 2: a usage or I/O error."""
    from cass_lsp.core.targets import check_arch
    from cass_lsp.translate.rules import engine_settings

    if args.model is not None:
        from cass_lsp.cli import model_translate as model_cli

        return model_cli.run(args)
    if args.jobs < 1:
        return _fail("--jobs must be at least 1")
    arches = [a.strip() for a in args.arch.split(",") if a.strip()]
    try:
        for arch in arches[1:]:
            check_arch(arch)
        settings = engine_settings(arches[0] if arches else "", args.rocm, args.launch_style,
                                   args.rewrite_strings_and_comments, args.reverse, "roc" if args.roc else "hip")
    except ValueError as e:
        return _fail(str(e))
    plan = _plan_units(args)
    if isinstance(plan, str):
        return _fail(plan)
    target = settings.target
    units, build_units = build_tree.split(plan.units)  # build files are ported after the sources
    outcomes = translation.translate_units(units, settings, args.jobs) if units else []
    if not args.reverse and len(units) > 1:
        translation.place_runtime_includes(outcomes, args.paths)
    renames = translation.renamer(outcomes, [p for p in args.paths if os.path.isdir(p)], args.reverse)
    if args.out_dir is not None:
        translation.follow_renames(outcomes, renames)
    if build_units:
        build_settings = build_tree.settings_for(args, ",".join(arches), units, build_units)
        outcomes += build_tree.port(build_units, build_settings, quiet=args.json)
    if not args.json and not args.reverse:
        _note_wave_sizes(arches)
    outcomes += _place_links(args, plan.links)
    if args.out_dir is not None:
        outcomes += _copy_companions(args, [u.source for u in (*units, *build_units)] + [k.source for k in plan.links],
                                     renames)
    if args.json:
        _report_json(outcomes, target, args.reverse)
    else:
        for outcome in outcomes:
            if outcome.text is not None:
                sys.stdout.buffer.write(outcome.text.encode("utf-8", "surrogateescape"))
                sys.stdout.flush()
        _report_text(outcomes, target, args.reverse)
    if any(o.error for o in outcomes):
        return 2
    return 1 if args.strict and any(f.severity == "error" for o in outcomes for f in o.findings) else 0


def _note_wave_sizes(arches: list[str]) -> None:
    from cass_lsp.core.targets import wave_size

    first = wave_size(arches[0])
    others = [a for a in arches[1:] if wave_size(a) != first]
    if others:
        print(f"{PROG}: sources are translated for {arches[0]} ({first}-lane waves); {', '.join(others)} run "
              f"{64 if first == 32 else 32}-lane waves: translate with --arch {others[0]} too to see the warp-size "
              "findings for it", file=sys.stderr)


def _copy_companions(args: argparse.Namespace, sources: list[str], renames: Renamer) -> list[Outcome]:
    """The trees' other files (data, scripts, documents) copied under --out-dir, shell scripts with
    the sources they name renamed; an error for each that could not be."""
    from cass_lsp.core.filekinds import CUDA_SUFFIX, HIP_SUFFIX
    from cass_lsp.translate import companions
    from cass_lsp.translate.renames import is_script

    suffix = HIP_SUFFIX if args.reverse else CUDA_SUFFIX

    def scripts(path: str, data: bytes) -> bytes | None:
        return renames.script(data, suffix) if is_script(path, data[:64]) else None

    outcomes = []
    for root in (p for p in args.paths if os.path.isdir(p)):
        copied = companions.copy(root, args.out_dir, sources, scripts if renames.renamed else None)
        if not args.json and copied.files:
            print(f"{PROG}: {root}: {copied.files} other file(s) copied ({copied.bytes // 1024} KiB: data, scripts, "
                  "documents)", file=sys.stderr)
        outcomes += [Outcome(Unit(root, args.out_dir, False), 0, {}, [], None, error) for error in copied.errors]
    return outcomes


def _totals(outcomes: list[Outcome]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for o in outcomes:
        for key, count in o.stats.items():
            totals[key] = totals.get(key, 0) + count
    return dict(sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))


def _report_text(outcomes: list[Outcome], target: Target, reverse: bool) -> None:
    from cass_lsp.core.terminal import escape

    err = sys.stderr
    for o in outcomes:  # file names and findings quote the tree's own text
        if o.error:
            print(escape(f"{PROG}: error: {o.error}"), file=err)
        for f in o.findings:
            if f.severity in _SHOWN_SEVERITIES:
                print(escape(f"{o.unit.source}:{f.line}:{f.column}: {f.severity}: {f.message} [{f.code}]"), file=err)
    totals = _totals(outcomes)
    direction = "HIP -> CUDA" if reverse else f"CUDA -> HIP (ROCm {target.rocm_text}, {target.arch})"
    converted = sum(totals.values())
    detail = ", ".join(f"{k} {v}" for k, v in totals.items())
    lines = sum(o.lines for o in outcomes)
    print(f"{PROG}: {len(outcomes)} file(s), {lines} lines, {direction}: {converted} conversion(s)"
          + (f" [{detail}]" if detail else ""), file=err)
    counts = {s: sum(f.severity == s for o in outcomes for f in o.findings) for s in ("error", "warning", "info")}
    if counts["error"]:
        print(f"{PROG}: {counts['error']} construct(s) remain untranslated or unsupported for the target; "
              f"the output will not compile as is ({counts['warning']} warning(s), {counts['info']} note(s))",
              file=err)
    elif counts["warning"] or counts["info"]:
        print(f"{PROG}: {counts['warning']} warning(s), {counts['info']} note(s)", file=err)


def _report_json(outcomes: list[Outcome], target: Target, reverse: bool) -> None:
    import msgspec

    from cass_lsp.translate.report import FileReport, FindingReport, Summary

    reports = [FileReport(path=o.unit.source, output=o.unit.target, lines=o.lines, stats=o.stats,
                          findings=[FindingReport(*f) for f in o.findings], text=o.text, error=o.error)
               for o in outcomes]
    summary = Summary(direction="hip-to-cuda" if reverse else "cuda-to-hip", arch=target.arch,
                      rocm=target.rocm_text, files=len(outcomes), lines=sum(o.lines for o in outcomes),
                      stats=_totals(outcomes),
                      unsupported=sum(f.severity == "error" for o in outcomes for f in o.findings),
                      reports=reports)
    sys.stdout.buffer.write(msgspec.json.encode(summary) + b"\n")
    sys.stdout.flush()


if __name__ == "__main__":
    raise SystemExit(main())
