"""Build files in the editor: CMake and Make files get the port's findings as diagnostics and the
actions "Translate file to HIP" (in place) and "Create HIP translation" (beside it).

Build files are plain text: no tree-sitter, none of the CUDA features (documents.py hands their
open, change and close here; actions.py asks here for their code actions). Their sources are taken
to keep their names (the editor translates a source in place or beside it), so ``.cu`` files are
compiled as HIP by property rather than renamed. The AMD targets are
``cass.verification.arches``, else ``cass.target.arch``; the libraries ``cass.translate.libraries``.
"""

from __future__ import annotations

import logging
import os
import posixpath
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from lsprotocol import types

from cass_lsp.buildfiles import files
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import file_path, is_link
from cass_lsp.server.edits import new_file_edit, supports_create_file

if TYPE_CHECKING:
    from cass_lsp.buildfiles.porting import Result, Settings

log = logging.getLogger(__name__)

SOURCE = "cass-lsp-build"
_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
             "info": types.DiagnosticSeverity.Information}


@dataclass
class BuildDocument:
    uri: str
    text: str
    version: int
    families: frozenset[str] = frozenset()
    """The library families of the sources beside it: read at open and for each code action,
    not on every keystroke."""
    toolkit_found: bool = False
    """A CMakeLists.txt of an enclosing folder finds the CUDA toolkit (read when families are)."""


_OPEN: weakref.WeakKeyDictionary[CassServer, dict[str, BuildDocument]] = weakref.WeakKeyDictionary()


def _documents(ls: CassServer) -> dict[str, BuildDocument]:
    return _OPEN.setdefault(ls, {})


def is_build_file(uri: str) -> bool:
    return files.kind(urlsplit(uri).path) is not None


def translation_uri(uri: str) -> str:
    """Beside the original: ``CMakeLists.hip.txt``, ``rules.hip.mk``, ``Makefile.hip``."""
    parts = urlsplit(uri)
    folder, name = posixpath.split(parts.path)
    stem, ext = posixpath.splitext(name)
    new = f"{stem}.hip{ext}" if ext else f"{name}.hip"
    return urlunsplit(parts._replace(path=posixpath.join(folder, new)))


def _source_families(uri: str) -> frozenset[str]:
    """The library families the CUDA sources in the build file's folder use."""
    folder = os.path.dirname(file_path(uri) or "")
    try:
        names = sorted(os.listdir(folder)) if folder else []
    except OSError:
        names = []
    return files.families([os.path.join(folder, n) for n in names if n.endswith((".cu", ".cuh"))], ())


def _enclosing_finds_toolkit(uri: str) -> bool:
    """An enclosing folder's CMakeLists.txt (the project's top level) finds the CUDA toolkit."""
    path = file_path(uri)
    if path is None:
        return False
    folder = os.path.dirname(os.path.dirname(path))
    parents: list[str] = []
    while folder and folder not in parents:
        parents.append(folder)
        folder = os.path.dirname(folder)
    return files.finds_toolkit(os.path.join(p, "CMakeLists.txt") for p in parents)


def _refresh(doc: BuildDocument) -> None:
    doc.families = _source_families(doc.uri)
    doc.toolkit_found = _enclosing_finds_toolkit(doc.uri)


def _settings(ls: CassServer, doc: BuildDocument) -> Settings:
    from cass_lsp.buildfiles.porting import Settings

    settings = ls.settings
    return Settings(
        arches=tuple(settings.verification.arches) or (settings.target.arch,),
        libraries=settings.translate.libraries,
        renamed_sources=False,
        nvidia_arch=settings.verification.nvidia_arch,
        families=doc.families,
        toolkit_found=doc.toolkit_found,
    )


def _port(ls: CassServer, doc: BuildDocument) -> Result:
    return files.translate(urlsplit(doc.uri).path, doc.text, _settings(ls, doc))


