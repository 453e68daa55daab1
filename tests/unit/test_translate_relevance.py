"""Code that uses no CUDA is not the port's business: a multi-model project's OpenMP, SYCL, Kokkos,
RAJA, TBB, std::par and OpenACC sources get no edit and no finding (they got ``parse-error``
warnings), while every file that uses CUDA (a name the tables know, a device keyword, a launch, a
CUDA header) is translated as before.

The project under realcode/multimodel is shaped like the multi-model benchmarks that showed it: one
interface, one source per model, CMake picking one with ``-DMODEL=``; the CLI's port of it and the
CUDA model's compile are tested in tests/toolchain/test_translate_relevance.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.translate import rules

PROJECT = Path(__file__).parent / "realcode" / "multimodel"
OTHER_MODELS = ("src/omp/OmpAdvector.cpp", "src/sycl/SyclAdvector.cpp", "src/kokkos/KokkosAdvector.cpp",
                "src/raja/RajaAdvector.cpp", "src/tbb/TbbAdvector.cpp", "src/stdpar/StdparAdvector.cpp",
                "src/acc/AccAdvector.cpp", "src/main.cpp", "src/models.h", "src/Advector.h")
CUDA_FILES = ("src/cuda/CudaAdvector.cu", "src/cuda/CudaAdvector.h", "src/cuda/factory.cu")
FORWARD = rules.engine_settings("gfx1100", "5.2", "chevron", False, False)
REVERSE = rules.engine_settings("gfx1100", "5.2", "chevron", False, True)
OPAQUE_TOO = rules.engine_settings("gfx1100", "5.2", "chevron", True, False)


@pytest.mark.parametrize("path", OTHER_MODELS)
def test_a_file_of_another_model_is_left_as_it_is_and_unflagged(path: str) -> None:
    out = rules.run((PROJECT / path).read_bytes(), FORWARD)
    assert out.edits == [] and out.findings == []


@pytest.mark.parametrize("path", CUDA_FILES)
def test_the_cuda_models_files_are_translated(path: str) -> None:
    out = rules.run((PROJECT / path).read_bytes(), FORWARD)
    assert out.edits


@pytest.mark.parametrize("source", [
    "void f(void** p) { cudaMalloc(p, 16); }\n",  # an API name only
    "#include <thrust/device_vector.h>\nthrust::device_vector<int> v;\n",  # Thrust: its headers are CUDA's
    "#include \"kernels.cuh\"\nvoid run();\n",  # a project CUDA header
    "#include <cublas_v2.h>\n",
    "inline __host__ __device__ float twice(float x) { return 2 * x; }\n",  # a device keyword only
    "void run(float* x) { scale<<<1, 64>>>(x); }\n",  # a launch only
    "#if defined(__CUDACC__)\nint on_gpu;\n#endif\n",
    "template <class T> void reduce() { cub::BlockReduce<T, 128> r; }\n",
])
def test_any_use_of_cuda_makes_a_file_cuda(source: str) -> None:
    assert rules.uses_source_api(source.encode(), FORWARD)


@pytest.mark.parametrize("source", [
    "// replaces the old cudaMalloc path\nint* alloc(int n) { return new int[n]; }\n",
    'const char* backend = "cudaMemcpy-free";\n',
    "register int r = 0;\nvoid spin() { asm volatile(\"pause\"); }\n",  # C++ spellings the rules also read
    "RAJA::forall<RAJA::cuda_exec<256>>(seg, body);\nauto b = sycl::backend::cuda;\n",  # other models' CUDA backends
])
def test_names_in_comments_strings_and_other_models_spellings_do_not(source: str) -> None:
    assert not rules.uses_source_api(source.encode(), FORWARD)
    assert rules.run(source.encode(), FORWARD).findings == []


def test_names_in_comments_count_when_comments_are_rewritten_too() -> None:
    source = b"// replaces the old cudaMalloc path\nint* alloc(int n) { return new int[n]; }\n"
    assert rules.uses_source_api(source, OPAQUE_TOO)
    assert b"hipMalloc" in rules.apply(source, rules.run(source, OPAQUE_TOO).edits)


def test_reverse_reads_hip_and_leaves_other_models_vector_types_alone() -> None:
    assert rules.uses_source_api(b"void f(void** p) { hipMalloc(p, 16); }\n", REVERSE)
    assert rules.uses_source_api(b"#include <hip/hip_runtime.h>\n", REVERSE)
    sycl = b"#include <sycl/sycl.hpp>\nsycl::float4 scale(sycl::float4 v) { return v * 2.0f; }\n"
    assert not rules.uses_source_api(sycl, REVERSE)
    assert rules.run(sycl, REVERSE) == rules.Outcome([], [], {})
