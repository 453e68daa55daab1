"""Background verification in the server: triggers, the per-pair queue, and outcomes as diagnostics.

Triggers: didSave of a CUDA/HIP file, watchdog events for files changed outside the editor (only
pairs with a translation file, or with a file open in the editor), the `cass.verify` command, and a
settings change that reaches what a verification reads (the pairs verified so far go again; stages
whose inputs did not change answer from the cache). A deleted translation file re-pairs its original
(with its rule translation when it is open) or ends the pair, clearing its diagnostics; so does
turning verification off.
Each pair is debounced (`cass.verification.debounceMs`) and coalesced; at most
`cass.verification.maxQueued` pairs wait, the oldest waiting change dropped beyond that (logged).

Each stage is a job of its own (kinds `verify-compile` and `verify-run`): keyed by content, shared,
cached across restarts, superseded per pair and stage when newer text arrives, with work-done
progress. Outcomes (source `cass-verify`): compile errors on the lines of the file the compiler
rejected (a translation's with `relatedInformation` at the original's line), a run mismatch on the
translation's `main`, and the verdict as a `cass/verificationStatus` notification plus a log line.
An outcome computed for text that changed since (an open document's version moved) is dropped.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import msgspec
from lsprotocol import types
from pygls import uris

from cass_lsp.asm.scratch import HipTarget
from cass_lsp.document import CudaDocument
from cass_lsp.jobs.cancel import Cancelled
from cass_lsp.jobs.kinds import BACKGROUND_NICE, VERIFICATION_FIELDS, VERIFY_COMPILE, VERIFY_RUN
from cass_lsp.jobs.progress import Progress
from cass_lsp.jobs.resolved import ResolvedSettings
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import file_path, refused, uri_argument, workspace_file, workspace_roots
from cass_lsp.verify import engine, pairs
from cass_lsp.verify import run as run_stage
from cass_lsp.verify.alignment import LineAlignment
from cass_lsp.verify.engine import Report, Stage
from cass_lsp.verify.pairs import Pair
from cass_lsp.verify.stages import Inputs, StageResult
from cass_lsp.verify.watcher import Watcher

log = logging.getLogger(__name__)

SOURCE = "cass-verify"
STATUS_NOTIFICATION = "cass/verificationStatus"
COMMAND = "cass.verify"
State = Literal["queued", "running", "passed", "failed", "unverified", "off"]
_MAIN = re.compile(r"^\s*(?:int|auto|void)\s+main\s*\(", re.MULTILINE)


class StageStatus(msgspec.Struct, frozen=True):
    name: str
    target: str | None
    outcome: str
    message: str
    cached: bool = False


class VerificationStatus(msgspec.Struct, frozen=True):
    uri: str
    version: int | None
    state: State
    summary: str
    stages: list[StageStatus] = msgspec.field(default_factory=list)


class Verification:
    def __init__(self, server: CassServer) -> None:
        self._server = server
        self._waiting: collections.OrderedDict[str, Pair] = collections.OrderedDict()
        self._generation: dict[str, int] = {}
        self._published: dict[str, set[str]] = {}  # pair original -> URIs holding its diagnostics
        self._known: dict[str, Pair] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._watcher: Watcher | None = None
        self._dropped = 0
        self._watched = _watcher_settings(server.resolved)
        self._verified_with = server.resolved.digest(VERIFICATION_FIELDS)

    # ------------------------------------------------------------------ triggers
    def document_saved(self, doc: CudaDocument) -> None:
        path = file_path(doc.uri)
        if path is not None:
            self.paths_changed({path}, from_editor=True)

    def paths_changed(self, paths: Iterable[str], *, from_editor: bool = False) -> None:
        settings = self._server.resolved.verification
        if not settings.enabled:
            return
        open_paths = self._open_paths()
        touched: dict[str, Pair] = {}
        for path in paths:
            pair = pairs.pair_for(path, settings.translation_patterns, rule_translation=from_editor or path in open_paths)
            if pair is not None:
                touched[pair.original] = pair
            elif (gone := self._known_pair_of(path)) is not None and not Path(path).exists():
                # a file of a verified pair was deleted: its original pairs anew (with its rule
                # translation when it is open), or the pair ends and its diagnostics go
                again = None
                if Path(gone.original).is_file():
                    again = pairs.pair_for(
                        gone.original, settings.translation_patterns, rule_translation=gone.original in open_paths
                    )
                if again is not None:
                    touched[again.original] = again
                else:
                    self._forget(gone, f"{path} was deleted")
            elif not pairs.is_original(path) and not path.lower().endswith(".hip"):
                # a header: the pairs verified before that live beside it may include it
                folder = str(Path(path).parent)
                touched.update((k.original, k) for k in self._known.values() if str(Path(k.original).parent) == folder)
        self._queue(touched.values())

    def _queue(self, batch: Iterable[Pair]) -> None:
        originals = set()
        for pair in batch:
            self._enqueue(pair)
            originals.add(pair.original)
        # told after the batch: in a storm, only the pairs the bounded queue kept
        for original in originals & self._waiting.keys():
            pair = self._waiting[original]
            self._status(pair, "queued", f"{pair.describe()}: waiting to verify")

    def _enqueue(self, pair: Pair) -> None:
        settings = self._server.resolved.verification
        self._waiting.pop(pair.original, None)
        self._waiting[pair.original] = pair
        while len(self._waiting) > max(1, settings.max_queued):
            dropped, _ = self._waiting.popitem(last=False)
            self._server.cancel_debounce(self._key(dropped))
            self._dropped += 1
            if self._dropped == 1 or self._dropped % 100 == 0:
                log.warning("verification queue full: %d change(s) dropped so far (latest: %s)", self._dropped, dropped)
        self._server.debounce(self._key(pair.original), settings.debounce_ms / 1000, lambda: _ignore(self._start(pair)))

    @staticmethod
    def _key(original: str) -> str:
        return f"verify:{original}"

    def _known_pair_of(self, path: str) -> Pair | None:
        return next((pair for pair in self._known.values() if path in pair.files), None)

    def _forget(self, pair: Pair, why: str) -> None:
        """The pair is no more: nothing of it waits or runs, and its diagnostics are cleared."""
        self._server.cancel_debounce(self._key(pair.original))
        self._waiting.pop(pair.original, None)
        self._generation[pair.original] = self._generation.get(pair.original, 0) + 1  # a running one is dropped
        self._known.pop(pair.original, None)
        for uri in self._published.pop(pair.original, set()):
            self._server.publish_diagnostics(uri, SOURCE, [], self._version(uri))
        self._status(pair, "off", f"{pair.describe()}: not verified any more: {why}")

    def _start(self, pair: Pair) -> asyncio.Task[Report | None]:
        self._waiting.pop(pair.original, None)
        generation = self._generation[pair.original] = self._generation.get(pair.original, 0) + 1
        task = asyncio.ensure_future(self._verify(pair, generation))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def verify_now(self, uri: str) -> dict[str, Any]:
        """The `cass.verify` command: verify the pair of ``uri`` now, and answer its verdict."""
        # the command reads, compiles (and, where allowed, runs) files named by the client: only
        # files of the workspace, never a path smuggled in through `..`, a link or another scheme
        path = workspace_file(self._server, uri, COMMAND)
        if not Path(path).is_file() and file_path(uri) not in self._open_paths():
            raise refused(f"{COMMAND}: {uri}: no such file")
        settings = self._server.resolved.verification
        pair = pairs.pair_for(path, settings.translation_patterns)
        if pair is None:
            raise refused(f"{COMMAND}: {uri}: not a .cu file, and no .cu original names it as its translation")
        self._server.cancel_debounce(self._key(pair.original))
        report = await self._start(pair)
        if report is None:
            return {"verdict": "cancelled", "summary": f"{pair.describe()}: superseded by newer text"}
        return {"verdict": report.verdict, "summary": report.summary}

    # ------------------------------------------------------------------ the run
    def _open_paths(self) -> dict[str, CudaDocument]:
        found = {}
        for uri, doc in self._server.documents.items():
            path = file_path(uri)
            if path is not None:
                found[path] = doc
        return found

    async def _verify(self, pair: Pair, generation: int) -> Report | None:
        server = self._server
        resolved = server.resolved
        open_docs = self._open_paths()
        buffers = {path: open_docs[path].text for path in pair.files if path in open_docs}
        versions = {path: open_docs[path].version for path in pair.files if path in open_docs}
        loop = asyncio.get_running_loop()
        try:
            inputs = await loop.run_in_executor(None, engine.read_inputs, pair, buffers)
        except OSError as error:
            self._finish(pair, engine.unreadable(pair, error), None, versions)
            return None
        self._known[pair.original] = pair
        not_run = run_stage.run_refusal(resolved.verification, server.workspace_trusted)
        self._status(pair, "running", f"{pair.describe()}: verifying")
        planned = await loop.run_in_executor(
            None, lambda: engine.plan(inputs, resolved, run=not_run is None, nice=BACKGROUND_NICE)
        )
        compiles = [stage for stage in planned if stage.name != "run"]
        try:
            results = list(await asyncio.gather(*(self._stage(pair, stage) for stage in compiles)))
            for stage in planned:
                if stage.name != "run":
                    continue
                if all(r.outcome == "passed" for r in results):
                    results.append(await self._stage(pair, stage))
                else:
                    results.append(StageResult("run", stage.target, "skipped", "not run: a compile stage did not pass"))
        except Cancelled:
            return None  # newer text for this pair: its own run reports
        if self._generation.get(pair.original) != generation or not self._current(versions):
            log.debug("verification of %s dropped: the text changed meanwhile", pair.describe())
            return None
        report = engine.report(pair, results, not_run=not_run)
        self._finish(pair, report, inputs, versions)
        return report

    async def _stage(self, pair: Pair, stage: Stage) -> StageResult:
        if stage.ready is not None:
            return stage.ready
        kind = VERIFY_RUN if stage.name == "run" else VERIFY_COMPILE
        cache = self._server.jobs.cache
        engine.register(cache)

        def work(token: Any, progress: Progress) -> StageResult:
            return engine.run_one(stage, cache=cache, token=token)

        slot = (pair.original, stage.name, stage.target)
        return await self._server.jobs.run(kind, slot, stage.key, work, title=stage.title)

    def _current(self, versions: dict[str, int]) -> bool:
        open_docs = self._open_paths()
        return all(path not in open_docs or open_docs[path].version == v for path, v in versions.items())

    # ------------------------------------------------------------------ outcomes
    def _finish(self, pair: Pair, report: Report, inputs: Inputs | None, versions: dict[str, int]) -> None:
        by_uri = self._diagnostics(report, inputs) if inputs is not None else {}
        previous = self._published.get(pair.original, set())
        for uri in previous - by_uri.keys():
            self._server.publish_diagnostics(uri, SOURCE, [], self._version(uri))
        for uri, diagnostics in by_uri.items():
            self._server.publish_diagnostics(uri, SOURCE, diagnostics, self._version(uri))
        self._published[pair.original] = set(by_uri)
        self._status(pair, report.verdict, report.summary, report.stages)
        kind = types.MessageType.Info if report.verdict == "passed" else types.MessageType.Warning
        self._server.window_log_message(types.LogMessageParams(type=kind, message=f"cass-verify: {report.summary}"))

    def _version(self, uri: str) -> int | None:
        doc = self._server.document(uri)
        return doc.version if doc is not None else None

    def _diagnostics(self, report: Report, inputs: Inputs) -> dict[str, list[types.Diagnostic]]:
        pair = inputs.pair
        by_uri: dict[str, list[types.Diagnostic]] = {}
        alignment: LineAlignment | None = None
        for stage in report.stages:
            if stage.outcome != "failed":
                continue
            errors = [d for d in stage.diagnostics if d.severity == "error" and d.file and d.line]
            if stage.name == "run" or not errors:
                where = pair.original if stage.name == "original" else pair.translation or pair.original
                text = inputs.translation_text if where == pair.translation else inputs.original_text
                line = _main_line(text or "")
                by_uri.setdefault(uris.from_fs_path(where) or where, []).append(
                    _diagnostic(line, 0, 10_000, f"{stage.label}: {stage.message}", stage)
                )
                continue
            for error in errors:
                assert error.file is not None and error.line is not None
                related = None
                if stage.name == "translation" and pair.translation is not None and error.file == pair.translation:
                    if alignment is None:
                        resolved = self._server.resolved
                        target = HipTarget(stage.target or resolved.arch, resolved.rocm, resolved.options)
                        alignment = LineAlignment(inputs.original_text, inputs.translation_text or "", target)
                    related = _related(pair.original, alignment.original_line(error.line))
                column = max(0, (error.column or 1) - 1)
                message = f"{_tool(stage)} ({stage.target}): {error.message}"
                by_uri.setdefault(uris.from_fs_path(error.file) or error.file, []).append(
                    _diagnostic(error.line - 1, column, column + 1, message, stage, related)
                )
        return by_uri

    def _status(self, pair: Pair, state: State, summary: str, stages: list[StageResult] | None = None) -> None:
        shown = [StageStatus(s.name, s.target, s.outcome, s.message, s.cached) for s in stages or []]
        for path in pair.files:
            uri = uris.from_fs_path(path) or path
            status = VerificationStatus(uri, self._version(uri), state, summary, shown)
            self._server.protocol.notify(STATUS_NOTIFICATION, msgspec.to_builtins(status))

    # ------------------------------------------------------------------ watcher and settings
    def start_watching(self) -> None:
        settings = self._server.resolved.verification
        self.stop_watching()
        if not (settings.enabled and settings.watch):
            return
        roots = workspace_roots(self._server)
        if not roots:
            return
        loop = asyncio.get_running_loop()

        def schedule(delay: float, callback: Any) -> None:
            loop.call_soon_threadsafe(loop.call_later, delay, callback)

        watcher = Watcher(roots, settings.ignore, self.paths_changed, schedule, settings.debounce_ms / 1000)
        seconds = watcher.start()
        self._watcher = watcher
        log.info("watching %s for changes (%.0f ms to start)", ", ".join(watcher.roots), seconds * 1000)

    def stop_watching(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.stop()

    def settings_changed(self, resolved: ResolvedSettings) -> None:
        # restarting the observer re-walks every watched folder: only when what it reads changed
        watched = _watcher_settings(resolved)
        if watched != self._watched:
            self._watched = watched
            self.start_watching()
        # verdicts for another target or other flags describe nothing now: verify the known pairs
        # again (stages whose inputs did not change come from the result cache)
        digest = resolved.digest(VERIFICATION_FIELDS)
        if digest != self._verified_with:
            self._verified_with = digest
            if resolved.verification.enabled:
                self._queue(list(self._known.values()))
            else:
                for pair in list(self._known.values()):
                    self._forget(pair, "verification is off")


def _watcher_settings(resolved: ResolvedSettings) -> tuple[object, ...]:
    settings = resolved.verification
    return settings.enabled, settings.watch, tuple(settings.ignore), settings.debounce_ms


def _ignore(_: object) -> None:
    """For callbacks that start a task nobody awaits (it finishes and reports by itself)."""


def _tool(stage: StageResult) -> str:
    return "nvcc" if stage.name == "original" else "clang-19"


def _main_line(text: str) -> int:
    match = _MAIN.search(text)
    return text.count("\n", 0, match.start()) if match else 0


def _related(original: str, line: int | None) -> list[types.DiagnosticRelatedInformation] | None:
    if line is None:
        return None
    location = types.Location(
        uri=uris.from_fs_path(original) or original,
        range=types.Range(start=types.Position(line=line - 1, character=0), end=types.Position(line=line - 1, character=0)),
    )
    return [types.DiagnosticRelatedInformation(location=location, message="the original line")]


def _diagnostic(
    line: int,
    start: int,
    end: int,
    message: str,
    stage: StageResult,
    related: list[types.DiagnosticRelatedInformation] | None = None,
) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=line, character=start), end=types.Position(line=line, character=end)),
        message=message,
        severity=types.DiagnosticSeverity.Error,
        code=f"verify-{stage.name}",
        source=SOURCE,
        related_information=related,
    )


def register(server: CassServer) -> Verification:
    verification = Verification(server)
    server.on_document_saved.append(verification.document_saved)
    server.on_settings_changed.append(verification.settings_changed)
    server.on_shutdown.append(verification.stop_watching)
    server.on_initialized.append(verification.start_watching)

    @server.command(COMMAND)
    async def verify(ls: CassServer, uri: str) -> dict[str, Any]:
        return await verification.verify_now(uri_argument(uri, COMMAND))

    return verification
