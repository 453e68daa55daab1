"""CassProtocol writes messages with msgspec: the same JSON values pygls's own encoding writes.

The server runs in-process, fed messages the way pygls's stdio reader feeds them, and every message
it sends (replies, notifications, its own requests) is encoded both ways and compared once decoded.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from typing import Any

from lsprotocol import types
from pygls.protocol import JsonRPCProtocol, LanguageServerProtocol
from pygls.server import JsonRPCServer

from cass_lsp.server import create_server, patches, symbols
from cass_lsp.server.app import CassServer
from cass_lsp.server.protocol import CassProtocol
from cass_lsp.syntax.document import CudaDocument, TextChange

URI = "file:///workspace/encode.cu"
SOURCE = """#include <cuda_runtime.h>
// Überblick: ein Kernel 😀 "quoted" \\ back\tslash
__global__ void fill(float* x, float v, int n) {
  __shared__ float tile[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = __shfl_down_sync(0xffffffff, v, 1);
}
int main() {
  float* d;
  cudaMalloc(&d, 64 * sizeof(float));
  fill<<<2, 32>>>(d, 1.0f, 64);
  cudaDeviceSynchronize();
  cudaFree(d);
}
__device__ int lane_id() {
  register int lane = 0;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
"""


class Recorder:
    """A transport that keeps what is written to it."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.chunks.append(data)

    def close(self) -> None:
        pass


def result_type(protocol: CassProtocol, method: str) -> Any:
    """The lsprotocol class of ``method``'s reply."""
    found = protocol.get_result_type(method)
    assert found is not None, method
    return found


def split(message: bytes) -> tuple[int, bytes]:
    header, _, body = message.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in header.split(b"\r\n") if line.startswith(b"Content-Length"))
    return length, body


class Session:
    """The real server, driven in-process: each outgoing message object and the bytes written for it."""

    def __init__(self) -> None:
        self.server: CassServer = create_server()
        protocol = self.server.protocol
        assert isinstance(protocol, CassProtocol)
        self.protocol = protocol
        self.transport = Recorder()
        self.protocol.set_writer(self.transport)
        self.sent: list[Any] = []
        send = self.protocol._send_data

        def spy(data: Any) -> None:
            self.sent.append(data)
            send(data)

        self.protocol._send_data = spy  # type: ignore[method-assign]
        self.next_id = 0

    def feed(self, message: dict[str, Any]) -> None:
        # what pygls's reader does with a message body (pygls.io_.run_async)
        self.protocol.handle_message(json.loads(json.dumps(message), object_hook=self.protocol.structure_message))

    def notify(self, method: str, params: Any) -> None:
        self.feed({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        msg_id = self.next_id
        self.feed({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        reply = await self.wait_for(lambda data: getattr(data, "id", None) == msg_id and not hasattr(data, "method"))
        assert getattr(reply, "error", None) is None, reply
        return reply.result

    async def wait_for(self, matches: Any, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = next((data for data in self.sent if matches(data)), None)
            if found is not None:
                return found
            await asyncio.sleep(0.01)
        raise AssertionError("no such message was sent")


def pygls_encoding(protocol: JsonRPCProtocol, data: Any) -> bytes:
    """What pygls's own JsonRPCProtocol._send_data writes for `data`."""
    recorder, writer = Recorder(), protocol.writer
    protocol.writer = recorder
    try:
        JsonRPCProtocol._send_data(protocol, data)
    finally:
        protocol.writer = writer
    (written,) = recorder.chunks
    return written


def assert_same_meaning(protocol: JsonRPCProtocol, data: Any, ours: bytes) -> Any:
    theirs = pygls_encoding(protocol, data)
    (our_length, our_body), (their_length, their_body) = split(ours), split(theirs)
    assert our_length == len(our_body) and their_length == len(their_body)  # Content-Length counts bytes
    decoded = json.loads(our_body)
    assert decoded == json.loads(their_body)
    return decoded


async def test_real_replies_decode_to_what_pygls_would_send() -> None:
    session = Session()
    capabilities = {
        "textDocument": {
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source"]}}},
        },
        "window": {"workDoneProgress": True},
    }
    options = {"diagnostics": {"debounceMs": 0}, "asm": {"compileOnOpen": False}}
    try:
        await session.request(
            "initialize",
            {"processId": None, "rootUri": None, "capabilities": capabilities, "initializationOptions": options},
        )
        session.notify("initialized", {})
        item = {"uri": URI, "languageId": "cuda", "version": 1, "text": SOURCE}
        session.notify("textDocument/didOpen", {"textDocument": item})
        change = {"range": {"start": {"line": 5, "character": 2}, "end": {"line": 5, "character": 2}}, "text": " "}
        session.notify(
            "textDocument/didChange", {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [change]}
        )
        text_document = {"uri": URI}
        outline = await session.request("textDocument/documentSymbol", {"textDocument": text_document})
        hover = await session.request(
            "textDocument/hover", {"textDocument": text_document, "position": {"line": 9, "character": 4}}
        )
        published = await session.wait_for(
            lambda data: (
                getattr(data, "method", None) == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS and data.params.diagnostics
            )
        )
        diagnostics = session.protocol._converter.unstructure(published.params.diagnostics)
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 20, "character": 0}}
        actions = await session.request(
            "textDocument/codeAction",
            {"textDocument": text_document, "range": whole, "context": {"diagnostics": diagnostics}},
        )
        # progress as the job layer sends it: the create request, then $/progress notifications
        session.server.window_work_done_progress_create(types.WorkDoneProgressCreateParams(token="t"))
        for value in (
            types.WorkDoneProgressBegin(title="Compiling", cancellable=True),
            types.WorkDoneProgressReport(message="sm_90", percentage=50),
            types.WorkDoneProgressEnd(message="done"),
        ):
            session.server.progress(types.ProgressParams(token="t", value=value))
        session.server.show_message("cass-lsp: ünïcode ✓")
    finally:
        session.server.shutdown()

    assert outline and hover and actions  # the replies compared below are not empty ones
    methods = {getattr(data, "method", None) for data in session.sent}
    assert {types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, types.PROGRESS, types.WINDOW_WORK_DONE_PROGRESS_CREATE} <= methods
    assert len(session.transport.chunks) == len(session.sent)
    for data, written in zip(session.sent, session.transport.chunks, strict=True):
        assert_same_meaning(session.protocol, data, written)
        # what went out is msgspec's encoding, not pygls's
        assert split(written)[1] == session.protocol.encode_message(data)
    # pygls's copy of the documents is not kept (protocol.py says why)
    assert not session.protocol.workspace.text_documents


def test_a_lone_surrogate_falls_back_to_pygls_encoding() -> None:
    protocol = create_server().protocol
    assert isinstance(protocol, CassProtocol)
    protocol.set_writer(Recorder())
    hover = types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.PlainText, value="a\ud800b"))
    message = result_type(protocol, types.TEXT_DOCUMENT_HOVER)(id=1, result=hover, jsonrpc="2.0")
    body = protocol.encode_message(message)
    assert json.loads(body)["result"]["contents"]["value"] == "a\ud800b"
    header = f"Content-Length: {len(body)}\r\n".encode()
    protocol._send_data(message)
    assert protocol.writer is not None
    written = protocol.writer.chunks[0]  # type: ignore[union-attr]
    assert written.startswith(header) and assert_same_meaning(protocol, message, written)


async def test_handled_notifications_leave_no_future_behind() -> None:
    """pygls keeps each handler's future under a uuid for notifications; CassProtocol drops it once
    done (a long session sends hundreds of thousands of didChange)."""
    session = Session()
    await session.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    session.notify("initialized", {})
    session.notify(
        "textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "cuda", "version": 1, "text": SOURCE}}
    )
    change = {"range": {"start": {"line": 5, "character": 2}, "end": {"line": 5, "character": 2}}, "text": " "}
    for version in range(2, 202):
        session.notify(
            "textDocument/didChange", {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]}
        )
        session.notify("workspace/didChangeConfiguration", {"settings": None})  # an async handler
    await session.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    for _ in range(100):
        if len(session.protocol._request_futures) <= 2:
            break
        await asyncio.sleep(0.02)
    assert len(session.protocol._request_futures) <= 2, len(session.protocol._request_futures)


def test_pygls_still_sends_through_the_methods_protocol_py_replaces() -> None:
    """Fails when the installed pygls is not the one server/patches.py knows (the server would run
    stock pygls): re-check protocol.py and app.py against the new pygls, then update the hashes
    there and the pin in pyproject.toml."""
    assert patches.changed() == [], "pygls changed: compare these methods with CassProtocol and CassServer"
    assert patches.verified() and isinstance(create_server().protocol, CassProtocol)
    assert "self._start_io_async(stdin, stdout)" in inspect.getsource(JsonRPCServer.start_io)
    for caller in (JsonRPCProtocol._send_response, JsonRPCProtocol.notify, JsonRPCProtocol.send_request):
        assert "self._send_data(" in inspect.getsource(caller), caller
    # notifications: CassProtocol.handle_message dispatches them as pygls does, without its isinstance checks
    dispatch = inspect.getsource(JsonRPCProtocol.handle_message)
    assert "ctx = contextvars.copy_context()" in dispatch
    assert "ctx.run(self._handle_notification, message.method, message.params)" in dispatch
    # the handler runner whose futures CassProtocol forgets (see _execute_handler there)
    assert "self._request_futures[msg_id] = future" in inspect.getsource(JsonRPCProtocol._execute_handler)
    builtin = create_server().protocol.fm.builtin_features
    for method, name in (
        (types.TEXT_DOCUMENT_DID_OPEN, "lsp_text_document__did_open"),
        (types.TEXT_DOCUMENT_DID_CHANGE, "lsp_text_document__did_change"),
        (types.TEXT_DOCUMENT_DID_CLOSE, "lsp_text_document__did_close"),
    ):
        assert getattr(LanguageServerProtocol, name).method_name == method
        assert builtin[method].__func__ is getattr(CassProtocol, name)


def test_outline_json_is_kept_for_the_symbols_outlines_hold_only() -> None:
    """symbols.py keeps each symbol's JSON (and its children's) while an outline holds the symbol:
    edits that rebuild a function's symbol must not leave the old one's JSON behind."""
    protocol = create_server().protocol
    assert isinstance(protocol, CassProtocol)
    reply = result_type(protocol, types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    d = CudaDocument(URI, SOURCE)
    line = SOURCE.splitlines().index("  __shared__ float tile[32];")
    for round_ in range(200):
        # renames the __shared__ child of `fill`: its symbol and its child are built anew each time
        d.apply_changes(
            [TextChange(f"t{round_}", ((line, 19), (line, 23 if round_ == 0 else 19 + len(f"t{round_ - 1}"))))]
        )
        outline = symbols.document_symbols(d)
        protocol.encode_message(reply(id=round_, result=outline, jsonrpc="2.0"))
    in_outline = len(outline) + sum(len(symbol.children or []) for symbol in outline)
    assert in_outline <= len(symbols._json_forms) <= 2 * in_outline


def test_an_outline_with_a_lone_surrogate_goes_out() -> None:
    protocol = create_server().protocol
    assert isinstance(protocol, CassProtocol)
    protocol.set_writer(Recorder())
    launch = types.DocumentSymbol(
        name='k<<<1, f("\ud800")>>>',
        kind=types.SymbolKind.Event,
        range=types.Range(types.Position(1, 0), types.Position(1, 9)),
        selection_range=types.Range(types.Position(1, 0), types.Position(1, 1)),
    )
    function = types.DocumentSymbol(
        name="main",
        kind=types.SymbolKind.Function,
        range=types.Range(types.Position(0, 0), types.Position(2, 1)),
        selection_range=types.Range(types.Position(0, 4), types.Position(0, 8)),
        children=[launch],
    )
    message = result_type(protocol, types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(id=1, result=[function], jsonrpc="2.0")
    protocol._send_data(message)
    written = protocol.writer.chunks[0]  # type: ignore[union-attr]
    decoded = assert_same_meaning(protocol, message, written)
    assert decoded["result"][0]["children"][0]["name"] == 'k<<<1, f("\ud800")>>>'
