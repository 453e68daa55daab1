"""The toolchain layer against the real installed tools (wheel nvcc, Debian clang-19, HIP headers).

Setup (``cass-lsp setup``) must have run: the ROCm 7.1 and
HIP library tests use the headers it fetched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.toolchains import amd, cxxfilt, devlibs, hiplibs, nvidia, rocm71
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
        "HIP library headers (hipBLAS, hipFFT, hipCUB, rocThrust)",
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
    with pytest.raises(ValueError, match=r"ROCm 6\.0 here: listings compile against ROCm 5\.2 or 7\.1"):
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
    # already there: nothing done, and the log says so (setup's second run only checks)
    assert devlibs.ensure(log=lines.append) == folder and lines[1:] == [f"device libraries: already in {folder}"]
    assert (folder / devlibs.MARKER).stat().st_mtime_ns == marker
    # a stale folder (other clang) is replaced as a whole
    (folder / devlibs.MARKER).write_text(json.dumps({"clang": "18.0.0"}))
    devlibs.ensure(log=lines.append)
    assert len(lines) == 3 and json.loads((folder / devlibs.MARKER).read_text())["clang"] != "18.0.0"
    assert [p.name for p in folder.parent.iterdir()] == ["bitcode"]  # no staging or old folders left


def test_setup_entry_point_is_idempotent(tmp_path: Path) -> None:
    env = {**os.environ, "CASS_LSP_CACHE_DIR": str(tmp_path)}
    first = subprocess.run(
        [sys.executable, "-m", "cass_lsp", "setup", "--only", "devlibs"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "generated ISA bitcode" in first.stderr
    second = subprocess.run(
        [sys.executable, "-m", "cass_lsp", "setup", "--only", "devlibs"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "generated" not in second.stderr and "device libraries: already in" in second.stderr
    assert "[1/1 gfx11/gfx12/gfx942 device libraries: ready]" in second.stderr


def test_rocm71_missing_says_how_to_fetch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASS_LSP_CACHE_DIR", str(tmp_path))
    assert rocm71.hip71_flags("gfx1100") is None
    with pytest.raises(ToolchainMissing) as missing:
        toolchains.amd_hip_flags("gfx1100", "7.1")
    assert missing.value.hint == "cass-lsp setup --only rocm71"


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
    monkeypatch.setattr(nvidia, "TOOLKIT_BASE", Path("/nonexistent"))  # no /usr/local/cuda* either
    for name in nvidia.CUDA_HOME_ENVS:
        monkeypatch.delenv(name, raising=False)
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
    # LLVM 19 knows gfx941 but no device library has its ISA file; gfx950 came with LLVM 20
    with pytest.raises(ToolchainMissing, match=r"oclc_isa_version_941\.bc for gfx941 \(Debian's rocm-device-libs"):
        toolchains.amd_hip_flags("gfx941", "5.2")
    with pytest.raises(ToolchainMissing, match=r"an LLVM that knows gfx950 \(clang\+\+-19 19\.\S+ from .* does not\)") as new:
        toolchains.amd_hip_flags("gfx950", "5.2")
    assert new.value.hint.startswith("an LLVM newer than 19")


def test_demangle() -> None:
    names = cxxfilt.demangle(["_Z9block_sumPKfPfi", "_Z9transformIf5SaxpyEvPKT_S3_PS1_T0_i", "plain"])
    assert names["_Z9block_sumPKfPfi"] == "block_sum(float const*, float*, int)"
    assert names["_Z9transformIf5SaxpyEvPKT_S3_PS1_T0_i"].startswith("void transform<float, Saxpy>(")
    assert names["plain"] == "plain"


# HIP library headers from Debian 13 (hiplibs), fetched by ``setup --hip-libs``.

LIBRARY_HOST_USE = """
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hipfft/hipfft.h>
#include <hipsolver/hipsolver.h>
int use_libraries() {
  hipblasHandle_t blas;
  float alpha = 1.0f, beta = 0.0f, *a = nullptr;
  hipblasCreate(&blas);
  hipblasSgemm(blas, HIPBLAS_OP_N, HIPBLAS_OP_T, 4, 4, 4, &alpha, a, 4, a, 4, &beta, a, 4);
  hipfftHandle fft;
  hipfftPlan1d(&fft, 256, HIPFFT_C2C, 1);
  hipsolverHandle_t solver;
  hipsolverCreate(&solver);
  return hipblasDestroy(blas) == HIPBLAS_STATUS_SUCCESS && hipfftDestroy(fft) == HIPFFT_SUCCESS;
}
"""
PRIM_DEVICE_USE = """
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
__global__ void block_sum(const int* in, int* out) {
  using Reduce = hipcub::BlockReduce<int, 256>;
  __shared__ typename Reduce::TempStorage storage;
  int sum = Reduce(storage).Sum(in[blockIdx.x * 256 + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}
void sort(thrust::device_vector<int>& v) { thrust::sort(v.begin(), v.end()); }
"""


def _clang(rocm: str, arch: str, source: Path, *args: str | Path) -> proc.ProcResult:
    invocation = toolchains.hip_invocation(arch, rocm)
    return proc.run([*invocation.argv, *args, str(source)], env=invocation.env, cwd=source.parent, timeout=300)


def _deps(path: Path) -> list[str]:
    return path.read_text().replace("\\\n", " ").split()[1:]


def test_hip_libs_were_fetched_with_their_versions() -> None:
    fetched = hiplibs.record()
    assert fetched is not None, hiplibs.SETUP_HINT
    assert fetched.suite == "trixie" and set(fetched.packages) == set(hiplibs.PACKAGES)
    assert fetched.packages["libhipblas-dev"].startswith("5.5.")
    assert fetched.packages["librocprim-dev"].startswith("5.7.")
    root = hiplibs.root()
    assert json.loads((root / devlibs.MARKER).read_text())["suite"] == "trixie"
    assert (root / "copyright" / "librocthrust-dev").is_file()
    assert hiplibs.libraries("5.2") == (
        "hipblas", "hipcub", "hipfft", "hipsolver", "rocblas", "rocprim", "rocsolver", "thrust"
    )
    assert hiplibs.libraries("7.1") == ("hipblas", "hipfft", "hipsolver", "rocblas", "rocsolver")
    assert hiplibs.PROFILES == toolchains.ROCM_PROFILES
    for profile in toolchains.ROCM_PROFILES:
        include = hiplibs.include_dir(profile)
        assert include is not None and include.is_dir()
        # Only library folders: the profile's HIP runtime headers can never be shadowed.
        assert sorted(p.name for p in include.iterdir()) == list(hiplibs.libraries(profile))
    include52 = hiplibs.include_dir("5.2")
    assert include52 is not None
    for header in ("hipblas/hipblas.h", "hipfft/hipfft.h", "hipsolver/hipsolver.h", "hipcub/hipcub.hpp",
                   "thrust/device_vector.h", "rocprim/rocprim.hpp"):
        assert (include52 / header).is_file(), header


@pytest.mark.parametrize("rocm", ["5.2", "7.1"])
def test_hip_libs_sit_between_the_hip_runtime_and_usr_include(rocm: str, tmp_path: Path) -> None:
    include = hiplibs.include_dir(rocm)
    assert include is not None, hiplibs.SETUP_HINT
    flags = toolchains.amd_hip_flags("gfx1100", rocm)
    assert flags[flags.index(str(include)) - 1] == "-isystem"
    source = tmp_path / "k.hip"
    source.write_text("#include <hip/hip_runtime.h>\n#include <hipblas/hipblas.h>\n")
    result = _clang(rocm, "gfx1100", source, "--cuda-host-only", "-E", "-v", "-o", os.devnull)
    assert result.ok, result.text()
    text = result.text()
    search = text[text.index("#include <...> search starts here:") : text.index("End of search list.")]
    order = [line.strip() for line in search.splitlines()[1:]]
    assert order.index(str(include)) < order.index("/usr/include")
    if rocm == "7.1":
        hip71 = str(rocm71.root() / "hip71" / "include")
        assert order.index(hip71) < order.index(str(rocm71.root() / "hip62" / "include")) < order.index(str(include))
    version = toolchains.hip_invocation("gfx1100", rocm).versions["hip-libs"]
    assert version.startswith("trixie: ") and ", ".join(hiplibs.libraries(rocm)) in version


@pytest.mark.parametrize("rocm", ["5.2", "7.1"])
def test_hip_library_host_apis_compile(rocm: str, tmp_path: Path) -> None:
    source = tmp_path / "libs.hip"
    source.write_text(LIBRARY_HOST_USE)
    result = _clang(rocm, "gfx1100", source, "--cuda-host-only", "-c", "-MD", "-o", tmp_path / "libs.o")
    assert result.ok, result.text()
    include = str(hiplibs.include_dir(rocm))
    deps = _deps(tmp_path / "libs.d")
    for header in ("hipblas/hipblas.h", "hipfft/hipfft.h", "hipsolver/hipsolver.h"):
        assert f"{include}/{header}" in deps


def test_hipcub_and_rocthrust_device_code_compile_for_rocm52(tmp_path: Path) -> None:
    """For gfx1100 (the corpus' cub and thrust programs cover gfx942 too)."""
    source = tmp_path / "prim.hip"
    source.write_text(PRIM_DEVICE_USE)
    out = tmp_path / "prim.o"
    result = _clang("5.2", "gfx1100", source, "--cuda-device-only", "--no-gpu-bundle-output", "-O2", "-c", "-MD", "-o", out)
    assert result.ok, result.text()
    assert out.stat().st_size > 0
    deps = _deps(tmp_path / "prim.d")
    # Debian 12's rocPRIM 5.3 in /usr/include must not be mixed in under the fetched 5.7.
    assert f"{hiplibs.include_dir('5.2')}/rocprim/rocprim_version.hpp" in deps
    assert not [d for d in deps if d.startswith("/usr/include/rocprim/")]


def test_rocm71_leaves_out_rocprim_libraries_for_the_stated_reason(tmp_path: Path) -> None:
    assert set(hiplibs.NOT_IN_PROFILE["7.1"]) == {"rocprim", "thrust", "hipcub"}
    source = tmp_path / "prim.hip"
    source.write_text(PRIM_DEVICE_USE)
    left_out = _clang("7.1", "gfx1100", source, "--cuda-host-only", "-fsyntax-only")
    assert not left_out.ok and "'hipcub/hipcub.hpp' file not found" in left_out.text()
    # With the whole fetched tree on the 7.1 path, rocPRIM 5.7 breaks exactly as NOT_IN_PROFILE says.
    everything = _clang("7.1", "gfx1100", source, "-isystem", hiplibs.root() / "include", "--cuda-host-only",
                        "-fsyntax-only", "-ferror-limit=0")
    assert not everything.ok
    text = everything.text()
    assert "constexpr variable 'warp_size' must be initialized by a constant expression" in text
    assert "no member named 'gcnArch'" in text
    assert "warpSize" in hiplibs.NOT_IN_PROFILE["7.1"]["rocprim"]
    assert "gcnArch" in hiplibs.NOT_IN_PROFILE["7.1"]["rocprim"]


def test_hip_libs_fetch_is_a_no_op_when_present() -> None:
    said: list[str] = []
    assert hiplibs.fetch(log=said.append) == hiplibs.root()
    assert said == [f"HIP library headers: already in {hiplibs.root()} ({hiplibs.version()})"]


def test_hip_libs_missing_say_how_to_fetch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASS_LSP_CACHE_DIR", str(tmp_path))
    assert hiplibs.include_dir("5.2") is None and hiplibs.record() is None
    status = {s.name: s for s in toolchains.report()}["HIP library headers (hipBLAS, hipFFT, hipCUB, rocThrust)"]
    assert not status.found and status.hint == "cass-lsp setup --only hip-libs"
    assert "hip-libs" not in toolchains.hip_invocation("gfx1100", "5.2").versions
    monkeypatch.setenv("PATH", str(tmp_path))  # no apt-get, no dpkg-deb
    with pytest.raises(ToolchainMissing) as missing:
        hiplibs.fetch()
    assert "apt-get and dpkg-deb" in str(missing.value) and missing.value.hint == hiplibs.APT_HINT


def test_setup_fetches_hip_libs_atomically_with_a_private_apt_state(tmp_path: Path) -> None:
    env = {**os.environ, "CASS_LSP_CACHE_DIR": str(tmp_path)}
    system_lists = Path("/var/lib/apt/lists")
    before = system_lists.stat().st_mtime_ns if system_lists.is_dir() else None
    argv = [sys.executable, "-m", "cass_lsp", "setup", "--only", "hip-libs"]
    first = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert first.returncode == 0, first.stderr
    assert "HIP library headers: trixie: libhipblas-dev 5.5." in first.stderr
    assert [p.name for p in (tmp_path / "hip-libs").iterdir()] == ["trixie"]  # no staging or apt state left
    assert (tmp_path / "hip-libs" / "trixie" / "rocm5.2" / "include" / "thrust" / "sort.h").is_file()
    assert (system_lists.stat().st_mtime_ns if system_lists.is_dir() else None) == before
    second = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, check=True)
    assert "HIP library headers: already in" in second.stderr
