"""The CASS model in the editor: "Translate … to HIP (CASS model)" actions, the quick fix on
findings the rules cannot fix, and the command that runs a generation.

Offered only when `cass.model.name` (or an endpoint) is set. The command runs the generation as a
job of kind ``generate`` (one at a time; cancellable from the progress UI, which shows the text
so far), then applies the answer with `workspace/applyEdit` as one WorkspaceEdit whose edits carry
a ChangeAnnotation with `needsConfirmation` (VS Code shows a refactor preview), and finally
compiles the new text for the AMD target: a failure becomes the `cass-asm` diagnostics on the new
lines plus the quick fix "Use rule translation instead".
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import msgspec
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from cass_lsp.core.cancel import Cancelled, CancelToken
from cass_lsp.core.progress import Progress
from cass_lsp.infer import jobs as generate_jobs
from cass_lsp.infer.backend import ModelError
from cass_lsp.infer.open import Backends, generation_params
from cass_lsp.server import translations
from cass_lsp.server.actions import ActionProviders, enclosing_function, is_reverse
from cass_lsp.server.app import CassServer
from cass_lsp.server.assembly import AssemblyParams, AssemblyService
from cass_lsp.server.convert import byte_range, decode_params, range_offsets
from cass_lsp.server.edits import supports_change_annotations, supports_document_changes, text_edits
from cass_lsp.services import model as model_service
from cass_lsp.syntax.document import CudaDocument
from cass_lsp.translate import codes
from cass_lsp.translate.model import ModelTranslation, NoAnswer

log = logging.getLogger(__name__)

COMMAND = "cass.translateWithModel"
REQUEST = "cass/translateWithModel"
"""The same as the command, as a request of its own: a client's $/cancelRequest for it stops the
generation (pygls answers a cancelled workspace/executeCommand but lets the command run on)."""
ANNOTATION = "cass-model"
# Findings the rules report but cannot fix: the model is the way forward for them.
MODEL_FIXABLE = frozenset(
    {codes.INLINE_PTX, codes.UNSUPPORTED_API, codes.WARP_SIZE_ASSUMPTION, codes.UNTRANSLATED, codes.TEXTURE_REFERENCE}
)
_PROGRESS_EVERY_S = 0.05
_TAIL = 80


class ModelRequest(msgspec.Struct, rename="camel", frozen=True):
    uri: str
    version: int
    start: int
    end: int
    scope: Literal["kernel", "selection", "file", "finding"]


class ModelEdit(msgspec.Struct, frozen=True):
    """A model edit applied to a document: what it replaced, for "Use rule translation instead"."""

    uri: str
    version: int  # the version the edit produced
    start: int  # where the model's code starts in that version
    code: str
    rules_code: str
    """The rule translation of the region the model replaced, for "Use rule translation instead"."""


def _on_characters(source: bytes, start: int, end: int) -> bool:
    """Whether ``start..end`` lies in ``source`` and starts and ends between UTF-8 characters."""
    if not 0 <= start <= end <= len(source):
        return False
    return all(at == len(source) or source[at] & 0xC0 != 0x80 for at in (start, end))


def configured(ls: CassServer) -> bool:
    model = ls.resolved.model
    return model.name is not None or (model.backend == "openai" and model.endpoint is not None)


class ModelService:
    def __init__(self, server: CassServer, assembly: AssemblyService) -> None:
        self.assembly = assembly
        self.backends = Backends()
        self.edits: dict[str, ModelEdit] = {}
        server.on_shutdown.append(self.backends.close)
        server.on_document_closed.append(self._forget)

    def _forget(self, uri: str) -> None:
        self.edits.pop(uri, None)

    # ------------------------------------------------------------------ offering
    def actions(self, ls: CassServer, doc: CudaDocument, params: types.CodeActionParams) -> list[types.CodeAction]:
        if not configured(ls) or is_reverse(doc):
            return []
        start, end = range_offsets(doc, params.range)
        offered: list[types.CodeAction] = []
        function = enclosing_function(doc, start, end)
        if function is not None:
            what = "kernel" if function.space == "global" else "device function"
            offered.append(
                self._action(
                    f"Translate {what} {function.name} to HIP (CASS model)",
                    doc,
                    function.span.start,
                    function.span.end,
                    "kernel",
                )
            )
        if end > start:
            offered.append(self._action("Translate selection to HIP (CASS model)", doc, start, end, "selection"))
        offered.append(self._action("Translate file to HIP (CASS model)", doc, 0, len(doc.source), "file"))
        offered += self._quick_fixes(doc, params.context.diagnostics)
        offered += self._rule_fallbacks(doc, params.context.diagnostics)
        return offered

    def _action(
        self,
        title: str,
        doc: CudaDocument,
        start: int,
        end: int,
        scope: str,
        kind: str = types.CodeActionKind.RefactorRewrite,
    ) -> types.CodeAction:
        request = ModelRequest(doc.uri, doc.version, start, end, scope)  # type: ignore[arg-type]
        command = types.Command(title=title, command=COMMAND, arguments=[msgspec.to_builtins(request)])
        return types.CodeAction(
            title=title, kind=kind if scope != "file" else types.CodeActionKind.Source, command=command
        )

    def _quick_fixes(self, doc: CudaDocument, diagnostics: Sequence[types.Diagnostic]) -> list[types.CodeAction]:
        # one generation covers the function: the first finding the rules cannot fix is enough
        diagnostic = next((d for d in diagnostics if d.source == "cass-lsp" and d.code in MODEL_FIXABLE), None)
        if diagnostic is None:
            return []
        start, end = range_offsets(doc, diagnostic.range)
        function = doc.function_at(start, end)
        lo, hi = (function.span.start, function.span.end) if function is not None else (start, end)
        action = self._action(
            "Translate this with the CASS model", doc, lo, hi, "finding", types.CodeActionKind.QuickFix
        )
        action.diagnostics = [diagnostic]
        return [action]

    def _rule_fallbacks(self, doc: CudaDocument, diagnostics: Sequence[types.Diagnostic]) -> list[types.CodeAction]:
        """ "Use rule translation instead" on compile errors inside a model edit of this version."""
        edit = self.edits.get(doc.uri)
        if edit is None or edit.version != doc.version:
            return []
        lo, hi = edit.start, edit.start + len(edit.code.encode("utf-8", "surrogatepass"))
        related = [d for d in diagnostics if d.source == "cass-asm" and lo <= range_offsets(doc, d.range)[0] <= hi]
        if not related or doc.source[lo:hi].decode("utf-8", "surrogatepass") != edit.code:
            return []
        text_edit = types.TextEdit(range=byte_range(doc, lo, hi), new_text=edit.rules_code)
        return [
            types.CodeAction(
                title="Use rule translation instead",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=related,
                edit=types.WorkspaceEdit(changes={doc.uri: [text_edit]}),
            )
        ]

    # ------------------------------------------------------------------ running
    async def run(self, ls: CassServer, request: ModelRequest) -> dict[str, Any]:
        doc = ls.document(request.uri)
        if doc is None or doc.version != request.version:
            ls.show_message(
                "cass-lsp: the document changed since the action was offered; ask again", types.MessageType.Warning
            )
            return {"applied": False, "reason": "stale"}
        if not _on_characters(doc.source, request.start, request.end):
            # the offsets come from the client (the action's arguments): a range outside the text,
            # or one that cuts a UTF-8 character, is not a region of this document
            raise JsonRpcInvalidParams(
                message=f"cass-lsp: bytes {request.start}..{request.end} are not a range of characters of {doc.uri}"
            )
        regions = model_service.regions(
            doc, request.start, request.end, request.scope, ls.resolved.model.n_ctx, "raise cass.model.nCtx"
        )
        if isinstance(regions, str):
            ls.show_message(f"cass-lsp: {regions}", types.MessageType.Warning)
            return {"applied": False, "reason": "too long"}
        done: list[tuple[model_service.Region, ModelTranslation]] = []
        for number, region in enumerate(regions, 1):
            part = f" ({number}/{len(regions)})" if len(regions) > 1 else ""
            translated = await self._translate(ls, doc, request, region, part)
            if isinstance(translated, dict):
                return translated
            done.append((region, translated))
        rules_code, rule_edits = None, []
        if len(regions) == 1:
            _, result = await translations.result(ls, doc, byte_range=(request.start, request.end))
            rules_code = model_service.rules_inside(doc.source, result.edits, request.start, request.end)
        else:
            _, result = await translations.result(ls, doc)
            rule_edits = text_edits(doc, model_service.rules_outside(result.edits, regions))
        if ls.document(request.uri) is not doc or doc.version != request.version:
            ls.show_message(
                "cass-lsp: the document changed while the model was translating; nothing applied",
                types.MessageType.Warning,
            )
            return {"applied": False, "reason": "stale"}
        model = done[0][1].generation.model
        label = f"CASS model {model}"
        edit = self._edit(ls, doc, [(r.start, r.end, t.code) for r, t in done], rule_edits, label)
        applied = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label=label))
        summary: dict[str, Any] = {
            "applied": bool(applied and applied.applied),
            "tokens": sum(t.generation.tokens for _, t in done),
            "seconds": round(sum(t.generation.seconds for _, t in done), 3),
            "model": model,
            "regions": len(done),
        }
        if summary["applied"]:
            code = done[0][1].code if rules_code is not None else None
            summary["compiles"] = await self._check(ls, request, rules_code, code)
        return summary

    async def _translate(
        self, ls: CassServer, doc: CudaDocument, request: ModelRequest, region: model_service.Region, part: str
    ) -> ModelTranslation | dict[str, Any]:
        """One region through the model, or the command's answer when the model's cannot be used."""
        try:
            translated = await self._generate(ls, doc, region, request.scope + part)
        except Cancelled:
            return {"applied": False, "reason": "cancelled"}
        except ModelError as error:
            ls.show_message(f"cass-lsp: {error}", types.MessageType.Error)
            return {"applied": False, "reason": str(error)}
        except NoAnswer as no_answer:
            ls.show_message(f"cass-lsp: {no_answer}", types.MessageType.Warning)
            return {"applied": False, "reason": "no answer"}
        generation = translated.generation
        if not translated.complete:
            ls.show_message(
                f"cass-lsp: {generation.model} stopped before its answer ended "
                f"({generation.finish_reason} after {generation.tokens} tokens): nothing applied"
                + (
                    "; an answer may take about twice the region's tokens, at most cass.model.maxTokens"
                    if generation.finish_reason == "length"
                    else ""
                ),
                types.MessageType.Warning,
            )
            return {"applied": False, "reason": generation.finish_reason}
        return translated

    async def _generate(
        self, ls: CassServer, doc: CudaDocument, region: model_service.Region, what: str
    ) -> ModelTranslation:
        resolved = ls.resolved
        settings = resolved.model
        params = generation_params(settings)
        backends = self.backends

        def work(token: CancelToken, progress: Progress) -> ModelTranslation:
            return model_service.translate(
                backends.get(settings), region, resolved, params, _Streamed(progress).add, token
            )

        key = model_service.generation_key(resolved, region)
        title = f"CASS model: translating {what}"
        slot = (doc.uri, "generate")
        try:
            return await ls.jobs.run(generate_jobs.GENERATE, slot, key, work, title=title)
        except asyncio.CancelledError:
            # the client cancelled the request ($/cancelRequest): stop the generation with it
            ls.jobs.cancel_slot(generate_jobs.GENERATE, slot)
            raise

    def _edit(
        self,
        ls: CassServer,
        doc: CudaDocument,
        regions: list[tuple[int, int, str]],
        rule_edits: list[types.TextEdit],
        label: str,
    ) -> types.WorkspaceEdit:
        """One WorkspaceEdit: the model's code, marked as needing confirmation where the client
        honours annotations, and the rules' edits around it."""
        model_edits = [types.TextEdit(range=byte_range(doc, s, e), new_text=code) for s, e, code in regions]
        if not supports_document_changes(ls) or not supports_change_annotations(ls):
            return types.WorkspaceEdit(changes={doc.uri: [*model_edits, *rule_edits]})
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
        annotated: list[types.TextEdit | types.AnnotatedTextEdit] = [
            types.AnnotatedTextEdit(annotation_id=ANNOTATION, range=e.range, new_text=e.new_text) for e in model_edits
        ]
        annotation = types.ChangeAnnotation(
            label=label,
            needs_confirmation=True,
            description="generated by a language model: review it; it is compiled for the target after it is applied",
        )
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=identifier, edits=[*annotated, *rule_edits])],
            change_annotations={ANNOTATION: annotation},
        )

    async def _check(
        self, ls: CassServer, request: ModelRequest, rules_code: str | None, code: str | None
    ) -> bool | None:
        """Compile the edited document for the AMD target; False shows the errors and the fallback."""
        doc = ls.document(request.uri)
        for _ in range(100):  # the client's didChange for the applied edit
            if doc is None or doc.version != request.version:
                break
            await asyncio.sleep(0.02)
        if doc is None or doc.version == request.version:
            return None
        if code is not None and rules_code is not None:  # one region: "Use rule translation instead" can undo it
            self.edits[doc.uri] = ModelEdit(doc.uri, doc.version, request.start, code, rules_code)
        target = next((t for t in ls.resolved.asm_targets if t.startswith("gfx")), ls.resolved.arch)
        results = await self.assembly.results(doc, [target], None)
        from cass_lsp.asm.listing import CompileFailure, Listing

        result = results.get(target)
        if isinstance(result, CompileFailure):
            ls.show_message(
                f"cass-lsp: the CASS model's translation does not compile for {target}; see the cass-asm "
                'diagnostics, and the quick fix "Use rule translation instead"',
                types.MessageType.Warning,
            )
            return False
        return True if isinstance(result, Listing) else None


