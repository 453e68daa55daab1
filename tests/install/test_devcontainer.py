"""The dev container cannot drift from the README's setup: its image runs the same
``scripts/setup.sh`` (``--system``: the Debian packages) and nothing else, and creating the
container runs the README's setup command itself. The image's install step is run here exactly as
the Dockerfile runs it (its COPY sources in a folder of their own), without building the image."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / ".devcontainer"


def _instructions() -> list[tuple[str, str]]:
    lines = [line.strip() for line in (FOLDER / "Dockerfile").read_text().splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines if line and not line.startswith("#")
    ]


def test_image_is_debian_12_built_only_by_setup_sh() -> None:
    instructions = _instructions()
    assert [kind for kind, _ in instructions] == ["FROM", "COPY", "RUN"]
    assert instructions[0][1] == "debian:12"  # the README's "fresh Debian 12"
    *sources, destination = shlex.split(instructions[1][1])
    assert sources == ["scripts/setup.sh", "scripts/lib.sh"]
    # one command: setup.sh --system, then the apt lists' cleanup; no package installed any other way
    run = instructions[2][1]
    setup, cleanup = (shlex.split(part) for part in run.split("&&"))
    assert setup == [f"{destination.rstrip('/')}/setup.sh", "--system"]
    assert cleanup == ["rm", "-rf", "/var/lib/apt/lists/*"]
    assert "apt-get" not in run and "pip" not in run


def test_image_install_step_runs_as_the_dockerfile_runs_it(tmp_path: Path) -> None:
    # what the COPY puts in the image, alone in a folder: the --system step needs nothing else
    (_, copy), (_, run) = _instructions()[1:]
    *sources, destination = shlex.split(copy)
    image = tmp_path / destination.strip("/")
    image.mkdir(parents=True)
    for source in sources:
        shutil.copy2(ROOT / source, image)
    command = shlex.split(run.split("&&")[0])
    command[0] = str(tmp_path / command[0].lstrip("/"))
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "the Debian packages are installed" in result.stderr
    assert not (tmp_path / ".venv").exists()  # --system stops before the venv


def test_container_creation_runs_the_readme_setup() -> None:
    config = json.loads((FOLDER / "devcontainer.json").read_text())
    assert config["build"] == {"dockerfile": "Dockerfile", "context": ".."}
    readme = (ROOT / "README.md").read_text()
    assert "./scripts/setup.sh && .venv/bin/cass-lsp demo" in readme
    steps = [shlex.split(step) for step in config["postCreateCommand"].split("&&")]
    assert steps[0] == ["./scripts/setup.sh"]
    assert steps[1] == ["CASS_VSCODE_SKIP_E2E_DEPS=1", "./scripts/vscode.sh"]  # builds the .vsix
    assert config["postAttachCommand"] == ".devcontainer/install-extension.sh"
    vsix = "editor_clients/vscode/dist/cass-lsp.vsix"
    assert vsix in (ROOT / "scripts" / "vscode.sh").read_text()
    assert f"VSIX={vsix}" in (FOLDER / "install-extension.sh").read_text()
    server = config["customizations"]["vscode"]["settings"]["cass.server.path"]
    assert server == "${containerWorkspaceFolder}/.venv/bin/cass-lsp"
    for script in (FOLDER / "install-extension.sh", ROOT / "scripts" / "setup.sh"):
        checked = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr
