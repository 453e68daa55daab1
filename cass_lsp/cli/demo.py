"""`cass-lsp demo`: what cass-lsp sees in a CUDA file, what the rules make of it, and what is installed."""

from __future__ import annotations

import argparse
import difflib
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cass_lsp.services.settings import ResolvedSettings

EXAMPLE = Path(__file__).parent.parent / "examples" / "saxpy_norm.cu"
ASM_TARGETS = ("sm_90", "gfx1100")
DIFF_LINES = 16


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", default=str(EXAMPLE), help="a CUDA file (default: the shipped example)")
    parser.add_argument("--arch", default="gfx1100", help="AMD target for the translation preview")


def _line(doc: object, offset: int) -> int:
    from cass_lsp.syntax.document import CudaDocument

    assert isinstance(doc, CudaDocument)
    return doc.position_at(offset)[0] + 1


def _kernel_resources(resolved: ResolvedSettings, path: Path, text: str, kernels: list[str]) -> str:
    from cass_lsp.asm.jobs import build_listing
    from cass_lsp.asm.view import kernel_resources
    from cass_lsp.core.cache import ResultCache

    cache = ResultCache()
    results: dict[str, Any] = {t: build_listing(resolved, text, str(path), t, cache=cache) for t in ASM_TARGETS}
    return "\n\n".join(kernel_resources(results, kernel) for kernel in kernels)


def run(args: argparse.Namespace) -> int:
    from cass_lsp.cli import doctor
    from cass_lsp.services.settings import resolve_cli
    from cass_lsp.syntax.document import CudaDocument
    from cass_lsp.translate.api_uses import api_uses
    from cass_lsp.translate.jobs import translate_text

    path = Path(args.path)
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    doc = CudaDocument(path.resolve().as_uri(), text)
    constructs = doc.constructs
    print(f"== {path} ({doc.line_count} lines{', with syntax errors' if doc.has_syntax_errors else ''})")
    print("\nfunctions:")
    for function in constructs.functions:
        print(f"  line {_line(doc, function.span.start):4}  {function.space:<11} {function.name}")
    print("\nkernel launches:")
    for launch in constructs.launches:
        print(f"  line {_line(doc, launch.span.start):4}  {launch.kernel}{launch.config}")
    print("\nCUDA API uses (names the CUDA<->HIP tables know):")
    counts = Counter(use.name for use in api_uses(doc))
    for name, count in sorted(counts.items()):
        print(f"  {count:3}x {name}")

    resolved = resolve_cli(target={"arch": args.arch}, asm={"targets": list(ASM_TARGETS)})
    result = translate_text(resolved, text)
    print(f"\n== rule translation to HIP for {args.arch}: {len(result.edits)} edits, {len(result.findings)} findings")
    for finding in result.findings:
        print(f"  line {_line(doc, finding.start_byte):4}  {finding.severity:<7} {finding.code}: {finding.message}")
    diff = difflib.unified_diff(text.splitlines(), result.text.splitlines(), "cuda", "hip", n=0, lineterm="")
    shown = [line for line in diff if not line.startswith(("---", "+++"))]
    print("\n".join(f"  {line}" for line in shown[:DIFF_LINES]))
    if len(shown) > DIFF_LINES:
        print(f"  ... {len(shown) - DIFF_LINES} more diff lines (cass-lsp translate {path} prints it all)")

    kernels = [f.name for f in constructs.functions if f.space == "global"]
    print(f"\n== compiled kernels on {' and '.join(ASM_TARGETS)} (real nvcc and clang, cached)")
    print(_kernel_resources(resolved, path, text, kernels))

    print("\n== cass-lsp doctor")
    report = doctor.collect(None)
    print(doctor.render(report))
    return 0
