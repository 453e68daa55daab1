"""Exact assembly in the editor: background listings, the assembly hover, `cass/assembly`,
`cass.showAssembly`, and compiler errors as diagnostics (source `cass-asm`).

Listings are jobs of the job layer (kind ``asm``, one slot per document and target): compiled from
the buffer's text on open, on save and on settings changes (debounced), and on demand. A newer text
or new settings supersede a running compile (its process group is killed). The hover never waits
for a compile: it shows the current version's listing when it is ready, else the previous
version's for lines the edit did not touch (marked as such), else "compiling…". Clients that want
to wait ask `cass/assembly`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from cass_lsp.core.cancel import Cancelled
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import decode_params, file_path, refused, uri_argument
from cass_lsp.server.hover import HoverProviders, HoverSection
from cass_lsp.services import listing
from cass_lsp.services.settings import ResolvedSettings
from cass_lsp.syntax.document import CudaDocument, FunctionInfo

if TYPE_CHECKING:
    from cass_lsp.asm.listing import TargetResult

log = logging.getLogger(__name__)

SOURCE = "cass-asm"
COMPILING = "compiling… (hover again in a moment)"
STALE_NOTE = "_from the previous version, recompiling…_"
SAVE_DEBOUNCE_SECONDS = 0.3
ASSEMBLY_REQUEST = "cass/assembly"
DESCRIBE_OPCODE_REQUEST = "cass/describeOpcode"
SHOW_ASSEMBLY_COMMAND = "cass.showAssembly"
_DEVICE_SPACES = frozenset({"global", "device", "host_device"})
_SUPERSEDED_RETRIES = 8


class AssemblyParams(msgspec.Struct, rename="camel"):
    uri: str
    targets: list[str] | None = None
    kernel: str | None = None
    line: int | None = None
    """0-based, as LSP positions are."""
    predict: bool = False
    """Also ask the assembly model (cass.model.assemblyName) for the kernel's predicted RDNA3."""


AssemblyExtra = Callable[[CassServer, CudaDocument, AssemblyParams, Mapping[str, Any]], Awaitable[dict[str, Any]]]
"""More fields for a `cass/assembly` reply, from other features (the assembly model's prediction)."""


class OpcodeParams(msgspec.Struct, rename="camel"):
    opcode: str
    target: str


class Done(NamedTuple):
    """A finished listing and what it was built from."""

    version: int
    resolved: ResolvedSettings
    lines: Sequence[str]
    result: TargetResult


def document_path(uri: str) -> str:
    """The file a URI names; an unsaved buffer compiles as if it were in the working directory."""
    return file_path(uri) or str(Path.cwd() / Path(uri.rsplit("/", 1)[-1] or "untitled.cu"))


def unchanged_line(old: Sequence[str], new: Sequence[str], line: int) -> int | None:
    """Where 0-based ``line`` of ``new`` stood in ``old``, if no edit between them touched it: lines
    before the first changed line keep their number, lines after the last one shift by the edit."""
    if line >= len(new):
        return None
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    if line < prefix:
        return line
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    if line >= len(new) - suffix:
        return line - len(new) + len(old)
    return None


