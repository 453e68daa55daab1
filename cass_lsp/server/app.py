"""The language server object: open documents, current settings, and change hooks."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO

import cattrs
from lsprotocol import types
from pygls.exceptions import FeatureRequestError
from pygls.io_ import StdinAsyncReader, StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, default_converter

from cass_lsp import __version__
from cass_lsp.core import user_settings
from cass_lsp.core.cache import ResultCache
from cass_lsp.core.progress import ProgressSink
from cass_lsp.core.scheduler import Scheduler
from cass_lsp.core.settings import SECTION, Settings, load_settings, merge
from cass_lsp.server import patches, trust
from cass_lsp.server.protocol import CassProtocol
from cass_lsp.server.stdio import ChunkedReader, message_loop_logger
from cass_lsp.services.settings import ResolvedSettings, resolve
from cass_lsp.syntax.document import CudaDocument

if TYPE_CHECKING:
    from pygls.server import ServerErrors

log = logging.getLogger(__name__)

DocumentHook = Callable[[CudaDocument], None]
SettingsHook = Callable[[ResolvedSettings], None]


class CassServer(LanguageServer):
    def __init__(self, converter_factory: Callable[[], cattrs.Converter] = default_converter) -> None:
        # CassProtocol and _start_io_async build on pygls internals: with a pygls whose internals
        # differ from the tested one's, stock pygls (whose encoder cannot copy the outline's
        # pre-encoded JSON, symbols.with_json_forms: hence its own converter too)
        self.patched = patches.verified()
        super().__init__(
            name="cass-lsp",
            version=__version__,
            converter_factory=converter_factory if self.patched else default_converter,
            protocol_cls=CassProtocol if self.patched else LanguageServerProtocol,
        )
        self.documents: dict[str, CudaDocument] = {}
        self.settings = Settings()
        self.resolved = resolve(self.settings)
        # every slow job (translations, compiles, later generations and verification) runs here;
        # its progress sink is set once the client's capabilities are known
        self.jobs = Scheduler(ResultCache(max_bytes=self.resolved.cache_max_bytes))
        self._settings_sources: dict[str, dict[str, Any]] = {}
        self.on_document_changed: list[DocumentHook] = []
        self.on_document_opened: list[DocumentHook] = []
        self.on_document_saved: list[DocumentHook] = []
        self.on_initialize: list[Callable[[], None]] = []  # client capabilities are known
        self.on_initialized: list[Callable[[], None]] = []  # the client's settings are in
        self.workspace_trusted = False
        """Whether the workspace is trusted (server/trust.py decides, at initialize and when the
        folders change); until then, and in an untrusted workspace, settings that run or load
        code are dropped and nothing of the workspace's is run."""
        self.trust_reason = "the client has not initialized"
        self.client_trust: Any = None
        """``initializationOptions.workspaceTrusted`` as the client sent it (None: not sent)."""
        self.user_settings = user_settings.UserSettings()
        """The user-only settings (trustedFolders, allowUnconfinedRuns), read at initialize."""
        self._untrusted_reported: set[str] = set()
        self.on_shutdown: list[Callable[[], None]] = []
        # uri -> diagnostic source -> its latest diagnostics; LSP keeps one set per document, so every
        # source's share is published together
        self._diagnostics: dict[str, dict[str, list[types.Diagnostic]]] = {}
        self.on_document_closed: list[Callable[[str], None]] = []
        self.on_settings_changed: list[SettingsHook] = []
        self._errors_shown: set[tuple[type[Exception], type[Exception]]] = set()
        self._debounced: dict[str, asyncio.TimerHandle] = {}

    def document(self, uri: str) -> CudaDocument | None:
        return self.documents.get(uri)

    def notify_changed(self, doc: CudaDocument) -> None:
        for hook in self.on_document_changed:
            hook(doc)

    def set_progress(self, sink: ProgressSink) -> None:
        self.jobs.progress = sink

    def debounce(self, key: str, delay_s: float, callback: Callable[[], None]) -> None:
        """Call `callback` on the loop after `delay_s`, unless `debounce` is called with the same key
        first: then only the latest call's callback runs, after its own delay."""
        self.cancel_debounce(key)

        def fire() -> None:
            self._debounced.pop(key, None)
            callback()

        self._debounced[key] = asyncio.get_running_loop().call_later(max(delay_s, 0.0), fire)

    def cancel_debounce(self, key: str) -> None:
        handle = self._debounced.pop(key, None)
        if handle is not None:
            handle.cancel()

    def publish_diagnostics(
        self, uri: str, source: str, diagnostics: list[types.Diagnostic], version: int | None
    ) -> None:
        """Replace one source's diagnostics for a document and publish every source's together."""
        sources = self._diagnostics.setdefault(uri, {})
        if diagnostics:
            sources[source] = diagnostics
        else:
            sources.pop(source, None)
        combined = [d for source_diagnostics in sources.values() for d in source_diagnostics]
        if not sources:
            del self._diagnostics[uri]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=combined, version=version)
        )

    def _start_io_async(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        # pygls 2.1's JsonRPCServer._start_io_async with stdin read by server/stdio.py's reader
        # (only with the pygls it was written for: server/patches.py)
        if not self.patched:
            super()._start_io_async(stdin, stdout)
            return
        self._stop_event = threading.Event()
        source = stdin or sys.stdin.buffer
        try:
            reader: Any = ChunkedReader(source.fileno(), self.thread_pool)
        except (AttributeError, OSError, ValueError):  # no file descriptor (an in-memory stream)
            reader = StdinAsyncReader(source, self.thread_pool)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(
                run_async(
                    stop_event=self._stop_event,
                    reader=reader,
                    protocol=self.protocol,
                    logger=message_loop_logger(),
                    error_handler=self.report_server_error,
                )
            )
        except BrokenPipeError:
            log.error("Connection to the client is lost! Shutting down the server.")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    def report_server_error(self, error: Exception, source: ServerErrors) -> None:
        """Errors no reply carries (a notification that cannot be read or whose handler failed, a
        message that cannot be sent): logged each time, shown to the user once per kind. pygls
        shows every one, so a client repeating a broken notification opened a popup a keystroke."""
        if source is FeatureRequestError:  # the request's reply carries it
            return
        what = f"a message from the editor is not JSON ({error})" if isinstance(error, json.JSONDecodeError) else error
        log.warning("%s: %s", source.__name__, what)
        kind = (source, type(error))
        if kind not in self._errors_shown:
            self._errors_shown.add(kind)
            self.show_message(f"cass-lsp: {what} (errors like it are only logged from now on)", types.MessageType.Error)

    def shutdown(self) -> None:
        # jobs first: a running generation stops within a token, so the hooks that release what
        # jobs use (the loaded model) never wait long for it
        self.jobs.shutdown()
        for hook in self.on_shutdown:
            hook()
        super().shutdown()

    def update_settings(self, source: str, raw: Any) -> None:
        """Take one source of settings: `initializationOptions`, or `workspace` (pushed or pulled, the
        latest wins); workspace settings override initializationOptions key by key."""
        if raw is None:
            return
        if not isinstance(raw, dict):
            self.show_message(f"cass-lsp: ignoring {source} settings: expected an object", types.MessageType.Warning)
            return
        self._settings_sources[source] = raw
        self.apply_settings()

    def set_trust(self, trusted: bool, reason: str) -> None:
        """Take the trust decision and apply the settings again under it."""
        self.workspace_trusted, self.trust_reason = trusted, reason
        self.apply_settings()

    def apply_settings(self) -> None:
        combined: dict[str, Any] = {}
        for name in ("initializationOptions", "workspace"):
            combined = merge(combined, self._settings_sources.get(name, {}))
        if not self.workspace_trusted:
            combined, dropped = trust.without_code(combined)
            self._report_untrusted(dropped)
        settings, problems = load_settings(combined)
        for problem in problems:
            self.show_message(f"cass-lsp: invalid setting {problem}", types.MessageType.Warning)
        if settings != self.settings:
            self.settings = settings
            logging.getLogger("cass_lsp").setLevel(settings.log_level.upper())
            resolved = resolve(settings)
            if resolved != self.resolved:
                self.resolved = resolved
                self.jobs.cache.resize(resolved.cache_max_bytes)
                for hook in self.on_settings_changed:
                    hook(resolved)

    def _report_untrusted(self, dropped: list[str]) -> None:
        """Say once per setting which ones an untrusted workspace lost, why, and how to trust it."""
        new = [name for name in dropped if name not in self._untrusted_reported]
        if not new:
            return
        self._untrusted_reported.update(new)
        names = ", ".join(f"{SECTION}.{name}" for name in new)
        self.show_message(
            f"cass-lsp: ignoring {names}: they run or load code or lift the compilers' bounds, and this workspace is not trusted "
            f"({self.trust_reason}). To use them, trust the workspace in the editor "
            f"(initializationOptions.workspaceTrusted) or add its folder to trustedFolders in {user_settings.path()}",
            types.MessageType.Warning,
        )

    def show_message(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        log.info("showMessage: %s", message)
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))
