"""The toolchain layer against the real installed tools (wheel nvcc, Debian clang-19, HIP headers).

Setup (``python -m cass_lsp.toolchains setup --rocm71``) must have run: the ROCm 7.1 tests use the
headers it fetched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cass_lsp import proc, toolchains
from cass_lsp.toolchains import amd, cxxfilt, devlibs, nvidia, rocm71
from cass_lsp.toolchains.errors import ToolchainMissing

WARP_KERNEL = """
#include <hip/hip_runtime.h>
__global__ void k(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down(v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
"""
WARP_SYNC_64 = WARP_KERNEL.replace("__shfl_down(v, o)", "__shfl_down_sync(0xffffffffffffffffull, v, o)")


def test_report_finds_every_tool() -> None:
    statuses = {s.name: s for s in toolchains.report()}
    for name in (
        "nvcc",
        "nvdisasm",
        "cuobjdump",
        "g++ (nvcc host compiler)",
        "clang++-19",
        "ld.lld-19",
        "llvm-as-19",
        "llvm-objdump-19",
        "llvm-cxxfilt-19",
        "HIP headers (ROCm 5.2)",
        "ROCm device libraries",
        "gfx11/gfx12 device-lib folder",
        "HIP headers (ROCm 7.1, triton)",
    ):
        status = statuses[name]
        assert status.found, f"{name}: {status.hint}"
        assert status.version and status.path and status.hint is None
    assert statuses["nvcc"].version is not None and statuses["nvcc"].version.startswith("13.")
    assert statuses["HIP headers (ROCm 5.2)"].version == "5.2.21153"
    assert statuses["HIP headers (ROCm 7.1, triton)"].version is not None
    assert statuses["HIP headers (ROCm 7.1, triton)"].version.startswith("7.1.")


def test_wheel_nvcc_is_preferred_and_runs(tmp_path: Path) -> None:
    invocation = toolchains.nvcc_invocation("sm_90")
    nvcc = Path(invocation.argv[0])
    assert nvcc.parent == nvidia.wheel_bin_dir()  # not the system /usr/local/bin/nvcc
    assert invocation.env["PATH"].split(os.pathsep)[0] == str(nvcc.parent)
    source = tmp_path / "k.cu"
    source.write_text("__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n")
    result = proc.run(
        [*invocation.argv, "--ptx", "-o", str(tmp_path / "k.ptx"), str(source)], env=invocation.env, timeout=120
    )
    assert result.ok, result.text()
    assert ".visible .entry _Z1kPf" in (tmp_path / "k.ptx").read_text()


def test_hip_on_nvidia_through_the_shim(tmp_path: Path) -> None:
    program = tmp_path / "p.hip"
    program.write_text(
        WARP_KERNEL
        + WARP_SYNC_64.split("#include <hip/hip_runtime.h>")[1].replace(" k(", " k64(")
        + """
int main() {
  float *in, *out;
  hipMalloc(&in, 1024 * sizeof(float));
  hipMalloc(&out, sizeof(float));
  hipMemset(out, 0, sizeof(float));
  hipLaunchKernelGGL(k, dim3(4), dim3(256), 0, 0, in, out, 1024);
  hipStream_t s;
  hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
  k64<<<4, 256, 0, s>>>(in, out, 1024);
  hipError_t e = hipDeviceSynchronize();
  hipFree(in); hipFree(out); hipStreamDestroy(s);
  return e == hipSuccess ? 0 : 1;
}
"""
    )
    invocation = toolchains.nvcc_invocation("sm_90", hip_source=True)
    result = proc.run(
        [*invocation.argv, "-c", "-o", str(tmp_path / "p.o"), str(program)], env=invocation.env, timeout=180
    )
    assert result.ok, result.text()
    assert "warning" not in result.text()  # 64-bit HIP masks are taken without truncation warnings
    assert (tmp_path / "p.o").stat().st_size > 0


@pytest.mark.parametrize("arch", ["gfx1100", "gfx1200", "gfx90a", "gfx942"])
def test_rocm52_flags_compile_for_each_arch(arch: str, tmp_path: Path) -> None:
    flags = toolchains.amd_hip_flags(arch, "5.2")
    assert f"--offload-arch={arch}" in flags and "-x" in flags
    source = tmp_path / "k.hip"
    source.write_text(WARP_KERNEL)
    invocation = toolchains.hip_invocation(arch, "5.2")
    out = tmp_path / "k.s"
    result = proc.run(
        [*invocation.argv, "--cuda-device-only", "-S", "-O2", "-o", str(out), str(source)],
        env=invocation.env,
        timeout=180,
    )
    assert result.ok, result.text()
    text = out.read_text()
    assert f"amdgcn-amd-amdhsa--{arch}" in text
    assert (".wavefront_size: 64" in text) == arch.startswith("gfx9")


@pytest.mark.parametrize("arch", ["gfx1100", "gfx942"])
def test_rocm71_flags_take_64_bit_masks(arch: str, tmp_path: Path) -> None:
    flags = rocm71.hip71_flags(arch)
    assert flags is not None and "-nogpuinc" in flags
    source = tmp_path / "k.hip"
    source.write_text(WARP_SYNC_64)
    invocation = toolchains.hip_invocation(arch, "7.1")
    assert invocation.versions["hip"].startswith("7.1.")
    out = tmp_path / "k.s"
    result = proc.run(
        [*invocation.argv, "--cuda-device-only", "-S", "-O2", "-o", str(out), str(source)],
        env=invocation.env,
        timeout=180,
    )
    assert result.ok, result.text()
    assert "ds_bpermute" in out.read_text()
    # the same 64-bit mask does not exist in ROCm 5.2's headers
    old = toolchains.hip_invocation(arch, "5.2")
    rejected = proc.run([*old.argv, "--cuda-device-only", "-fsyntax-only", str(source)], env=old.env, timeout=180)
    assert not rejected.ok and "__shfl_down_sync" in rejected.text()


def test_rocm_profiles() -> None:
    assert toolchains.rocm_profile("7.1.0") == "7.1"
    assert toolchains.rocm_profile("auto") == "5.2"
    with pytest.raises(ValueError, match=r"known: 5\.2, 7\.1"):
        toolchains.rocm_profile("6.0")


def test_isa_versions() -> None:
    assert devlibs.isa_version("gfx1100") == 11000
    assert devlibs.isa_version("gfx1201") == 12001
    assert devlibs.isa_version("gfx942") == 9402
    assert devlibs.isa_version("gfx90a") == 9010
    with pytest.raises(ValueError):
        devlibs.isa_version("sm_90")


def test_devlibs_folder_is_built_once_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASS_LSP_CACHE_DIR", str(tmp_path))
    lines: list[str] = []
    folder = devlibs.ensure(log=lines.append)
    assert folder == tmp_path / "amdgcn-19" / "bitcode"
    assert lines and "gfx1100" in lines[0]
    for arch in ("gfx1100", "gfx1201", "gfx942"):
        assert devlibs.isa_file(folder, arch).stat().st_size > 0
    assert (folder / "ocml.bc").is_symlink() and (folder / "oclc_isa_version_1030.bc").is_symlink()
    marker = (folder / devlibs.MARKER).stat().st_mtime_ns
    assert devlibs.ensure(log=lines.append) == folder and len(lines) == 1  # already there: nothing done
    assert (folder / devlibs.MARKER).stat().st_mtime_ns == marker
    # a stale folder (other clang) is replaced as a whole
    (folder / devlibs.MARKER).write_text(json.dumps({"clang": "18.0.0"}))
    devlibs.ensure(log=lines.append)
    assert len(lines) == 2 and json.loads((folder / devlibs.MARKER).read_text())["clang"] != "18.0.0"
    assert [p.name for p in folder.parent.iterdir()] == ["bitcode"]  # no staging or old folders left


def test_setup_entry_point_is_idempotent(tmp_path: Path) -> None:
    env = {**os.environ, "CASS_LSP_CACHE_DIR": str(tmp_path)}
    first = subprocess.run(
        [sys.executable, "-m", "cass_lsp.toolchains", "setup"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "generated ISA bitcode" in first.stdout
    second = subprocess.run(
        [sys.executable, "-m", "cass_lsp.toolchains", "setup"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "generated" not in second.stdout and "device libraries ready" in second.stdout


def test_rocm71_missing_says_how_to_fetch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASS_LSP_CACHE_DIR", str(tmp_path))
    assert rocm71.hip71_flags("gfx1100") is None
    with pytest.raises(ToolchainMissing) as missing:
        toolchains.amd_hip_flags("gfx1100", "7.1")
    assert missing.value.hint == "python -m cass_lsp.toolchains setup --rocm71"


def test_rocm71_extracts_only_the_amd_backend(tmp_path: Path) -> None:
    wheel = tmp_path / "triton-0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("triton/backends/amd/include/hip/hip_version.h", "#define HIP_VERSION_MAJOR 7\n")
        archive.writestr("triton/backends/amd/lib/ocml.bc", b"BC")
        archive.writestr("triton/backends/amd/lib/other.so", b"ELF")
        archive.writestr("triton/backends/nvidia/include/cuda.h", "")
        archive.writestr("triton/backends/amd/include/../../evil.h", "")
    headers = tmp_path / "headers"
    assert rocm71._extract(wheel, "include/", None, headers) == 1
    assert (headers / "hip" / "hip_version.h").is_file()
    libs = tmp_path / "libs"
    assert rocm71._extract(wheel, "lib/", ("ocml.bc", "ockl.bc"), libs) == 1
    assert [p.name for p in libs.iterdir()] == ["ocml.bc"]
    assert not (tmp_path / "evil.h").exists()


def test_rocm71_fetch_is_a_no_op_when_present() -> None:
    said: list[str] = []
    root = rocm71.fetch(log=said.append)
    assert root == rocm71.root() and said == [f"ROCm 7.1 headers: already in {root}"]
    assert amd.hip_version_of(root / "hip71" / "include") == rocm71.hip_version()
    assert (root / "devlibs" / "oclc_wavefrontsize64_on.bc").stat().st_size > 0


def test_missing_tools_raise_with_install_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(nvidia, "wheel_bin_dir", lambda: None)
    monkeypatch.setenv(amd.LLVM_DIR_ENV, "/nonexistent")
    with pytest.raises(ToolchainMissing) as nv:
        toolchains.nvcc_invocation("sm_90")
    assert nv.value.hint == "pip install 'cass-lsp[nvidia]'" and "nvcc" in str(nv.value)
    with pytest.raises(ToolchainMissing) as clang:
        toolchains.amd_hip_flags("gfx1100", "5.2")
    assert clang.value.hint.startswith("apt-get install --no-install-recommends clang-19")
    statuses = {s.name: s for s in toolchains.report()}
    assert not statuses["nvcc"].found and statuses["nvcc"].hint == "pip install 'cass-lsp[nvidia]'"
    assert not statuses["clang++-19"].found and "clang-19" in (statuses["clang++-19"].hint or "")
    assert not statuses["llvm-as-19"].found and statuses["llvm-as-19"].hint == amd.LLVM_HINT


def test_unknown_arch_for_rocm52_names_the_problem() -> None:
    with pytest.raises(ToolchainMissing, match=r"oclc_isa_version_950\.bc"):
        toolchains.amd_hip_flags("gfx950", "5.2")


def test_demangle() -> None:
    names = cxxfilt.demangle(["_Z9block_sumPKfPfi", "_Z9transformIf5SaxpyEvPKT_S3_PS1_T0_i", "plain"])
    assert names["_Z9block_sumPKfPfi"] == "block_sum(float const*, float*, int)"
    assert names["_Z9transformIf5SaxpyEvPKT_S3_PS1_T0_i"].startswith("void transform<float, Saxpy>(")
    assert names["plain"] == "plain"
