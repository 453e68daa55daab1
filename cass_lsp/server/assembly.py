"""Exact assembly in the editor: background listings, the assembly hover, `cass/assembly`,
`cass.showAssembly`, and compiler errors as diagnostics (source `cass-asm`).

Listings are compiled from the buffer's text off the event loop, on open and on save (debounced),
and on demand for a hover. One compile per (document, target) runs at a time; a newer text
supersedes it (the older one is told to stop and its process group is killed). Results are kept per
document version, and the content-addressed disk cache makes a reopened file instant.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from lsprotocol import types

from cass_lsp.document import CudaDocument
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import file_path, json_value
from cass_lsp.server.hover import HoverSection, add_provider

if TYPE_CHECKING:
    from cass_lsp.asm.cache import ListingCache
    from cass_lsp.asm.listing import TargetResult

log = logging.getLogger(__name__)

SOURCE = "cass-asm"
COMPILING = "compiling… (hover again in a moment)"
SAVE_DEBOUNCE_SECONDS = 0.3
ASSEMBLY_REQUEST = "cass/assembly"
DESCRIBE_OPCODE_REQUEST = "cass/describeOpcode"
SHOW_ASSEMBLY_COMMAND = "cass.showAssembly"
_DEVICE_SPACES = frozenset({"global", "device", "host_device"})


class AssemblyParams(msgspec.Struct, rename="camel"):
    uri: str
    targets: list[str] | None = None
    kernel: str | None = None
    line: int | None = None
    """0-based, as LSP positions are."""


class OpcodeParams(msgspec.Struct, rename="camel"):
    opcode: str
    target: str


class _Compile:
    def __init__(self, version: int, future: asyncio.Future[TargetResult], cancel: threading.Event) -> None:
        self.version = version
        self.future = future
        self.cancel = cancel


def document_path(uri: str) -> str:
    """The file a URI names; an unsaved buffer compiles as if it were in the working directory."""
    return file_path(uri) or str(Path.cwd() / Path(uri.rsplit("/", 1)[-1] or "untitled.cu"))


class AssemblyService:
    def __init__(self, server: CassServer) -> None:
        self._server = server
        # compiles wait on subprocesses: their own pool keeps them from queueing behind engine work
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cass-asm")
        self._cache: ListingCache | None = None
        self._results: dict[str, dict[str, tuple[int, TargetResult]]] = {}
        self._compiles: dict[tuple[str, str], _Compile] = {}
        self._reported_missing: set[str] = set()

    # ------------------------------------------------------------------ hooks
    def document_opened(self, doc: CudaDocument) -> None:
        if self._server.settings.asm.compile_on_open and not doc.too_large:
            self._server.debounce(f"asm:{doc.uri}", SAVE_DEBOUNCE_SECONDS, lambda: self._start_all(doc.uri))

    def document_closed(self, uri: str) -> None:
        self._server.cancel_debounce(f"asm:{uri}")
        self._results.pop(uri, None)
        for key in [k for k in self._compiles if k[0] == uri]:
            self._compiles.pop(key).cancel.set()
        self._server.publish_diagnostics(uri, SOURCE, [], None)

    def shutdown(self) -> None:
        for running in self._compiles.values():
            running.cancel.set()
        self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ results
    def _start_all(self, uri: str) -> None:
        doc = self._server.document(uri)
        if doc is not None:
            self.ensure(doc, self._server.settings.asm.targets)

    def ensure(self, doc: CudaDocument, targets: list[str]) -> dict[str, asyncio.Future[TargetResult]]:
        """A future per target for the document's current text, starting compiles that are missing."""
        futures: dict[str, asyncio.Future[TargetResult]] = {}
        loop = asyncio.get_running_loop()
        for target in targets:
            done = self._results.get(doc.uri, {}).get(target)
            if done is not None and done[0] == doc.version:
                ready: asyncio.Future[TargetResult] = loop.create_future()
                ready.set_result(done[1])
                futures[target] = ready
                continue
            running = self._compiles.get((doc.uri, target))
            if running is not None and running.version == doc.version:
                futures[target] = running.future
                continue
            if running is not None:
                running.cancel.set()  # superseded by newer text
            cancel = threading.Event()
            future = asyncio.ensure_future(self._compile(doc, target, cancel))
            self._compiles[(doc.uri, target)] = _Compile(doc.version, future, cancel)
            futures[target] = future
        return futures

    async def results(self, doc: CudaDocument, targets: list[str], wait_seconds: float | None) -> dict[str, Any]:
        """Each target's result, or a "compiling…" note for those not done within `wait_seconds`."""
        futures = self.ensure(doc, targets)
        pending = list(futures.values())
        if pending:
            await asyncio.wait([asyncio.shield(f) for f in pending], timeout=wait_seconds)
        return {t: f.result() if f.done() and not f.cancelled() else COMPILING for t, f in futures.items()}

    async def _compile(self, doc: CudaDocument, target: str, cancel: threading.Event) -> TargetResult:
        version, text, path = doc.version, doc.text, document_path(doc.uri)
        settings = self._server.settings
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(self._pool, self._build, text, path, target, cancel)
        except asyncio.CancelledError:
            cancel.set()  # nobody waits for it any more (the server is stopping): kill the compiler
            raise
        finally:
            current = self._compiles.get((doc.uri, target))
            if current is not None and current.version == version:
                del self._compiles[(doc.uri, target)]
        if self._server.document(doc.uri) is doc and not cancel.is_set():
            self._results.setdefault(doc.uri, {})[target] = (version, result)
            self._after_compile(doc, target, result, settings.asm.targets)
        return result

    def _build(self, text: str, path: str, target: str, cancel: threading.Event) -> TargetResult:
        from cass_lsp.asm.compile import build_listing, vendor_of
        from cass_lsp.asm.listing import Unavailable
        from cass_lsp.toolchains import ToolchainMissing

        settings = self._server.settings
        try:
            extra = settings.asm.extra_args.nvcc if vendor_of(target) == "nvidia" else settings.asm.extra_args.clang
            return build_listing(
                text,
                path,
                target,
                extra_args=extra,
                compile_commands=settings.asm.compile_commands,
                timeout=settings.asm.timeout_seconds,
                rocm=settings.target.rocm,
                cache=self._listing_cache(),
                cancel=cancel,
            )
        except ToolchainMissing as missing:
            return Unavailable(target=target, message=f"{missing.what} not found", hint=missing.hint)
        except ValueError as error:
            return Unavailable(target=target, message=str(error))

    def _listing_cache(self) -> ListingCache:
        from cass_lsp.asm.cache import ListingCache

        if self._cache is None:
            self._cache = ListingCache(max_bytes=self._server.settings.asm.cache_max_mb * 1024 * 1024)
        return self._cache

    # ------------------------------------------------------------------ diagnostics and messages
    def _after_compile(self, doc: CudaDocument, target: str, result: TargetResult, targets: list[str]) -> None:
        from cass_lsp.asm.listing import CompileFailure, Unavailable

        if isinstance(result, Unavailable) and target not in self._reported_missing:
            self._reported_missing.add(target)
            hint = f" Install: {result.hint}" if result.hint else ""
            self._server.show_message(
                f"cass-lsp: no {target} listings: {result.message}.{hint}", types.MessageType.Warning
            )
        diagnostics: list[types.Diagnostic] = []
        for name in targets:
            done = self._results.get(doc.uri, {}).get(name)
            if done is not None and done[0] == doc.version and isinstance(done[1], CompileFailure):
                diagnostics += compile_diagnostics(doc, done[1])
        self._server.publish_diagnostics(doc.uri, SOURCE, diagnostics, doc.version)


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
    if failure.timed_out and not out:
        out.append(
            types.Diagnostic(
                range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
                message=f"{failure.target}: {failure.note or 'the compiler timed out'}",
                severity=types.DiagnosticSeverity.Warning,
                source=SOURCE,
                code="compile-timeout",
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


def _opcode_legend(result: Any) -> dict[str, str]:
    from cass_lsp.asm.listing import Listing
    from cass_lsp.asm.opcodes import legend

    if not isinstance(result, Listing):
        return {}
    opcodes = [ins.opcode for function in result.functions for ins in function.instructions]
    return legend(opcodes, result.dialect)


def register(server: CassServer) -> AssemblyService:
    service = AssemblyService(server)
    server.on_document_opened.append(service.document_opened)
    server.on_document_saved.append(service.document_opened)
    server.on_document_closed.append(service.document_closed)
    server.on_shutdown.append(service.shutdown)

    async def asm_section(ls: CassServer, doc: CudaDocument, at: int) -> HoverSection | None:
        from cass_lsp.asm.view import kernel_resources, line_hover

        function = doc.function_at(at)
        if function is None or function.space not in _DEVICE_SPACES:
            return None
        settings = ls.settings.asm
        results = await service.results(doc, settings.targets, settings.hover_wait_ms / 1000)
        if function.space == "global" and function.name_span.contains(at):
            return HoverSection(kernel_resources(results, function.name), function.name_span)
        line = doc.position_at(at)[0] + 1
        markdown = line_hover(
            results,
            document_path(doc.uri),
            line,
            kernel=function.name if function.space == "global" else None,
            max_instructions=settings.hover_max_instructions,
        )
        return HoverSection(markdown)

    add_provider(server, asm_section)

    async def assembly(ls: CassServer, params: AssemblyParams) -> dict[str, Any]:
        doc = ls.document(params.uri)
        if doc is None:
            raise ValueError(f"{params.uri} is not open in cass-lsp")
        targets = params.targets or ls.settings.asm.targets
        results = await service.results(doc, targets, None)
        line = None if params.line is None else params.line + 1
        return {
            "uri": params.uri,
            "version": doc.version,
            "results": [msgspec.to_builtins(r) for r in results.values()],
            "text": _assembly_text(results, doc, params.kernel, line),
            "opcodes": {target: _opcode_legend(result) for target, result in results.items()},
        }

    @server.feature(ASSEMBLY_REQUEST)
    async def assembly_request(ls: CassServer, params: Any) -> dict[str, Any]:
        return await assembly(ls, msgspec.convert(json_value(params), AssemblyParams))

    @server.feature(DESCRIBE_OPCODE_REQUEST)
    def describe_opcode(ls: CassServer, params: Any) -> dict[str, str | None]:
        """What an opcode does, for clients that hover inside their listing view."""
        from cass_lsp.asm.opcodes import describe

        request = msgspec.convert(json_value(params), OpcodeParams)
        description = describe(request.opcode, "sass" if request.target.startswith("sm_") else "amdgcn")
        return {"opcode": request.opcode, "description": description}

    @server.command(SHOW_ASSEMBLY_COMMAND)
    async def show_assembly(ls: CassServer, uri: str, line: int | None = None) -> dict[str, Any]:
        return await assembly(ls, AssemblyParams(uri=uri, line=line))

    return service

