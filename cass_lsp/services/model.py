"""The model-translation use case, for the editor's "Translate … (CASS model)" actions and
``cass-lsp translate --model``: which regions go to the model (each within the context's budget;
a file too long for it goes kernel by kernel), what is carried in front of a function (the
file-level declarations it names), one region's generation, and the merge with the rules (their
translation of the file outside the regions the model translated, or of one region alone to fall
back on).

And the assembly model's prediction of a kernel's RDNA3 from its SASS (:func:`prediction_plan`,
:func:`predict`), for the server's ``cass/assembly`` with ``predict``.

Synchronous: the server runs :func:`translate` and :func:`predict` as jobs of kind ``generate`` and gets the rules'
translations from its ``translate`` jobs; the CLI calls the same functions in place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from cass_lsp.translate.carry import declarations_for
from cass_lsp.translate.model import ModelTranslation, estimated_tokens, question_budget, translate_region

if TYPE_CHECKING:
    from cass_lsp.asm.listing import Listing
    from cass_lsp.asm.predict import Prediction
    from cass_lsp.core.cancel import CancelToken
    from cass_lsp.core.settings import ModelSettings
    from cass_lsp.infer.backend import Backend, GenerationParams
    from cass_lsp.services.settings import ResolvedSettings
    from cass_lsp.syntax.document import CudaDocument
    from cass_lsp.translate.findings import Edit


class Region(NamedTuple):
    """A byte range of a document sent to the model, with what goes in front of it."""

    start: int
    end: int
    code: str
    context: str
    """The file-level declarations the function names (empty unless the region is one function)."""
    function: str | None
    """The region is exactly this function: only its definition is taken from the answer."""
    whole: bool
    """The region is the whole file (the post-pass may add the HIP runtime include)."""


def _text(doc: CudaDocument, start: int, end: int) -> str:
    return doc.source[start:end].decode("utf-8", "surrogatepass")


def region(doc: CudaDocument, start: int, end: int) -> Region:
    function = doc.function_at(start, end)
    exact = function is not None and (function.span.start, function.span.end) == (start, end)
    name = function.name if function is not None and exact else None
    context = declarations_for(doc.source, doc.tree, start, end) if name is not None and doc.tree else ""
    return Region(start, end, _text(doc, start, end), context, name, start == 0 and end == len(doc.source))


def regions(doc: CudaDocument, start: int, end: int, scope: str, n_ctx: int, advice: str) -> list[Region] | str:
    """The regions to send, each fitting the model's context: ``start..end``, or for a file
    (``scope`` "file") too long for it, its kernels and device functions one by one (the rules
    take the rest). A message when they do not fit; ``advice`` says how to give the model more."""
    # the answer is about as long as the question: a region may fill half the context
    budget = question_budget(n_ctx)

    def tokens(lo: int, hi: int) -> int:
        # with the declarations carried in front of a function
        context = declarations_for(doc.source, doc.tree, lo, hi) if doc.tree else ""
        return estimated_tokens(context + _text(doc, lo, hi))

    if tokens(start, end) <= budget:
        return [region(doc, start, end)]
    advice = f"more than the model's context leaves for it ({budget}); {advice}"
    if scope != "file":
        return f"this {scope} is about {tokens(start, end)} tokens, {advice}"
    spans = sorted(
        (f.span.start, f.span.end) for f in doc.constructs.functions if f.space in ("global", "device", "host_device")
    )
    outermost = [s for s in spans if not any(o[0] <= s[0] and s[1] <= o[1] and o != s for o in spans)]
    if not outermost or any(tokens(*span) > budget for span in outermost):
        return f"the file is about {tokens(start, end)} tokens, {advice} or translate it kernel by kernel"
    return [region(doc, lo, hi) for lo, hi in outermost]


def generation_key(resolved: ResolvedSettings, region: Region) -> str:
    """The key of the ``generate`` job of a region: the model, what the prompt is made of and the
    rule settings of the post-pass."""
    from cass_lsp.infer import jobs as generate_jobs
    from cass_lsp.translate import jobs as translate_jobs

    return generate_jobs.generation_key(
        resolved.model, region.context, region.code, resolved.digest(translate_jobs.TRANSLATION_FIELDS)
    )


def translate(
    backend: Backend,
    region: Region,
    resolved: ResolvedSettings,
    params: GenerationParams,
    on_text: Callable[[str], None],
    token: CancelToken,
) -> ModelTranslation:
    """One region through the model and the rules' post-pass (raises ModelError, NoAnswer, Cancelled)."""
    return translate_region(
        backend,
        region.code,
        resolved.engine(reverse=False),
        params,
        on_text,
        token,
        whole_file=region.whole,
        context=region.context,
        function=region.function,
    )


