"""The generated HIP -> CUDA name maps are current, and hold what each runtime has."""

from __future__ import annotations

import re

from cass_lsp.cpu import hip_names


def test_generated_headers_are_current() -> None:
    for path, text in hip_names.outputs().items():
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run python -m cass_lsp.cpu.hip_names"
    assert hip_names.main(["--check"]) == 0


def _mapped(text: str) -> dict[str, str]:
    return dict(re.findall(r"^#define (\w+) (\w+)$", text, re.M))


def test_cpu_runtime_maps_only_what_it_defines() -> None:
    cpu = _mapped(hip_names.cpu_text())
    assert cpu["hipMalloc"] == "cudaMalloc"
    assert cpu["hipErrorAssert"] == "cudaErrorAssert"
    assert cpu["hipDeviceAttributeComputeMode"] == "cudaDevAttrComputeMode"
    assert cpu["hipGraphCreate"] == "cudaGraphCreate"  # graph.hpp defines it
    assert "hipGraphAddKernelNode" not in cpu  # which it does not
    assert "hipInit" not in cpu and "hipHostMalloc" not in cpu  # hip_api.hpp defines them itself


def test_shim_maps_the_cuda_runtime_api() -> None:
    shim = _mapped(hip_names.shim_text())
    assert shim["hipGraphCreate"] == "cudaGraphCreate"
    assert shim["hipDeviceAttributeComputeMode"] == "cudaDevAttrComputeMode"
    assert "hipLaunchKernelGGL" not in shim and "hipInit" not in shim and "hipHostMalloc" not in shim
    assert not any(cuda.startswith("cu") and not cuda.startswith("cuda") for cuda in shim.values())