def _position(text: str, offset: int) -> types.Position:
    line_start = text.rfind("\n", 0, offset) + 1
    column = text[line_start:offset]
    return types.Position(text.count("\n", 0, offset), len(column.encode("utf-16-le", "surrogatepass")) // 2)


def _offset(text: str, position: types.Position) -> int:
    offset = 0
    for _ in range(position.line):
        newline = text.find("\n", offset)
        if newline < 0:
            return len(text)
        offset = newline + 1
    end = text.find("\n", offset)
    line = text[offset : len(text) if end < 0 else end]
    units = 0
    for i, char in enumerate(line):
        if units >= position.character:
            return offset + i
        units += 2 if ord(char) > 0xFFFF else 1
    return offset + len(line)


def _publish(ls: CassServer, doc: BuildDocument) -> None:
    try:
        result = _port(ls, doc)
    except Exception:  # a rule defect must not take the server down: logged, no diagnostics
        log.exception("porting %s failed", doc.uri)
        return
    starts = [0] + [i + 1 for i, c in enumerate(doc.text) if c == "\n"]
    diagnostics = []
    for f in result.findings:
        at = _position(doc.text, starts[min(f.line, len(starts)) - 1] + f.column - 1)  # columns count characters
        diagnostics.append(types.Diagnostic(range=types.Range(at, at), message=f.message,
                                            severity=_SEVERITY[f.severity], source=SOURCE, code=f.code))
    ls.publish_diagnostics(doc.uri, SOURCE, diagnostics, doc.version)


def opened(ls: CassServer, item: types.TextDocumentItem) -> bool:
    """Takes the document when it is a build file."""
    if not is_build_file(item.uri):
        return False
    doc = BuildDocument(item.uri, item.text, item.version)
    _refresh(doc)
    _documents(ls)[item.uri] = doc
    _publish(ls, doc)
    return True


def changed(ls: CassServer, params: types.DidChangeTextDocumentParams) -> bool:
    doc = _documents(ls).get(params.text_document.uri)
    if doc is None:
        return False
    for change in params.content_changes:
        if isinstance(change, types.TextDocumentContentChangePartial):
            start, end = _offset(doc.text, change.range.start), _offset(doc.text, change.range.end)
            doc.text = doc.text[:start] + change.text + doc.text[end:]
        else:
            doc.text = change.text
    doc.version = params.text_document.version
    _publish(ls, doc)
    return True


def closed(ls: CassServer, uri: str) -> bool:
    if _documents(ls).pop(uri, None) is None:
        return False
    ls.publish_diagnostics(uri, SOURCE, [], None)
    return True


def code_actions(ls: CassServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    """None when the document is no open build file (the caller filters by ``context.only``)."""
    doc = _documents(ls).get(params.text_document.uri)
    if doc is None:
        return None
    _refresh(doc)
    try:
        result = _port(ls, doc)
    except Exception:  # as in _publish: no actions rather than a failed request
        log.exception("porting %s failed", doc.uri)
        return []
    if not result.changed:
        return []
    actions: list[types.CodeAction] = []
    whole = types.Range(types.Position(0, 0), _position(doc.text, len(doc.text)))
    edit = types.TextEdit(range=whole, new_text=result.text)
    identifier = types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
    actions.append(types.CodeAction(
        title="Translate file to HIP", kind=types.CodeActionKind.Source,
        edit=types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=identifier, edits=[edit])])))
    target = translation_uri(doc.uri)
    target_path = file_path(target)
    exists = None if target_path is None else os.path.lexists(target_path)
    if not is_link(doc.uri) and (exists is False or (exists is None and supports_create_file(ls))):
        name = posixpath.basename(urlsplit(target).path)
        actions.append(types.CodeAction(title=f"Create HIP translation {name}", kind=types.CodeActionKind.Source,
                                        edit=new_file_edit(ls, target, result.text, overwrite=False)))
    return actions
