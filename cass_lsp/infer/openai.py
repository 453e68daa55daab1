"""An OpenAI-compatible chat server (llama-server, vLLM, Ollama's ``/v1``) as a :class:`Backend`.

One streamed ``POST {base_url}/chat/completions`` per generation over :mod:`http.client` (no
proxy, no other host: only the configured URL is contacted), its server-sent events parsed here.

The exchange runs on a daemon reader thread that puts the text pieces on a queue; the calling
thread takes them off with a short timeout, so it sees a cancel or the deadline within
:data:`_POLL_S` even while the server says nothing (evaluating the prompt, or a connect that
hangs). A timeout-and-retry loop on the socket itself is not possible: a blocking read cannot be
interrupted, and the file http.client reads through refuses to read again after a socket timeout.
When the caller leaves, the socket is shut down, which wakes the reader, and it exits.

The API key is read from the environment at each call, sent only as ``Authorization: Bearer``,
and never stored, logged or shown: error messages name its variable and have the value removed.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import queue
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import msgspec

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer.backend import FinishReason, Generation, GenerationParams, Message, ModelError

_POLL_S = 0.05
"""How often the caller looks at its cancel token and the deadline while no text comes."""
_MAX_LINE = 1 << 20
"""The longest stream line accepted; a longer one is not a chat chunk (and must not fill memory)."""
_ERROR_BODY_MAX = 4096
_MODELS_TIMEOUT_S = 3.0
"""For listing the served models after a 404: a hint only, not worth a long wait."""
_SSE_FIELDS = frozenset({"event", "id", "retry"})
"""Event-stream fields other than ``data``, which chat servers may send and which carry no text."""
_SERVER_HINT = "start it (e.g. `llama-server -m MODEL.gguf --port 8080`, `vllm serve MODEL`, `ollama serve`)"


class _Delta(msgspec.Struct):
    content: str | None = None


class _Choice(msgspec.Struct):
    delta: _Delta = msgspec.field(default_factory=_Delta)
    finish_reason: str | None = None


class _Usage(msgspec.Struct):
    completion_tokens: int | None = None


class _Chunk(msgspec.Struct):
    """One ``data:`` event of a streamed chat completion (unknown fields ignored)."""

    choices: list[_Choice] = []
    usage: _Usage | None = None
    error: Any = None
    """Set when the server fails mid-stream (vLLM, llama-server send an error event)."""


class _ModelInfo(msgspec.Struct):
    id: str


class _ModelList(msgspec.Struct):
    data: list[_ModelInfo]


_CHUNK = msgspec.json.Decoder(_Chunk)
_MODELS = msgspec.json.Decoder(_ModelList)


class _End(NamedTuple):
    finish_reason: FinishReason
    tokens: int | None
    """The server's count of generated tokens, when it gave one."""


class _StreamError(Exception):
    """The stream is not a chat completion stream, or reports an error; the message says which."""


_Event = str | _End | Exception
"""What the reader thread hands the caller: a piece of text, the end, or what went wrong."""


class _Endpoint(NamedTuple):
    https: bool
    host: str
    port: int
    path: str
    """The URL's path without a trailing slash ("/v1")."""


