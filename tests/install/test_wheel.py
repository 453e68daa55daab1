"""The wheel on its own: built with ``python -m build``, installed (not editable) into a fresh venv by
an unprivileged user, and used from a folder with nothing of this checkout in it: ``doctor``,
``translate``, ``asm`` for sm_90 and gfx1100, ``verify --runner cpu`` and an LSP hover.

The NVIDIA toolchain is not downloaded again: the user's PATH holds the ``bin`` folder of this
venv's NVIDIA wheels, which the installed server finds as it finds a CUDA toolkit's nvcc on PATH.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from cass_lsp.toolchains import nvidia
from tests.install import fresh_user
from tests.lsp.conftest import open_document
from tests.lsp.test_assembly import hover_until

KERNEL = """#include <cstdio>
#include <cuda_runtime.h>
__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * x[i];
}
int main() {
  const int n = 64;
  float h[n];
  float *d = nullptr;
  for (int i = 0; i < n; ++i) h[i] = float(i);
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<2, 32>>>(d, 2.0f, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < n; i += 16) printf("%g\\n", h[i]);
  return 0;
}
"""
BODY_LINE = 4  # 0-based: the line of the kernel's load, multiply and store


@dataclasses.dataclass(frozen=True)
class Installed:
    user: fresh_user.FreshUser
    scratch: Path
    bin: Path
    env: dict[str, str]
    wheel: Path
    sdist: Path
    nvidia_bin: Path

    def run(self, *args: str | Path, timeout: float = 180) -> tuple[int, str]:
        result = self.user.run([self.bin / "cass-lsp", *args], self.env, self.scratch, timeout)
        assert not result.timed_out, f"cass-lsp {args} timed out"
        return result.returncode, result.text()


@pytest.fixture(scope="module")
def user() -> fresh_user.FreshUser:
    return fresh_user.ensure_user()


@pytest.fixture(scope="module")
def scratch(user: fresh_user.FreshUser) -> Iterator[Path]:
    with fresh_user.scratch_folder(user) as folder:
        yield folder


@pytest.fixture(scope="module")
def dist(scratch: Path) -> tuple[Path, Path]:
    return fresh_user.build_dist(scratch / "dist")


@pytest.fixture(scope="module")
def installed(user: fresh_user.FreshUser, scratch: Path, dist: tuple[Path, Path]) -> Installed:
    nvidia_bin = nvidia.wheel_bin_dir()
    assert nvidia_bin is not None, "this venv has no NVIDIA wheels (scripts/setup.sh installs them)"
    wheel, sdist = dist
    env = user.env(scratch, extra_path=nvidia_bin)
    bin_dir = fresh_user.install(user, scratch, wheel, env)
    source = scratch / "scale.cu"
    source.write_text(KERNEL)
    source.chmod(0o666)
    return Installed(user, scratch, bin_dir, env, wheel, sdist, nvidia_bin)


def _checkout_files(*paths: str) -> list[str]:
    """Files of this checkout under ``paths`` that git tracks or would track (what hatch packs)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *paths],
        cwd=fresh_user.ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.split()
    return [name for name in listed if (fresh_user.ROOT / name).is_file()]


def test_wheel_and_sdist_carry_everything_read_at_run_time(dist: tuple[Path, Path]) -> None:
    wheel, sdist = dist
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    expected = {name for name in _checkout_files("cass_lsp") if not name.endswith(".py")}
    # Folders outside the package that the wheel force-includes under it.
    expected |= {f"cass_lsp/{name}" for name in _checkout_files("grammars", "gguf/manifest.toml")}
    assert any(name.startswith("cass_lsp/grammars/") for name in expected)
    assert any(name.startswith("cass_lsp/cpu/include/") for name in expected)
    assert any(name.startswith("cass_lsp/toolchains/hip_nv_shim/") for name in expected)
    assert "cass_lsp/translate/data/api_tables.json" in expected
    assert "cass_lsp/gguf/manifest.toml" in expected
    missing = sorted(expected - in_wheel)
    assert not missing, f"the wheel lacks files the code reads at run time: {missing}"
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"pyproject.toml", "README.md", "gguf/manifest.toml", "grammars/document.scm"} <= in_sdist


def test_installed_package_is_the_wheel_not_the_checkout(installed: Installed) -> None:
    result = installed.user.run(
        [installed.bin / "python", "-c", "import cass_lsp; print(cass_lsp.__file__)"],
        installed.env,
        installed.scratch,
        60,
    )
    assert result.ok, result.text()
    location = result.stdout.decode().strip()
    assert location.startswith(str(installed.scratch / "venv" / "lib")), location