class AssemblyService:
    def __init__(self, server: CassServer) -> None:
        self._server = server
        self._done: dict[str, dict[str, Done]] = {}
        self._reported_missing: set[tuple[str, str]] = set()
        # (uri, target) -> (key, future) of the compile whose outcome this service takes in
        self._pending: dict[tuple[str, str], tuple[str, asyncio.Future[TargetResult]]] = {}
        self.extras: list[AssemblyExtra] = []

    # ------------------------------------------------------------------ hooks
    def document_opened(self, doc: CudaDocument) -> None:
        if self._server.resolved.compile_on_open and not doc.too_large:
            self._server.debounce(f"asm:{doc.uri}", SAVE_DEBOUNCE_SECONDS, lambda: self._start_all(doc.uri))

    def document_closed(self, uri: str) -> None:
        self._server.cancel_debounce(f"asm:{uri}")
        self._done.pop(uri, None)
        for key in [k for k in self._pending if k[0] == uri]:
            del self._pending[key]
        self._server.jobs.cancel_slots(lambda slot: isinstance(slot, tuple) and slot[:1] == (uri,))
        self._server.publish_diagnostics(uri, SOURCE, [], None)

    def settings_changed(self, resolved: ResolvedSettings) -> None:
        # targets, ROCm, flags or compile commands may differ: listings of open files are stale
        for doc in list(self._server.documents.values()):
            self.document_opened(doc)

    # ------------------------------------------------------------------ results
    def _start_all(self, uri: str) -> None:
        doc = self._server.document(uri)
        if doc is not None:
            self.ensure(doc, self._server.resolved.asm_targets)

    def current(self, doc: CudaDocument, target: str) -> Done | None:
        done = self._done.get(doc.uri, {}).get(target)
        if done is not None and done.version == doc.version and done.resolved == self._server.resolved:
            return done
        return None

    def ensure(self, doc: CudaDocument, targets: Sequence[str]) -> dict[str, asyncio.Future[TargetResult]]:
        """A future per target for the document's current text and settings, starting missing compiles."""
        futures: dict[str, asyncio.Future[TargetResult]] = {}
        for target in targets:
            done = self.current(doc, target)
            if done is not None:
                ready: asyncio.Future[TargetResult] = asyncio.get_running_loop().create_future()
                ready.set_result(done.result)
                futures[target] = ready
            else:
                futures[target] = self._submit(doc, target)
        return futures

    def _submit(self, doc: CudaDocument, target: str) -> asyncio.Future[TargetResult]:
        resolved, version, text = self._server.resolved, doc.version, doc.text
        compile_job = listing.job(
            resolved, text, document_path(doc.uri), target, cache=self._server.jobs.cache, background=True
        )
        pending = self._pending.get((doc.uri, target))
        if pending is not None and pending[0] == compile_job.key and not pending[1].done():
            return pending[1]  # every hover asks; the outcome is taken in once
        kind, key, title, work = compile_job
        future = self._server.jobs.submit(kind, (doc.uri, target), key, work, title=title)
        self._pending[(doc.uri, target)] = (key, future)
        future.add_done_callback(lambda f: self._finished(doc, target, version, resolved, text, f))
        return future

    def _finished(
        self,
        doc: CudaDocument,
        target: str,
        version: int,
        resolved: ResolvedSettings,
        text: str,
        future: asyncio.Future[TargetResult],
    ) -> None:
        if self._pending.get((doc.uri, target), (None, None))[1] is future:
            del self._pending[(doc.uri, target)]
        if future.cancelled() or future.exception() is not None:
            if not isinstance(future.exception(), Cancelled | type(None)):
                log.error("listing of %s for %s failed", doc.uri, target, exc_info=future.exception())
            return
        if self._server.document(doc.uri) is not doc or resolved != self._server.resolved:
            return
        known = self._done.setdefault(doc.uri, {}).get(target)
        if known is not None and known.version > version:
            return
        self._done[doc.uri][target] = Done(version, resolved, text.splitlines(), future.result())
        if doc.version == version:
            self._after_compile(doc, target, future.result())

    async def results(self, doc: CudaDocument, targets: Sequence[str], wait_seconds: float | None) -> dict[str, Any]:
        """Each target's result for the current text, or "compiling…" for those not done within
        `wait_seconds` (None: wait, following the text when a newer version supersedes a compile)."""
        for _ in range(_SUPERSEDED_RETRIES):
            futures = self.ensure(doc, targets)
            if wait_seconds != 0 and futures:  # no targets (cass.asm.targets empty): nothing to wait for
                await asyncio.wait([asyncio.shield(f) for f in futures.values()], timeout=wait_seconds)
            superseded = any(
                f.done() and not f.cancelled() and isinstance(f.exception(), Cancelled) for f in futures.values()
            )
            if not superseded or wait_seconds is not None:
                break
        return {t: _outcome(t, f) for t, f in futures.items()}

    def ready_or_previous(
        self, doc: CudaDocument, targets: Sequence[str], line: int | None
    ) -> tuple[dict[str, Any], int | None, bool]:
        """What the hover can show now, without waiting: the current listings where ready, else the
        previous version's when ``line`` (0-based) was not touched since (its line then).
        Returns (results per target, the line to look up, whether any result is from before)."""
        self.ensure(doc, targets)
        shown: dict[str, Any] = {}
        stale = False
        old_line = line
        lines: Sequence[str] | None = None
        for target in targets:
            done = self._done.get(doc.uri, {}).get(target)
            if done is not None and done.version == doc.version and done.resolved == self._server.resolved:
                shown[target] = done.result
                continue
            if done is not None and done.resolved == self._server.resolved and line is not None:
                lines = lines if lines is not None else doc.text.splitlines()
                mapped = unchanged_line(done.lines, lines, line)
                if mapped is not None:
                    shown[target] = done.result
                    stale, old_line = True, mapped
                    continue
            shown[target] = COMPILING
        return shown, old_line, stale

    # ------------------------------------------------------------------ diagnostics and messages
    def _after_compile(self, doc: CudaDocument, target: str, result: TargetResult) -> None:
        from cass_lsp.asm.listing import CompileFailure, Unavailable

        if isinstance(result, Unavailable) and (target, result.message) not in self._reported_missing:
            self._reported_missing.add((target, result.message))
            hint = f" Install: {result.hint}" if result.hint else ""
            self._server.show_message(
                f"cass-lsp: no {target} listings: {result.message}.{hint}", types.MessageType.Warning
            )
        diagnostics: list[types.Diagnostic] = []
        for name in self._server.resolved.asm_targets:
            done = self.current(doc, name)
            if done is not None and isinstance(done.result, CompileFailure):
                diagnostics += compile_diagnostics(doc, done.result)
        self._server.publish_diagnostics(doc.uri, SOURCE, diagnostics, doc.version)


