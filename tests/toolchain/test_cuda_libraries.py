"""The CUDA library headers (cuBLAS, cuSPARSE, cuFFT, cuRAND, cuSOLVER, NVRTC) fetched by setup reach
every nvcc compile: `cass-lsp verify` of a program that includes them compiles the original with the
real nvcc (before, "could not verify: the original does not compile: cublas_v2.h: No such file"),
and the setup step falls back to the real pip where PyPI cannot be read in place."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.toolchains import cudalibs, devlibs, remote_wheel
from cass_lsp.toolchains.errors import ToolchainMissing

PROGRAM = Path(__file__).parent / "programs" / "cuda_libraries"


@pytest.fixture(scope="module")
def headers() -> Path:
    try:
        cudalibs.fetch()
    except ToolchainMissing as missing:
        pytest.fail(f"{missing.what}: run {missing.hint}")
    folder = cudalibs.include_dir()
    assert folder is not None
    return folder


@pytest.fixture(scope="module")
def report(headers: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    app = tmp_path_factory.mktemp("cuda-libraries") / "app"
    shutil.copytree(PROGRAM, app)
    result = subprocess.run(
        [sys.executable, "-m", "cass_lsp", "verify", "--rocm", "5.2", "--no-cache", "--json", str(app)],
        capture_output=True, text=True, timeout=600,
    )
    reports = json.loads(result.stdout)
    assert len(reports) == 1, result.stdout + result.stderr
    assert isinstance(reports[0], dict)
    return reports[0]


def test_an_original_using_the_cuda_libraries_compiles_and_its_translation_too(
    report: dict[str, object], headers: Path
) -> None:
    stages = {stage["name"]: stage for stage in report["stages"]}  # type: ignore[attr-defined]
    original = stages["original"]
    assert original["outcome"] == "passed", original["message"]
    assert original["message"] == "the original compiles with nvcc for sm_90 (2 units)"
    assert ["-isystem", str(headers)] == original["command"][2:4]
    assert report["verdict"] == "passed", report["summary"]


def test_nvcc_sees_the_cusolver_and_nvrtc_headers(headers: Path, tmp_path: Path) -> None:
    unit = tmp_path / "factor.cu"
    unit.write_text(
        "#include <cusolverDn.h>\n#include <nvrtc.h>\n"
        "int main() { cusolverDnHandle_t h; nvrtcProgram p; return (int)sizeof(h) + (int)sizeof(p); }\n"
    )
    nv = toolchains.nvcc_invocation("sm_90")
    result = proc.run([*nv.argv, "-E", "-o", os.devnull, str(unit)], env=nv.env, timeout=120)
    assert result.ok, result.text()


def _wheel(folder: Path, name: str, version: str, members: dict[str, str]) -> None:
    """A wheel pip accepts (dist-info with METADATA, WHEEL, RECORD) carrying ``members``."""
    dist = f"{name.replace('-', '_')}-{version}"
    info = {
        f"{dist}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{dist}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    files = {**members, **info}
    record = "".join(f"{path},,\n" for path in files) + f"{dist}.dist-info/RECORD,,\n"
    with zipfile.ZipFile(folder / f"{dist}-py3-none-any.whl", "w") as archive:
        for path, text in {**files, f"{dist}.dist-info/RECORD": record}.items():
            archive.writestr(path, text)


def test_setup_falls_back_to_pip_and_keeps_only_the_headers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # PyPI unreachable in place (a refused port), pip pointed at a local index of small wheels
    # holding each library's headers the way the real ones do (nvidia/cu13/include/), plus a library.
    # Two libraries are enough for the mechanism (each pip run costs seconds).
    monkeypatch.setattr(cudalibs, "WHEELS", {lib: cudalibs.WHEELS[lib] for lib in ("cublas", "nvrtc")})
    links = tmp_path / "links"
    links.mkdir()
    for name, version, key_header in cudalibs.WHEELS.values():
        _wheel(links, name, version, {
            f"nvidia/cu13/include/{key_header}": f"/* {name} */\n",
            "nvidia/cu13/include/cuda_stdint_shared.h": "/* the same in every wheel */\n",
            f"nvidia/cu13/lib/lib{name}.so.13": "not a header",
        })
    monkeypatch.setattr(remote_wheel, "PYPI_SIMPLE", "http://127.0.0.1:9/simple/{name}/")
    monkeypatch.setenv("CASS_LSP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    lines: list[str] = []
    root = cudalibs.fetch(log=lines.append)
    assert any("downloading the wheel with pip" in line for line in lines), lines
    kept = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    expected = sorted(f"include/{key}" for _, _, key in cudalibs.WHEELS.values())
    assert kept == sorted([*expected, "include/cuda_stdint_shared.h", devlibs.MARKER])
    assert cudalibs.include_dir() == root / "include"
    assert cudalibs.version() == ", ".join(f"{lib} {v}" for lib, (_, v, _) in sorted(cudalibs.WHEELS.items()))
    # a second run only checks
    again: list[str] = []
    cudalibs.fetch(log=again.append)
    assert again == [f"CUDA library headers: already in {root}"]


def test_a_wheel_without_its_headers_is_named_and_nothing_is_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = tmp_path / "links"
    links.mkdir()
    for name, version, _ in cudalibs.WHEELS.values():
        _wheel(links, name, version, {"nvidia/cu13/lib/libempty.so": "no headers"})
    monkeypatch.setattr(remote_wheel, "PYPI_SIMPLE", "http://127.0.0.1:9/simple/{name}/")
    monkeypatch.setenv("CASS_LSP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    with pytest.raises(ToolchainMissing) as missing:
        cudalibs.fetch()
    name, version, key_header = cudalibs.WHEELS["cublas"]
    assert missing.value.what == f"nvidia/cu13/include/{key_header} in {name}=={version}"
    assert missing.value.hint == cudalibs.SETUP_HINT
    assert cudalibs.include_dir() is None
    assert [p.name for p in (tmp_path / "cache").iterdir()] == []
