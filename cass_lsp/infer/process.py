"""The local model as the server uses it: llama.cpp in a worker process per loaded model.

:class:`ProcessBackend` starts the worker (:mod:`cass_lsp.infer.worker`) on first use, keeps it
warm, and closes it after the idle period (the worker exits: the memory goes back). One generation
runs at a time per model. A cancel goes to the worker as a message; a worker that does not stop
within a grace period after its deadline or a cancel is killed. A worker that dies (any signal: a
segfault in llama.cpp, an illegal instruction, the out-of-memory killer) is a :class:`ModelError`
naming the signal and its likely cause; the next request starts a fresh worker, and the server
itself never ran the native code.

Extra buffer types (weight repacking) follow :mod:`cass_lsp.infer.cpu`: where it asks for a probe,
the first worker loads with them on and decodes a multi-token batch; if it dies doing so, the
answer is kept and a second worker loads without them, so the request still gets its answer.

The worker is in its own process group (a signal for the server's terminal never reaches it
first); it dies with the server because its stdin is the only end of its request pipe: when the
server goes, however it goes, the pipe closes and the worker exits (``PR_SET_PDEATHSIG`` would
fire when the *thread* that started it ends, and that is whichever job thread asked first).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer import cpu
from cass_lsp.infer.backend import FinishReason, Generation, GenerationParams, Message, ModelError
from cass_lsp.infer.worker import Cancel, Failed, Finished, Frames, Generate, Load, Loaded, Piece, Reply, frame

log = logging.getLogger(__name__)

STOP_GRACE_S = 2.0
"""How long a worker may take to stop after its deadline or a cancel before it is killed."""
_POLL_S = 0.05
"""How often a waiting generation looks at its cancel token (a cancel is sent within this)."""
_STDERR_KEPT = 100
"""The worker's last stderr lines, quoted when it dies (a failed GGML_ASSERT says why; the Python
fault handler's report of every thread follows it)."""
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


