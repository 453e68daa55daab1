"""End to end: the extension's "Install cass-lsp" in a real code-server with a fresh profile and no
server anywhere (no ``cass-lsp`` on PATH, no ``.venv/bin`` on it, no ``cass.server.path``, an empty
cass-lsp cache). Opening a ``.cu`` file offers the install; a click puts the wheel the .vsix carries
into a venv in the extension's global storage (pip with this machine's pip cache and configuration,
as a user's own), runs ``cass-lsp setup``, starts that server and shows ``doctor``'s findings; a hover
over the kernel's body line then shows its RDNA3 listing. The time from the click to that hover is
printed and written to ``install-timing.json`` in the artifacts (issue 22's "Measure it")."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import uuid
import zipfile
from pathlib import Path

import pytest

from cass_lsp.core.dirs import CACHE_ENV
from tests.e2e.test_vscode import REPO, VSIX, CodeServer, Driven, _require_built, artifacts_dir, drive
from tests.install.fresh_user import SYSTEM_PATH
from tests.install.test_wheel import BODY_LINE, KERNEL

GOAL_S = 180.0
"""Issue 22: a fresh user to the first RDNA3 hover in under 3 minutes with warm package caches."""


def _user_pip_cache() -> str:
    """This machine's pip cache (setup.sh warmed it), which a user's install would use too."""
    found = subprocess.run(
        ["python3", "-m", "pip", "cache", "dir"], capture_output=True, text=True, timeout=60, check=False
    ).stdout.strip()
    return os.environ.get("PIP_CACHE_DIR") or found or str(Path.home() / ".cache" / "pip")


def _carried_wheel() -> str:
    """The wheel inside the .vsix, which the install must use, built after the server's last change."""
    with zipfile.ZipFile(VSIX) as vsix:
        wheels = [n for n in vsix.namelist() if n.startswith("extension/server/cass_lsp-") and n.endswith(".whl")]
    if len(wheels) != 1:
        pytest.fail(f"{VSIX} carries {wheels or 'no cass-lsp wheel'}: run ./scripts/vscode.sh", pytrace=False)
    sources = [
        p for folder in ("cass_lsp", "grammars") for p in (REPO / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    ]
    newest = max(sources, key=lambda p: p.stat().st_mtime)
    if newest.stat().st_mtime > VSIX.stat().st_mtime:
        pytest.fail(f"the wheel in {VSIX.name} is older than {newest.relative_to(REPO)}: run ./scripts/vscode.sh",
                    pytrace=False)
    return Path(wheels[0]).name


def install_storage(code_server: CodeServer) -> Path:
    """Where the extension installs the server: its global storage in the profile."""
    return code_server.data / "User" / "globalStorage" / "cass-lsp.cass-lsp" / "server"


def run_install(tmp_path: Path, artifacts: Path, scenario: str, path: str | None = None) -> tuple[CodeServer, Driven]:
    """A fresh profile with no server, on ``kernel.cu``, driven by ``drive_install.mjs`` in ``scenario``.
    ``path``: the extension host's exact PATH; None: the system's folders, and the extension host
    gets the login shell's PATH on top, as a user's does."""
    _require_built()
    own_path = path or SYSTEM_PATH
    assert shutil.which("cass-lsp", path=own_path) is None, f"cass-lsp is on {own_path}"
    assert shutil.which("node", path=own_path), own_path
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "kernel.cu").write_text(KERNEL + f"// {uuid.uuid4()}\n")  # unique text: a cold compile
    code_server = CodeServer(tmp_path / "run", artifacts, server=None, path=own_path, shell_env=path is None)
    del code_server.env[CACHE_ENV]  # the server's cache starts empty, in the profile's home
    code_server.env["PIP_CACHE_DIR"] = _user_pip_cache()
    more = {"SCENARIO": scenario, "HOVER_LINE": str(BODY_LINE + 1), "HOVER_COLUMN": "20",
            "STORAGE": str(install_storage(code_server))}
    return code_server, drive(code_server, workspace, "drive_install.mjs", artifacts, timeout=1200, more_env=more)


def _output_log(artifacts: Path, channel: str) -> str:
    """An output channel of the extension ("cass-lsp", "cass-lsp install"), as code-server logged it."""
    logs = [p for p in (artifacts / "logs").glob("*.log") if p.name.split("-", 1)[-1] == f"{channel}.log"]
    assert logs, f"no {channel} log among {sorted(p.name for p in (artifacts / 'logs').glob('*'))}"
    return "\n".join(p.read_text() for p in logs)


