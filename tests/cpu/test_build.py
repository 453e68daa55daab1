"""build(): the compile command, compile errors on the user's lines, availability and cache keys."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from cass_lsp.core import proc
from cass_lsp.cpu import available, build, include_dir, toolchain_version
from cass_lsp.cpu.build import is_hip
from tests.cpu.conftest import need_gxx

KERNELS = Path(__file__).parent / "kernels"


def test_compile_error_points_at_the_user_line(tmp_path: Path) -> None:
    need_gxx()
    source = KERNELS / "compile_error.cu"
    result = build(source, source.read_text(), tmp_path / "prog")
    assert not result.ok and result.exe == ""
    assert f"{source}:9:" in result.log  # `int x = undeclared_variable + 1;` (1-based line 9)
    assert "undeclared_variable" in result.log


def test_command_shape(tmp_path: Path) -> None:
    need_gxx()
    source = tmp_path / "empty.cu"
    result = build(source, "int main() { return 0; }\n", tmp_path / "out", warp_size=64)
    assert result.ok, result.log
    assert Path(result.exe).is_file()
    assert result.command[:4] == ["g++", "-std=c++17", "-O2", "-pthread"]
    assert "-DCASS_CPU_WARP_SIZE=64" in result.command and "-D__CUDACC__=1" in result.command
    assert str(include_dir()) in result.command and str(tmp_path) in result.command
    prepared = Path(result.exe + ".cpu.cpp").read_text()
    assert prepared.startswith(f'#line 1 "{source}"\n')


def test_hip_detection() -> None:
    assert is_hip(Path("a.hip"), "")
    assert is_hip(Path("a.cpp"), "#include <hip/hip_runtime.h>\n")
    assert not is_hip(Path("a.cu"), "#include <cuda_runtime.h>\n")


def test_invalid_warp_size(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        build(tmp_path / "a.cu", "", tmp_path / "a", warp_size=16)


def test_cancelled_build(tmp_path: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    result = build(tmp_path / "a.cu", "int main() {}\n", tmp_path / "a", cancel=cancel)
    assert not result.ok and "cancelled" in result.log


def test_available_and_version() -> None:
    ok, detail = available()
    assert isinstance(ok, bool) and detail
    assert available("no-such-compiler-xyz")[0] is False
    assert toolchain_version() == toolchain_version()
    assert "cass-cpu" in toolchain_version()


_CXX11_UNIT = """// C++11-era code: a unit whose build asks for -std=c++11 (and uses `register`, gone in C++17)
#include <cstdio>
__global__ void axpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(a * x[i] + y[i], 0.0f) + max(i, 0);
}
int main() {
    register int n = 256;
    float* x; float* y;
    cudaMallocManaged(&x, n * sizeof(float)); cudaMallocManaged(&y, n * sizeof(float));
    for (int i = 0; i < n; ++i) { x[i] = 1.0f; y[i] = 2.0f; }
    axpy<<<(n + 127) / 128, 128>>>(3.0f, x, y, n);
    cudaDeviceSynchronize();
    std::printf("%.1f\\n", y[n - 1]);
    return 0;
}
"""


@pytest.mark.parametrize("standard", ["-std=c++11", "-std=gnu++14"])
def test_a_unit_built_as_an_older_standard_builds_at_cpp17(tmp_path: Path, standard: str) -> None:
    need_gxx()
    source = tmp_path / "axpy.cu"
    result = build(source, _CXX11_UNIT, tmp_path / "out", extra_args=[standard])
    assert result.ok, result.log
    assert standard not in result.command and f"-std={standard[5:-2]}17" in result.command


_PROPERTIES = """#include <cstdio>
%s
__global__ void k() {}
int main() {
    struct %s prop;
    %s(&prop, 0);
    struct %s attributes;
    %s(&attributes, (const void*)k);
    std::printf("%%d\\n", prop.multiProcessorCount > 0 && attributes.maxThreadsPerBlock > 0);
    return 0;
}
"""


@pytest.mark.parametrize(
    ("name", "header", "names"),
    [("props.cu", "", ("cudaDeviceProp", "cudaGetDeviceProperties", "cudaFuncAttributes", "cudaFuncGetAttributes")),
     ("props.hip", "#include <hip/hip_runtime.h>",
      ("hipDeviceProp_t", "hipGetDeviceProperties", "hipFuncAttributes", "hipFuncGetAttributes"))],
)  # fmt: skip
def test_the_device_properties_are_a_struct_on_both_sides(tmp_path: Path, name: str, header: str, names: tuple[str, ...]) -> None:
    # cuda-samples' MC_EstimatePiP writes `struct cudaDeviceProp p;` and `struct cudaFuncAttributes a;`, its
    # translation `struct hipDeviceProp_t p;`: g++ rejected the HIP side while these were typedefs
    need_gxx()
    source = tmp_path / name
    result = build(source, _PROPERTIES % (header, *names), tmp_path / "out")
    assert result.ok, result.log
    assert proc.run([result.exe], timeout=60).stdout.decode() == "1\n"
