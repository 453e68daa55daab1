"""pytest-lsp fixtures: the real server over stdio, driven with real editors' capability profiles."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = [sys.executable, "-m", "cass_lsp", "--log-level", "warning", "--stdio"]
PROFILES = {"vscode": "visual-studio-code", "neovim": "neovim@v0.7.0"}
WORKSPACE_SETTINGS = {"target": {"arch": "gfx942"}, "asm": {"targets": ["sm_90"]}}
INIT_OPTIONS = {"diagnostics": {"debounceMs": 50}}


async def start(lsp_client: LanguageClient, profile: str, init_options: Any = None) -> None:
    lsp_client.set_configuration(WORKSPACE_SETTINGS, section="cass")
    lsp_client.applied_edits = []  # type: ignore[attr-defined]

    @lsp_client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        lsp_client.applied_edits.append(params)  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=True)

    lsp_client.initialize_result = await lsp_client.initialize_session(  # type: ignore[attr-defined]
        types.InitializeParams(
            capabilities=client_capabilities(PROFILES[profile]),
            root_uri="file:///workspace",
            initialization_options=INIT_OPTIONS if init_options is None else init_options,
        )
    )


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), params=list(PROFILES), scope="module")
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest) -> AsyncIterator[None]:
    await start(lsp_client, request.param)
    yield
    await lsp_client.shutdown_session()


def open_document(client: LanguageClient, uri: str, text: str, language_id: str = "cuda", version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text)
        )
    )


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions) to a text, as an editor would."""
    lines = text.splitlines(keepends=True) or [""]

    def index(pos: types.Position) -> int:
        if pos.line >= len(lines):
            return len(text)
        before = sum(len(line) for line in lines[: pos.line])
        line = lines[pos.line]
        units = 0
        for i, char in enumerate(line):
            if units >= pos.character:
                return before + i
            units += 2 if ord(char) > 0xFFFF else 1
        return before + len(line)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: index(edit.range.start)] + edit.new_text + text[index(edit.range.end) :]
    return text
