"""Code actions: translate a kernel, a selection or the whole file (in place, or into a new file),
CUDA → HIP, or HIP → CUDA for `.hip` documents; and quick fixes for diagnostics that carry a fix.

Offering is cheap: the list is built from the position and the document's tree alone, and each
action carries `ActionData` (uri, version, action, byte range) for `codeAction/resolve`, which runs
the engine off the event loop. Clients that cannot resolve edits get them computed in the request.
An edit is only ever built against the document version the action was offered for; a resolve for
an older version is refused with an error the client shows.
"""

from __future__ import annotations

import logging
import os
import posixpath
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit, urlunsplit

import msgspec
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from cass_lsp.document import CudaDocument, FunctionInfo
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import file_path, range_offsets
from cass_lsp.server.diagnostics import Diagnostics
from cass_lsp.server.edits import (
    document_edit,
    new_file_edit,
    supports_create_file,
    text_edits,
)
from cass_lsp.server.translations import Translations, Untranslatable

if TYPE_CHECKING:
    from cass_lsp.translate import Edit

log = logging.getLogger(__name__)

ActionName = Literal["kernel", "selection", "file", "create", "overwrite"]
_NEW_FILE: frozenset[str] = frozenset({"create", "overwrite"})
_WHOLE_FILE: frozenset[str] = frozenset({"file", *_NEW_FILE})
_KIND: dict[str, types.CodeActionKind] = {
    "kernel": types.CodeActionKind.RefactorRewrite,
    "selection": types.CodeActionKind.RefactorRewrite,
    "file": types.CodeActionKind.Source,
    "create": types.CodeActionKind.Source,
    "overwrite": types.CodeActionKind.Source,
}
# .cu and .cuh translations must not collide: a project often has both foo.cu and foo.cuh
_FORWARD_SUFFIX = {".cuh": ".hip.h"}
_DEVICE_SPACES = frozenset({"global", "device", "host_device"})


class ActionData(msgspec.Struct, rename="camel", frozen=True):
    """What `codeAction/resolve` needs to build the edit: the client hands it back unchanged."""

    uri: str
    version: int
    action: ActionName
    reverse: bool
    start: int  # the byte range the action covers
    end: int


class Refused(Exception):
    """The edit cannot be built as offered; the message is for the user."""


def _refusal(message: str) -> JsonRpcException:
    return JsonRpcException(message=f"cass-lsp: {message}", code=types.LSPErrorCodes.RequestFailed)


# ---------------------------------------------------------------------- what the document offers


def is_reverse(doc: CudaDocument) -> bool:
    """HIP documents translate back to CUDA."""
    return doc.language_id == "hip" or urlsplit(doc.uri).path.lower().endswith(".hip")


def translation_uri(uri: str, reverse: bool) -> str:
    """`<stem>.hip` next to a CUDA file (`<stem>.hip.h` for a `.cuh`), `<stem>.cu` next to a HIP file."""
    parts = urlsplit(uri)
    folder, name = posixpath.split(parts.path)
    stem, suffix = posixpath.splitext(name)
    new_suffix = ".cu" if reverse else _FORWARD_SUFFIX.get(suffix.lower(), ".hip")
    return urlunsplit(parts._replace(path=posixpath.join(folder, (stem or name) + new_suffix)))


def _file_name(uri: str) -> str:
    return posixpath.basename(urlsplit(uri).path)


def target_exists(ls: CassServer, uri: str) -> bool | None:
    """Whether a file is at `uri` (an open editor buffer counts); None where the server cannot look."""
    if uri in ls.documents:
        return True
    path = file_path(uri)
    return None if path is None else os.path.lexists(path)


def enclosing_function(doc: CudaDocument, start: int, end: int) -> FunctionInfo | None:
    """The innermost __global__/__device__ function holding [start, end]."""
    function = doc.function_at(start, end)
    return function if function is not None and function.space in _DEVICE_SPACES else None


def offered(ls: CassServer, doc: CudaDocument, rng: types.Range) -> list[tuple[str, ActionData]]:
    """(title, data) of each translation the range offers, cheapest to compute first."""
    reverse = is_reverse(doc)
    language = "CUDA" if reverse else "HIP"
    start, end = range_offsets(doc, rng)

    def data(action: ActionName, lo: int, hi: int) -> ActionData:
        return ActionData(doc.uri, doc.version, action, reverse, lo, hi)

    actions: list[tuple[str, ActionData]] = []
    function = enclosing_function(doc, start, end)
    if function is not None:
        what = "kernel" if function.space == "global" else "device function"
        actions.append(
            (f"Translate {what} {function.name} to {language}", data("kernel", function.span.start, function.span.end))
        )
    if end > start:
        actions.append((f"Translate selection to {language}", data("selection", start, end)))
    actions.append((f"Translate file to {language}", data("file", 0, len(doc.source))))
    target = translation_uri(doc.uri, reverse)
    if target != doc.uri:
        exists = target_exists(ls, target)
        name = _file_name(target)
        # without CreateFile support the text goes into a new buffer: only safe when nothing is there
        if exists is False or (exists is None and supports_create_file(ls)):
            actions.append((f"Create {language} translation {name}", data("create", 0, len(doc.source))))
        elif exists and supports_create_file(ls):
            actions.append((f"Overwrite {name} with {language} translation", data("overwrite", 0, len(doc.source))))
    return actions


