"""The known CASS models: ``gguf/manifest.toml`` as msgspec Structs.

The manifest says how each model is prompted (template and fences), what it translates, and how to
build its GGUF (base model, checkpoint, quantization). Installed, the file is
``cass_lsp/gguf/manifest.toml`` (force-included into the wheel); in a checkout it is read in place.
"""

from __future__ import annotations

import functools
import os
from typing import Literal

import msgspec

ModelRole = Literal["src", "asm"]
"""src: CUDA source to HIP source; asm: NVIDIA SASS to AMD device assembly."""

_PACKAGED = os.path.join(os.path.dirname(os.path.dirname(__file__)), "gguf", "manifest.toml")
_SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "gguf", "manifest.toml")
_NAME_SEPARATORS = ".-_"


class ModelSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    role: ModelRole
    direction: str
    """What it translates: ``cuda-to-hip``, ``sass-to-rdna3``."""
    prompt: str
    """The user turn, with ``{code}`` where the input goes."""
    question_fence: str
    answer_fence: str
    """The info string of the fenced block that holds the answer's code."""
    quantization: str
    """The recommended llama.cpp quantization (``Q4_K_M``, ``Q8_0``)."""
    context_size: int
    """The context to open, prompt and answer together (tokens)."""
    architecture: str = "qwen2"
    """The GGUF ``general.architecture`` a correct conversion has."""
    base_model: str | None = None
    hf_repo: str | None = None
    """The published Hugging Face checkpoint the GGUF is converted from."""
    sass_arch: str | None = None
    """asm models: the NVIDIA architecture whose SASS they read (``sm_80``, ``sm_89``)."""
    sha256: str | None = None
    test_only: bool = False


class Manifest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    models: list[ModelSpec]

    def __post_init__(self) -> None:
        names = [spec.name.lower() for spec in self.models]
        if len(set(names)) != len(names):
            raise ValueError("model names must be unique (case-insensitively)")
        for spec in self.models:
            if "{code}" not in spec.prompt:
                raise ValueError(f"the prompt of {spec.name} has no {{code}} placeholder")

    def find(self, name: str) -> ModelSpec | None:
        return next((spec for spec in self.models if spec.name.lower() == name.lower()), None)

    def match_file(self, path: str) -> ModelSpec | None:
        """The model a GGUF file name names: ``cass-src-1.5b.Q4_K_M.gguf`` -> ``cass-src-1.5b``.

        The file's stem is the model name, alone or followed by a separator (``.``, ``-``, ``_``)
        and anything, such as a quantization; the longest such name wins.
        """
        stem = os.path.basename(path).lower().removesuffix(".gguf")
        found = [
            spec
            for spec in self.models
            if stem == spec.name.lower()
            or (stem.startswith(spec.name.lower()) and stem[len(spec.name)] in _NAME_SEPARATORS)
        ]
        return max(found, key=lambda spec: len(spec.name), default=None)


def manifest_path() -> str:
    return _PACKAGED if os.path.isfile(_PACKAGED) else _SOURCE


@functools.cache
def load_manifest() -> Manifest:
    """The manifest; a broken one raises (msgspec's error names the field), as it ships with us."""
    with open(manifest_path(), "rb") as file:
        return msgspec.toml.decode(file.read(), type=Manifest)


def find(name: str) -> ModelSpec | None:
    """The known model called ``name`` (case-insensitive), or None."""
    return load_manifest().find(name)