def test_doctor_translate_asm_verify_as_a_user(installed: Installed) -> None:
    code, out = installed.run("translate", "scale.cu", "-o", "scale.hip")
    assert code == 0, out
    translated = (installed.scratch / "scale.hip").read_text()
    assert "#include <hip/hip_runtime.h>" in translated and "hipMalloc(" in translated

    code, out = installed.run("asm", "scale.cu", "--target", "sm_90", "--target", "gfx1100", "--kernel", "scale")
    assert code == 0, out
    assert "FMUL" in out and "STG.E" in out, out  # SASS from nvdisasm
    assert "v_mul_f32" in out and "global_store_b32" in out, out  # RDNA3 from clang-19

    code, out = installed.run("verify", "scale.cu", "--runner", "cpu")
    assert code == 0, out
    assert out.startswith("PASS"), out

    code, out = installed.run("doctor", "--json")
    tools = {tool["name"]: tool for tool in json.loads(out)["tools"]}
    assert tools["nvcc"]["found"] and tools["nvcc"]["path"] == str(installed.nvidia_bin / "nvcc"), tools["nvcc"]
    assert tools["clang++-19"]["found"], tools["clang++-19"]
    # asm for gfx1100 generated the device-library folder in the user's own (fresh) cache
    folder = tools["gfx11/gfx12 device-lib folder"]
    assert folder["found"] and folder["path"].startswith(installed.env["XDG_CACHE_HOME"]), folder


@pytest.fixture(scope="module")
def set_up(installed: Installed) -> tuple[str, Path]:
    """``cass-lsp setup`` run once by the user: its output and the user's cass-lsp cache."""
    code, out = installed.run("setup", timeout=900)
    assert code == 0, out
    return out, Path(installed.env["XDG_CACHE_HOME"]) / "cass-lsp"


def _files(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*") if not path.is_dir()}


def test_setup_as_a_user_fills_the_user_cache_once(installed: Installed, set_up: tuple[str, Path]) -> None:
    out, cache = set_up
    # device libraries, HIP 7.1/6.2, HIP libraries, CUDA libraries
    assert out.count(": ready]") == 4 and "not done" not in out, out
    assert (cache / "rocm71" / "hip71" / "include" / "hip" / "hip_version.h").is_file()
    assert (cache / "hip-libs").is_dir()
    assert (cache / "cuda-libs" / "include" / "cublas_v2.h").is_file()
    code, again = installed.run("setup", timeout=300)
    assert code == 0, again
    assert again.count("already in") == 4, again  # idempotent: the second run only checks
    code, out = installed.run("asm", "scale.cu", "--target", "gfx1100", "--rocm", "7.1", "--kernel", "scale")
    assert code == 0 and "v_mul_f32" in out, out


def test_setup_without_pip_reads_the_wheels_in_place(installed: Installed, set_up: tuple[str, Path]) -> None:
    # uv's tool environments (and pipx's when pipx uses uv) have no pip: setup reads the triton
    # wheels on PyPI with Range requests, and must end with the same files as pip's route
    bin_dir = fresh_user.install_without_pip(
        installed.user, installed.scratch, installed.wheel, installed.env, installed.bin
    )
    cache = installed.scratch / "xdg-cache-without-pip"
    env = {**installed.env, "XDG_CACHE_HOME": str(cache)}
    result = installed.user.run([bin_dir / "cass-lsp", "setup", "--only", "rocm71"], env, installed.scratch, 600)
    assert result.ok, result.text()
    assert "reading the triton wheels on PyPI in place" in result.text()
    _, with_pip = set_up
    ours = cache / "cass-lsp" / "rocm71"
    assert _files(ours) == _files(with_pip / "rocm71")
    header = Path("hip71/include/hip/hip_version.h")
    assert (ours / header).read_bytes() == (with_pip / "rocm71" / header).read_bytes()


async def test_lsp_hover_shows_rdna3_as_a_user(installed: Installed) -> None:
    server = installed.user.argv([installed.bin / "cass-lsp", "--stdio"], installed.env)
    client = await ClientServerConfig(server_command=server).start(devtools=None)
    assert isinstance(client, LanguageClient)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options={"asm": {"targets": ["sm_90", "gfx1100"], "hoverWaitMs": 100}},
        )
    )
    try:
        uri = (installed.scratch / "scale.cu").as_uri()
        open_document(client, uri, KERNEL)
        text = await hover_until(client, uri, BODY_LINE, 20, "LDG.E", "v_mul_f32")
        assert "gfx1100" in text and "sm_90" in text
    finally:
        await client.shutdown_session()
