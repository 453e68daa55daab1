"""``cass-lsp translate --model NAME|PATH FILE``: the CASS model path without an editor.

The editor's "Translate … (CASS model)" use case (:mod:`cass_lsp.services.model`): the region (a
kernel with ``--kernel``, else the file; a file too long for the model's context goes kernel by
kernel) goes to the model with the CASS prompt and, in front of a kernel, the file-level
declarations it names; the answer streams to stderr while it comes (on a terminal), the rules
translate the CUDA names it left and the rest of the file around the model's regions (not the
model's code again); an answer cut off is kept with a warning. The result is compiled for the AMD
target with the real clang before it is reported as compiling.
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


def run(args: argparse.Namespace) -> int:
    from cass_lsp.asm import jobs as asm_jobs
    from cass_lsp.infer.open import generation_params, open_backend
    from cass_lsp.services import model as model_service
    from cass_lsp.services.settings import resolve_cli
    from cass_lsp.syntax.document import CudaDocument
    from cass_lsp.translate import jobs as translate_jobs
    from cass_lsp.translate.findings import Edit
    from cass_lsp.translate.model import NoAnswer

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
    doc = CudaDocument("file:///model.cu", text)
    source = doc.source
    if args.kernel is None:
        start, end, scope = 0, len(source), "file"
    else:
        found = [f for f in doc.constructs.functions if f.name == args.kernel]
        if not found:
            names = ", ".join(f.name for f in doc.constructs.functions if f.space == "global") or "none"
            return _fail(f"no function {args.kernel!r} in the file (kernels: {names})")
        start, end, scope = found[0].span.start, found[0].span.end, "kernel"
    settings = resolved.model
    regions = model_service.regions(
        doc, start, end, scope, settings.n_ctx, f"the command line gives it {settings.n_ctx} tokens"
    )
    if isinstance(regions, str):
        return _fail(regions)
    params = generation_params(settings)
    progress = TerminalSink().begin(f"CASS model {settings.name}", None)
    tokens, tail = 0, ""

    def on_text(piece: str) -> None:
        nonlocal tokens, tail
        tokens, tail = tokens + 1, (tail + piece)[-60:]
        progress.report(f"{tokens} tokens: …{tail!r}")

    try:
        backend = open_backend(settings)
        done = [(r, model_service.translate(backend, r, resolved, params, on_text, CancelToken())) for r in regions]
    except (ModelError, NoAnswer) as error:
        return _fail(str(error))
    finally:
        progress.end()
    # the rules translate the file around the model's regions (the same merge as the editor's)
    outcome = translate_jobs.translate_bytes(resolved.engine(False), source)
    rule_edits = model_service.rules_outside([Edit(e.start, e.end, e.text) for e in outcome.edits], regions)
    output = model_service.merged(source, done, rule_edits).decode("utf-8", "surrogatepass")
    result = output.encode("utf-8", "surrogateescape")
    generations = [t.generation for _, t in done]
    model = generations[0].model
    seconds = sum(g.seconds for g in generations)
    reasons = ", ".join(sorted({g.finish_reason for g in generations}))
    regions_note = f" in {len(done)} regions" if len(done) > 1 else ""
    print(
        f"{PROG}: {model}: {sum(g.tokens for g in generations)} tokens in {seconds:.1f} s "
        f"({reasons}){regions_note}; the rules translated {sum(t.post_pass_edits for _, t in done)} name(s) it left",
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
    return _report_check(checked, target, all(t.complete for _, t in done))


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
