"""Fixtures for the corpus tests: the real compilers and the CUDA library headers they need.

A missing compiler or header set fails the tests that need it, with the command that installs it;
nothing here skips.
"""

from __future__ import annotations

import pytest

from cass_lsp import toolchains
from cass_lsp.toolchains import cudalibs


@pytest.fixture(scope="session")
def nvcc() -> toolchains.Invocation:
    """nvcc for sm_90 with the CUDA library headers (cuBLAS, cuRAND, ...) the corpus includes,
    fetched by the product's setup step on first use."""
    try:
        cudalibs.fetch()
        return toolchains.nvcc_invocation("sm_90")
    except toolchains.ToolchainMissing as exc:
        pytest.fail(f"{exc.what} not found: {exc.hint}")
