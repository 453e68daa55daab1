"""Fixtures the toolchain tier's sandbox tests share."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest

from cass_lsp.verify import sandbox


@pytest.fixture(params=sandbox.LEVELS)
def level(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each sandbox level this kernel offers, forced, with unconfined runs allowed at "none" (a
    level the kernel lacks is a platform fact: skipped, and said)."""
    monkeypatch.setenv(sandbox.LEVEL_ENV, request.param)
    got = sandbox.isolation()
    if got.level != request.param:
        pytest.skip(f"this kernel has no {request.param} level: {got.note}")
    monkeypatch.setattr(sandbox, "run", functools.partial(sandbox.run, allow_unconfined=True))
    yield request.param
