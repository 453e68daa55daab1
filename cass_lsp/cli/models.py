"""``cass-lsp models``: the CASS models (GGUF files) the server can use: list, check, add, remove.

Only the file headers are read (:mod:`cass_lsp.infer.gguf_file`), so every action takes
milliseconds and works without llama-cpp-python; ``--sha256`` reads whole files (slow for GBs).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import msgspec

from cass_lsp.infer import registry
from cass_lsp.infer.backend import ModelError
from cass_lsp.infer.gguf_file import GgufError, GgufInfo, read, validate
from cass_lsp.infer.manifest import ModelSpec, load_manifest

PROG = "cass-lsp models"


class Row(msgspec.Struct, frozen=True, kw_only=True):
    """One line of ``models list``: a known model, an added one, or both."""

    name: str
    role: str
    direction: str | None
    status: str
    """present, missing, changed (since added), or "not added"."""
    size: int | None
    path: str | None
    hf_repo: str | None


class CheckReport(msgspec.Struct, frozen=True, kw_only=True):
    path: str
    usable: bool
    model: str | None
    """The known model the file name names."""
    info: GgufInfo | None
    problems: list[str]
    sha256: str | None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the known CASS models and the added ones, with their files")
    listing.add_argument("--json", action="store_true", help="print the list as JSON")
    check = actions.add_parser("check", help="check a GGUF file (exit status 0: usable, 1: not)")
    check.add_argument("file", help="the GGUF file")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument("--sha256", action="store_true", help="also hash the whole file (slow for GB files)")
    add = actions.add_parser("add", help="check a GGUF file and add it, so settings can name it")
    add.add_argument("file", help="the GGUF file (it stays where it is)")
    add.add_argument("--name", help="default: the known model the file name names, else the file name")
    add.add_argument("--role", choices=("src", "asm"), help="default: the known model's (needed for others)")
    add.add_argument("--sha256", action="store_true", help="hash the file and record the hash (slow for GB files)")
    remove = actions.add_parser("remove", help="forget an added model (its file is kept)")
    remove.add_argument("name")


def run(args: argparse.Namespace) -> int:
    actions: dict[str, Callable[[argparse.Namespace], int]] = {
        "list": _list,
        "check": _check,
        "add": _add,
        "remove": _remove,
    }
    try:
        return actions[args.action](args)
    except ModelError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1


def _list(args: argparse.Namespace) -> int:
    rows = list_rows()
    if args.json:
        print(msgspec.json.encode(rows).decode())
        return 0
    table = [("NAME", "ROLE", "TRANSLATES", "STATUS", "SIZE", "FILE")]
    for row in rows:
        file = row.path or (f"(huggingface.co/{row.hf_repo})" if row.hf_repo else "")
        size = _size(row.size) if row.size is not None else ""
        table.append((row.name, row.role, row.direction or "", row.status, size, file))
    widths = [max(len(line[column]) for line in table) for column in range(len(table[0]) - 1)]
    for line in table:
        print("  ".join([*(cell.ljust(width) for cell, width in zip(line, widths, strict=False)), line[-1]]).rstrip())
    return 0


def list_rows() -> list[Row]:
    """The known models (test-only ones when added), then the added models the manifest does not know."""
    added = {entry.name: entry for entry in registry.models()}
    rows: list[Row] = []
    for spec in load_manifest().models:
        entry = added.pop(spec.name, None)
        if spec.test_only and entry is None:
            continue
        rows.append(
            Row(
                name=spec.name,
                role=spec.role,
                direction=_direction(spec),
                status=registry.status(entry) if entry else "not added",
                size=entry.size if entry else None,
                path=entry.path if entry else None,
                hf_repo=spec.hf_repo,
            )
        )
    for entry in added.values():
        known = load_manifest().match_file(entry.path)
        rows.append(
            Row(
                name=entry.name,
                role=entry.role,
                direction=_direction(known) if known else None,
                status=registry.status(entry),
                size=entry.size,
                path=entry.path,
                hf_repo=None,
            )
        )
    return rows


def _check(args: argparse.Namespace) -> int:
    report = check_file(args.file, sha256=args.sha256)
    if args.json:
        print(msgspec.json.encode(report).decode())
        return 0 if report.usable else 1
    verdict = f"usable as {report.model}" if report.usable and report.model else "usable"
    print(f"{report.path}: {verdict if report.usable else 'not usable'}")
    if report.info is not None:
        _print_info(report.info)
    if report.sha256:
        print(f"  sha256         {report.sha256}")
    for problem in report.problems:
        print(f"  problem: {problem}")
    return 0 if report.usable else 1


def check_file(path: str, *, sha256: bool = False) -> CheckReport:
    """What ``models check`` reports: the header, and the problems that make the file unusable."""
    spec = load_manifest().match_file(path)
    model = spec.name if spec else None
    try:
        info = read(path)
    except GgufError as exc:  # the report names the file already
        problem = str(exc).removeprefix(f"{path}: ")
        return CheckReport(path=path, usable=False, model=model, info=None, problems=[problem], sha256=None)
    problems = validate(info, spec)
    digest = registry.file_sha256(path) if sha256 or (spec and spec.sha256) else None
    if spec and spec.sha256 and digest != spec.sha256:
        problems.append(f"sha256 {digest} differs from the manifest's {spec.sha256} for {spec.name}")
    return CheckReport(path=path, usable=not problems, model=model, info=info, problems=problems, sha256=digest)


def _print_info(info: GgufInfo) -> None:
    context = f"{info.context_length} tokens" if info.context_length is not None else "not recorded"
    eos = f", eos {info.eos_token_id}" if info.eos_token_id is not None else ""
    lines = [
        ("format", f"GGUF v{info.version}, {_size(info.size)}, {info.tensor_count} tensors"),
        ("architecture", info.architecture),
        ("name", info.name or "(none)"),
        ("quantization", info.file_type or "(not recorded)"),
        ("context", context),
        ("tokenizer", f"{info.tokenizer_model}, {info.vocab_size} tokens{eos}"),
        ("chat template", info.chat_template_first_line or "(none)"),
    ]
    for label, value in lines:
        print(f"  {label:<14} {value}")


def _add(args: argparse.Namespace) -> int:
    entry = registry.add(args.file, name=args.name, role=args.role, sha256=args.sha256)
    print(f"added {entry.name} ({entry.role}, {_size(entry.size)}): {entry.path}")
    return 0


def _remove(args: argparse.Namespace) -> int:
    entry = registry.remove(args.name)
    print(f"removed {entry.name} (the file stays: {entry.path})")
    return 0


def _direction(spec: ModelSpec) -> str:
    return f"{spec.direction} ({spec.sass_arch})" if spec.sass_arch else spec.direction


def _size(size: int) -> str:
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"
