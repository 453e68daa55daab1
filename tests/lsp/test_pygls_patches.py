"""The server's changes to pygls internals apply only to the pygls they were written for (issue 19):
with the installed, tested pygls the server runs its own protocol; with a pygls whose internals
differ it runs stock pygls, logs one line saying so, and still serves the editor."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.protocol import JsonRPCProtocol, LanguageServerProtocol
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from cass_lsp.server import create_server, patches
from cass_lsp.server.protocol import CassProtocol
from tests.lsp.conftest import open_document

SOURCE = "__global__ void fill(float* x) { x[threadIdx.x] = 1.0f; }\nint main() { fill<<<1, 32>>>(0); }\n"
# a pygls release whose _send_data is not 2.1.1's (this one's source cannot even be read: `-c`)
CHANGED_PYGLS = """
import sys
from pygls.protocol.json_rpc import JsonRPCProtocol
sent = JsonRPCProtocol._send_data
def _send_data(self, data):
    return sent(self, data)
JsonRPCProtocol._send_data = _send_data
from cass_lsp.cli.main import main
sys.exit(main(sys.argv[1:]))
"""
STOCK_LINE = "running stock pygls"


@pytest.fixture
def fresh_check() -> Iterator[None]:
    patches.verified.cache_clear()
    yield
    patches.verified.cache_clear()


def test_the_tested_pygls_gets_the_server_protocol(fresh_check: None, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="cass_lsp.server.patches"):
        server = create_server()
    assert server.patched and isinstance(server.protocol, CassProtocol)
    assert not [r for r in caplog.records if r.name == "cass_lsp.server.patches"]


def test_a_changed_pygls_runs_stock_with_one_line_logged(
    fresh_check: None, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = JsonRPCProtocol._execute_handler

    def _execute_handler(self: JsonRPCProtocol, *args: object) -> None:  # a later pygls's, say
        original(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(JsonRPCProtocol, "_execute_handler", _execute_handler)
    with caplog.at_level(logging.WARNING, logger="cass_lsp.server.patches"):
        first, second = create_server(), create_server()
    for server in (first, second):
        assert not server.patched
        assert type(server.protocol) is LanguageServerProtocol
    (line,) = [r.getMessage() for r in caplog.records if r.name == "cass_lsp.server.patches"]
    assert STOCK_LINE in line and "_execute_handler" in line and patches.TESTED in line


async def outline_over_stdio(command: list[str], tmp_path: Path) -> list[str]:
    """Initialize the server, open a file and ask for its outline and folds; the outline's names."""
    client = await ClientServerConfig(server_command=command).start(devtools=None)
    assert isinstance(client, LanguageClient)
    try:
        await client.initialize_session(
            types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=tmp_path.as_uri())
        )
        uri = (tmp_path / "k.cu").as_uri()
        open_document(client, uri, SOURCE)
        outline = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        folds = await client.text_document_folding_range_async(
            types.FoldingRangeParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert folds is not None
    finally:
        await client.shutdown_session()
    assert outline is not None
    return [symbol.name for symbol in outline]


@pytest.mark.parametrize("pygls", ["tested", "changed"])
async def test_both_serve_the_editor_and_only_the_changed_one_says_so(tmp_path: Path, pygls: str) -> None:
    log = tmp_path / "server.log"
    arguments = ["--log-file", str(log), "--log-level", "warning", "--stdio"]
    if pygls == "tested":
        command = [sys.executable, "-m", "cass_lsp", *arguments]
    else:
        command = [sys.executable, "-c", CHANGED_PYGLS, *arguments]
    names = await outline_over_stdio(command, tmp_path)
    assert "fill" in names and "main" in names
    stock_lines = [line for line in log.read_text().splitlines() if STOCK_LINE in line]
    if pygls == "tested":
        assert stock_lines == []
    else:
        assert len(stock_lines) == 1 and "_send_data" in stock_lines[0]
