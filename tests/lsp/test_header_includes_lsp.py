"""A header translated in the editor tells the translation units that reach it to include the HIP
runtime first (source `cass-lsp-includes`): open documents and compile_commands.json entries."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.conftest import PROFILES, SERVER, open_document

SOURCE = "cass-lsp-includes"
SETTINGS = {"target": {"arch": "gfx1100", "rocm": "5.2"}, "asm": {"compileOnOpen": False}}

HEADER = """#pragma once
// Device buffers of the solver; nvcc's implicit cuda_runtime.h declares what this uses.
inline REAL* device_buffer(int n) {
    REAL* p = nullptr;
    cudaMalloc(&p, n * sizeof(REAL));
    return p;
}
"""
# Host-only units: their own translation adds nothing, so the header's include comes after REAL.
OPEN_UNIT = '#define REAL double\n#include "buffers.cuh"\nint main() { return device_buffer(4) == nullptr; }\n'
LISTED_UNIT = '#define REAL float\n#include <cstdio>\n#include "buffers.cuh"\nvoid touch() { device_buffer(1); }\n'
FIRST_UNIT = '#include <cuda_runtime.h>\n#define REAL float\n#include "buffers.cuh"\n'


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    lsp_client.set_configuration(SETTINGS, section="cass")
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(PROFILES["vscode"]),
            root_uri="file:///workspace",
            initialization_options={**SETTINGS, "diagnostics": {"debounceMs": 30}},
        )
    )
    yield
    await lsp_client.shutdown_session()


def ours(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics.get(uri, []) if d.source == SOURCE]


async def until(check: Callable[[], object], what: str) -> None:
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(what)


async def test_units_reaching_a_translated_header_are_told_to_include_the_runtime_first(
        client: LanguageClient, tmp_path: Path) -> None:
    files = {"buffers.cuh": HEADER, "app.cu": OPEN_UNIT, "host.cpp": LISTED_UNIT, "first.cu": FIRST_UNIT}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "compile_commands.json").write_text(json.dumps([
        {"directory": str(tmp_path), "file": "host.cpp", "arguments": ["c++", "-c", "host.cpp"]},
    ]), encoding="utf-8")
    uri = {name: uris.from_fs_path(str(tmp_path / name)) or "" for name in files}
    open_document(client, uri["app.cu"], OPEN_UNIT)
    open_document(client, uri["first.cu"], FIRST_UNIT)
    open_document(client, uri["buffers.cuh"], HEADER)

    await until(lambda: ours(client, uri["app.cu"]) and ours(client, uri["host.cpp"]), "no include-order diagnostics")
    (app,) = ours(client, uri["app.cu"])
    assert app.severity == types.DiagnosticSeverity.Information and app.code == "runtime-include-order"
    assert app.range.start == types.Position(line=1, character=0)  # the include that leads to the header
    assert "buffers.cuh" in app.message and "<hip/hip_runtime.h> first" in app.message
    (listed,) = ours(client, uri["host.cpp"])
    assert listed.range.start.line == 2
    assert ours(client, uri["first.cu"]) == []  # it includes the runtime first already
    # the rule engine's own diagnostics of the header are still there, under their source
    assert all(d.source == "cass-lsp" for d in client.diagnostics.get(uri["buffers.cuh"], []))

    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri["buffers.cuh"])))
    await until(lambda: not ours(client, uri["app.cu"]) and not ours(client, uri["host.cpp"]),
                "include-order diagnostics outlived the header's document")