def _outcome(target: str, future: asyncio.Future[TargetResult]) -> Any:
    """A target's result, "compiling…" while it runs, and the error when the job itself failed
    (which "compiling…" would hide for ever)."""
    from cass_lsp.asm.listing import Unavailable

    if not future.done() or future.cancelled() or isinstance(future.exception(), Cancelled):
        return COMPILING
    error = future.exception()
    if error is not None:
        return Unavailable(target=target, message=f"the listing failed: {error}")
    return future.result()


def compile_diagnostics(doc: CudaDocument, failure: Any) -> list[types.Diagnostic]:
    """The compiler's messages about this file, on their lines; the rest on line 1."""
    path = Path(document_path(doc.uri)).resolve()
    severity = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}
    origin = " (in the rule translation)" if failure.translated else ""
    out: list[types.Diagnostic] = []
    for item in failure.diagnostics:
        if item.severity not in severity:
            continue
        here = item.file is not None and Path(item.file).resolve() == path and item.line
        line = item.line - 1 if here else 0
        where = "" if here else f" [{item.file}:{item.line}]" if item.file else ""
        text = doc.line_text(line)
        start = (item.column - 1) if here and item.column else len(text) - len(text.lstrip())
        out.append(
            types.Diagnostic(
                range=types.Range(
                    start=types.Position(line=line, character=max(start, 0)),
                    end=types.Position(line=line, character=max(len(text), start)),
                ),
                message=f"{failure.target}{origin}: {item.message}{where}",
                severity=severity[item.severity],
                source=SOURCE,
                code="compile-error" if item.severity == "error" else "compile-warning",
            )
        )
    if (failure.timed_out and not out) or failure.bounded:
        out.append(
            types.Diagnostic(
                range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
                message=f"{failure.target}: {failure.note or 'the compiler timed out'}",
                severity=types.DiagnosticSeverity.Warning,
                source=SOURCE,
                code="compile-bound" if failure.bounded else "compile-timeout",
            )
        )
    return out


# ---------------------------------------------------------------------- hover, request, command
def _assembly_text(results: Mapping[str, Any], doc: CudaDocument, kernel: str | None, line: int | None) -> str:
    from cass_lsp.asm.view import render_results

    lines = doc.text.splitlines()
    path = document_path(doc.uri)

    def source_line(file: str, number: int) -> str:
        return lines[number - 1] if file == path and 0 < number <= len(lines) else ""

    return render_results(results, source_line, kernel=kernel, line=line)


