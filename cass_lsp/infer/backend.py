"""The protocol every inference backend implements, and what a generation returns.

A backend is called from a job's worker thread (never the event loop). It streams the text as it
comes to ``on_text`` (each call gets the new piece only), stops within one token once ``token``
is cancelled (the result then says ``cancelled``), and raises :class:`ModelError` with a message
for the user when the model cannot be used at all (missing or invalid file, unreachable server).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Protocol

import msgspec

from cass_lsp.core.cancel import CancelToken

Role = Literal["system", "user", "assistant"]
FinishReason = Literal["stop", "length", "cancelled", "timeout"]


class Message(msgspec.Struct, frozen=True):
    role: Role
    content: str


class GenerationParams(msgspec.Struct, frozen=True):
    max_tokens: int = 2048
    temperature: float = 0.0
    """0: greedy (deterministic)."""
    timeout_s: float = 300.0
    """Wall-clock limit of one generation, prompt evaluation included."""


class Generation(msgspec.Struct, frozen=True):
    text: str
    finish_reason: FinishReason
    tokens: int
    seconds: float
    model: str
    """What produced it, for labels ("cass-src-1.5b Q4_K_M", "http://gpu:8000 cass-src-7b")."""


class ModelError(Exception):
    """The model cannot be used; the message says why and what to do."""


class Backend(Protocol):
    @property
    def label(self) -> str:
        """A short name for the model, shown to the user."""
        ...

    @property
    def model_name(self) -> str:
        """The model's own name (a manifest name for a CASS model), for its prompt format."""
        ...

    def generate(
        self,
        messages: list[Message],
        params: GenerationParams,
        on_text: Callable[[str], None],
        token: CancelToken,
    ) -> Generation: ...

    def close(self) -> None:
        """Release the model (memory, connections); a later generate loads it again."""
        ...
