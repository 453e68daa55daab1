"""Workspace trust fails closed, through the real server over stdio.

A client that says nothing about trust (Zed, Helix, Emacs: editors with project-local settings)
used to be treated as trusted, so a repository's own settings could make clang load a plugin. Now
a workspace is trusted only when the editor says `workspaceTrusted: true` or the user's
`trustedFolders` (settings.toml in the user's config folder) lists it; otherwise the settings that
run or load code are dropped, whoever sent them, and the user is told once which, and how to trust.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core import user_settings
from cass_lsp.core.settings import json_schema
from cass_lsp.server import trust
from tests.fuzz.wire import ROOT, WireServer
from tests.lsp import plugin

UNTRUSTED_NOTE = "this workspace is not trusted"


def start(tmp_path: Path, options: dict[str, Any], trusted_folders: list[str] | None = None) -> tuple[WireServer, Path]:
    root = tmp_path / "workspace"
    root.mkdir(exist_ok=True)
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    if trusted_folders is not None:
        (config / "settings.toml").write_text(f"trustedFolders = {trusted_folders!r}\n".replace("'", '"'))
    server = WireServer(tmp_path / "server", env={"CASS_LSP_CONFIG_DIR": str(config)}, settings=options.get("cass"))
    reply = server.initialize(options, root=root)
    assert "result" in reply, reply
    return server, root


def listing_compiled(server: WireServer, root: Path) -> None:
    """Open a CUDA file and wait for its AMD listing: clang has run with the settings' flags."""
    uri = (root / "kernel.cu").as_uri()
    document = {"uri": uri, "languageId": "cuda", "version": 1, "text": plugin.OPENED}
    server.notify("textDocument/didOpen", {"textDocument": document})
    reply = server.call("cass/assembly", {"uri": uri, "targets": ["gfx1100"]}, timeout=300)
    results = reply["result"]["results"]
    assert results[0]["kind"] == "listing", results


def warnings(server: WireServer) -> list[str]:
    return [n["params"]["message"] for n in server.notifications_of("window/showMessage")]


def stop(server: WireServer) -> None:
    assert server.close() == 0, server.stderr()
    assert server.leftovers() == []


@pytest.mark.parametrize("trust_flag", ["not sent", False])
def test_an_untrusted_workspace_cannot_load_a_compiler_plugin(tmp_path: Path, trust_flag: Any) -> None:
    library, marker = plugin.build(tmp_path / "repo-tools", "evil")
    options: dict[str, Any] = {"cass": plugin.settings(library)}
    if trust_flag != "not sent":
        options[trust.TRUST_KEY] = trust_flag
    # trustedFolders lists the folder, but an editor's explicit "untrusted" wins over it
    server, root = start(
        tmp_path, options, trusted_folders=[str(tmp_path / "workspace")] if trust_flag is False else None
    )
    listing_compiled(server, root)
    assert not marker.exists(), "clang loaded the workspace's plugin"
    shown = [m for m in warnings(server) if UNTRUSTED_NOTE in m]
    assert len(shown) == 1, warnings(server)  # once, although the settings arrived twice (options and pull)
    assert "cass.asm.extraArgs" in shown[0] and "trustedFolders" in shown[0] and "workspaceTrusted" in shown[0]
    assert str(user_settings.path().name) in shown[0]
    stop(server)


@pytest.mark.parametrize("how", ["the editor", "trustedFolders"])
def test_a_trusted_workspace_keeps_its_settings(tmp_path: Path, how: str) -> None:
    """The control: the same plugin is loaded once the workspace is trusted (so the test above
    shows the plugin kept out, not a compile that never loads plugins)."""
    library, marker = plugin.build(tmp_path / "my-tools", "own")
    options: dict[str, Any] = {"cass": plugin.settings(library)}
    if how == "the editor":
        options[trust.TRUST_KEY] = True
    server, root = start(tmp_path, options, trusted_folders=[str(tmp_path)] if how == "trustedFolders" else None)
    listing_compiled(server, root)
    assert marker.exists(), f"the trusted workspace's plugin was not loaded:\n{server.stderr()}"
    assert not [m for m in warnings(server) if UNTRUSTED_NOTE in m], warnings(server)
    stop(server)


