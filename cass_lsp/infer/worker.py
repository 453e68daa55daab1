"""The model's worker process: ``python -m cass_lsp.infer.worker``, one per loaded model.

The language server never loads llama.cpp itself: native code that dies (a segfault in a CPU
kernel, an instruction a wheel built elsewhere uses and this CPU lacks, the out-of-memory killer)
then ends this process only, and the server reports it (:mod:`cass_lsp.infer.process`).

Protocol: frames of a 4-byte big-endian length and a msgpack message (the tagged structs below)
on the worker's stdin and stdout. The server first sends :class:`Load`, answered by
:class:`Loaded` or :class:`Failed`; then each :class:`Generate` is answered by its pieces of text
(:class:`Piece`) and a :class:`Finished` or :class:`Failed`. The protocol's descriptors are moved
off 0 and 1 before llama.cpp is imported, and those then point at /dev/null and stderr, so nothing
native code prints can corrupt a frame; stderr (llama.cpp's log) goes to the server's log.

The main thread loads and generates. A reader thread takes the requests as they come: a
:class:`Cancel` sets the running generation's token at once (its stopping criterion and llama.cpp's
abort callback see it within a token or a batch), and the end of stdin, which comes when the server
closes it (idle unload, shutdown) or dies however it dies, ends the worker at once, even in the
middle of native code.

``python -m cass_lsp.infer.worker --describe`` prints what llama.cpp computes with here as JSON
(``cass-lsp doctor`` runs it: a llama.cpp that crashes on load must not take the doctor along).
"""

from __future__ import annotations

import faulthandler
import logging
import os
import queue
import resource
import signal
import struct
import sys
import threading
import time
from typing import BinaryIO

import msgspec

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer import runtime
from cass_lsp.infer.backend import Generation, GenerationParams, Message, ModelError
from cass_lsp.infer.llama import LlamaBackend

PROBE_FAULT_ENV = "CASS_LSP_PROBE_FAULT"
"""Tests only: a signal name (SIGSEGV) the worker dies of where the probe decodes, standing in for
the AMX crash, which no CPU without AMX can have."""
_LENGTH = struct.Struct(">I")


class Load(msgspec.Struct, tag=True, frozen=True):
    path: str
    name: str
    n_threads: int
    n_ctx: int
    n_gpu_layers: int
    extra_buffer_types: bool
    probe: bool
    """Decode a multi-token batch right after loading (see :mod:`cass_lsp.infer.cpu`)."""


class Generate(msgspec.Struct, tag=True, frozen=True):
    id: int
    messages: list[Message]
    params: GenerationParams


class Cancel(msgspec.Struct, tag=True, frozen=True):
    id: int


class Loaded(msgspec.Struct, tag=True, frozen=True):
    seconds: float
    backend: runtime.CpuBackend
    extra_buffer_types: bool
    """Whether the model was loaded with them (as llama.cpp was asked)."""


class Piece(msgspec.Struct, tag=True, frozen=True):
    id: int
    text: str


class Finished(msgspec.Struct, tag=True, frozen=True):
    id: int
    generation: Generation


class Failed(msgspec.Struct, tag=True, frozen=True):
    id: int | None
    """The generation that failed; None: the load."""
    message: str


Request = Load | Generate | Cancel
Reply = Loaded | Piece | Finished | Failed


def frame(message: Request | Reply) -> bytes:
    body = msgspec.msgpack.encode(message)
    return _LENGTH.pack(len(body)) + body


class Frames:
    """Splits a byte stream into messages of type ``kind``."""

    def __init__(self, kind: type[Request] | type[Reply]) -> None:
        self._decoder: msgspec.msgpack.Decoder[Request | Reply] = msgspec.msgpack.Decoder(kind)
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Request | Reply]:
        self._buffer += data
        messages = []
        while len(self._buffer) >= _LENGTH.size:
            (size,) = _LENGTH.unpack_from(self._buffer)
            if len(self._buffer) < _LENGTH.size + size:
                break
            messages.append(self._decoder.decode(self._buffer[_LENGTH.size : _LENGTH.size + size]))
            del self._buffer[: _LENGTH.size + size]
        return messages


class _Channel:
    """The protocol's ends, taken over from fds 0 and 1 before anything native can write to them."""

    def __init__(self) -> None:
        self.incoming: BinaryIO = os.fdopen(os.dup(0), "rb", buffering=0)
        self._out = os.dup(1)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(2, 1)
        self._lock = threading.Lock()

    def send(self, message: Reply) -> None:
        data = memoryview(frame(message))
        with self._lock:
            while data:
                data = data[os.write(self._out, data) :]


def _read_requests(channel: _Channel, work: queue.Queue[Load | Generate], tokens: dict[int, CancelToken]) -> None:
    frames = Frames(Request)  # type: ignore[arg-type]
    while data := channel.incoming.read(1 << 16):
        for message in frames.feed(data):
            if isinstance(message, Cancel):
                cancelled = tokens.get(message.id)
                if cancelled is not None:
                    cancelled.cancel()
            elif isinstance(message, Generate):
                tokens[message.id] = CancelToken()
                work.put(message)
            elif isinstance(message, Load):
                work.put(message)
    # the server closed the pipe or is gone: nothing is waiting for any answer
    os._exit(0)


def serve(channel: _Channel) -> None:
    work: queue.Queue[Load | Generate] = queue.Queue()
    tokens: dict[int, CancelToken] = {}
    threading.Thread(target=_read_requests, args=(channel, work, tokens), daemon=True, name="requests").start()
    load = work.get()
    if not isinstance(load, Load):
        channel.send(Failed(None, "the worker's first request must be Load"))
        return
    backend = LlamaBackend(
        load.path,
        name=load.name,
        n_threads=load.n_threads,
        n_ctx=load.n_ctx,
        n_gpu_layers=load.n_gpu_layers,
        extra_buffer_types=load.extra_buffer_types,
    )
    try:
        started = time.monotonic()
        llm = backend.load()
        if load.probe:
            _probe_fault()
            backend.probe()
        channel.send(Loaded(time.monotonic() - started, runtime.describe(), bool(llm.model_params.use_extra_bufts)))
    except ModelError as error:
        channel.send(Failed(None, str(error)))
        return
    while True:
        request = work.get()
        if not isinstance(request, Generate):
            continue

        def send_piece(text: str, id: int = request.id) -> None:
            channel.send(Piece(id, text))

        try:
            generation = backend.generate(request.messages, request.params, send_piece, tokens[request.id])
            channel.send(Finished(request.id, generation))
        except ModelError as error:
            channel.send(Failed(request.id, str(error)))
        finally:
            tokens.pop(request.id, None)


def _probe_fault() -> None:
    name = os.environ.get(PROBE_FAULT_ENV)
    if name:
        signal.raise_signal(signal.Signals[name])


def main(argv: list[str]) -> int:
    if argv == ["--describe"]:
        try:
            sys.stdout.write(msgspec.json.encode(runtime.describe()).decode() + "\n")
        except ModelError as error:
            print(error, file=sys.stderr)
            return 1
        return 0
    # a crash leaves no core file behind (one per crash, each the size of the model), and says in
    # its last words on stderr where in Python it was (the server quotes them)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    faulthandler.enable()
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="worker: %(message)s")
    serve(_Channel())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
