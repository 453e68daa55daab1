"""OpenAIBackend against a streaming chat server written here (127.0.0.1 only, each test < 5 s)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer.backend import GenerationParams, ModelError
from cass_lsp.infer.openai import OpenAIBackend
from cass_lsp.infer.prompts import SOURCE_FENCE, extract_answer, source_prompt

MODEL = "cass-src-1.5b"
KEY_ENV = "CASS_TEST_OPENAI_KEY"
SECRET = "sk-test-do-not-print-0123456789"
PARAMS = GenerationParams(max_tokens=321, temperature=0.25, timeout_s=4.0)
"""Bounded below the test's 5 s, so a hang fails the test instead of stalling the run."""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # chunked streaming, as llama-server and vLLM send it
    server: Server

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length)) if length else None
        self.server.requests.append((self.command, self.path, dict(self.headers), body))
        self.server.respond(self)

    do_GET = do_POST

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: pytest shows stderr of failed tests, where request lines are noise."""

    def begin_stream(self, status: int = 200, content_type: str = "text/event-stream") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def end_stream(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def reply(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server(ThreadingHTTPServer):
    def __init__(self, respond: Callable[[Handler], None]) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.respond = respond
        self.requests: list[tuple[str, str, dict[str, str], Any]] = []
        self.stop = threading.Event()
        """Set when the test ends: handlers that stream or stall forever return."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


@contextlib.contextmanager
def serving(respond: Callable[[Handler], None]) -> Iterator[Server]:
    server = Server(respond)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=2)


def event(content: str | None = None, finish: str | None = None, **extra: Any) -> bytes:
    choice = {"index": 0, "delta": {} if content is None else {"content": content}, "finish_reason": finish}
    return b"data: " + json.dumps({"choices": [choice], **extra}).encode() + b"\n\n"


DONE = b"data: [DONE]\n\n"
ANSWER = [
    "Here is the port:\n",
    "```amd\n",
    "#include <hip/hip_runtime.h>\n",
    "__global__ void k() {}\n",
    "```\n",
    "Done.",
]


def streams(*events: bytes, delay_s: float = 0.0) -> Callable[[Handler], None]:
    def respond(handler: Handler) -> None:
        handler.begin_stream()
        for data in events:
            handler.chunk(data)
            time.sleep(delay_s)
        handler.end_stream()

    return respond


def forever(handler: Handler) -> None:
    """A chunk every 50 ms until the client leaves or the test ends."""
    handler.begin_stream()
    with contextlib.suppress(OSError):
        while not handler.server.stop.wait(0.05):
            handler.chunk(event("x"))


def silent(handler: Handler) -> None:
    """A server evaluating a long prompt: no status line, no headers, nothing."""
    handler.server.stop.wait(5)


def generate(
    backend: OpenAIBackend, params: GenerationParams = PARAMS, token: CancelToken | None = None
) -> tuple[Any, list[str]]:
    pieces: list[str] = []
    generation = backend.generate(
        source_prompt("__global__ void k() {}"), params, pieces.append, token or CancelToken()
    )
    return generation, pieces


# -------------------------------------------------------------------------------------- answers


def test_a_streamed_answer_reaches_on_text_piece_by_piece_and_extracts() -> None:
    with serving(streams(*(event(piece) for piece in ANSWER), event(finish="stop"), DONE, delay_s=0.01)) as server:
        generation, pieces = generate(OpenAIBackend(server.url, MODEL))
    assert pieces == ANSWER
    assert generation.text == "".join(ANSWER)
    assert (generation.finish_reason, generation.tokens, generation.model) == (
        "stop",
        len(ANSWER),
        f"{MODEL} at {server.url}",
    )
    answer = extract_answer(generation.text, SOURCE_FENCE)
    assert answer is not None
    assert (answer.code, answer.complete) == ("#include <hip/hip_runtime.h>\n__global__ void k() {}", True)


def test_the_request_carries_model_stream_limits_and_messages() -> None:
    with serving(streams(event("ok", "stop"), DONE)) as server:
        generate(OpenAIBackend(server.url + "/", MODEL))
    [(method, path, headers, body)] = server.requests
    assert (method, path) == ("POST", "/v1/chat/completions")
    assert "Authorization" not in headers
    assert body == {
        "model": MODEL,
        "messages": [{"role": "user", "content": source_prompt("__global__ void k() {}")[0].content}],
        "stream": True,
        "max_tokens": 321,
        "temperature": 0.25,
    }


def test_the_servers_usage_and_length_finish_are_reported() -> None:
    usage = {"prompt_tokens": 9, "completion_tokens": 7, "total_tokens": 16}
    with serving(streams(event("```amd\nint x"), event(finish="length"), event(usage=usage), DONE)) as server:
        generation, _ = generate(OpenAIBackend(server.url, MODEL))
    assert (generation.finish_reason, generation.tokens) == ("length", 7)


def test_keep_alive_comments_other_fields_and_crlf_lines_are_ignored() -> None:
    data = b": ping\r\n\r\nevent: message\r\nid: 1\r\n" + event("a").replace(b"\n", b"\r\n") + b"data:" + event("b")[5:]
    with serving(streams(data, event(finish="stop"), DONE)) as server:
        generation, _ = generate(OpenAIBackend(server.url, MODEL))
    assert (generation.text, generation.finish_reason) == ("ab", "stop")


# ---------------------------------------------------------------------------- cancel and timeout


