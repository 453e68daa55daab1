"""`cass-lsp demo`: what cass-lsp sees in a CUDA file, what the rules make of it, and what is installed."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

EXAMPLE = Path(__file__).parent / "examples" / "saxpy_norm.cu"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", default=str(EXAMPLE), help="a CUDA file (default: the shipped example)")
    parser.add_argument("--arch", default="gfx1100", help="AMD target for the translation preview")


def _line(doc: object, offset: int) -> int:
    from cass_lsp.document import CudaDocument

    assert isinstance(doc, CudaDocument)
    return doc.position_at(offset)[0] + 1


def run(args: argparse.Namespace) -> int:
    from cass_lsp import doctor
    from cass_lsp.document import CudaDocument
    from cass_lsp.translate import TargetProfile, translate

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
    print("\nCUDA API uses:")
    counts = Counter(use.name for use in doc.api_uses)
    for name, count in sorted(counts.items()):
        print(f"  {count:3}x {name}")

    result = translate(text, TargetProfile(arch=args.arch))
    print(f"\n== rule translation to HIP for {args.arch}: {len(result.edits)} edits, {len(result.findings)} findings")
    for finding in result.findings:
        print(f"  line {_line(doc, finding.start_byte):4}  {finding.severity:<7} {finding.code}: {finding.message}")

    print("\n== cass-lsp doctor")
    report = doctor.collect(None)
    print(doctor.render(report))
    return 0
