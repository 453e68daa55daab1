"""User-only settings: ``settings.toml`` in the user's config folder, a file no workspace can write.

What an editor sends the server mixes the user's settings with the workspace's own
(``.vscode/settings.json``, ``.helix/languages.toml``, ``.dir-locals.el``), and nothing in the
message says which is which. The settings that must never come from a workspace live here instead:

```toml
trustedFolders = ["~/src/my-project"]   # workspaces treated as trusted by clients that say nothing
allowUnconfinedRuns = false             # run programs where no sandbox level confines them
```

The file counts only when it is the user's own and nobody else can write it (owner is the user,
not group- or world-writable); otherwise, and when it cannot be read or decoded, the defaults (no
trusted folder, no unconfined runs) apply and the reason is reported: a broken file fails closed.
"""

from __future__ import annotations

import logging
import os
import stat
import tomllib
from pathlib import Path

import msgspec

from cass_lsp.core.dirs import config_dir

log = logging.getLogger(__name__)

FILE_NAME = "settings.toml"


class UserSettings(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    trusted_folders: list[str] = msgspec.field(default_factory=list)
    """Folders (and everything below them) whose workspaces are trusted when the client does not
    say (``initializationOptions.workspaceTrusted``); ``~`` is expanded, relative paths are ignored."""
    allow_unconfined_runs: bool = False
    """Let verification run programs where the sandbox cannot confine them (the sandbox says how)."""

    def trusts(self, folders: list[str]) -> bool:
        """Whether every folder (real paths) lies inside a trusted folder; no folder: False."""
        trusted = [Path(os.path.realpath(os.path.expanduser(f))) for f in self.trusted_folders]
        trusted = [t for t in trusted if t.is_absolute()]
        return bool(folders) and all(any(Path(f).is_relative_to(t) for t in trusted) for f in folders)


def path() -> Path:
    return config_dir() / FILE_NAME


def read() -> tuple[UserSettings, str | None]:
    """The user settings, and why the file was not used when it exists but does not count."""
    file = path()
    try:
        with open(file, "rb") as handle:
            info = os.fstat(handle.fileno())
            if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return UserSettings(), f"{file} is ignored: it must belong to you and be writable by you alone"
            raw = tomllib.load(handle)
        return msgspec.convert(raw, UserSettings), None
    except FileNotFoundError:
        return UserSettings(), None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, msgspec.ValidationError) as error:
        return UserSettings(), f"{file} is ignored: {error}"


def load() -> UserSettings:
    """The user settings (defaults when the file is missing or does not count; the reason is logged)."""
    settings, problem = read()
    if problem:
        log.warning("%s", problem)
    return settings