async def predicted_assembly(
    service: ModelService, ls: CassServer, doc: CudaDocument, params: AssemblyParams, results: Mapping[str, Any]
) -> dict[str, Any]:
    """`cass/assembly` with `predict`: the assembly model's RDNA3 for the kernel, labelled
    "predicted", with its agreement with the compiled listing when the AMD toolchain made one."""
    if not params.predict:
        return {}
    plan = model_service.prediction_plan(ls.resolved)
    if isinstance(plan, str):
        return {"prediction": None, "predictionNote": plan}
    if params.kernel is None:
        return {"prediction": None, "predictionNote": "a prediction is per kernel: pass `kernel`"}
    from cass_lsp.asm.listing import Listing

    source_target = plan.source_target
    sass = (await service.assembly.results(doc, [source_target], None))[source_target]
    if not isinstance(sass, Listing):
        return {"prediction": None, "predictionNote": f"no {source_target} listing to predict from: {sass}"}
    compiled = next((r for t, r in results.items() if t.startswith("gfx") and isinstance(r, Listing)), None)
    resolved, backends, kernel = ls.resolved, service.backends, params.kernel

    def work(token: CancelToken, progress: Progress) -> Any:
        streamed = _Streamed(progress)
        return model_service.predict(plan, backends.get(plan.model), resolved, sass, kernel, compiled, streamed.add, token)

    key = model_service.prediction_key(plan, resolved, kernel, doc.text)
    try:
        found = await ls.jobs.run(
            generate_jobs.GENERATE, (doc.uri, "predict"), key, work, title=f"CASS model: predicting {kernel}"
        )
    except (ModelError, Cancelled) as error:
        return {"prediction": None, "predictionNote": str(error) or "cancelled"}
    if isinstance(found, str):
        return {"prediction": None, "predictionNote": found}
    return {"prediction": msgspec.to_builtins(found)}


