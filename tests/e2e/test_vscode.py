"""End to end: a real VS Code (code-server 4.100.3, VS Code 1.100.3) with the packaged extension,
talking to this clone's real server, driven in Debian's headless Chromium by playwright-core.

Needs `./scripts/vscode.sh` to have run (it builds editor_clients/vscode/dist/cass-lsp.vsix and
installs chromium and code-server); `scripts/test.sh` runs it before pytest. A missing piece fails
the test with what to run, never skips it.

code-server runs in its own process group, with a private HOME, user-data and extensions folder, on
a free loopback port, and the whole group is killed afterwards. Screenshots, the driver's
result.json and code-server's log go to tests/e2e/artifacts/vscode/<test>/ (or $CASS_E2E_ARTIFACTS/vscode/<test>).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core import proc
from cass_lsp.core.dirs import CACHE_ENV, cache_root
from tests.corpus.projects import projects

REPO = Path(__file__).resolve().parents[2]
EXT = REPO / "editor_clients" / "vscode"
VSIX = EXT / "dist" / "cass-lsp.vsix"
SERVER = REPO / ".venv" / "bin" / "cass-lsp"
CS_VERSION = "4.100.3"
CACHE = Path(
    os.environ.get("CASS_VSCODE_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cass-lsp"
)
CODE_SERVER = CACHE / f"code-server-{CS_VERSION}" / "node_modules" / "code-server" / "out" / "node" / "entry.js"
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("CASS_E2E_ARTIFACTS") or REPO / "tests" / "e2e" / "artifacts") / "vscode"
BUILD_HINT = "run ./scripts/vscode.sh first (scripts/test.sh does)"

KERNEL = """#include <cuda_runtime.h>

