"""Workspace trust, failing closed: whether a workspace is trusted, and what an untrusted one loses.

The settings an editor sends mix the user's with the workspace's own, so the server cannot tell
who wrote a value. A workspace is trusted only when the editor says so
(``initializationOptions.workspaceTrusted: true``, VS Code's workspace trust) or, for editors that
say nothing about trust, when every workspace folder lies in the user's ``trustedFolders``
(:mod:`cass_lsp.core.user_settings`, a file no workspace can write). An editor's explicit ``false`` wins
over ``trustedFolders``. In an untrusted workspace the settings that run or load code, or lift the
compilers' bounds, are dropped, whatever sent them (:func:`without_code`); running programs is refused where it is decided
(``run_refusal`` in ``cass_lsp/verify/run.py``), so ``verification.run`` stays as asked and its
verdict says why nothing ran.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from cass_lsp.core.settings import Settings, merge
from cass_lsp.core.user_settings import UserSettings
from cass_lsp.infer.registry import names_a_file

TRUST_KEY = "workspaceTrusted"

CODE_SETTINGS: tuple[tuple[str, str], ...] = (
    ("asm", "extraArgs"),  # -fplugin=, -Xclang -load: code loaded into the compiler
    ("verification", "nvccArgs"),  # the same, for verification's compiles
    ("verification", "hipArgs"),
    ("verification", "cpuArgs"),
    ("verification", "command"),  # an argv the run stage starts
    ("verification", "commandSsh"),  # the same, for the ssh client
    ("verification", "commandHost"),  # the programs and their inputs are copied there
    ("model", "endpoint"),  # the document's code is sent there
    ("model", "apiKeyEnv"),  # a variable of the server's environment sent to that endpoint
    ("compilerLimits", "memoryMb"),  # the compilers' bounds: a workspace must not lift them
    ("compilerLimits", "cpuSeconds"),
)
"""Dropped in an untrusted workspace unless they hold their default."""

MODEL_FILES: tuple[tuple[str, str], ...] = (("model", "name"), ("model", "assemblyName"))
"""Dropped in an untrusted workspace when they name a file: llama.cpp parses it in native code.
A name the user added (``cass-lsp models add``) stays: the user chose that file."""

_DEFAULTS: dict[str, Any] = msgspec.to_builtins(Settings())


def decide(client_says: Any, folders: list[str], user: UserSettings) -> tuple[bool, str]:
    """Whether the workspace is trusted, and why (for the message an untrusted one gets)."""
    if client_says is True:
        return True, "the editor trusts this workspace"
    if client_says is False:
        return False, "the editor marks this workspace untrusted"
    if user.trusts(folders):
        return True, "its folder is in trustedFolders"
    where = ", ".join(folders) if folders else "no workspace folder"
    return False, f"the editor does not say it is trusted and trustedFolders does not list it ({where})"


def without_code(raw: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The settings an untrusted workspace keeps, and the dotted names of those it loses."""
    kept = copy.deepcopy(raw)
    dropped: list[str] = []
    for section, key in (*CODE_SETTINGS, *MODEL_FILES):
        values = kept.get(section)
        if not isinstance(values, dict) or key not in values:
            continue
        value = values[key]
        if (section, key) in MODEL_FILES and not (isinstance(value, str) and names_a_file(value)):
            continue
        if _is_default(value, _DEFAULTS.get(section, {}).get(key)):  # editors send every key: nothing is lost
            continue
        del values[key]
        dropped.append(f"{section}.{key}")
    return kept, dropped


def _is_default(value: Any, default: Any) -> bool:
    if isinstance(value, dict) and isinstance(default, dict):
        return merge(default, value) == default  # a part of the object, e.g. {"clang": []}
    return bool(value == default)
