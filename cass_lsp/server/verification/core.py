"""Background verification in the server: what starts a verification, and the verification itself.

Triggers: didSave of a CUDA/HIP file, watchdog events for files changed outside the editor (only
pairs with a translation file, or with a file open in the editor), the `cass.verify` command, and a
settings change that reaches what a verification reads (the pairs verified so far go again; stages
whose inputs did not change answer from the cache). A deleted translation file re-pairs its original
(with its rule translation when it is open) or ends the pair, clearing its diagnostics; so does
turning verification off.

A pair stands for its *program* (:mod:`cass_lsp.compile.program`): the units of its folder or of its
compile_commands.json, with their headers and build flags, as the CLI verifies it, through the same
service (:mod:`cass_lsp.services.verification`) with each stage a job of the server's scheduler
(kinds `verify-compile` and `verify-run`): keyed by content, shared, cached across restarts,
superseded per pair and stage when newer text arrives, with work-done progress. An outcome computed
for text that changed since (an open document's version moved) is dropped.

The queue lives in :mod:`.queue`, the watcher's lifecycle in :mod:`.watching`, the diagnostics in
:mod:`.diagnostics` and the status notification in :mod:`.status`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from cass_lsp.core import pairs
from cass_lsp.core.cancel import Cancelled
from cass_lsp.core.jobs import BACKGROUND_NICE
from cass_lsp.core.pairs import Pair
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import file_path, refused, workspace_file
from cass_lsp.server.verification import diagnostics, status
from cass_lsp.server.verification.queue import PairQueue, key
from cass_lsp.server.verification.status import State
from cass_lsp.server.verification.watching import Watching
from cass_lsp.services import verification as service
from cass_lsp.services.settings import ResolvedSettings
from cass_lsp.syntax.document import CudaDocument

if TYPE_CHECKING:
    from cass_lsp.verify.engine import Report
    from cass_lsp.verify.stages import Inputs, StageResult

log = logging.getLogger(__name__)

COMMAND = "cass.verify"


class Verification:
    def __init__(self, server: CassServer) -> None:
        self._server = server
        self._queue = PairQueue(server, lambda pair: self._start(pair))
        self.watching = Watching(server, self.paths_changed)
        self._generation: dict[str, int] = {}
        self._published: dict[str, set[str]] = {}  # pair original -> URIs holding its diagnostics
        self._known: dict[str, Pair] = {}
        self._program_files: dict[str, tuple[str, ...]] = {}  # pair original -> its program's files
        self._tasks: set[asyncio.Task[Any]] = set()
        self._verified_with = service.settings_digest(server.resolved)

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
            elif (member := self._known_pair_of(path)) is not None:
                touched[member.original] = member  # another unit of a verified program
            elif not pairs.is_original(path) and not path.lower().endswith(".hip"):
                # a header: the pairs verified before that live beside it may include it
                folder = str(Path(path).parent)
                touched.update((k.original, k) for k in self._known.values() if str(Path(k.original).parent) == folder)
        self._put(touched.values())

    def _put(self, batch: Iterable[Pair]) -> None:
        # told after the batch: in a storm, only the pairs the bounded queue kept
        for pair in self._queue.put(batch):
            self._status(pair, "queued", f"{pair.describe()}: waiting to verify")

    def _known_pair_of(self, path: str) -> Pair | None:
        for original, pair in self._known.items():
            if path in pair.files or path in self._program_files.get(original, ()):
                return pair
        return None

    def _forget(self, pair: Pair, why: str) -> None:
        """The pair is no more: nothing of it waits or runs, and its diagnostics are cleared."""
        self._queue.drop(pair)
        self._generation[pair.original] = self._generation.get(pair.original, 0) + 1  # a running one is dropped
        self._known.pop(pair.original, None)
        self._program_files.pop(pair.original, None)
        for uri in self._published.pop(pair.original, set()):
            self._server.publish_diagnostics(uri, diagnostics.SOURCE, [], self._version(uri))
        self._status(pair, "off", f"{pair.describe()}: not verified any more: {why}")

    def _start(self, pair: Pair) -> asyncio.Task[Report | None]:
        self._queue.take(pair)
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
        self._server.cancel_debounce(key(pair.original))
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
        """Verify ``pair``; whatever goes wrong ends its status and is logged: an exception left in
        the task would leave the editor showing "verifying" and asyncio logging it unread."""
        try:
            return await self._verify_pair(pair, generation)
        except Exception as error:
            log.exception("verification of %s failed", pair.describe())
            if self._generation.get(pair.original) != generation:
                return None  # a newer verification of the pair reports
            report = service.broken(pair, error)
            self._finish(pair, report, {})
            return report

    async def _verify_pair(self, pair: Pair, generation: int) -> Report | None:
        server = self._server
        resolved = server.resolved
        open_docs = self._open_paths()
        buffers = {path: doc.text for path, doc in open_docs.items()}
        try:
            inputs = await asyncio.get_running_loop().run_in_executor(None, service.read, pair, buffers, resolved)
        except OSError as error:
            self._finish(pair, service.unreadable(pair, error), {})
            return None
        versions = {path: open_docs[path].version for path in inputs.program.files if path in open_docs}
        self._known[pair.original] = pair
        self._program_files[pair.original] = inputs.program.files
        self._status(pair, "running", f"{inputs.program.describe()}: verifying")
        submit = service.scheduled(server.jobs, pair.original)
        try:
            report = await service.verify(
                inputs,
                resolved,
                submit,
                trusted=server.workspace_trusted,
                untrusted_because=server.trust_reason,
                nice=BACKGROUND_NICE,
            )
        except Cancelled:
            return None  # newer text for this pair: its own run reports
        if self._generation.get(pair.original) != generation or not self._current(versions):
            log.debug("verification of %s dropped: the text changed meanwhile", pair.describe())
            return None
        try:
            found = await self._diagnostics(pair, report, inputs)
        except Cancelled:
            return None
        if self._generation.get(pair.original) != generation or not self._current(versions):
            log.debug("verification of %s dropped: the text changed meanwhile", pair.describe())
            return None
        self._finish(pair, report, found)
        return report

    async def _diagnostics(self, pair: Pair, report: Report, inputs: Inputs) -> dict[str, list[types.Diagnostic]]:
        """The report's diagnostics, made off the event loop: the lines of a translation file are
        aligned with the original's rule translation (a translation and a diff) in a job."""
        resolved = self._server.resolved
        return await service.aligned(
            self._server.jobs, pair.original, report, resolved, lambda: diagnostics.by_uri(report, inputs, resolved)
        )

    def _current(self, versions: dict[str, int]) -> bool:
        open_docs = self._open_paths()
        return all(path not in open_docs or open_docs[path].version == v for path, v in versions.items())

    # ------------------------------------------------------------------ outcomes
    def _finish(self, pair: Pair, report: Report, by_uri: dict[str, list[types.Diagnostic]]) -> None:
        previous = self._published.get(pair.original, set())
        for uri in previous - by_uri.keys():
            self._server.publish_diagnostics(uri, diagnostics.SOURCE, [], self._version(uri))
        for uri, found in by_uri.items():
            self._server.publish_diagnostics(uri, diagnostics.SOURCE, found, self._version(uri))
        self._published[pair.original] = set(by_uri)
        self._status(pair, report.verdict, report.summary, report.stages)
        kind = types.MessageType.Info if report.verdict == "passed" else types.MessageType.Warning
        self._server.window_log_message(types.LogMessageParams(type=kind, message=f"cass-verify: {report.summary}"))

    def _version(self, uri: str) -> int | None:
        doc = self._server.document(uri)
        return doc.version if doc is not None else None

    def _status(self, pair: Pair, state: State, summary: str, stages: list[StageResult] | None = None) -> None:
        files = (*pair.files, *self._program_files.get(pair.original, ()))
        status.notify(self._server, files, state, summary, stages)

    # ------------------------------------------------------------------ settings
    def settings_changed(self, resolved: ResolvedSettings) -> None:
        self.watching.settings_changed(resolved)
        # verdicts for another target or other flags describe nothing now: verify the known pairs
        # again (stages whose inputs did not change come from the result cache)
        digest = service.settings_digest(resolved)
        if digest != self._verified_with:
            self._verified_with = digest
            if resolved.verification.enabled:
                self._put(list(self._known.values()))
            else:
                for pair in list(self._known.values()):
                    self._forget(pair, "verification is off")
