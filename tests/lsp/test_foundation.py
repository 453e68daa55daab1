"""The server as an editor sees it: initialize, configuration, sync, symbols, references, bad input."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from cass_lsp.syntax.document import CudaDocument
from tests.lsp.conftest import open_document

SOURCE = """#include <cuda_runtime.h>
// Überblick: ein Kernel 😀
__global__ void fill(float* x, float v, int n) {
  __shared__ float tile[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}
__device__ float twice(float v) { return 2.0f * v; }
int main() {
  float* d;
  cudaMalloc(&d, 64 * sizeof(float));
  fill<<<2, 32>>>(d, 1.0f, 64);
  fill<<<1, 64>>>(d, 2.0f, 64);
  cudaFree(d);
}
"""


def td(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def symbols(client: LanguageClient, uri: str) -> list[types.DocumentSymbol]:
    result = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=td(uri)))
    assert result is not None
    return [s for s in result if isinstance(s, types.DocumentSymbol)]


async def test_initialize_advertises_features(client: LanguageClient) -> None:
    caps = client.initialize_result.capabilities  # type: ignore[attr-defined]
    assert caps.document_symbol_provider and caps.references_provider and caps.folding_range_provider
    assert caps.text_document_sync.change == types.TextDocumentSyncKind.Incremental


async def test_document_symbols_list_kernels_and_launches(client: LanguageClient) -> None:
    uri = "file:///workspace/fill.cu"
    open_document(client, uri, SOURCE)
    result = await symbols(client, uri)
    assert [(s.name, s.detail) for s in result] == [
        ("fill", "__global__"),
        ("twice", "__device__"),
        ("main", ""),
    ]
    fill, _, main = result
    assert fill.selection_range.start == types.Position(line=2, character=16)
    assert [c.name for c in fill.children or []] == ["tile"]
    assert [c.name for c in main.children or []] == ["fill<<<2, 32>>>", "fill<<<1, 64>>>"]


async def test_references_on_a_kernel_are_its_launch_sites(client: LanguageClient) -> None:
    uri = "file:///workspace/refs.cu"
    open_document(client, uri, SOURCE)
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=td(uri),
            position=types.Position(line=2, character=18),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert refs is not None
    lines = sorted(r.range.start.line for r in refs if r.uri == uri)
    assert lines == [2, 11, 12]


async def test_incremental_changes_with_utf16_positions(client: LanguageClient) -> None:
    uri = "file:///workspace/edit.cu"
    open_document(client, uri, SOURCE)
    # rename the kernel on line 2 and insert after the emoji on line 1 (the emoji is 2 UTF-16 units)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=2, character=16), end=types.Position(line=2, character=20)
                    ),
                    text="store",
                ),
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=1, character=26), end=types.Position(line=1, character=26)
                    ),
                    text="!",
                ),
            ],
        )
    )
    result = await symbols(client, uri)
    assert result[0].name == "store"


async def test_configuration_reaches_the_server_and_bad_keys_are_named(client: LanguageClient) -> None:
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"cass": {"target": {"arch": "nvidia-h100"}, "asm": {"bogus": 1}}})
    )
    message = await client.wait_for_notification(types.WINDOW_SHOW_MESSAGE)
    texts = [message.message]
    for _ in range(20):
        if any("cass.asm.bogus" in t for t in texts) and any("cass.target" in t for t in texts):
            break
        await asyncio.sleep(0.05)
        texts = [m.message for m in client.messages]
    assert any("cass.target" in t and "nvidia-h100" in t for t in texts), texts
    assert any("cass.asm.bogus" in t for t in texts)
    # still serving
    assert await symbols(client, "file:///workspace/fill.cu")


@pytest.mark.parametrize(
    "text",
    ["", "\x00\x00 __global__ void k(){}", "/* unterminated", 'const char* s = "open', "__global__ void k( {"],
    ids=["empty", "nul", "comment", "string", "broken"],
)
async def test_bad_documents_never_break_the_server(client: LanguageClient, text: str) -> None:
    uri = f"file:///workspace/bad-{abs(hash(text))}.cu"
    open_document(client, uri, text)
    await symbols(client, uri)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=0),  # out of order
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=999, character=5), end=types.Position(line=999, character=9)
                    ),
                    text="\n__global__ void tail() {}\n",
                )
            ],
        )
    )
    # the server holds exactly the text the editor has: its outline equals a fresh parse of that text
    expected = CudaDocument(uri, text + "\n__global__ void tail() {}\n").constructs.functions
    assert [s.name for s in await symbols(client, uri)] == [f.name for f in expected]


async def test_unknown_method_is_an_error_not_a_crash(client: LanguageClient) -> None:
    from pygls.exceptions import JsonRpcMethodNotFound

    with pytest.raises(JsonRpcMethodNotFound):
        await client.protocol.send_request_async("cass/noSuchMethod", {})
    assert await symbols(client, "file:///workspace/fill.cu")


async def test_large_file_gets_a_message_and_keeps_working(client: LanguageClient) -> None:
    uri = "file:///workspace/huge.cu"
    big = "// padding line for a very large CUDA file\n" * 250_000  # ~11 MB
    open_document(client, uri, big + "__global__ void last() {}\n")
    for _ in range(100):
        if any("huge.cu" in m.message for m in client.messages):
            break
        await asyncio.sleep(0.05)
    assert any("huge.cu" in m.message and "maxParseBytes" in m.message for m in client.messages)
    assert await symbols(client, uri) == []
    assert await symbols(client, "file:///workspace/fill.cu")
