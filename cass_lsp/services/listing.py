"""Listings of a file, for the CLI and the server: one target's listing as a job (:func:`job`: its
kind, its key, its work, through the result cache), which the server submits to its scheduler (one
slot per document and target) and ``cass-lsp asm`` runs in place, every target at once
(:func:`listings`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

from cass_lsp.asm.jobs import LISTING, build_listing, listing_key
from cass_lsp.asm.listing import TargetResult
from cass_lsp.core.cache import ResultCache
from cass_lsp.core.cancel import CancelToken
from cass_lsp.core.jobs import JobKind
from cass_lsp.core.progress import Progress
from cass_lsp.services.settings import ResolvedSettings


class ListingJob(NamedTuple):
    kind: JobKind
    key: str
    title: str
    work: Callable[[CancelToken | None, Progress], TargetResult]


def job(
    resolved: ResolvedSettings,
    text: str,
    path: str,
    target: str,
    *,
    cache: ResultCache | None,
    use_cache: bool = True,
    background: bool = False,
) -> ListingJob:
    """The listing of ``text`` (the buffer of ``path``) for ``target`` as a job; ``background``
    compiles at a lower CPU priority (the server's)."""

    def work(token: CancelToken | None, progress: Progress) -> TargetResult:
        return build_listing(
            resolved, text, path, target, cache=cache, token=token, use_cache=use_cache, background=background
        )

    key = listing_key(resolved, text, path, target)
    return ListingJob(LISTING, key, f"Compiling {Path(path).name} for {target}", work)


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
            return job(resolved, source, str(path), target, cache=cache, use_cache=use_cache).work(None, progress)
        finally:
            progress.end()

    with ThreadPoolExecutor(max_workers=len(targets)) as pool:
        return dict(zip(targets, pool.map(one, targets), strict=True))
