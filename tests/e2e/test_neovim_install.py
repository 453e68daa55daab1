"""`:CassInstall` in the real headless Neovim: the wheel ``python -m build`` makes is installed into
a venv under ``stdpath("data")``, ``cass-lsp setup`` runs, and a CUDA buffer then starts that
server (``cass-lsp`` is not on Neovim's PATH)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.headless import failed_steps, run_driver
from tests.install import fresh_user


def test_cass_install_puts_the_server_in_stdpath_data(tmp_path: Path) -> None:
    wheel, _ = fresh_user.build_dist(tmp_path / "dist")
    cuda = tmp_path / "k.cu"
    cuda.write_text("__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n")
    data = tmp_path / "data"
    env = {
        "CASS_WHEEL": str(wheel),
        "CUDA_FILE": str(cuda),
        "XDG_DATA_HOME": str(data),
        "PATH": "/usr/local/bin:/usr/bin:/bin",  # no .venv/bin: cass-lsp is not on PATH
    }
    result, returncode = run_driver("install_driver.lua", tmp_path, env, timeout=700)
    assert returncode == 0 and not failed_steps(result), result
    venv = data / "nvim" / "cass-lsp" / "venv"
    assert result["venv"] == str(venv)
    command = str(venv / "bin" / "cass-lsp")
    assert result["cmd"] == [command, "--stdio"] and result["server_cmd"] == [command, "--stdio"]
    # the package in that venv is the wheel's, not this checkout's
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert (site / "cass_lsp" / "grammars" / "document.scm").is_file()
    assert not list(site.glob("*cass_lsp*.pth")) and not list(site.glob("__editable__*"))  # not editable
    # setup ran against the cache the e2e tests share (already complete: it only checked)
    assert result["setup_message"] == "", result["setup_message"]
