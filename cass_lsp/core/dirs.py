"""The user folders of cass-lsp, in one place: the cache (generated toolchain files, results) and the
config folder (settings.toml, the models the user added), the runtime folder (the server's socket)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

CACHE_ENV = "CASS_LSP_CACHE_DIR"
CONFIG_ENV = "CASS_LSP_CONFIG_DIR"
RUNTIME_ENV = "CASS_LSP_RUNTIME_DIR"


def cache_root() -> Path:
    """``$CASS_LSP_CACHE_DIR`` if set (tests, CI caches), else the XDG user cache dir of cass-lsp."""
    override = os.environ.get(CACHE_ENV)
    return Path(override) if override else Path(platformdirs.user_cache_dir("cass-lsp"))


def config_dir() -> Path:
    """``$CASS_LSP_CONFIG_DIR`` if set (tests), else the user config folder of cass-lsp."""
    override = os.environ.get(CONFIG_ENV)
    return Path(override) if override else Path(platformdirs.user_config_dir("cass-lsp"))


def runtime_root() -> Path:
    """``$CASS_LSP_RUNTIME_DIR`` if set, else the user's runtime folder (``$XDG_RUNTIME_DIR/cass-lsp``);
    :func:`cass_lsp.server.transport.runtime_dir` creates it and checks who may write in it."""
    override = os.environ.get(RUNTIME_ENV)
    return Path(override) if override else Path(platformdirs.user_runtime_dir("cass-lsp"))
