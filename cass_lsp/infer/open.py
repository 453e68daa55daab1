"""The backend the settings name, built once per model and kept (loading a GGUF takes seconds)."""

from __future__ import annotations

import threading

import msgspec

from cass_lsp.core.settings import ModelSettings
from cass_lsp.infer.backend import Backend, GenerationParams, ModelError


class Backends:
    """One backend per model identity, the two most recently used kept (a source model and an
    assembly model): a changed setting that affects loading (the model, threads, context, GPU
    layers, extra buffer types, endpoint) gives a new one and closes the oldest; generation settings (max tokens,
    temperature, timeout) do not."""

    KEPT = 2

    def __init__(self) -> None:
        self._kept: dict[ModelSettings, Backend] = {}
        self._lock = threading.Lock()

    def get(self, settings: ModelSettings) -> Backend:
        identity = _identity(settings)
        with self._lock:
            backend = self._kept.pop(identity, None) or open_backend(settings)
            self._kept[identity] = backend  # most recently used last
            while len(self._kept) > self.KEPT:
                oldest = next(iter(self._kept))
                self._kept.pop(oldest).close()
            return backend

    def close(self) -> None:
        with self._lock:
            for backend in self._kept.values():
                backend.close()
            self._kept.clear()


def generation_params(settings: ModelSettings) -> GenerationParams:
    return GenerationParams(settings.max_tokens, settings.temperature, settings.timeout_seconds)


def _identity(settings: ModelSettings) -> ModelSettings:
    return msgspec.structs.replace(settings, temperature=0.0, max_tokens=0, timeout_seconds=0.0, assembly_name=None)


def open_backend(settings: ModelSettings) -> Backend:
    """The backend for ``settings`` (no loading yet); ModelError when the model cannot be found."""
    if settings.name is None and settings.backend == "llama":
        raise ModelError("no CASS model is configured: set cass.model.name (see `cass-lsp models list`)")
    if settings.backend == "openai":
        from cass_lsp.infer.openai import OpenAIBackend

        if not settings.endpoint:
            raise ModelError('cass.model.backend is "openai" but cass.model.endpoint is not set')
        return OpenAIBackend(settings.endpoint, settings.name or "default", api_key_env=settings.api_key_env)
    from cass_lsp.infer import registry
    from cass_lsp.infer.process import ProcessBackend

    assert settings.name is not None
    try:
        found = registry.resolve(settings.name)
    except registry.RegistryError as error:
        raise ModelError(str(error)) from error
    return ProcessBackend(
        found.path,
        name=found.name,
        n_threads=settings.n_threads,
        n_ctx=settings.n_ctx,
        n_gpu_layers=settings.n_gpu_layers,
        idle_unload_s=settings.idle_unload_seconds,
        extra_buffer_types=settings.extra_buffer_types,
    )
