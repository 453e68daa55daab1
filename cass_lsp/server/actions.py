"""Code actions: translate a kernel, a selection or the whole file (in place, or into a new file),
CUDA → HIP, or HIP → CUDA for `.hip` documents; and quick fixes for diagnostics that carry a fix.

Offering is cheap: the list is built from the position, the document's tree and, when the
diagnostics pass has already translated this version, that whole-file translation: a kernel,
selection or file with nothing to translate is then not offered. Each action carries `ActionData`
(uri, version, action, byte range) for `codeAction/resolve`, which runs the translation job. Clients
that cannot resolve edits get them computed in the request. An edit is only ever built against the
document version the action was offered for; a resolve for an older version is refused with an
error the client shows. An action offered before the translation was known that turns out to change
nothing resolves to an empty edit and a message saying so, never an error.
"""

from __future__ import annotations

import logging
import os
import posixpath
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit, urlunsplit

import msgspec
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from cass_lsp.core.cancel import Cancelled
from cass_lsp.server import build_files, translations
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import file_path, is_link, range_offsets
from cass_lsp.server.diagnostics import Diagnostics
from cass_lsp.server.edits import (
    document_edit,
    new_file_edit,
    supports_create_file,
    text_edits,
)
from cass_lsp.syntax.document import CudaDocument, FunctionInfo
from cass_lsp.translate.jobs import Untranslatable
from cass_lsp.translate.naming import translated_name

if TYPE_CHECKING:
    from cass_lsp.translate import Edit, TranslationResult

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
    """The translation's file beside the original (see :mod:`cass_lsp.translate.naming`)."""
    parts = urlsplit(uri)
    return urlunsplit(parts._replace(path=translated_name(parts.path, reverse=reverse, beside_original=True)))


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


def _changes(doc: CudaDocument, whole_file: TranslationResult | None, start: int, end: int) -> bool:
    """Whether translating [start, end) changes something; True while that is not known yet."""
    if whole_file is None:
        return True
    stop = max(end, start + 1)
    if any(start <= e.end_byte and e.start_byte < stop for e in whole_file.edits):
        return True
    # a #define body the translation rewrites (a widened lane mask) is part of a range that uses it
    edited = {
        macro.name
        for macro in doc.constructs.macros
        if any(macro.span.start <= e.start_byte < macro.span.end for e in whole_file.edits)
    }
    region = doc.source[start:stop]
    return any(re.search(rb"\b" + re.escape(name.encode()) + rb"\b", region) for name in edited)


def offered(ls: CassServer, doc: CudaDocument, rng: types.Range) -> list[tuple[str, ActionData]]:
    """(title, data) of each translation the range offers, cheapest to compute first."""
    reverse = is_reverse(doc)
    language = "CUDA" if reverse else "HIP"
    start, end = range_offsets(doc, rng)
    whole_file = translations.ready(ls, doc, reverse=reverse)

    def data(action: ActionName, lo: int, hi: int) -> ActionData:
        return ActionData(doc.uri, doc.version, action, reverse, lo, hi)

    actions: list[tuple[str, ActionData]] = []
    function = enclosing_function(doc, start, end)
    if function is not None and _changes(doc, whole_file, function.span.start, function.span.end):
        what = "kernel" if function.space == "global" else "device function"
        actions.append(
            (f"Translate {what} {function.name} to {language}", data("kernel", function.span.start, function.span.end))
        )
    if end > start and _changes(doc, whole_file, start, end):
        actions.append((f"Translate selection to {language}", data("selection", start, end)))
    if _changes(doc, whole_file, 0, len(doc.source)):
        actions.append((f"Translate file to {language}", data("file", 0, len(doc.source))))
    target = translation_uri(doc.uri, reverse)
    if target != doc.uri and not is_link(doc.uri):
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


