"""llama-cpp-python on a local GGUF file, in the process that calls it.

This is the engine the model's worker process runs (:mod:`cass_lsp.infer.worker`); the server
itself never loads llama.cpp but talks to a worker through :class:`cass_lsp.infer.process.ProcessBackend`,
so a native crash takes only the worker. The model loads on first use. Cancellation is checked
after every token (a stopping criterion) and during prompt evaluation (llama.cpp's abort callback),
so a cancel stops the work within one token or one evaluation batch. The prompt is rendered as
ChatML (:func:`cass_lsp.infer.prompts.render_chatml`), the format the CASS models were fine-tuned with.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from cass_lsp.core.cancel import CancelToken
from cass_lsp.infer.backend import Generation, GenerationParams, Message, ModelError

log = logging.getLogger(__name__)

# llama.cpp's ggml_abort_callback: bool (*)(void * data)
_ABORT_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p)
_NO_ABORT = _ABORT_CALLBACK()  # NULL: llama.cpp then asks nothing


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
        extra_buffer_types: bool = True,
    ) -> None:
        self.path = path
        self._name = name
        self._n_threads = n_threads or default_threads()
        self._n_ctx = n_ctx
        self._n_gpu_layers = n_gpu_layers
        self._extra_buffer_types = extra_buffer_types
        self._llm: Any = None
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
        try:
            llm = self.load()
            if token.cancelled:
                return Generation("", "cancelled", 0, 0.0, self.label)
            return self._stream(llm, render_chatml(messages), params, on_text, token, started, deadline)
        finally:
            self._abort = None

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
        import llama_cpp

        llama_cpp.llama_set_abort_callback(llm._ctx.ctx, self._abort_callback, None)
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
                if self._abort is not None:
                    # the prompt is evaluated: the stopping criterion checks every token from here
                    # on, and llama.cpp would call the abort callback, in Python, after every node
                    # of every token's graph (a few percent of the time of a small model)
                    self._abort = None
                    llama_cpp.llama_set_abort_callback(llm._ctx.ctx, _NO_ABORT, None)
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
    def load(self) -> Any:
        """The loaded ``llama_cpp.Llama`` (loading it the first time); ModelError when it cannot be."""
        if self._llm is not None:
            return self._llm
        from cass_lsp.infer import gguf_file, runtime

        try:
            gguf_file.read(self.path)
        except gguf_file.GgufError as error:
            raise ModelError(f"{self.label}: {error}") from error
        # OpenMP workers that spin while waiting slow generation 5-10x on a busy small machine
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        llama_cpp = runtime.load()
        started = time.monotonic()
        try:
            with model_params(llama_cpp, use_extra_bufts=self._extra_buffer_types):
                self._llm = llama_cpp.Llama(
                    model_path=self.path,
                    n_ctx=self._n_ctx,
                    n_threads=self._n_threads,
                    n_gpu_layers=self._n_gpu_layers,
                    verbose=False,
                )
        except (ValueError, RuntimeError) as error:
            raise ModelError(f"{self.label}: llama.cpp could not load {self.path}: {error}") from error
        log.info(
            "loaded %s in %.1f s (extra buffer types %s)",
            self.path,
            time.monotonic() - started,
            "on" if self._llm.model_params.use_extra_bufts else "off",
        )
        return self._llm

    def probe(self) -> None:
        """Decode a multi-token batch and forget it: where llama.cpp's AMX path is broken, this is
        where it crashes (a one-token decode works), before a user's request does."""
        llm = self.load()
        tokens = llm.tokenize(_PROBE_TEXT.encode(), add_bos=True, special=False)[: llm.n_ctx() - 1]
        llm.eval(tokens)
        llm.reset()

    def _should_abort(self, data: Any) -> bool:
        """llama.cpp asks this during prompt evaluation too, where no token comes to stop at."""
        abort = self._abort
        return abort is not None and (abort[0].cancelled or time.monotonic() > abort[1])

    def close(self) -> None:
        if self._llm is not None:
            with contextlib.suppress(Exception):
                self._llm.close()
            self._llm = None
            log.info("unloaded %s", self.path)


# More than a 68-token prompt, the shortest known to crash llama.cpp's AMX path with a Q4_1 model.
_PROBE_TEXT = " ".join(f"__global__ void kernel{i}(float* a) {{ a[threadIdx.x] += {i}.0f; }}" for i in range(12))


@contextlib.contextmanager
def model_params(llama_cpp: Any, *, use_extra_bufts: bool) -> Iterator[None]:
    """``Llama()`` inside loads with ``use_extra_bufts`` set: llama-cpp-python's ``Llama()`` (0.3.36)
    takes no argument for it and fills its model parameters from ``llama_model_default_params()``
    inside the constructor, so that function answers with the field set meanwhile (a worker loads
    one model, on one thread)."""
    module = llama_cpp.llama_cpp
    defaults = module.llama_model_default_params

    def params() -> Any:
        chosen = defaults()
        chosen.use_extra_bufts = use_extra_bufts
        return chosen

    module.llama_model_default_params = params
    try:
        yield
    finally:
        module.llama_model_default_params = defaults
