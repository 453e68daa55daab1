"""The job kinds' common ground: what a kind is, content keys, and how much lower background work runs.

Each domain declares its own kind (name, concurrency, the ResolvedSettings fields it reads), key and
synchronous work in its own package; the scheduler (:mod:`.scheduler`) and the result cache
(:mod:`.cache`) know no domain:

- ``translate``: :mod:`cass_lsp.translate.jobs` (memoized; lint diagnostics are the findings of the
  whole-file translation, so the diagnostics pass and "Translate file" share one run);
- ``asm``: :mod:`cass_lsp.asm.jobs` (per target; the work builds the full content key and looks in
  the result cache);
- ``generate``: :mod:`cass_lsp.infer.jobs` (model generations);
- ``verify-compile`` / ``verify-run``: :mod:`cass_lsp.verify.jobs` (their keys are made in
  cass_lsp.verify, stages and run).

Both consumers run exactly the domains' work functions: the server through the scheduler (off the
event loop, shared, superseded), the CLI verbs by calling them directly.
"""

from __future__ import annotations

import functools
from typing import NamedTuple


class JobKind(NamedTuple):
    """A kind of job: its name (also its cache namespace), how many may run at once, which
    ResolvedSettings fields its results depend on, and whether results are kept by key."""

    name: str
    concurrency: int
    reads: tuple[str, ...]
    memoize: bool = False


# How much lower background compiles run than the server (nice levels).
BACKGROUND_NICE = 10


# hashlib and json load on first use: the `translate` verb's cold start never needs them
def key(*parts: object) -> str:
    import hashlib
    import json

    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


@functools.lru_cache(maxsize=32)
def text_digest(text: str) -> str:
    """Cached: hover and code actions ask for the same document text's key on every request (a
    str's own hash is kept on the object, so a repeated text is found without rehashing it)."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

