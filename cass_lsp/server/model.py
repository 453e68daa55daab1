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
import hashlib
import json
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import msgspec
from lsprotocol import types

from cass_lsp.document import CudaDocument
from cass_lsp.infer.backend import GenerationParams, ModelError
from cass_lsp.infer.open import Backends
from cass_lsp.jobs import kinds
from cass_lsp.jobs.cancel import Cancelled, CancelToken
from cass_lsp.jobs.progress import Progress
from cass_lsp.server import translations
from cass_lsp.server.actions import ActionProviders, enclosing_function, is_reverse
from cass_lsp.server.app import CassServer
from cass_lsp.server.assembly import AssemblyParams, AssemblyService
from cass_lsp.server.convert import byte_range, json_value, range_offsets
from cass_lsp.server.edits import supports_document_changes
from cass_lsp.translate import codes

log = logging.getLogger(__name__)

COMMAND = "cass.translateWithModel"
ANNOTATION = "cass-model"
# Findings the rules report but cannot fix: the model is the way forward for them.
MODEL_FIXABLE = frozenset(
    {codes.INLINE_PTX, codes.UNSUPPORTED_API, codes.WARP_SIZE_ASSUMPTION, codes.UNTRANSLATED, codes.TEXTURE_REFERENCE}
)
_PROGRESS_EVERY_S = 0.05
_TAIL = 80
# A rough bound of tokens per byte of CUDA for Qwen's tokenizer (code averages ~3.5 bytes a token)
_BYTES_PER_TOKEN = 3
_PROMPT_TOKENS = 64  # the chat template and the CASS instruction around the code


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


def configured(ls: CassServer) -> bool:
    model = ls.resolved.model
    return model.name is not None or (model.backend == "openai" and model.endpoint is not None)


