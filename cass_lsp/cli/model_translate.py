"""``cass-lsp translate --model NAME|PATH FILE``: the CASS model path without an editor.

Nearly the editor's "Translate … (CASS model)" steps: the region (a kernel with ``--kernel``, else
the file) goes to the model with the CASS prompt (without the declarations the editor carries along
with a kernel; the whole answer is kept), the answer streams to stderr while it comes
(on a terminal), the rules translate the CUDA names it left and, since the output is a HIP file,
the rest of the file around a kernel; the result is compiled for the AMD target with the real
clang before it is reported as compiling.
"""

from __future__ import annotations

import argparse
import os
import sys

from cass_lsp.core.cancel import CancelToken
from cass_lsp.core.progress import TerminalSink
from cass_lsp.infer.backend import ModelError

PROG = "cass-lsp translate --model"


def _fail(message: str, code: int = 2) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return code


def _region(text: str, kernel: str | None) -> tuple[int, int] | str:
    """Byte range of the kernel (or of the whole text), or an error message."""
    from cass_lsp.syntax.document import CudaDocument

    source = text.encode("utf-8", "surrogateescape")
    if kernel is None:
        return 0, len(source)
    doc = CudaDocument("file:///model.cu", text)
    found = [f for f in doc.constructs.functions if f.name == kernel]
    if not found:
        names = ", ".join(f.name for f in doc.constructs.functions if f.space == "global") or "none"
        return f"no function {kernel!r} in the file (kernels: {names})"
    return found[0].span.start, found[0].span.end


def run(args: argparse.Namespace) -> int:
    from cass_lsp.asm import jobs as asm_jobs
    from cass_lsp.infer.open import generation_params, open_backend
    from cass_lsp.services.settings import resolve_cli
    from cass_lsp.translate import jobs as translate_jobs
    from cass_lsp.translate import rules
    from cass_lsp.translate.model import NoAnswer, translate_region

    if len(args.paths) != 1 or os.path.isdir(args.paths[0]) or args.out_dir or args.in_place:
        return _fail("--model translates one file (to standard output, or -o OUT)")
    path = args.paths[0]
    try:
        with open(path, "rb") as original:
            text = original.read().decode("utf-8", "surrogateescape")
        resolved = resolve_cli(
            target={"arch": args.arch, "rocm": args.rocm},
            translate={"launchStyle": args.launch_style},
            model={"name": args.model},
        )
    except (OSError, ValueError) as error:
        return _fail(str(error))
    region = _region(text, args.kernel)
    if isinstance(region, str):
        return _fail(region)
    source = text.encode("utf-8", "surrogateescape")
    code = source[region[0] : region[1]].decode("utf-8", "surrogateescape")
    settings = resolved.model
    params = generation_params(settings)
    progress = TerminalSink().begin(f"CASS model {settings.name}", None)
    tokens, tail = 0, ""

    def on_text(piece: str) -> None:
        nonlocal tokens, tail
        tokens, tail = tokens + 1, (tail + piece)[-60:]
        progress.report(f"{tokens} tokens: …{tail!r}")

    try:
        backend = open_backend(settings)
        whole = region == (0, len(source))
        translated = translate_region(backend, code, resolved.engine(False), params, on_text, CancelToken(), whole_file=whole)
    except (ModelError, NoAnswer) as error:
        return _fail(str(error))
    finally:
        progress.end()
    spliced = source[: region[0]] + translated.code.encode("utf-8", "surrogateescape") + source[region[1] :]
    result = rules.apply(spliced, translate_jobs.translate_bytes(resolved.engine(False), spliced).edits)
    output = result.decode("utf-8", "surrogateescape")
    generation = translated.generation
    print(
        f"{PROG}: {generation.model}: {generation.tokens} tokens in {generation.seconds:.1f} s "
        f"({generation.finish_reason}); the rules translated {translated.post_pass_edits} name(s) it left",
        file=sys.stderr,
    )
    out_path = args.output or os.path.splitext(path)[0] + ".hip"
    if args.output:
        with open(args.output, "wb") as out:
            out.write(result)
    else:
        sys.stdout.write(output)
        sys.stdout.flush()
    target = resolved.arch
    checked = asm_jobs.build_listing(resolved, output, os.path.abspath(out_path), target)
    return _report_check(checked, target, translated.complete)


def _report_check(checked: object, target: str, complete: bool) -> int:
    from cass_lsp.asm.listing import CompileFailure, Listing
    from cass_lsp.core.terminal import escape

    if not complete:
        print(f"{PROG}: warning: the model's answer was cut off; check the end of the translation", file=sys.stderr)
    if isinstance(checked, Listing):
        print(f"{PROG}: the translation compiles for {target} (clang)", file=sys.stderr)
        return 0
    if isinstance(checked, CompileFailure):
        for item in checked.diagnostics:
            if item.severity == "error":
                print(escape(f"{item.file}:{item.line}: error: {item.message}"), file=sys.stderr)
        return _fail(f"the translation does not compile for {target}", 1)
    print(escape(f"{PROG}: warning: not compiled: {getattr(checked, 'message', checked)}"), file=sys.stderr)
    return 0