def test_every_setting_that_runs_or_loads_code_is_dropped(tmp_path: Path) -> None:
    settings = {
        "asm": {"compileOnOpen": False, "extraArgs": {"nvcc": ["-Xcompiler=-fplugin=x.so"], "clang": []}},
        "model": {
            "name": str(tmp_path / "repo" / "model.gguf"),
            "assemblyName": "weights/asm.gguf",
            "endpoint": "http://127.0.0.1:9/v1",
            "apiKeyEnv": "AWS_SECRET_ACCESS_KEY",
        },
        "verification": {"watch": False, "runner": "command", "command": ["sh", "-c", "{exe}"]},
    }
    server, _ = start(tmp_path, {"cass": settings})
    [shown] = [m for m in warnings(server) if UNTRUSTED_NOTE in m]
    for name in CODE_KEYS:
        assert f"cass.{name}" in shown, (name, shown)
    assert "cass.asm.compileOnOpen" not in shown and "cass.verification.runner" not in shown
    stop(server)


CODE_KEYS = (
    "asm.extraArgs",
    "model.name",
    "model.assemblyName",
    "model.endpoint",
    "model.apiKeyEnv",
    "verification.command",
)


def test_a_model_the_user_added_by_name_stays(tmp_path: Path) -> None:
    kept, dropped = trust.without_code({"model": {"name": "cass-src-1.5b", "assemblyName": None}})
    assert dropped == [] and kept["model"]["name"] == "cass-src-1.5b"
    kept, dropped = trust.without_code({"model": {"name": "cass-src-1.5b.Q8_0.gguf"}})
    assert dropped == ["model.name"] and "name" not in kept["model"]


def test_defaults_are_not_reported() -> None:
    """VS Code sends every key, those left at their defaults too: nothing to tell the user about."""
    defaults = {
        "asm": {"extraArgs": {"clang": []}},
        "model": {"endpoint": None, "name": None},
        "verification": {"command": [], "commandSsh": ["ssh"], "hipArgs": []},
    }
    assert trust.without_code(defaults)[1] == []


def test_every_dropped_setting_exists_and_vscode_restricts_it() -> None:
    """The list of settings that run or load code, the settings themselves and VS Code's
    restrictedConfigurations (user values only in Restricted Mode) must not drift apart."""
    schema = json_schema()
    package = json.loads((ROOT / "editor_clients" / "vscode" / "package.json").read_text())
    restricted = set(package["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"])
    for section, key in (*trust.CODE_SETTINGS, *trust.MODEL_FILES):
        struct = schema["$defs"]["Settings"]["properties"][section]["$ref"].removeprefix("#/$defs/")
        assert key in schema["$defs"][struct]["properties"], f"cass.{section}.{key} is not a setting"
        name = f"cass.{section}.{key}"
        assert name in restricted or {f"{name}.clang", f"{name}.nvcc"} <= restricted, f"{name} is not restricted"


def test_a_folder_added_outside_trusted_folders_makes_the_workspace_untrusted(tmp_path: Path) -> None:
    settings = {"asm": {"compileOnOpen": False, "extraArgs": {"clang": ["-O1"]}}}
    server, _ = start(tmp_path, {"cass": settings}, trusted_folders=[str(tmp_path / "workspace")])
    assert not [m for m in warnings(server) if UNTRUSTED_NOTE in m]
    other = tmp_path / "cloned"
    other.mkdir()
    event = {"added": [{"uri": other.as_uri(), "name": "cloned"}], "removed": []}
    server.notify("workspace/didChangeWorkspaceFolders", {"event": event})
    note = server.wait_notification("window/showMessage", lambda p: UNTRUSTED_NOTE in p["message"], timeout=30)
    assert note is not None and "cass.asm.extraArgs" in note["params"]["message"], warnings(server)
    stop(server)


def test_user_settings_fail_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASS_LSP_CONFIG_DIR", str(tmp_path))
    assert user_settings.read() == (user_settings.UserSettings(), None)  # no file: defaults, no complaint
    file = tmp_path / "settings.toml"
    file.write_text('trustedFolders = ["~/src"]\nallowUnconfinedRuns = true\n')
    os.chmod(file, 0o600)
    loaded = user_settings.load()
    assert loaded.allow_unconfined_runs is True
    assert loaded.trusts([str(Path.home() / "src" / "project")]) and not loaded.trusts([str(Path.home())])
    assert not loaded.trusts([])  # no folder (a lone file): not trusted
    os.chmod(file, 0o620)  # someone else could write it: it does not count
    settings, problem = user_settings.read()
    assert settings == user_settings.UserSettings() and problem and "writable by you alone" in problem
    os.chmod(file, 0o600)
    file.write_text("trustedFolders = /\n")
    settings, problem = user_settings.read()
    assert settings == user_settings.UserSettings() and problem and "settings.toml is ignored" in problem
    file.write_text('trustedFolder = ["/"]\n')  # a misspelt key is an error, not silently nothing
    assert user_settings.read()[1] is not None
