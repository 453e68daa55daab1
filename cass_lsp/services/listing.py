"""Listings of a file as ``cass-lsp asm`` makes them: one compile per target, all at once, through
the result cache (:func:`cass_lsp.asm.jobs.build_listing`, which the language server's ``listing``
jobs run too, one per document and target)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cass_lsp.asm.jobs import build_listing
from cass_lsp.asm.listing import TargetResult
from cass_lsp.core.cache import ResultCache
from cass_lsp.core.progress import Progress
from cass_lsp.services.settings import ResolvedSettings


def listings(
    resolved: ResolvedSettings,
    source: str,
    path: Path,
    targets: Sequence[str],
    *,
    use_cache: bool,
    begin: Callable[[str], Progress],
) -> dict[str, TargetResult]:
    """The listing (or why there is none) of ``source``, the text of ``path``, for each target;
    ``begin(target)`` starts the progress of its compile."""
    cache = ResultCache(max_bytes=resolved.cache_max_bytes)

    def one(target: str) -> TargetResult:
        progress = begin(target)
        try:
            return build_listing(resolved, source, str(path), target, cache=cache, use_cache=use_cache)
        finally:
            progress.end()

    with ThreadPoolExecutor(max_workers=len(targets)) as pool:
        return dict(zip(targets, pool.map(one, targets), strict=True))