def worker_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a worker process: this one's, running this very cass_lsp (whatever its
    folder), with OpenMP threads that sleep while they wait (spinning ones slow generation 5-10x
    on a busy small machine)."""
    env = {"OMP_WAIT_POLICY": "PASSIVE", **os.environ, **(extra or {})}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH")) if p)
    return env


class WorkerDied(Exception):
    def __init__(self, returncode: int, stderr: list[str]) -> None:
        super().__init__(returncode)
        self.returncode = returncode
        self.stderr = stderr


class _Worker:
    """One worker process: its pipes, the replies read so far, its stderr's last lines."""

    def __init__(self, load: Load, env: Mapping[str, str]) -> None:
        self.load = load
        self.loaded = False
        self.stopping = False  # closed on purpose: its end is no crash
        self._stopped = False
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cass_lsp.infer.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env),
            # not the server's folder (the workspace): the worker never looks for files there
            cwd="/",
            start_new_session=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        self._stdin = self.proc.stdin
        self._stdout = self.proc.stdout.fileno()
        self._selector = selectors.PollSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._frames = Frames(Reply)  # type: ignore[arg-type]
        self._replies: collections.deque[Reply] = collections.deque()
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_KEPT)
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True, name="model-worker-stderr")
        self._stderr_reader.start()
        self.send(load)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, message: Load | Generate | Cancel) -> None:
        try:
            self._stdin.write(frame(message))
            self._stdin.flush()
        except (BrokenPipeError, ValueError):  # it died (or was closed): the next receive says how
            pass

    def receive(self, timeout: float) -> Reply | None:
        """The next reply, or None when none came within ``timeout``; WorkerDied when it ended."""
        deadline = time.monotonic() + timeout
        while not self._replies:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._selector.select(remaining):
                return None
            data = os.read(self._stdout, 1 << 16)
            if not data:
                raise WorkerDied(self._wait(), list(self._stderr))
            self._replies.extend(self._frames.feed(data))  # type: ignore[arg-type]
        return self._replies.popleft()

    def _wait(self) -> int:
        """The worker's exit status, once it has gone (its stdout closed: it is on its way)."""
        try:
            code = self.proc.wait(STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.wait()
        self._stderr_reader.join(1)  # the last words it wrote
        return code

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip()
            if line:
                self._stderr.append(line)
                log.debug("model worker %d: %s", self.proc.pid, line)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    def stop(self) -> None:
        """End the worker: closing its stdin makes it exit; a worker that does not is killed."""
        self.stopping = True
        if self._stopped:
            return
        self._stopped = True
        with contextlib.suppress(OSError):
            self._stdin.close()
        try:
            self.proc.wait(STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            self.kill()
            self.proc.wait()
        # anything it left in its group (it starts none) goes with it
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self._selector.close()
        self.proc.stdout.close()  # type: ignore[union-attr]
        self._stderr_reader.join(1)
        self.proc.stderr.close()  # type: ignore[union-attr]


class ProcessBackend:
    """The ``llama`` backend: :class:`cass_lsp.infer.llama.LlamaBackend` in a worker process."""

    def __init__(
        self,
        path: str,
        *,
        name: str,
        n_threads: int = 0,
        n_ctx: int = 8192,
        n_gpu_layers: int = 0,
        idle_unload_s: float = 600.0,
        extra_buffer_types: cpu.ExtraBufferTypes = "auto",
        this_cpu: cpu.CpuInfo | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        """``this_cpu``: what the extra buffer types are decided for (default: this machine's);
        ``env``: more environment for the worker."""
        self.path = path
        self._name = name
        self._n_threads = n_threads
        self._n_ctx = n_ctx
        self._n_gpu_layers = n_gpu_layers
        self._idle_unload_s = idle_unload_s
        self._extra_buffer_types = extra_buffer_types
        self._cpu = this_cpu
        self._env = worker_env(env)
        self._worker: _Worker | None = None
        self._lock = threading.Lock()
        self._unload_timer: threading.Timer | None = None
        self._next_id = 0
        self.last_load: Loaded | None = None
        """What the current worker reported when it had loaded the model."""

    @property
    def label(self) -> str:
        return self._name

    @property
    def model_name(self) -> str:
        return self._name

    @property
    def pid(self) -> int | None:
        """The worker's process id while one runs."""
        worker = self._worker
        return worker.pid if worker is not None else None

    def generate(
        self,
        messages: list[Message],
        params: GenerationParams,
        on_text: Callable[[str], None],
        token: CancelToken,
    ) -> Generation:
        started = time.monotonic()
        deadline = started + params.timeout_s
        with self._lock:
            self._cancel_unload()
            try:
                worker = self._ready(token, deadline)
                if worker is None:
                    timed_out = time.monotonic() > deadline and not token.cancelled
                    return Generation("", "timeout" if timed_out else "cancelled", 0, time.monotonic() - started, self.label)
                return self._run(worker, messages, params, on_text, token, started, deadline)
            finally:
                self._schedule_unload()

    def _run(
        self,
        worker: _Worker,
        messages: list[Message],
        params: GenerationParams,
        on_text: Callable[[str], None],
        token: CancelToken,
        started: float,
        deadline: float,
    ) -> Generation:
        self._next_id += 1
        request = self._next_id
        remaining = max(deadline - time.monotonic(), 0.001)
        worker.send(Generate(request, messages, GenerationParams(params.max_tokens, params.temperature, remaining)))
        pieces: list[str] = []
        give_up = deadline + STOP_GRACE_S
        cancel_sent = False
        try:
            while True:
                if token.cancelled and not cancel_sent:
                    worker.send(Cancel(request))
                    cancel_sent = True
                    give_up = min(give_up, time.monotonic() + STOP_GRACE_S)
                now = time.monotonic()
                if now > give_up:
                    # it did not stop (native code that checks no abort flag): the worker goes
                    log.warning("model worker %d did not stop within %.0f s: killed", worker.pid, STOP_GRACE_S)
                    self._discard(worker)
                    reason: FinishReason = "cancelled" if token.cancelled else "timeout"
                    return Generation("".join(pieces), reason, len(pieces), now - started, self.label)
                reply = worker.receive(min(_POLL_S, give_up - now))
                if isinstance(reply, Piece) and reply.id == request:
                    pieces.append(reply.text)
                    on_text(reply.text)
                elif isinstance(reply, Finished) and reply.id == request:
                    done = reply.generation
                    return Generation(done.text, done.finish_reason, done.tokens, time.monotonic() - started, self.label)
                elif isinstance(reply, Failed) and reply.id == request:
                    raise ModelError(reply.message)
        except WorkerDied as died:
            closed = worker.stopping  # closed under it (the server is shutting down): no crash
            self._forget(worker)
            if closed:
                return Generation("".join(pieces), "cancelled", len(pieces), time.monotonic() - started, self.label)
            raise ModelError(died_message(self.label, died, "generating", worker.load.extra_buffer_types)) from None

    def _ready(self, token: CancelToken, deadline: float) -> _Worker | None:
        """The worker with the model loaded, started when there is none; None when the request was
        cancelled or ran out of time while it loads (it goes on loading for the next request), or
        the backend was closed meanwhile."""
        worker = self._worker
        if worker is None:
            worker = self._start(self._choice())
        while not worker.loaded:
            if token.cancelled or time.monotonic() > deadline:
                return None
            try:
                reply = worker.receive(_POLL_S)
            except WorkerDied as died:
                closed = worker.stopping  # closed while it loaded (the server is shutting down)
                self._forget(worker)
                if closed:
                    return None
                if not worker.load.probe:
                    raise ModelError(died_message(self.label, died, "loading the model", worker.load.extra_buffer_types)) from None
                how = signal_name(died.returncode)
                log.warning(
                    "%s: llama.cpp died of %s in the extra buffer type probe on this CPU: loading without them",
                    self.label,
                    how,
                )
                cpu.record(self._probe_key(), passed=False)
                worker = self._start(cpu.Choice(False, False, f"the probe died of {how}"))
                continue
            if isinstance(reply, Loaded):
                worker.loaded = True
                self.last_load = reply
                if worker.load.probe:
                    cpu.record(self._probe_key(), passed=True)
                log.info(
                    "%s: worker %d loaded the model in %.1f s on %s (extra buffer types %s: %s)",
                    self.label,
                    worker.pid,
                    reply.seconds,
                    reply.backend.library,
                    "on" if reply.extra_buffer_types else "off",
                    ", ".join(reply.backend.extra_buffer_types) or "none offered",
                )
            elif isinstance(reply, Failed):
                self._discard(worker)
                raise ModelError(reply.message)
        return worker

    def _choice(self) -> cpu.Choice:
        this = self._cpu or cpu.this_cpu()
        known = cpu.probed(self._probe_key()) if self._extra_buffer_types == "auto" and this.has_amx else None
        choice = cpu.choose(self._extra_buffer_types, this, known)
        log.info("%s: extra buffer types %s (%s)", self.label, "on" if choice.on else "off", choice.reason)
        return choice

    def _probe_key(self) -> str:
        """Repacking is chosen per tensor type: a probe's answer holds for the model's quantization."""
        from cass_lsp.infer import gguf_file

        try:
            quantization = gguf_file.read(self.path).file_type
        except gguf_file.GgufError:  # the worker says what is wrong with the file
            quantization = None
        return cpu.probe_key(self._cpu or cpu.this_cpu(), quantization)

    def _start(self, choice: cpu.Choice) -> _Worker:
        load = Load(
            path=os.path.abspath(self.path),  # the worker runs in another folder
            name=self._name,
            n_threads=self._n_threads,
            n_ctx=self._n_ctx,
            n_gpu_layers=self._n_gpu_layers,
            extra_buffer_types=choice.on,
            probe=choice.probe,
        )
        try:
            self._worker = _Worker(load, self._env)
        except OSError as error:
            raise ModelError(f"{self.label}: could not start the model's worker process: {error}") from error
        return self._worker

    def _forget(self, worker: _Worker) -> None:
        """A worker that has ended: release its pipes, and start afresh next time."""
        if self._worker is worker:
            self._worker = None
        worker.stop()

    def _discard(self, worker: _Worker) -> None:
        worker.kill()
        self._forget(worker)

    def close(self) -> None:
        """End the worker now, even mid-generation (that generation then ends as cancelled)."""
        self._cancel_unload()
        if self._lock.acquire(blocking=False):
            try:
                worker, self._worker = self._worker, None
                if worker is not None:
                    worker.stop()
            finally:
                self._lock.release()
            return
        worker = self._worker
        if worker is not None:  # the generation in flight sees it end, and releases it
            worker.stopping = True
            worker.kill()

    def _schedule_unload(self) -> None:
        if self._idle_unload_s <= 0 or self._worker is None:
            return
        self._unload_timer = threading.Timer(self._idle_unload_s, self._idle)
        self._unload_timer.daemon = True
        self._unload_timer.start()

    def _cancel_unload(self) -> None:
        if self._unload_timer is not None:
            self._unload_timer.cancel()
            self._unload_timer = None

    def _idle(self) -> None:
        if self._lock.acquire(blocking=False):
            try:
                worker, self._worker = self._worker, None
                if worker is not None:
                    worker.stop()
                    log.info("%s: unloaded after %.0f s unused (worker %d exited)", self.label, self._idle_unload_s, worker.pid)
            finally:
                self._lock.release()


def signal_name(returncode: int) -> str:
    if returncode < 0:
        with contextlib.suppress(ValueError):
            return signal.Signals(-returncode).name
        return f"signal {-returncode}"
    return f"exit status {returncode}"


def died_message(label: str, died: WorkerDied, doing: str, extra_buffer_types: bool) -> str:
    """What the user reads when the worker died: the signal, what it likely means, what to do."""
    code = died.returncode
    number = -code if code < 0 else None
    if number in (signal.SIGSEGV, signal.SIGBUS):
        cause = "a crash inside llama.cpp"
        if extra_buffer_types:
            cause += (
                "; with weight repacking on, llama.cpp's AMX path on a current Xeon is a known cause:"
                ' set cass.model.extraBufferTypes to "off"'
            )
    elif number == signal.SIGILL:
        cause = (
            "llama.cpp used an instruction this CPU lacks: a llama-cpp-python wheel built for another CPU"
            " (pip's cache carries a native build across machines); rebuild it with ./scripts/setup.sh, which builds it portably"
        )
    elif number == signal.SIGKILL:
        cause = (
            "it was killed, most often by the kernel's out-of-memory killer: the model may need more memory"
            " than is free (a smaller model or quantization, or a smaller cass.model.nCtx)"
        )
    elif number == signal.SIGABRT:
        cause = "llama.cpp stopped on a failed check"
    elif number is not None:
        cause = "it was stopped from outside"
    else:
        cause = "it exited by itself"
    what = f"died of {signal_name(code)}" if number is not None else f"ended with {signal_name(code)}"
    said = _last_words(died.stderr)
    return (
        f"{label}: the model's worker process {what} while {doing}: {cause}{said}."
        " The server is unaffected: the next request starts a fresh worker"
    )


def _last_words(stderr: list[str]) -> str:
    """What the worker's stderr says about its end: the last line before Python's fault handler
    report (llama.cpp's own, such as a failed GGML_ASSERT), and where the crashed thread was."""
    report = next((i for i, line in enumerate(stderr) if line.startswith("Fatal Python error")), len(stderr))
    before = [line for line in stderr[:report] if not line.startswith("worker: ")]  # its own log
    said = f"; its last words: {before[-1][:300]}" if before else ""
    current = next((i for i, line in enumerate(stderr) if line.startswith("Current thread")), None)
    if current is not None and current + 1 < len(stderr):
        said += f" (in Python: {stderr[current + 1].strip()[:300]})"
    return said
