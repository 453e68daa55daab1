"""Include-order diagnostics (source `cass-lsp-includes`) for headers translated one file at a time.

nvcc includes ``cuda_runtime.h`` before the first line of every translation unit; clang's HIP mode
includes nothing. A tree translation puts ``#include <hip/hip_runtime.h>`` first in every unit that
reaches a header using HIP (``placement.tree_fixes``). The editor translates one file: a header
gets the include at its own top, which a unit reaches only after whatever precedes its include of
the header (its own macros, other project headers). So when an open header's translation uses HIP,
each unit that reaches it through quoted includes (an open document, or an entry of the
``compile_commands.json`` the header's folder finds) and does not include a runtime first gets an
information diagnostic on the include that leads there. The source is our own, so these never
replace the rule engine's diagnostics (source ``cass-lsp``) or theirs ours.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

from lsprotocol import types
from pygls import uris

from cass_lsp.compile import commands as compile_commands
from cass_lsp.core.cancel import Cancelled
from cass_lsp.core.filekinds import UNIT_SUFFIXES
from cass_lsp.server import translations
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import file_path
from cass_lsp.translate import headers, placement
from cass_lsp.translate.jobs import Untranslatable

log = logging.getLogger(__name__)

SOURCE = "cass-lsp-includes"
CODE = "runtime-include-order"
_KEY = "includes:all"


def _position(text: bytes, offset: int) -> types.Position:
    line_start = text.rfind(b"\n", 0, offset) + 1
    column = text[line_start:offset].decode("utf-8", "replace").encode("utf-16-le")
    return types.Position(line=text.count(b"\n", 0, offset), character=len(column) // 2)


class IncludeOrder:
    def __init__(self, server: CassServer) -> None:
        self._server = server
        self._published: set[str] = set()  # unit uris holding our diagnostics
        self._tasks: set[asyncio.Task[None]] = set()

    def changed(self, *_: object) -> None:
        # A unit's includes or a header's translation may have changed: recheck every open header.
        delay = self._server.resolved.diagnostics_debounce_ms / 1000
        self._server.debounce(_KEY, delay, self._start)

    def _start(self) -> None:
        task = asyncio.ensure_future(self._pass())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _read(self, path: str) -> bytes | None:
        uri = uris.from_fs_path(path)
        doc = self._server.document(uri) if uri else None
        if doc is not None:
            return doc.text.encode("utf-8", "surrogatepass")
        try:
            with open(path, "rb") as file:
                return file.read()
        except OSError:
            return None

    async def _pass(self) -> None:
        try:
            found = await self._find()
        except Exception:
            log.exception("include-order diagnostics failed")
            return
        for uri in self._published - found.keys():
            self._server.publish_diagnostics(uri, SOURCE, [], None)
        for uri, diagnostics in found.items():
            doc = self._server.document(uri)
            self._server.publish_diagnostics(uri, SOURCE, diagnostics, doc.version if doc else None)
        self._published = set(found)

    async def _find(self) -> dict[str, list[types.Diagnostic]]:
        found: dict[str, list[types.Diagnostic]] = {}
        for doc in list(self._server.documents.values()):
            header = file_path(doc.uri)
            if header is None or header.lower().endswith(UNIT_SUFFIXES):
                continue
            try:
                request, result = await translations.result(self._server, doc)
            except (Untranslatable, Cancelled):
                continue
            if not translations.is_current(self._server, request) or not placement.uses_hip(
                    result.text.encode("utf-8", "surrogateescape")):
                continue
            units = {file_path(d.uri) for d in self._server.documents.values()} - {None, header}
            database = compile_commands.find(header, self._server.resolved.compile_commands)
            if database is not None:
                units |= set(compile_commands.files(database))

            def include_dirs(unit: str, database: Path | None = database) -> list[str]:
                if database is None:
                    return []
                flags = compile_commands.flags_for(unit, database)
                return [f[2:] for f in flags if f.startswith("-I")] + [
                    flags[i + 1] for i, f in enumerate(flags[:-1]) if f == "-iquote"]

            reaching = placement.units_reaching(header, sorted(u for u in units if u), self._read, include_dirs)
            name = os.path.basename(header)
            for unit, (start, end) in reaching.items():
                text = self._read(unit) or b""
                found.setdefault(uris.from_fs_path(unit) or unit, []).append(types.Diagnostic(
                    range=types.Range(start=_position(text, start), end=_position(text, end)),
                    message=(f"{name} is translated one file at a time and now uses HIP: this translation unit "
                             f"must include <{headers.RUNTIME}> first, before its own macros and includes "
                             "(nvcc included cuda_runtime.h implicitly)"),
                    severity=types.DiagnosticSeverity.Information,
                    code=CODE,
                    source=SOURCE,
                ))
        return found


def register(server: CassServer) -> IncludeOrder:
    include_order = IncludeOrder(server)
    server.on_document_changed.append(include_order.changed)
    server.on_document_closed.append(include_order.changed)
    server.on_settings_changed.append(include_order.changed)
    return include_order
