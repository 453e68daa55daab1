"""Where cass-lsp keeps generated toolchain files and caches."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

CACHE_ENV = "CASS_LSP_CACHE_DIR"


def cache_root() -> Path:
    """``$CASS_LSP_CACHE_DIR`` if set (tests, CI caches), else the XDG user cache dir of cass-lsp."""
    override = os.environ.get(CACHE_ENV)
    return Path(override) if override else Path(platformdirs.user_cache_dir("cass-lsp"))