def wanted(kind: str, only: Sequence[str] | None) -> bool:
    """`context.only` matches a kind and its sub-kinds (`refactor` matches `refactor.rewrite`)."""
    return not only or any(not o or kind == o or kind.startswith(f"{o}.") for o in only)


# ---------------------------------------------------------------------- building edits


async def build_edit(ls: CassServer, translations: Translations, data: ActionData) -> types.WorkspaceEdit:
    """The WorkspaceEdit of an offered action, against exactly the version it was offered for."""
    doc = ls.document(data.uri)
    if doc is None:
        raise Refused(f"{_file_name(data.uri)} is not open any more")
    if doc.version != data.version:
        raise Refused(
            f"{_file_name(data.uri)} changed since this action was offered (version {data.version}, now "
            f"{doc.version}); ask for code actions again"
        )
    target = translation_uri(doc.uri, data.reverse)
    if data.action == "create" and target_exists(ls, target):
        raise Refused(f"{_file_name(target)} exists; choose 'Overwrite {_file_name(target)}' to replace it")
    byte_range = None if data.action in _WHOLE_FILE else (data.start, data.end)
    while True:
        try:
            request, result = await translations.result(doc, reverse=data.reverse, byte_range=byte_range)
        except Untranslatable as error:
            raise Refused(str(error)) from error
        if translations.is_current(request):
            break
        if ls.document(data.uri) is not doc or doc.version != data.version:
            raise Refused(f"{_file_name(data.uri)} changed while it was being translated; ask for code actions again")
        # only the settings moved on: translate again with the new ones
    if data.action in _NEW_FILE:
        return new_file_edit(ls, target, result.text, overwrite=data.action == "overwrite")
    if not result.edits:
        where = {"kernel": "this function", "selection": "the selection"}.get(data.action, _file_name(doc.uri))
        raise Refused(f"nothing to translate in {where}")
    return document_edit(ls, doc, text_edits(doc, result.edits))


def _code_action_caps(ls: CassServer) -> types.CodeActionClientCapabilities | None:
    text_document = ls.client_capabilities.text_document
    return text_document.code_action if text_document else None


def resolves_edits(ls: CassServer) -> bool:
    caps = _code_action_caps(ls)
    resolve = caps.resolve_support if caps else None
    return bool(caps and caps.data_support and resolve and "edit" in resolve.properties)


def shows_disabled(ls: CassServer) -> bool:
    caps = _code_action_caps(ls)
    return bool(caps and caps.disabled_support)


# ---------------------------------------------------------------------- quick fixes


def _fix_title(doc: CudaDocument, fix: Sequence[Edit]) -> str:
    if len(fix) != 1:
        return "Apply the suggested fix"
    edit = fix[0]
    old = doc.source[edit.start_byte : edit.end_byte].decode("utf-8", "replace")
    if not edit.new_text:
        return f"Remove `{old.strip()}`"
    return f"Replace `{old}` with `{edit.new_text}`"


def quick_fixes(
    ls: CassServer, diagnostics: Diagnostics, doc: CudaDocument, context: types.CodeActionContext
) -> list[types.CodeAction]:
    fixes: list[types.CodeAction] = []
    for diagnostic in context.diagnostics:
        for finding in diagnostics.findings_for(doc.uri, doc.version, diagnostic):
            if finding.fix:
                fixes.append(
                    types.CodeAction(
                        title=_fix_title(doc, finding.fix),
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        is_preferred=True,
                        edit=document_edit(ls, doc, text_edits(doc, finding.fix)),
                    )
                )
    return fixes


# ---------------------------------------------------------------------- handlers


def register(server: CassServer, translations: Translations, diagnostics: Diagnostics) -> None:
    options = types.CodeActionOptions(
        code_action_kinds=[
            types.CodeActionKind.QuickFix,
            types.CodeActionKind.RefactorRewrite,
            types.CodeActionKind.Source,
        ],
        resolve_provider=True,
    )

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, options)
    async def code_action(ls: CassServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        doc = ls.document(params.text_document.uri)
        if doc is None or doc.too_large:
            return None
        only = params.context.only
        actions: list[types.CodeAction] = []
        if wanted(types.CodeActionKind.QuickFix, only):
            actions += quick_fixes(ls, diagnostics, doc, params.context)
        lazy = resolves_edits(ls)
        for title, data in offered(ls, doc, params.range):
            kind = _KIND[data.action]
            if not wanted(kind, only):
                continue
            action = types.CodeAction(title=title, kind=kind, data=msgspec.to_builtins(data))
            if not lazy:
                try:
                    action.edit = await build_edit(ls, translations, data)
                except Refused as refused:
                    if not shows_disabled(ls):
                        continue
                    action.disabled = types.CodeActionDisabled(reason=str(refused))
                action.data = None
            actions.append(action)
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve(ls: CassServer, action: types.CodeAction) -> types.CodeAction:
        if action.edit is not None or action.data is None:
            return action
        try:
            data = msgspec.convert(action.data, ActionData)
        except msgspec.ValidationError as error:
            raise JsonRpcInvalidParams(message=f"cass-lsp: not an action of this server: {error}") from error
        try:
            action.edit = await build_edit(ls, translations, data)
        except Refused as refused:
            raise _refusal(str(refused)) from refused
        return action