class ModelService:
    def __init__(self, server: CassServer, assembly: AssemblyService) -> None:
        self._server = server
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
        fixes = []
        for diagnostic in diagnostics:
            if diagnostic.source != "cass-lsp" or diagnostic.code not in MODEL_FIXABLE:
                continue
            start, end = range_offsets(doc, diagnostic.range)
            function = doc.function_at(start, end)
            lo, hi = (function.span.start, function.span.end) if function is not None else (start, end)
            action = self._action(
                "Translate this with the CASS model", doc, lo, hi, "finding", types.CodeActionKind.QuickFix
            )
            action.diagnostics = [diagnostic]
            fixes.append(action)
        return fixes[:1]  # one generation covers the function: one fix is enough

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
        region = doc.source[request.start : request.end].decode("utf-8", "surrogatepass")
        resolved = ls.resolved
        # the answer is about as long as the question: the region may fill half the context
        budget = resolved.model.n_ctx // 2 - _PROMPT_TOKENS
        if len(region) / _BYTES_PER_TOKEN > budget:
            ls.show_message(
                f"cass-lsp: this {request.scope} is about {len(region) // _BYTES_PER_TOKEN} tokens, more than the model's "
                f"context leaves for it ({budget}): translate one kernel at a time, or raise cass.model.nCtx",
                types.MessageType.Warning,
            )
            return {"applied": False, "reason": "too long"}
        try:
            translated = await self._generate(ls, doc, region, request)
        except Cancelled:
            return {"applied": False, "reason": "cancelled"}
        except ModelError as error:
            ls.show_message(f"cass-lsp: {error}", types.MessageType.Error)
            return {"applied": False, "reason": str(error)}
        from cass_lsp.translate.model import NoAnswer

        if isinstance(translated, NoAnswer):
            ls.show_message(f"cass-lsp: {translated}", types.MessageType.Warning)
            return {"applied": False, "reason": "no answer"}
        if not translated.complete:
            ls.show_message(
                f"cass-lsp: {translated.generation.model} stopped before its answer ended "
                f"({translated.generation.finish_reason} after {translated.generation.tokens} tokens): nothing applied"
                + ("; raise cass.model.maxTokens" if translated.generation.finish_reason == "length" else ""),
                types.MessageType.Warning,
            )
            return {"applied": False, "reason": translated.generation.finish_reason}
        rules_code = await self._rules_region(ls, doc, request)
        if ls.document(request.uri) is not doc or doc.version != request.version:
            ls.show_message(
                "cass-lsp: the document changed while the model was translating; nothing applied",
                types.MessageType.Warning,
            )
            return {"applied": False, "reason": "stale"}
        label = f"CASS model {translated.generation.model}"
        applied = await ls.workspace_apply_edit_async(
            types.ApplyWorkspaceEditParams(edit=self._edit(ls, doc, request, translated.code, label), label=label)
        )
        summary: dict[str, Any] = {
            "applied": bool(applied and applied.applied),
            "tokens": translated.generation.tokens,
            "seconds": round(translated.generation.seconds, 3),
            "model": translated.generation.model,
        }
        if summary["applied"]:
            summary["compiles"] = await self._check(ls, request, rules_code, translated.code)
        return summary

    @staticmethod
    async def _rules_region(ls: CassServer, doc: CudaDocument, request: ModelRequest) -> str:
        """The rules' translation of the region alone (their edits inside it), to fall back on."""
        _, result = await translations.result(ls, doc, byte_range=(request.start, request.end))
        pieces, at = [], request.start
        for edit in result.edits:
            if request.start <= edit.start_byte and edit.end_byte <= request.end:
                pieces += [doc.source[at : edit.start_byte], edit.new_text.encode("utf-8", "surrogatepass")]
                at = edit.end_byte
        pieces.append(doc.source[at : request.end])
        return b"".join(pieces).decode("utf-8", "surrogatepass")

    async def _generate(self, ls: CassServer, doc: CudaDocument, region: str, request: ModelRequest) -> Any:
        from cass_lsp.translate.model import NoAnswer, translate_region

        resolved = ls.resolved
        settings = resolved.model
        params = GenerationParams(
            max_tokens=settings.max_tokens, temperature=settings.temperature, timeout_s=settings.timeout_seconds
        )
        engine = resolved.engine(reverse=False)
        backends = self.backends

        def work(token: CancelToken, progress: Progress) -> Any:
            backend = backends.get(settings)
            streamed = _Streamed(progress)
            try:
                whole = request.start == 0 and request.end == len(doc.source)
                return translate_region(backend, region, engine, params, streamed.add, token, whole_file=whole)
            except NoAnswer as no_answer:
                return no_answer

        key = hashlib.sha256(
            json.dumps([msgspec.to_builtins(settings), region, resolved.digest(kinds.TRANSLATION_FIELDS)]).encode()
        ).hexdigest()
        title = f"CASS model: translating {request.scope}"
        return await ls.jobs.run(kinds.GENERATE, (doc.uri, "generate"), key, work, title=title)

    def _edit(
        self, ls: CassServer, doc: CudaDocument, request: ModelRequest, code: str, label: str
    ) -> types.WorkspaceEdit:
        rng = byte_range(doc, request.start, request.end)
        if not supports_document_changes(ls) or not _supports_annotations(ls):
            return types.WorkspaceEdit(changes={doc.uri: [types.TextEdit(range=rng, new_text=code)]})
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
        edit = types.AnnotatedTextEdit(annotation_id=ANNOTATION, range=rng, new_text=code)
        annotation = types.ChangeAnnotation(
            label=label,
            needs_confirmation=True,
            description="generated by a language model: review it; it is compiled for the target after it is applied",
        )
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=identifier, edits=[edit])],
            change_annotations={ANNOTATION: annotation},
        )

    async def _check(self, ls: CassServer, request: ModelRequest, rules_code: str, code: str) -> bool | None:
        """Compile the edited document for the AMD target; False shows the errors and the fallback."""
        doc = ls.document(request.uri)
        for _ in range(100):  # the client's didChange for the applied edit
            if doc is None or doc.version != request.version:
                break
            await asyncio.sleep(0.02)
        if doc is None or doc.version == request.version:
            return None
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
    settings = ls.resolved.model
    if settings.assembly_name is None:
        return {"prediction": None, "predictionNote": "no assembly model: set cass.model.assemblyName"}
    if params.kernel is None:
        return {"prediction": None, "predictionNote": "a prediction is per kernel: pass `kernel`"}
    from cass_lsp.asm.listing import Listing
    from cass_lsp.asm.predict import predict
    from cass_lsp.infer.manifest import find

    spec = find(settings.assembly_name)
    source_target = spec.sass_arch if spec is not None and spec.sass_arch else "sm_80"
    sass = (await service.assembly.results(doc, [source_target], None))[source_target]
    if not isinstance(sass, Listing):
        return {"prediction": None, "predictionNote": f"no {source_target} listing to predict from: {sass}"}
    compiled = next((r for t, r in results.items() if t.startswith("gfx") and isinstance(r, Listing)), None)
    model = msgspec.structs.replace(settings, name=settings.assembly_name)
    generation = GenerationParams(settings.max_tokens, settings.temperature, settings.timeout_seconds)
    template, fence = (spec.prompt, spec.answer_fence) if spec is not None else (None, "hipasm")
    backends, kernel = service.backends, params.kernel

    def work(token: CancelToken, progress: Progress) -> Any:
        streamed = _Streamed(progress)
        return predict(
            backends.get(model), sass, kernel, compiled, generation, streamed.add, token, template=template, fence=fence
        )

    key = hashlib.sha256(
        json.dumps(
            [msgspec.to_builtins(model), kernel, sass.functions and msgspec.to_builtins(sass.functions)]
        ).encode()
    ).hexdigest()
    try:
        found = await ls.jobs.run(
            kinds.GENERATE, (doc.uri, "predict"), key, work, title=f"CASS model: predicting {kernel}"
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
        self._text: list[str] = []
        self._tokens = 0
        self._last = 0.0

    def add(self, piece: str) -> None:
        self._text.append(piece)
        self._tokens += 1
        now = time.monotonic()
        if self._tokens == 1:
            # wall-clock, so a client's log of when the first report arrived can be compared
            log.info("generation: first token at %.6f", time.time())
        if now - self._last >= _PROGRESS_EVERY_S or self._tokens == 1:
            self._last = now
            tail = "".join(self._text)[-_TAIL:].replace("\n", "⏎")
            self._progress.report(f"{self._tokens} tokens: …{tail}")


def _supports_annotations(ls: CassServer) -> bool:
    workspace = ls.client_capabilities.workspace
    edit = workspace.workspace_edit if workspace else None
    return bool(edit and edit.change_annotation_support is not None)


def register(server: CassServer, providers: ActionProviders, assembly: AssemblyService) -> ModelService:
    service = ModelService(server, assembly)
    providers.append(service.actions)
    assembly.extras.append(functools.partial(predicted_assembly, service))

    @server.command(COMMAND)
    async def translate_with_model(ls: CassServer, *args: Any) -> dict[str, Any]:
        return await service.run(ls, msgspec.convert(json_value(args[0]), ModelRequest))

    return service
