"""llama-cpp-python on a local GGUF file: the default, offline backend.

The model loads on first use (on the calling worker thread) and unloads after an idle period.
One generation runs at a time per model (a lock; the job layer's ``generate`` pool also has one
worker). Cancellation is checked after every token (a stopping criterion) and during prompt
evaluation (llama.cpp's abort callback), so a cancel stops the work within one token or one
evaluation batch. The prompt is rendered as ChatML (:func:`cass_lsp.infer.prompts.render_chatml`),
the format the CASS models were fine-tuned with.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer.backend import Generation, GenerationParams, Message, ModelError

log = logging.getLogger(__name__)

# llama.cpp's ggml_abort_callback: bool (*)(void * data)
_ABORT_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p)


def default_threads() -> int:
    """All the cores this process may use but one (the editor and the server need one), and at
    least two where there are two: one thread of two cores halves every generation's speed."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(cores - 1, min(cores, 2))


class LlamaBackend:
    def __init__(
        self,
        path: str,
        *,
        name: str,
        n_threads: int = 0,
        n_ctx: int = 8192,
        n_gpu_layers: int = 0,
        idle_unload_s: float = 600.0,
    ) -> None:
        self.path = path
        self._name = name
        self._n_threads = n_threads or default_threads()
        self._n_ctx = n_ctx
        self._n_gpu_layers = n_gpu_layers
        self._idle_unload_s = idle_unload_s
        self._llm: Any = None
        self._lock = threading.Lock()
        self._unload_timer: threading.Timer | None = None
        self._abort: tuple[CancelToken, float] | None = None  # the running generation's token, deadline
        self._abort_callback = _ABORT_CALLBACK(self._should_abort)  # kept alive with the backend

    @property
    def label(self) -> str:
        return self._name

    @property
    def model_name(self) -> str:
        return self._name

    def generate(
        self,
        messages: list[Message],
        params: GenerationParams,
        on_text: Callable[[str], None],
        token: CancelToken,
    ) -> Generation:
        from cass_lsp.infer.prompts import render_chatml

        started = time.monotonic()
        deadline = started + params.timeout_s
        with self._lock:
            self._cancel_unload()
            try:
                llm = self._load()
                if token.cancelled:
                    return Generation("", "cancelled", 0, 0.0, self.label)
                return self._stream(llm, render_chatml(messages), params, on_text, token, started, deadline)
            finally:
                self._abort = None
                self._schedule_unload()

    def _stream(
        self,
        llm: Any,
        prompt: str,
        params: GenerationParams,
        on_text: Callable[[str], None],
        token: CancelToken,
        started: float,
        deadline: float,
    ) -> Generation:
        timed_out = threading.Event()

        def stop(input_ids: Any, logits: Any) -> bool:
            if time.monotonic() > deadline:
                timed_out.set()
            return token.cancelled or timed_out.is_set()

        # llama-cpp-python raises ValueError for a prompt that fills the context: say what it means
        prompt_tokens = len(llm.tokenize(prompt.encode("utf-8"), special=True))
        if prompt_tokens >= llm.n_ctx():
            raise ModelError(
                f"{self.label}: the region is too long for the model's context: the prompt is {prompt_tokens}"
                f" tokens, the context {llm.n_ctx()} (cass.model.nCtx); translate a smaller region or raise nCtx"
            )
        self._abort = (token, deadline)
        pieces: list[str] = []
        finish = "stop"
        from llama_cpp import StoppingCriteriaList

        try:
            stream = llm.create_completion(
                prompt,
                max_tokens=params.max_tokens,
                temperature=params.temperature,
                top_k=1 if params.temperature == 0 else 40,
                stream=True,
                stopping_criteria=StoppingCriteriaList([stop]),
            )
            for chunk in stream:
                choice = chunk["choices"][0]
                if choice["text"]:
                    pieces.append(choice["text"])
                    on_text(choice["text"])
                finish = choice.get("finish_reason") or finish
        except RuntimeError as error:
            # an aborted prompt evaluation surfaces as a decode error
            if time.monotonic() > deadline:
                timed_out.set()
            elif not token.cancelled:
                raise ModelError(f"{self.label}: generation failed: {error}") from error
        except ValueError as error:  # what llama-cpp-python refuses of a request
            raise ModelError(f"{self.label}: generation failed: {error}") from error
        if timed_out.is_set():
            finish = "timeout"
        elif token.cancelled:
            finish = "cancelled"
        elif finish not in ("stop", "length"):
            finish = "stop"
        return Generation("".join(pieces), finish, len(pieces), time.monotonic() - started, self.label)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ loading
    def _load(self) -> Any:
        if self._llm is not None:
            return self._llm
        from cass_lsp.infer import gguf_file

        try:
            gguf_file.read(self.path)
        except gguf_file.GgufError as error:
            raise ModelError(f"{self.label}: {error}") from error
        # OpenMP workers that spin while waiting slow generation 5-10x on a busy small machine
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import llama_cpp
        except ImportError as error:
            raise ModelError(
                "llama-cpp-python is not installed: pip install 'cass-lsp[model]' (./scripts/setup.sh does)"
            ) from error
        started = time.monotonic()
        try:
            self._llm = llama_cpp.Llama(
                model_path=self.path,
                n_ctx=self._n_ctx,
                n_threads=self._n_threads,
                n_gpu_layers=self._n_gpu_layers,
                verbose=False,
            )
        except (ValueError, RuntimeError) as error:
            raise ModelError(f"{self.label}: llama.cpp could not load {self.path}: {error}") from error
        llama_cpp.llama_set_abort_callback(self._llm._ctx.ctx, self._abort_callback, None)
        log.info("loaded %s in %.1f s", self.path, time.monotonic() - started)
        return self._llm

    def _should_abort(self, data: Any) -> bool:
        """llama.cpp asks this during prompt evaluation too, where no token comes to stop at."""
        abort = self._abort
        return abort is not None and (abort[0].cancelled or time.monotonic() > abort[1])

    def close(self) -> None:
        with self._lock:
            self._cancel_unload()
            self._unload()

    def _unload(self) -> None:
        if self._llm is not None:
            with contextlib.suppress(Exception):
                self._llm.close()
            self._llm = None
            log.info("unloaded %s", self.path)

    def _schedule_unload(self) -> None:
        if self._idle_unload_s <= 0:
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
                self._unload()
            finally:
                self._lock.release()