def _opcode_legend(result: object) -> dict[str, str]:
    from cass_lsp.asm.listing import Listing
    from cass_lsp.asm.opcodes import legend

    if not isinstance(result, Listing):
        return {}
    opcodes = [ins.opcode for function in result.functions for ins in function.instructions]
    return legend(opcodes, result.dialect)


def register(server: CassServer, hover_providers: HoverProviders) -> AssemblyService:
    service = AssemblyService(server)
    server.on_document_opened.append(service.document_opened)
    server.on_document_saved.append(service.document_opened)
    server.on_document_closed.append(service.document_closed)
    server.on_settings_changed.append(service.settings_changed)

    async def asm_section(ls: CassServer, doc: CudaDocument, at: int) -> HoverSection | None:
        function = doc.function_at(at)
        if function is None or function.space not in _DEVICE_SPACES:
            return None
        return await _asm_hover(ls, service, doc, function, at)

    hover_providers.append(asm_section)

    async def assembly(ls: CassServer, params: AssemblyParams) -> dict[str, Any]:
        doc = ls.document(params.uri)
        if doc is None:
            raise refused(f"{params.uri} is not open in cass-lsp")
        targets = params.targets or list(ls.resolved.asm_targets)
        try:
            results = await service.results(doc, targets, None)
        except Cancelled as cancelled:
            # the scheduler refuses new compiles once `shutdown` has arrived: the request ends
            # cancelled, as LSP has it, not as a server failure
            raise JsonRpcException(
                message=f"cass-lsp: {cancelled}", code=types.LSPErrorCodes.RequestCancelled
            ) from cancelled
        line = None if params.line is None else params.line + 1
        reply = {
            "uri": params.uri,
            "version": doc.version,
            "results": [
                msgspec.to_builtins(r) if not isinstance(r, str) else {"kind": "pending", "target": t, "message": r}
                for t, r in results.items()
            ],
            "text": _assembly_text(results, doc, params.kernel, line),
            "opcodes": {target: _opcode_legend(result) for target, result in results.items()},
        }
        for extra in service.extras:
            reply.update(await extra(ls, doc, params, results))
        return reply

    @server.feature(ASSEMBLY_REQUEST)
    async def assembly_request(ls: CassServer, params: Any) -> dict[str, Any]:
        return await assembly(ls, decode_params(params, AssemblyParams))

    @server.feature(DESCRIBE_OPCODE_REQUEST)
    def describe_opcode(ls: CassServer, params: Any) -> dict[str, str | None]:
        """What an opcode does, for clients that hover inside their listing view."""
        from cass_lsp.asm.opcodes import describe

        request = decode_params(params, OpcodeParams)
        description = describe(request.opcode, "sass" if request.target.startswith("sm_") else "amdgcn")
        return {"opcode": request.opcode, "description": description}

    @server.command(SHOW_ASSEMBLY_COMMAND)
    async def show_assembly(ls: CassServer, uri: str, line: int | None = None) -> dict[str, Any]:
        if line is not None and (not isinstance(line, int) or isinstance(line, bool)):
            line = None
        return await assembly(ls, AssemblyParams(uri=uri_argument(uri, SHOW_ASSEMBLY_COMMAND), line=line))

    return service


async def _asm_hover(
    ls: CassServer, service: AssemblyService, doc: CudaDocument, function: FunctionInfo, at: int
) -> HoverSection:
    """The assembly section: never waits for a compile beyond `hoverWaitMs` (default 0)."""
    from cass_lsp.asm.view import kernel_resources, line_hover

    resolved = ls.resolved
    targets = resolved.asm_targets
    line = doc.position_at(at)[0]
    on_name = function.space == "global" and function.name_span.contains(at)
    if resolved.hover_wait_ms > 0 and all(service.current(doc, t) is None for t in targets):
        await service.results(doc, targets, resolved.hover_wait_ms / 1000)
    results, old_line, stale = service.ready_or_previous(doc, targets, line)
    note = f"{STALE_NOTE}\n\n" if stale else ""
    if on_name:
        return HoverSection(note + kernel_resources(results, function.name), function.name_span)
    markdown = line_hover(
        results,
        document_path(doc.uri),
        (old_line if old_line is not None else line) + 1,
        kernel=function.name if function.space == "global" else None,
        max_instructions=resolved.hover_max_instructions,
    )
    return HoverSection(note + markdown)