def test_a_cancel_stops_a_stream_that_never_ends_at_once() -> None:
    token = CancelToken()
    cancelled_at: list[float] = []

    def cancel() -> None:
        cancelled_at.append(time.monotonic())
        token.cancel()

    with serving(forever) as server:
        timer = threading.Timer(0.3, cancel)
        timer.start()
        try:
            generation, pieces = generate(OpenAIBackend(server.url, MODEL), token=token)
            latency = time.monotonic() - cancelled_at[0]
        finally:
            timer.cancel()
    assert generation.finish_reason == "cancelled"
    assert pieces and generation.text == "".join(pieces) == "x" * len(pieces)
    assert latency < 0.2


def test_a_cancel_stops_the_wait_for_a_silent_server() -> None:
    token = CancelToken()
    with serving(silent) as server:
        threading.Timer(0.2, token.cancel).start()
        started = time.monotonic()
        generation, _ = generate(OpenAIBackend(server.url, MODEL), token=token)
    assert (generation.finish_reason, generation.text) == ("cancelled", "")
    assert time.monotonic() - started < 0.5


@pytest.mark.parametrize("respond", [forever, silent], ids=["slow", "silent"])
def test_the_timeout_bounds_the_whole_generation(respond: Callable[[Handler], None]) -> None:
    with serving(respond) as server:
        started = time.monotonic()
        generation, pieces = generate(OpenAIBackend(server.url, MODEL), GenerationParams(timeout_s=0.5))
        elapsed = time.monotonic() - started
    assert generation.finish_reason == "timeout"
    assert generation.text == "".join(pieces)
    assert 0.5 <= elapsed < 1.0


# ---------------------------------------------------------------------------------------- errors


def test_a_refused_key_names_its_variable_never_its_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)

    def refuse(handler: Handler) -> None:
        handler.reply(401, json.dumps({"error": {"message": f"Incorrect API key provided: {SECRET}"}}).encode())

    with serving(refuse) as server, pytest.raises(ModelError) as raised:
        generate(OpenAIBackend(server.url, MODEL, api_key_env=KEY_ENV))
    assert KEY_ENV in str(raised.value)
    assert SECRET not in str(raised.value) and SECRET not in repr(raised.value)
    assert server.requests[0][2]["Authorization"] == f"Bearer {SECRET}"


def test_a_key_echoed_in_any_other_error_is_removed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    crash = f"crashed on {SECRET}".encode()
    with (
        serving(lambda handler: handler.reply(500, crash, "text/plain")) as server,
        pytest.raises(ModelError, match=r"HTTP 500: crashed on \*\*\*") as raised,
    ):
        generate(OpenAIBackend(server.url, MODEL, api_key_env=KEY_ENV))
    assert SECRET not in str(raised.value)
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


def test_an_unset_key_variable_is_named() -> None:
    with (
        serving(lambda handler: handler.reply(401, b"")) as server,
        pytest.raises(ModelError, match=f"{KEY_ENV} is not set"),
    ):
        generate(OpenAIBackend(server.url, MODEL, api_key_env=KEY_ENV))


def test_a_closed_port_says_no_server_and_where() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    with pytest.raises(ModelError, match=r"no server at http://127\.0\.0\.1:\d+/v1: start it .* cass\.model\.endpoint"):
        generate(OpenAIBackend(url, MODEL))


def test_an_unknown_model_lists_the_served_ones() -> None:
    def respond(handler: Handler) -> None:
        if handler.command == "GET" and handler.path == "/v1/models":
            handler.reply(200, json.dumps({"object": "list", "data": [{"id": "cass-src-7b"}, {"id": "qwen"}]}).encode())
        else:
            handler.reply(404, json.dumps({"error": {"message": "The model does not exist."}}).encode())

    with (
        serving(respond) as server,
        pytest.raises(ModelError, match=r"no model 'cass-src-1.5b' \(it serves: cass-src-7b, qwen\)"),
    ):
        generate(OpenAIBackend(server.url, MODEL))


def test_a_404_without_a_model_list_points_at_the_endpoint() -> None:
    with (
        serving(lambda handler: handler.reply(404, b"Not Found", "text/plain")) as server,
        pytest.raises(ModelError, match=r"HTTP 404: Not Found: .*cass\.model\.endpoint .*/v1"),
    ):
        generate(OpenAIBackend(server.url, MODEL))


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"<html><body>It works!</body></html>\n", "not an event stream"),
        (b'{"choices": [{"message": {"content": "not streamed"}}]}', "not an event stream"),
        (b"data: {not json\n\n", "not a chat completion chunk"),
        (b'data: {"choices": "many"}\n\n', "not a chat completion chunk"),
        (b"data: \xff\xfe\n\n", "not UTF-8"),
        (event("half an answer"), "closed the stream before the answer ended"),
        (b'data: {"error": {"message": "out of memory"}}\n\n', "the server failed: out of memory"),
    ],
    ids=["html", "json", "bad-json", "bad-shape", "binary", "cut", "error-event"],
)
def test_a_garbled_or_failed_stream_is_a_model_error(body: bytes, says: str) -> None:
    with serving(streams(body)) as server, pytest.raises(ModelError, match=says):
        generate(OpenAIBackend(server.url, MODEL))


def test_an_endpoint_that_is_not_an_http_url_is_refused() -> None:
    with pytest.raises(ModelError, match="not an http"):
        OpenAIBackend("gpu-box:8000/v1", MODEL)