def rules_outside(edits: Sequence[Edit], regions: Sequence[Region]) -> list[Edit]:
    """The rules' edits of the file outside the regions the model translated."""
    return [e for e in edits if not any(r.start <= e.start_byte and e.end_byte <= r.end for r in regions)]


def rules_inside(source: bytes, edits: Sequence[Edit], start: int, end: int) -> str:
    """The rules' translation of ``start..end`` alone (their edits inside it), to fall back on."""
    pieces, at = [], start
    for edit in edits:
        if start <= edit.start_byte and edit.end_byte <= end:
            pieces += [source[at : edit.start_byte], edit.new_text.encode("utf-8", "surrogatepass")]
            at = edit.end_byte
    pieces.append(source[at:end])
    return b"".join(pieces).decode("utf-8", "surrogatepass")


def merged(source: bytes, done: Sequence[tuple[Region, ModelTranslation]], rule_edits: Sequence[Edit]) -> bytes:
    """The file with the model's code in its regions and the rules' edits around them."""
    replacements = sorted(
        [(r.start, r.end, t.code) for r, t in done] + [(e.start_byte, e.end_byte, e.new_text) for e in rule_edits],
        key=lambda item: (item[0], item[1]),
    )
    pieces, at = [], 0
    for start, end, text in replacements:
        pieces += [source[at:start], text.encode("utf-8", "surrogatepass")]
        at = end
    pieces.append(source[at:])
    return b"".join(pieces)


class PredictionPlan(NamedTuple):
    """How the assembly model predicts a kernel's RDNA3: its settings, the listing it reads, its
    prompt and answer fence."""

    model: ModelSettings
    source_target: str
    template: str | None
    fence: str


def prediction_plan(resolved: ResolvedSettings) -> PredictionPlan | str:
    """The assembly model's plan, or why there is none (a message for the user)."""
    import msgspec

    from cass_lsp.infer.manifest import find

    settings = resolved.model
    if settings.assembly_name is None:
        return "no assembly model: set cass.model.assemblyName"
    spec = find(settings.assembly_name)
    source_target = spec.sass_arch if spec is not None and spec.sass_arch else "sm_80"
    template, fence = (spec.prompt, spec.answer_fence) if spec is not None else (None, "hipasm")
    return PredictionPlan(msgspec.structs.replace(settings, name=settings.assembly_name), source_target, template, fence)


def prediction_key(plan: PredictionPlan, resolved: ResolvedSettings, kernel: str, text: str) -> str:
    """The key of the ``generate`` job of a prediction: the SASS it reads is the listing of this
    text under these settings."""
    from cass_lsp.asm import jobs as asm_jobs
    from cass_lsp.core import jobs as core_jobs
    from cass_lsp.infer import jobs as generate_jobs

    return generate_jobs.generation_key(
        plan.model, kernel, plan.source_target, core_jobs.text_digest(text), resolved.digest(asm_jobs.LISTING.reads)
    )


def predict(
    plan: PredictionPlan,
    backend: Backend,
    resolved: ResolvedSettings,
    sass: Listing,
    kernel: str,
    compiled: Listing | None,
    on_text: Callable[[str], None],
    token: CancelToken,
) -> Prediction | str:
    """The assembly model's RDNA3 for ``kernel`` of the ``sass`` listing, with its agreement with the
    ``compiled`` listing where there is one, or why there is none."""
    from cass_lsp.asm.predict import predict as predict_listing
    from cass_lsp.infer.open import generation_params

    params = generation_params(resolved.model)
    return predict_listing(
        backend, sass, kernel, compiled, params, on_text, token, template=plan.template, fence=plan.fence
    )
