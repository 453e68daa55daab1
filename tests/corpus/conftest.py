"""Fixtures for the corpus tests: the real compilers and the CUDA library headers they need.

A missing compiler or header set fails the tests that need it, with the command that installs it;
nothing here skips.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp import toolchains
from tests.corpus.cuda_lib_headers import HeaderFetchError, ensure_all


@pytest.fixture(scope="session")
def cuda_lib_includes() -> dict[str, Path]:
    """Include dir per CUDA library (cublas, cusparse, cufft, curand), fetched on first use."""
    try:
        return ensure_all()
    except HeaderFetchError as exc:
        pytest.fail(f"CUDA library headers unavailable: {exc}\n"
                    "fetch them with: .venv/bin/python -m tests.corpus.cuda_lib_headers")


@pytest.fixture(scope="session")
def nvcc() -> toolchains.Invocation:
    try:
        return toolchains.nvcc_invocation("sm_90")
    except toolchains.ToolchainMissing as exc:
        pytest.fail(str(exc))
