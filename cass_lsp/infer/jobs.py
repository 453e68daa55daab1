"""The ``generate`` job kind: model generations, one at a time (one worker for every model)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cass_lsp.core.jobs import JobKind, key

if TYPE_CHECKING:
    from cass_lsp.core.settings import ModelSettings

GENERATE = JobKind("generate", concurrency=1, reads=())


def generation_key(model: ModelSettings, *inputs: object) -> str:
    """The key of a `generate` job: the model's settings and everything the prompt is made of."""
    import msgspec

    return key(GENERATE.name, msgspec.to_builtins(model), *inputs)