class OpenAIBackend:
    def __init__(
        self,
        base_url: str,
        model: str,
        api_key_env: str | None = None,
        connect_timeout_s: float = 10.0,
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._endpoint = _parse_url(self._base_url)
        self._model = model
        self._api_key_env = api_key_env
        self._connect_timeout_s = connect_timeout_s

    @property
    def label(self) -> str:
        return f"{self._model} at {self._base_url}"

    @property
    def model_name(self) -> str:
        return self._model

    def generate(
        self,
        messages: list[Message],
        params: GenerationParams,
        on_text: Callable[[str], None],
        token: CancelToken,
    ) -> Generation:
        started = time.monotonic()
        key = self._api_key()
        body = msgspec.json.encode(
            {
                "model": self._model,
                "messages": messages,
                "stream": True,
                "max_tokens": params.max_tokens,
                "temperature": params.temperature,
            }
        )
        stream = _Stream(lambda owner: self._exchange(owner, body, key, params.timeout_s))
        try:
            pieces, end = _drain(stream.events, on_text, token, started + params.timeout_s)
        except ModelError as error:
            # Not chained: the original's message may still hold the key.
            raise ModelError(_redact(str(error), key)) from None
        finally:
            stream.abandon()
        tokens = len(pieces) if end.tokens is None else end.tokens
        return Generation("".join(pieces), end.finish_reason, tokens, time.monotonic() - started, self.label)

    def close(self) -> None:
        """Nothing to release: each generation opens its own connection and closes it."""

    def _api_key(self) -> str | None:
        """The key, read now (never kept), so that a changed environment needs no new backend."""
        if self._api_key_env is None:
            return None
        return os.environ.get(self._api_key_env) or None

    def _headers(self, key: str | None) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _exchange(self, stream: _Stream, body: bytes, key: str | None, read_timeout_s: float) -> None:
        """The request and its answer, on the reader thread; ModelError when it fails."""
        conn = self._connect(self._connect_timeout_s)
        if not stream.publish(conn):
            return
        try:
            # A backstop only: the caller shuts the socket down when it stops waiting.
            conn.sock.settimeout(read_timeout_s)
            conn.request("POST", f"{self._endpoint.path}/chat/completions", body, self._headers(key))
            response = conn.getresponse()
            if response.status != 200:
                raise self._http_error(response, key)
            _read_stream(response, stream.events.put)
        except _StreamError as error:
            raise ModelError(f"{self.label}: {error}") from error
        except (OSError, http.client.HTTPException) as error:
            raise ModelError(f"{self.label}: the connection failed: {error!r}") from error
        finally:
            conn.close()

    def _connect(self, timeout_s: float) -> http.client.HTTPConnection:
        endpoint = self._endpoint
        kind = http.client.HTTPSConnection if endpoint.https else http.client.HTTPConnection
        conn = kind(endpoint.host, endpoint.port, timeout=timeout_s)
        try:
            conn.connect()
        except ConnectionRefusedError as error:
            raise ModelError(f"no server at {self._base_url}: {_SERVER_HINT}, or check cass.model.endpoint") from error
        except TimeoutError as error:
            raise ModelError(
                f"no answer from {self._base_url} within {timeout_s:g} s: is the server up? check cass.model.endpoint"
            ) from error
        except OSError as error:
            raise ModelError(f"cannot reach {self._base_url}: {error}; check cass.model.endpoint") from error
        return conn

    def _http_error(self, response: http.client.HTTPResponse, key: str | None) -> ModelError:
        status = response.status
        if status in (401, 403):
            # The body is left out: a server may quote the key it refused.
            return ModelError(f"{self.label}: HTTP {status}: {self._key_hint(key)}")
        detail = _error_detail(response.read(_ERROR_BODY_MAX)) or response.reason
        if status == 404:
            return ModelError(self._not_found(detail, key))
        return ModelError(f"{self.label}: HTTP {status}: {detail}")

    def _key_hint(self, key: str | None) -> str:
        if self._api_key_env is None:
            return "the server wants an API key: set cass.model.apiKeyEnv to the environment variable holding it"
        if key is None:
            return f"the server wants an API key and the environment variable {self._api_key_env} is not set"
        return f"the server refused the API key in the environment variable {self._api_key_env}"

    def _not_found(self, detail: str, key: str | None) -> str:
        served = self._served_models(key)
        if served is not None and self._model not in served:
            listed = ", ".join(served) or "none"
            return f"{self.label}: the server has no model {self._model!r} (it serves: {listed}); check cass.model.name"
        return (
            f"{self.label}: HTTP 404: {detail}: is the model name right, and cass.model.endpoint the "
            "server's OpenAI base URL (usually ending in /v1)?"
        )

    def _served_models(self, key: str | None) -> list[str] | None:
        """The model names ``GET {base_url}/models`` lists; None when that fails."""
        try:
            conn = self._connect(min(self._connect_timeout_s, _MODELS_TIMEOUT_S))
        except ModelError:
            return None
        try:
            conn.request("GET", f"{self._endpoint.path}/models", headers=self._headers(key))
            response = conn.getresponse()
            if response.status != 200:
                return None
            return [model.id for model in _MODELS.decode(response.read()).data]
        except (OSError, http.client.HTTPException, msgspec.DecodeError):
            return None
        finally:
            conn.close()


class _Stream:
    """One exchange on a daemon reader thread; the caller takes its events off :attr:`events`."""

    def __init__(self, work: Callable[[_Stream], None]) -> None:
        self.events: queue.SimpleQueue[_Event] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._conn: http.client.HTTPConnection | None = None
        self._abandoned = False
        threading.Thread(target=self._run, args=(work,), name="cass-openai-stream", daemon=True).start()

    def publish(self, conn: http.client.HTTPConnection) -> bool:
        """Let :meth:`abandon` shut ``conn`` down; False (``conn`` closed) when the caller has left."""
        with self._lock:
            if not self._abandoned:
                self._conn = conn
                return True
        conn.close()
        return False

    def abandon(self) -> None:
        """The caller has left: shut the socket down, so that a read blocked on it returns now."""
        with self._lock:
            self._abandoned = True
            conn = self._conn
        # Read once: the reader's own close() sets it to None at any time.
        sock = conn.sock if conn is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def _run(self, work: Callable[[_Stream], None]) -> None:
        try:
            work(self)
        except Exception as error:  # the caller raises it (a bug included) or has left
            self.events.put(error)


def _drain(
    events: queue.SimpleQueue[_Event],
    on_text: Callable[[str], None],
    token: CancelToken,
    deadline: float,
) -> tuple[list[str], _End]:
    """Hand the text to ``on_text`` until the end, a cancel or the deadline; raise what failed."""
    pieces: list[str] = []
    while True:
        if token.cancelled:
            return pieces, _End("cancelled", None)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return pieces, _End("timeout", None)
        try:
            event = events.get(timeout=min(_POLL_S, remaining))
        except queue.Empty:
            continue
        if isinstance(event, Exception):
            raise event
        if isinstance(event, _End):
            return pieces, event
        pieces.append(event)
        on_text(event)


def _read_stream(response: http.client.HTTPResponse, put: Callable[[_Event], None]) -> None:
    """Put each piece of content, then the :class:`_End`; _StreamError for anything else."""
    finish: str | None = None
    tokens: int | None = None
    for data in _sse_data(response):
        if data == "[DONE]":
            break
        chunk = _decode_chunk(data)
        if chunk.usage is not None and chunk.usage.completion_tokens is not None:
            tokens = chunk.usage.completion_tokens
        if chunk.choices:
            choice = chunk.choices[0]  # one was asked for (no "n")
            if choice.delta.content:
                put(choice.delta.content)
            finish = choice.finish_reason or finish
    else:
        if finish is None:
            raise _StreamError("the server closed the stream before the answer ended")
    # "stop", and whatever else a server reports ("eos", "content_filter"), ended the answer.
    put(_End("length" if finish == "length" else "stop", tokens))


def _sse_data(response: http.client.HTTPResponse) -> Iterator[str]:
    """The payload of each ``data:`` line (chat servers send one line per event)."""
    while raw := response.readline(_MAX_LINE + 1):
        if len(raw) > _MAX_LINE:
            raise _StreamError("the stream has a line longer than 1 MiB: is this an OpenAI-compatible server?")
        try:
            line = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as error:
            raise _StreamError(f"the stream is not UTF-8 text ({error})") from error
        if not line or line.startswith(":"):
            continue  # between events, or a comment (a keep-alive)
        field, _, value = line.partition(":")
        if field == "data":
            yield value.removeprefix(" ")
        elif field not in _SSE_FIELDS:
            raise _StreamError(
                f"the answer is not an event stream ({line[:80]!r}): is this an OpenAI-compatible server?"
            )


def _decode_chunk(data: str) -> _Chunk:
    try:
        chunk = _CHUNK.decode(data)
    except msgspec.DecodeError as error:
        raise _StreamError(f"a stream event is not a chat completion chunk ({error}): {data[:80]!r}") from error
    if chunk.error is not None:
        raise _StreamError(f"the server failed: {_message_of(chunk.error) or repr(chunk.error)}")
    return chunk


def _error_detail(body: bytes) -> str | None:
    """What an error response's body says: its JSON message, else its start as text."""
    try:
        return _message_of(msgspec.json.decode(body))
    except msgspec.DecodeError:
        return body.decode("utf-8", "replace").strip()[:300] or None


def _message_of(payload: Any) -> str | None:
    """The error message in a server's JSON (OpenAI ``{"error": {"message"}}``, FastAPI ``detail``,
    or a bare string); None when there is none."""
    if isinstance(payload, str):
        return payload or None
    if not isinstance(payload, dict):
        return None
    for field in ("error", "message", "detail"):
        value = payload.get(field)
        if isinstance(value, dict):
            value = value.get("message")
        if isinstance(value, str) and value:
            return value[:300]
    return None


def _redact(message: str, key: str | None) -> str:
    return message.replace(key, "***") if key else message


def _parse_url(base_url: str) -> _Endpoint:
    url = urllib.parse.urlsplit(base_url)
    if url.scheme not in ("http", "https") or not url.hostname:
        raise ModelError(f"cass.model.endpoint {base_url!r} is not an http(s) URL (e.g. http://gpu-box:8000/v1)")
    try:
        port = url.port
    except ValueError as error:
        raise ModelError(f"cass.model.endpoint {base_url!r} has an invalid port") from error
    https = url.scheme == "https"
    # An explicit port: http.client would read the last group of an IPv6 address ("::1") as one.
    return _Endpoint(https, url.hostname, port or (443 if https else 80), url.path.rstrip("/"))