class _Streamed:
    """Reports the text so far as progress, at most every 50 ms (the editor shows one line)."""

    def __init__(self, progress: Progress) -> None:
        self._progress = progress
        self._tail = ""  # the end of the text so far: all the one-line report shows
        self._tokens = 0
        self._last = 0.0

    def add(self, piece: str) -> None:
        self._tail = (self._tail + piece)[-_TAIL:]
        self._tokens += 1
        now = time.monotonic()
        if self._tokens == 1:
            # wall-clock, so a client's log of when the first report arrived can be compared
            log.info("generation: first token at %.6f", time.time())
        if now - self._last >= _PROGRESS_EVERY_S or self._tokens == 1:
            self._last = now
            self._progress.report(f"{self._tokens} tokens: …{self._tail.replace(chr(10), '⏎')}")


def register(server: CassServer, providers: ActionProviders, assembly: AssemblyService) -> ModelService:
    service = ModelService(server, assembly)
    providers.append(service.actions)
    assembly.extras.append(functools.partial(predicted_assembly, service))

    @server.command(COMMAND)
    async def translate_with_model(ls: CassServer, *args: Any) -> dict[str, Any]:
        return await service.run(ls, decode_params(args[0] if args else None, ModelRequest))

    @server.feature(REQUEST)
    async def translate_request(ls: CassServer, params: Any) -> dict[str, Any]:
        return await service.run(ls, decode_params(params, ModelRequest))

    return service