__global__ void warp_sum(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane == 0) atomicAdd(out, v);
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  warp_sum<<<4, 256>>>(in, out, 1024);
  cudaDeviceSynchronize();
  return 0;
}
"""

USER_SETTINGS = {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "workbench.welcomePage.walkthroughs.openOnInstall": False,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "extensions.ignoreRecommendations": True,
    "git.enabled": False,
    "editor.lightbulb.enabled": "on",
    "window.commandCenter": False,
    "chat.commandCenter.enabled": False,
}


def _require_built() -> None:
    missing = [
        f"{what} ({path})"
        for what, path in [
            ("the server", SERVER),
            ("the packaged extension", VSIX),
            (f"code-server {CS_VERSION}", CODE_SERVER),
            ("Debian's chromium", CHROMIUM),
            ("playwright-core", EXT / "node_modules" / "playwright-core" / "package.json"),
        ]
        if not path.exists()
    ]
    if not shutil.which("node"):
        missing.append("node")
    if missing:
        pytest.fail(f"the VS Code end-to-end test lacks {', '.join(missing)}: {BUILD_HINT}", pytrace=False)
    sources = [*(EXT / "src").glob("*.ts"), EXT / "package.json"]
    newest = max(p.stat().st_mtime for p in sources)
    if newest > VSIX.stat().st_mtime:
        stale = max(sources, key=lambda p: p.stat().st_mtime).relative_to(REPO)
        pytest.fail(f"{VSIX.relative_to(REPO)} is older than {stale}: {BUILD_HINT}", pytrace=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
        # the leader is gone; children (file watcher, extension host, cass-lsp) may linger a moment
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.5)


def _keep_logs(logs: Path, into: Path) -> None:
    """The extension host's log and the output channels (the "cass-lsp" one holds the server's
    stderr and the LSP trace) into the artifacts."""
    for log in logs.rglob("*.log"):
        if "exthost" in log.name or "cass" in log.name.lower() or log.parent.name.startswith("output_logging"):
            into.mkdir(parents=True, exist_ok=True)
            shutil.copy(log, into / log.name)


class CodeServer:
    """A code-server with a profile of its own under ``run``. ``server``: the ``cass.server.path`` it
    is given (None: none, the extension must find or install one); ``path``: its PATH (default ours).
    VS Code gives its extension host the environment of the user's login shell (``$SHELL -ilc``, here
    with the private HOME), as for a user; ``shell_env=False`` leaves that out, so the extension host
    has exactly ``path``. The server's log goes to ``artifacts``."""

    def __init__(
        self,
        run: Path,
        artifacts: Path,
        server: Path | None = SERVER,
        path: str | None = None,
        shell_env: bool = True,
    ) -> None:
        self.run = run
        self.home = run / "home"
        self.data = run / "data"
        self.extensions = run / "extensions"
        self.port = _free_port()
        for folder in (self.home, self.data / "User", self.extensions):
            folder.mkdir(parents=True, exist_ok=True)
        server_path = {} if server is None else {"cass.server.path": str(server)}
        settings = {**USER_SETTINGS, **server_path, "cass.trace.server": "messages"}
        (self.data / "User" / "settings.json").write_text(json.dumps(settings, indent=2))
        # the extension host runs on the "remote" side: machine-scoped settings (cass.server.*) of
        # the user settings do not reach it, the remote machine's settings do
        (self.data / "Machine").mkdir(parents=True, exist_ok=True)
        (self.data / "Machine" / "settings.json").write_text(
            json.dumps(
                {
                    **server_path,
                    "cass.server.args": ["--log-file", str(artifacts / "cass-lsp-server.log"), "--log-level", "info"],
                },
                indent=2,
            )
        )
        self.config = run / "config.yaml"
        self.config.write_text(
            f"bind-addr: 127.0.0.1:{self.port}\nauth: none\ncert: false\n"
            "disable-telemetry: true\ndisable-update-check: true\n"
        )
        self.env = {
            **os.environ,
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "PATH": os.environ["PATH"] if path is None else path,
            # VS Code's server resolves the login shell's environment unless it was started from a
            # shell already, which VSCODE_CLI=1 says (code-server has no --force-disable-user-env)
            **({} if shell_env else {"VSCODE_CLI": "1"}),
            "EXTENSIONS_GALLERY": "{}",  # no marketplace, no open-vsx
            # the server's generated toolchain files and caches stay where setup.sh put them
            CACHE_ENV: str(cache_root()),
        }
        self.base = [
            "node",
            str(CODE_SERVER),
            "--config",
            str(self.config),
            "--user-data-dir",
            str(self.data),
            "--extensions-dir",
            str(self.extensions),
        ]

    def install(self, vsix: Path) -> str:
        done = subprocess.run(
            [*self.base, "--install-extension", str(vsix)],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, f"--install-extension failed:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def start(self, folder: Path, log: Path) -> subprocess.Popen[bytes]:
        with log.open("wb") as out:
            process = subprocess.Popen(
                [*self.base, "--disable-workspace-trust", "--disable-getting-started-override", str(folder)],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(f"code-server exited with {process.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2):
                    return process
            except OSError:
                time.sleep(0.2)
        _kill_group(process)
        raise AssertionError(f"code-server did not answer on port {self.port} in 60 s:\n{log.read_text()[-3000:]}")


def artifacts_dir(name: str) -> Path:
    """``ARTIFACTS/name``, emptied: one folder per test."""
    folder = ARTIFACTS / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    return artifacts_dir(request.node.name.removeprefix("test_vscode_"))


@dataclasses.dataclass(frozen=True)
class Driven:
    steps: list[str]
    seen: dict[str, Any]


def drive(
    code_server: CodeServer,
    workspace: Path,
    script: str,
    artifacts: Path,
    timeout: float = 480,
    more_env: dict[str, str] | None = None,
) -> Driven:
    """Installs the .vsix, starts code-server on ``workspace`` and runs the playwright driver
    ``e2e/<script>`` (with ``more_env``) against it; code-server's process group is killed after,
    its logs kept."""
    started = time.monotonic()
    installed = code_server.install(VSIX)
    install_s = time.monotonic() - started
    assert "successfully installed" in installed, installed
    assert any(code_server.extensions.glob("cass-lsp.cass-lsp-*/dist/extension.js")), installed
    process = code_server.start(workspace, artifacts / "code-server.log")
    ready_s = time.monotonic() - started
    try:
        url = f"http://127.0.0.1:{code_server.port}/?folder={workspace}"
        driver = subprocess.run(
            ["node", str(EXT / "e2e" / script), url, str(artifacts)],
            cwd=EXT,
            env={**code_server.env, "CHROMIUM": str(CHROMIUM), **(more_env or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    finally:
        _kill_group(process)
        _keep_logs(code_server.data / "logs", artifacts / "logs")
    (artifacts / "driver.log").write_text(driver.stdout + driver.stderr)
    print(f"install-extension {install_s:.1f} s, code-server ready at {ready_s:.1f} s")
    print(driver.stdout[-4000:])
    result = json.loads((artifacts / "result.json").read_text())
    steps = [s["name"] for s in result["steps"]]
    assert driver.returncode == 0, (
        f"the VS Code e2e ({script}) failed at {result.get('failure')} after steps {steps}; see {artifacts} "
        f"(99-failure.png, driver.log, code-server.log)\n{driver.stdout[-3000:]}\n{driver.stderr[-2000:]}"
    )
    assert not result["externalRequests"], result["externalRequests"]
    return Driven(steps=steps, seen=result["seen"])


def test_vscode_end_to_end(tmp_path: Path, artifacts: Path) -> None:
    _require_built()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "kernel.cu").write_text(KERNEL)
    driven = drive(CodeServer(tmp_path / "run", artifacts), workspace, "drive.mjs", artifacts)
    steps, seen = driven.steps, driven.seen
    assert steps == ["workbench", "open", "diagnostic", "assembly", "verify", "translate"]
    assert "inline PTX cannot be translated" in seen["problem"]
    assert "== sm_90" in seen["sassVisible"] and "SHFL.DOWN" in seen["sassVisible"]
    assert "s_endpgm" in seen["amdTail"]
    # the listing lines of source line 7 (the shuffle) are highlighted: its header and its SHFL.DOWN
    highlighted = "\n".join(seen["highlightedText"])
    assert seen["highlightedRows"] > 0 and "__shfl_down_sync" in highlighted and "SHFL.DOWN" in highlighted, highlighted
    assert "atomicAdd" not in highlighted, highlighted
    assert "HIP: verification failed" in seen["verifyStatus"], seen["verifyStatus"]
    assert "invalid instruction" in seen["verifyProblem"], seen["verifyProblem"]
    assert any("Translate kernel warp_sum to HIP" in row for row in seen["actionMenu"])
    print(f"translated via {seen['via']} (tries: {seen['tries']})")
    assert "__shfl_down(v, offset)" in seen["translated"] and "__shfl_down_sync" not in seen["translated"]
    for shot in [
        "01-workbench.png",
        "02-diagnostic.png",
        "03-assembly-sass.png",
        "04-assembly-amd.png",
        "05-code-action.png",
        "06-translated.png",
        "07-verify.png",
    ]:
        assert (artifacts / shot).stat().st_size > 10_000, shot


def test_vscode_build_files(tmp_path: Path, artifacts: Path) -> None:
    """A CUDA project's CMakeLists.txt in a fresh profile (no CMake extension, so no CMake language):
    the extension attaches it by name, Problems shows the server's findings, "Source Action..." offers
    both translations, and what the editor writes is the CLI's port of the same file, which is the
    reviewed tree port (tests/corpus/projects/expected) but for the two things a file port keeps:
    the configured AMD target and the sources' names (compiled as HIP by property)."""
    _require_built()
    workspace = tmp_path / "ws"
    project = workspace / "montecarlo"
    shutil.copytree(projects.BY_NAME["findcuda_rand"].root, project)
    cmake = project / "CMakeLists.txt"
    cli = tmp_path / "cli-port.txt"
    ported = proc.run([str(SERVER), "translate", str(cmake), "-o", str(cli), "--arch", "gfx1100"], timeout=120)
    assert ported.ok, ported.text()
    driven = drive(CodeServer(tmp_path / "run", artifacts), workspace, "drive_build.mjs", artifacts)
    assert driven.steps == ["workbench", "open", "diagnostic", "actions", "translate"]
    seen = driven.seen
    assert seen["language"] == "Plain Text", f"the profile is not fresh: CMakeLists.txt opened as {seen['language']}"
    problems = " | ".join(seen["problems"])
    assert "cass-lsp-build" in problems and "cuda_add_library -> add_library" in problems, problems
    assert "Translate file to HIP" in seen["sourceActions"], seen["sourceActions"]
    assert "Create HIP translation CMakeLists.hip.txt" in seen["sourceActions"], seen["sourceActions"]

    expected = cli.read_text()
    assert (project / "CMakeLists.hip.txt").read_text() == expected  # "Create HIP translation", saved
    assert cmake.read_text() == expected  # "cass-lsp: Translate File to HIP", in place, saved
    reviewed = (projects.EXPECTED / "findcuda_rand" / "CMakeLists.txt").read_text()
    reviewed = re.sub(r"(src/\w+)\.hip\b", r"\1.cu", reviewed.replace(projects.ARCH, "gfx1100"))
    by_property = re.compile(r"^set_source_files_properties\(.* PROPERTIES LANGUAGE HIP\)\n", re.MULTILINE)
    assert by_property.sub("", expected) == reviewed
    for shot in ["11-build-problems.png", "12-build-source-actions.png", "13-build-translated.png"]:
        assert (artifacts / shot).stat().st_size > 10_000, shot