async def build_edit(ls: CassServer, data: ActionData) -> types.WorkspaceEdit:
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
    if data.action in _NEW_FILE and is_link(doc.uri):
        raise Refused(f"{_file_name(data.uri)} is a symbolic link: its translation is not written to a new file")
    if data.action == "create" and target_exists(ls, target):
        raise Refused(f"{_file_name(target)} exists; choose 'Overwrite {_file_name(target)}' to replace it")
    byte_range = None if data.action in _WHOLE_FILE else (data.start, data.end)
    while True:
        try:
            request, result = await translations.result(ls, doc, reverse=data.reverse, byte_range=byte_range)
        except Untranslatable as error:
            raise Refused(str(error)) from error
        except Cancelled as cancelled:
            raise Refused(f"{_file_name(data.uri)} changed while it was being translated; ask for code actions again") from cancelled
        if translations.is_current(ls, request):
            break
        if ls.document(data.uri) is not doc or doc.version != data.version:
            raise Refused(f"{_file_name(data.uri)} changed while it was being translated; ask for code actions again")
        # only the settings moved on: translate again with the new ones
    if data.action in _NEW_FILE:
        return new_file_edit(ls, target, result.text, overwrite=data.action == "overwrite")
    if not result.edits:
        where = {"kernel": "this function", "selection": "the selection"}.get(data.action, _file_name(doc.uri))
        ls.show_message(f"cass-lsp: nothing to translate in {where}")
    if byte_range is not None:
        _report_outside(ls, doc, result, byte_range)
    return document_edit(ls, doc, text_edits(doc, result.edits))


def _report_outside(ls: CassServer, doc: CudaDocument, result: TranslationResult, window: tuple[int, int]) -> None:
    """A range translation's findings about code outside the range (a CUDA runtime include the range
    now needs replaced) appear in no diagnostic of the range: say them once, with their line."""
    for finding in result.findings:
        if finding.severity in ("error", "warning") and not window[0] <= finding.start_byte < window[1]:
            line = doc.position_at(finding.start_byte)[0] + 1
            ls.show_message(f"cass-lsp: line {line}: {finding.message}", types.MessageType.Warning)


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

ActionProvider = Callable[[CassServer, CudaDocument, types.CodeActionParams], list[types.CodeAction]]


class ActionProviders(list[ActionProvider]):
    """More code actions, from other features (the CASS model's), after the rule translations."""


def register(server: CassServer, diagnostics: Diagnostics) -> ActionProviders:
    options = types.CodeActionOptions(
        code_action_kinds=[
            types.CodeActionKind.QuickFix,
            types.CodeActionKind.RefactorRewrite,
            types.CodeActionKind.Source,
        ],
        resolve_provider=True,
    )

    providers = ActionProviders()

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, options)
    async def code_action(ls: CassServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        doc = ls.document(params.text_document.uri)
        if doc is None:  # a CMake or Make file, or nothing of ours
            ported = build_files.code_actions(ls, params)
            return None if ported is None else [a for a in ported if wanted(a.kind or "", params.context.only)]
        if doc.too_large:
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
                    action.edit = await build_edit(ls, data)
                except Refused as refused:
                    if not shows_disabled(ls):
                        continue
                    action.disabled = types.CodeActionDisabled(reason=str(refused))
                action.data = None
            actions.append(action)
        for provider in providers:
            actions += [a for a in provider(ls, doc, params) if a.kind is None or wanted(a.kind, only)]
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve(ls: CassServer, action: types.CodeAction) -> types.CodeAction:
        if action.edit is not None or action.data is None:
            return action
        try:
            data = msgspec.convert(action.data, ActionData)
        except (msgspec.ValidationError, UnicodeEncodeError) as error:  # a lone surrogate: not our data either
            raise JsonRpcInvalidParams(message=f"cass-lsp: not an action of this server: {error}") from error
        try:
            action.edit = await build_edit(ls, data)
        except Refused as refused:
            raise _refusal(str(refused)) from refused
        return action

    return providers