def _extension_host_path(artifacts: Path) -> str:
    """The PATH the extension searched, from its "cass-lsp not started" line."""
    found = re.search(r"cass-lsp not started: .*\(PATH: (.*)\)$", _output_log(artifacts, "cass-lsp"), re.MULTILINE)
    assert found, "the extension did not log why it did not start the server"
    return found.group(1)


def test_vscode_install_button(tmp_path: Path) -> None:
    artifacts = artifacts_dir("install")
    wheel = _carried_wheel()
    code_server, driven = run_install(tmp_path, artifacts, "install")
    assert driven.steps == ["workbench", "offered", "installed", "hover"]
    # the PATH the extension host had (the login shell's): no cass-lsp on it, none of this checkout
    path = _extension_host_path(artifacts)
    assert shutil.which("cass-lsp", path=path) is None and str(REPO) not in path, path
    seen = driven.seen
    assert "cass-lsp is not on PATH" in seen["offer"], seen["offer"]
    assert "gfx1100" in seen["hover"] and "v_mul_f32" in seen["hover"], seen["hover"]

    # the server is the carried wheel, installed (not editable) into the extension's global storage
    storage = install_storage(code_server)
    venv = storage / "venv"
    assert (venv / "bin" / "cass-lsp").is_file()
    (site,) = (venv / "lib").glob("python3*/site-packages")
    (dist_info,) = site.glob("cass_lsp-*.dist-info")
    assert (site / "cass_lsp" / "grammars").is_dir() and not list(site.glob("__editable__*"))
    assert wheel.startswith(dist_info.name.removesuffix(".dist-info"))
    assert (site / "nvidia").is_dir(), "the nvidia extra was not installed"
    assert not (storage / "install.lock").exists()
    # setup filled the profile's own cass-lsp cache
    assert (code_server.home / ".cache" / "cass-lsp" / "rocm71").is_dir()

    timing = {"installS": seen["installS"], "clickToHoverS": seen["clickToHoverS"], "goalS": GOAL_S}
    (artifacts / "install-timing.json").write_text(json.dumps(timing, indent=2))
    print(
        f"VS Code 'Install cass-lsp': click to installed {seen['installS']:.1f} s, "
        f"to the first RDNA3 hover {seen['clickToHoverS']:.1f} s "
        f"(goal < {GOAL_S:.0f} s: {'met' if seen['clickToHoverS'] < GOAL_S else 'MISSED'})"
    )
    print(f"doctor: {seen['installed']}")
    for shot in ["21-install-offered.png", "22-installing.png", "23-installed.png", "24-rdna3-hover.png"]:
        assert (artifacts / shot).stat().st_size > 10_000, shot


def test_vscode_install_cancel_then_retry(tmp_path: Path) -> None:
    """Cancel while pip runs: its process group dies, nothing is recorded as installed; Retry keeps
    the venv made before and ends with a working server."""
    artifacts = artifacts_dir("install_cancel")
    _, driven = run_install(tmp_path, artifacts, "cancel-retry")
    assert driven.steps == ["workbench", "offered", "cancelled", "installed", "hover"]
    seen = driven.seen
    assert "nothing was recorded as installed" in seen["cancelled"], seen["cancelled"]
    assert seen["leftAfterCancel"] == [], seen["leftAfterCancel"]
    assert "gfx1100" in seen["hover"] and "v_mul_f32" in seen["hover"], seen["hover"]
    log = _output_log(artifacts, "cass-lsp install")
    assert "=== cancelled at" in log and "[cancelled: stopping its process group]" in log, log[-3000:]
    assert "works: kept" in log, log[-3000:]  # the retry reused the venv the cancelled run made


def test_vscode_install_without_python(tmp_path: Path) -> None:
    """No Python on PATH: the install stops at its first step, says which and what to install, and
    records nothing."""
    artifacts = artifacts_dir("install_no_python")
    only_node = tmp_path / "bin"
    only_node.mkdir()
    node = shutil.which("node")
    assert node, "node is not on PATH"
    (only_node / "node").symlink_to(node)
    code_server, driven = run_install(tmp_path, artifacts, "no-python", path=str(only_node))
    assert driven.steps == ["workbench", "offered", "failed"]
    failed = driven.seen["failed"]
    assert 'the install failed at "find Python 3.11+"' in failed and "needs Python 3.11 or newer" in failed, failed
    assert "=== failed at" in driven.seen["log"], driven.seen["log"]
    path = _extension_host_path(artifacts)  # code-server puts its remote-cli folder first
    assert path.endswith(f":{only_node}") and not any(shutil.which(p, path=path) for p in ("python3", "python3.11")), path
    assert not (install_storage(code_server) / "venv").exists()
