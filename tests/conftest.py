"""The test tiers: every test is marked by the folder it lives in, so ``pytest -m unit`` (or ``-m "not e2e"``,
...) selects a tier. The markers are registered in pyproject.toml and ``--strict-markers`` is on; a test in
a folder this map does not know is an error at collection, so a new folder has to say which tier it is.

    unit       tests/unit: no process, no socket, no server (tests/unit/conftest.py enforces it)
    toolchain  tests/toolchain, tests/cpu: the compilers, cmake/make, processes and local sockets
               (tests/cpu builds its kernels with g++)
    lsp        tests/lsp: the real server over stdio (pytest-lsp)
    e2e        tests/e2e: real Neovim and VS Code
    corpus     tests/corpus (and corpus/projects): the real-code corpus through the real compilers
    install    tests/install: the wheel, the sdist and the devcontainer
    gpu        tests/gpu: an NVIDIA GPU
    fuzz       tests/fuzz: the server under generated messages
    faults     tests/faults: the server under injected faults and refusals
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

# The first folder under tests/ -> its tier (the marker pyproject.toml registers). scripts/test.sh --fast
# runs `pytest -m unit tests/unit`: a second unit folder goes there too.
TIERS = {
    "unit": "unit",
    "toolchain": "toolchain",
    "cpu": "toolchain",
    "lsp": "lsp",
    "e2e": "e2e",
    "corpus": "corpus",
    "install": "install",
    "gpu": "gpu",
    "fuzz": "fuzz",
    "faults": "faults",
}


def tier_of(path: Path) -> str | None:
    """The tier of a test file, by the first folder under tests/; None when it is in no mapped folder."""
    try:
        parts = path.resolve().relative_to(TESTS).parts
    except ValueError:
        return None
    return TIERS.get(parts[0]) if len(parts) > 1 else None


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    unmapped: set[str] = set()
    for item in items:
        tier = tier_of(item.path)
        if tier is None:
            unmapped.add(str(item.path))
        else:
            item.add_marker(getattr(pytest.mark, tier))
    if unmapped:
        raise pytest.UsageError(
            "tests in a folder with no tier (add the folder to TIERS in tests/conftest.py, or move them):\n  "
            + "\n  ".join(sorted(unmapped))
        )
