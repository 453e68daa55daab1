"""The rule engine's behaviour on small CUDA sources (no compiler; see test_translate_compile)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.core import targets
from cass_lsp.syntax import parsing as syntax
from cass_lsp.translate import TargetProfile, TranslateOptions, TranslationResult, lint, lookup, translate

P52 = TargetProfile(rocm="5.2")
P71 = TargetProfile(rocm="7.1")
GGL = TranslateOptions(launch_style="hipLaunchKernelGGL")
DEFAULT = TranslateOptions()


def hip(source: str, profile: TargetProfile = P52, options: TranslateOptions = DEFAULT) -> str:
    return translate(source, profile, options).text


def codes(result: TranslationResult) -> list[str]:
    return [f.code for f in result.findings]


def spans(source: str, result: TranslationResult, code: str) -> list[str]:
    data = source.encode()
    return [data[f.start_byte:f.end_byte].decode() for f in result.findings if f.code == code]


def test_runtime_calls_types_and_enums_are_renamed() -> None:
    src = ("#include <cuda_runtime.h>\nvoid f(float* d, size_t n) {\n  cudaStream_t s;\n"
           "  cudaStreamCreate(&s);\n  cudaMemcpyAsync(d, d, n, cudaMemcpyDeviceToDevice, s);\n"
           "  cudaError_t e = cudaGetLastError();\n  if (e != cudaSuccess) cudaDeviceReset();\n}\n")
    out = translate(src, P52)
    assert out.text == ("#include <hip/hip_runtime.h>\nvoid f(float* d, size_t n) {\n  hipStream_t s;\n"
                        "  hipStreamCreate(&s);\n  hipMemcpyAsync(d, d, n, hipMemcpyDeviceToDevice, s);\n"
                        "  hipError_t e = hipGetLastError();\n  if (e != hipSuccess) hipDeviceReset();\n}\n")
    assert out.findings == []
    assert out.stats == {"headers": 1, "runtime": 8}


def test_strings_and_comments_are_kept_unless_asked() -> None:
    src = '#include <cuda_runtime.h>\n// cudaMalloc here\nconst char* s = "cudaMalloc failed"; /* cudaFree */\n'
    assert hip(src).splitlines()[1:] == src.splitlines()[1:]
    rewritten = hip(src, options=TranslateOptions(rewrite_strings_and_comments=True))
    assert rewritten == ('#include <hip/hip_runtime.h>\n// hipMalloc here\n'
                         'const char* s = "hipMalloc failed"; /* hipFree */\n')


def test_macro_bodies_are_translated_but_their_strings_are_not() -> None:
    src = ('#include <cuda_runtime.h>\n#define CHECK(call) do { cudaError_t e = (call); \\\n'
           '  if (e != cudaSuccess) printf("cudaError %s\\n", cudaGetErrorString(e)); } while (0)\n'
           "#define STREAM cudaStream_t\n")
    assert hip(src) == ('#include <hip/hip_runtime.h>\n#define CHECK(call) do { hipError_t e = (call); \\\n'
                        '  if (e != hipSuccess) printf("cudaError %s\\n", hipGetErrorString(e)); } while (0)\n'
                        "#define STREAM hipStream_t\n")


def test_macro_parameters_named_like_apis_are_left_alone() -> None:
    src = "#define WRAP(cudaMalloc) cudaMalloc + cudaFree\n"
    assert hip(src).endswith("#define WRAP(cudaMalloc) cudaMalloc + hipFree\n")


def test_names_the_file_declares_are_its_own() -> None:
    src = ("__device__ unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }\n"
           "__global__ void k(unsigned* x) { x[0] = umin(x[1], x[2]); }\n")
    out = translate(src, P52)
    assert "unsupported-api" not in codes(out)
    assert "umin(x[1], x[2])" in out.text


def test_members_and_other_namespaces_are_not_api_names() -> None:
    src = "struct S { int cudaMalloc; };\nvoid f(S s) { s.cudaMalloc = 1; mylib::cudaFree(0); }\n"
    assert hip(src) == src


def test_unsupported_api_is_an_error_with_the_cuda_version() -> None:
    src = "void f(cudaGraphExec_t g) { cudaGraphInstantiateWithParams(&g, 0, 0); cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, cudaFlushGPUDirectRDMAWritesToOwner); }\n"
    out = translate(src, P52)
    flush = [f for f in out.findings if f.name == "cudaDeviceFlushGPUDirectRDMAWrites"]
    assert len(flush) == 1 and flush[0].severity == "error" and flush[0].code == "unsupported-api"
    assert "CUDA 11.3" in flush[0].message
    assert "cudaDeviceFlushGPUDirectRDMAWrites" in out.text  # left for a human, not guessed


def test_api_newer_than_target_is_reported_not_emitted() -> None:
    src = "void f(cudaGraphExec_t* g, cudaGraph_t graph) { cudaGraphInstantiateWithParams(g, graph, 0); }\n"
    old = translate(src, P52)
    assert [f.code for f in old.findings if f.name == "cudaGraphInstantiateWithParams"] == ["api-newer-than-target"]
    assert "cudaGraphInstantiateWithParams(" in old.text
    new = translate(src, P71)
    assert "hipGraphInstantiateWithParams(" in new.text
    assert "api-newer-than-target" not in codes(new)


def test_cudnn_becomes_miopen_where_the_tables_name_an_equivalent() -> None:
    out = translate("void f(cudnnHandle_t* h) { cudnnCreate(h); }\n", P52)
    assert "miopenHandle_t* h" in out.text and "miopenCreate(h)" in out.text
    missing = translate("void f(cudnnTensorDescriptor_t d) { cudnnSetTensor4dDescriptor(d); }\n", P52)
    messages = [f.message for f in missing.findings if f.name == "cudnnSetTensor4dDescriptor"]
    assert messages and "has no MIOpen equivalent" in messages[0]


def test_deprecated_apis_are_warned() -> None:
    out = translate("void f() { cudaThreadSynchronize(); }\n", P52)
    assert "hipDeviceSynchronize()" in out.text
    assert [(f.code, f.severity) for f in out.findings] == [("deprecated-api", "warning")]


def test_includes_are_mapped_in_place_and_deduplicated() -> None:
    src = ("#include <cuda.h>\n#include <cuda_runtime.h>\n#include \"cublas_v2.h\"\n#include <cublas.h>\n"
           "#include <curand_kernel.h>\n#include <cub/cub.cuh>\n#include <cub/block/block_reduce.cuh>\n"
           "#include <thrust/device_vector.h>\n#include <thrust/system/cuda/execution_policy.h>\n#include <cstdio>\n")
    assert hip(src) == ("#include <hip/hip_runtime.h>\n#include \"hipblas/hipblas.h\"\n"
                        "#include <hiprand/hiprand_kernel.h>\n#include <hipcub/hipcub.hpp>\n"
                        "#include <thrust/device_vector.h>\n#include <thrust/system/hip/execution_policy.h>\n"
                        "#include <cstdio>\n")


def test_library_include_paths_follow_the_rocm_version() -> None:
    src = "#include <cusparse.h>\n#include <cufft.h>\n"
    runtime = "#include <hip/hip_runtime.h>\n"
    assert hip(src, TargetProfile(rocm="5.1")) == runtime + "#include <hipsparse.h>\n#include <hipfft.h>\n"
    assert hip(src, P52) == runtime + "#include <hipsparse/hipsparse.h>\n#include <hipfft/hipfft.h>\n"


def test_the_runtime_include_comes_first_as_with_nvcc() -> None:
    src = "#include <cstdio>\n#include <cooperative_groups.h>\n#include <cuda_runtime.h>\n__global__ void k() {}\n"
    assert hip(src) == ("#include <cstdio>\n#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n"
                        "__global__ void k() {}\n")


def test_headers_without_hip_equivalent_are_errors() -> None:
    out = translate("#include <cudnn.h>\n#include <mma.h>\n", P52)
    assert [(f.code, f.severity) for f in out.findings] == [("unsupported-header", "error")]
    assert out.text == "#include <hip/hip_runtime.h>\n#include <miopen/miopen.h>\n#include <mma.h>\n"


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("__global__ void k() {}\n", "#include <hip/hip_runtime.h>\n__global__ void k() {}\n"),
        ("#include <cstdio>\nvoid f() { cudaDeviceSynchronize(); }\n",
         "#include <hip/hip_runtime.h>\n#include <cstdio>\nvoid f() { hipDeviceSynchronize(); }\n"),
        ("#ifndef G\n#define G\n#include <vector>\n__device__ int x;\n#endif\n",
         "#ifndef G\n#define G\n#include <hip/hip_runtime.h>\n#include <vector>\n__device__ int x;\n#endif\n"),
        ("#pragma once\n__device__ int x;\n", "#pragma once\n#include <hip/hip_runtime.h>\n__device__ int x;\n"),
        ("\ufeff__global__ void k() {}\r\n", "\ufeff#include <hip/hip_runtime.h>\r\n__global__ void k() {}\r\n"),
        ("int plain_cpp() { return 0; }\n", "int plain_cpp() { return 0; }\n"),
    ],
)
def test_implicit_runtime_include_is_added_where_nvcc_would_have_it(src: str, expected: str) -> None:
    assert hip(src) == expected


def test_launches_keep_chevrons_by_default() -> None:
    src = "__global__ void k(int* x);\nvoid f(int* x, cudaStream_t s) { k<<<2, 64, 0, s>>>(x); }\n"
    assert "k<<<2, 64, 0, s>>>(x);" in hip(src)


@pytest.mark.parametrize(
    ("launch", "expected"),
    [
        ("k<<<g, b>>>(x, 1)", "hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, x, 1)"),
        ("k<<<g, b, 128>>>(x, 1)", "hipLaunchKernelGGL(k, dim3(g), dim3(b), 128, 0, x, 1)"),
        ("k<<<dim3(4, 4), b, 0, s>>>(x, 1)", "hipLaunchKernelGGL(k, dim3(4, 4), dim3(b), 0, s, x, 1)"),
        ("t<float, 4><<<1, 32>>>(x)", "hipLaunchKernelGGL(HIP_KERNEL_NAME(t<float, 4>), dim3(1), dim3(32), 0, 0, x)"),
        ("ns::k<<<1, 32>>>()", "hipLaunchKernelGGL(ns::k, dim3(1), dim3(32), 0, 0)"),
        ("k<<<n / 256, 256, 0, cudaStreamPerThread>>>(x, 1)",
         "hipLaunchKernelGGL(k, dim3(n / 256), dim3(256), 0, hipStreamPerThread, x, 1)"),
    ],
)
def test_launches_become_hip_launch_kernel_ggl_on_request(launch: str, expected: str) -> None:
    out = hip(f"void f() {{ {launch}; }}\n", options=GGL)
    assert f"{{ {expected}; }}" in out


@pytest.mark.parametrize("options", [DEFAULT, GGL])
def test_a_braced_grid_or_block_becomes_a_dim3(options: TranslateOptions) -> None:
    """nvcc initialises a launch's dim3 from ``{x, y, 1}``; clang parses the configuration as
    expressions and rejects a braced list ("expected expression", NVIDIA's multi-GPU jacobi)."""
    out = hip("void f(int n, cudaStream_t s) {\n  k<<<{n, 1, 1}, {32, 8, 1}, 0, s>>>(n);\n}\n", options=options)
    assert "{n, 1, 1}" not in out and "{32, 8, 1}" not in out
    assert ("k<<<dim3(n, 1, 1), dim3(32, 8, 1), 0, s>>>(n);" if options is DEFAULT
            else "hipLaunchKernelGGL(k, dim3(n, 1, 1), dim3(32, 8, 1), 0, s, n);") in out


def test_kernel_launch_from_device_code_is_unsupported() -> None:
    src = "__global__ void child();\n__global__ void parent() { child<<<1, 1>>>(); }\n"
    out = translate(src, P52)
    assert [(f.code, f.severity) for f in out.findings] == [("dynamic-parallelism", "error")]


def test_symbols_and_kernels_passed_to_the_runtime_are_wrapped() -> None:
    src = ("__constant__ float c[4];\n__global__ void k();\nvoid f(float* h) {\n"
           "  cudaMemcpyToSymbol(c, h, 16);\n  cudaMemcpyFromSymbol(h, c, 16);\n"
           "  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096);\n}\n")
    out = hip(src)
    assert "hipMemcpyToSymbol(HIP_SYMBOL(c), h, 16);" in out
    assert "hipMemcpyFromSymbol(h, HIP_SYMBOL(c), 16);" in out
    assert ("hipFuncSetAttribute(reinterpret_cast<const void*>(k), hipFuncAttributeMaxDynamicSharedMemorySize, "
            "4096);") in out


def test_register_storage_class_is_removed_with_a_note() -> None:
    src = "__global__ void k(int* x) { register int i = x[0]; x[1] = i; }\n"
    out = translate(src, P52)
    assert "{ int i = x[0];" in out.text
    finding = next(f for f in out.findings if f.code == "nvcc-ism")
    assert finding.severity == "info" and finding.fix is not None


def test_inline_ptx_and_texture_references_are_flagged() -> None:
    src = ("texture<float, 1, cudaReadModeElementType> tex;\n"
           "__global__ void k(int* x) { int l; asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(l)); x[0] = l; }\n")
    out = translate(src, P52)
    assert spans(src, out, "inline-ptx") == ['asm volatile("mov.u32 %0, %%laneid;" : "=r"(l))']
    assert spans(src, out, "texture-reference") == ["texture<float, 1, cudaReadModeElementType>"]
    assert "hipReadModeElementType" in out.text


def test_cuda_arch_tests_become_the_device_pass_and_its_value_a_helper_level() -> None:
    """``#ifdef __CUDA_ARCH__`` asks for the device pass; its value (in ``#if``, in code, in a macro)
    reads CASS_CUDA_ARCH, which the helper defines on HIP's device pass only."""
    src = ("#ifdef __CUDA_ARCH__\nint a;\n#endif\n#if defined(__CUDA_ARCH__) && defined(__CUDACC__)\nint b;\n"
           "#endif\n#if __CUDA_ARCH__ >= 700\nint c;\n#endif\n"
           "#define ARCH_NOW __CUDA_ARCH__\n"
           "__global__ void arch(int* v) {\n#ifdef __CUDA_ARCH__\n  v[0] = __CUDA_ARCH__;\n#endif\n}\n")
    out = translate(src, P52)
    assert ("#ifdef __HIP_DEVICE_COMPILE__\nint a;\n#endif\n"
            "#if defined(__HIP_DEVICE_COMPILE__) && defined(__HIPCC__)\n") in out.text
    assert "#if CASS_CUDA_ARCH >= 700\n" in out.text and "#define ARCH_NOW CASS_CUDA_ARCH\n" in out.text
    assert "  v[0] = CASS_CUDA_ARCH;\n" in out.text
    assert not [line for line in out.text.splitlines() if "__CUDA_ARCH__" in line and not line.startswith("//")]
    helper = "#if defined(__HIP_DEVICE_COMPILE__) && !defined(CASS_CUDA_ARCH)\n#define CASS_CUDA_ARCH 600\n#endif\n"
    assert out.text.count(helper) == 1 and out.text.index(helper) < out.text.index("#if CASS_CUDA_ARCH >= 700")
    assert spans(src, out, "cuda-arch-check") == ["__CUDA_ARCH__"] * 3
    assert {f.severity for f in out.findings if f.code == "cuda-arch-check"} == {"info"}


def test_cuda_header_guards_become_the_hip_headers_guards_where_they_are_tested() -> None:
    """NVIDIA's helper_cuda.h defines findCudaDevice only #ifdef __CUDA_RUNTIME_H__: with the include
    translated, the test must ask about the HIP header, or the helper silently disappears."""
    src = ("#include <cuda_runtime.h>\n#ifdef __CUDA_RUNTIME_H__\nint f();\n#endif\n"
           "#if defined(__DRIVER_TYPES_H__) && defined(CUBLAS_API_H_)\nint g();\n#endif\n#ifndef _CUFFT_H_\n#endif\n"
           "const char* s = \"__CUDA_RUNTIME_H__\";\n")
    out = translate(src, P52).text
    assert "#ifdef HIP_INCLUDE_HIP_HIP_RUNTIME_H\n" in out
    assert "#if defined(HIP_INCLUDE_HIP_DRIVER_TYPES_H) && defined(HIPBLAS_H)\n" in out
    assert "#ifndef HIPFFT_H_\n" in out
    assert '"__CUDA_RUNTIME_H__"' in out  # a string is not a test


def test_the_driver_headers_guard_becomes_the_hip_runtimes() -> None:
    """NVIDIA's helper_cuda_drvapi.h defines findCudaDeviceDRV only #ifdef __cuda_cuda_h__ (cuda.h's
    guard): kept, every NVRTC sample's translation lost the helper and did not compile."""
    out = translate("#include <cuda.h>\n#ifdef __cuda_cuda_h__\nint findCudaDeviceDRV();\n#endif\n", P52).text
    assert "#include <hip/hip_runtime.h>\n#ifdef HIP_INCLUDE_HIP_HIP_RUNTIME_H\n" in out


def test_cuda_version_macros_read_the_originals_version_or_are_reported() -> None:
    """NVIDIA's simpleZeroCopy tests #if CUDART_VERSION >= 2020: under HIP that is 0, and the rule
    translation silently compiled the pre-CUDA-2.2 branch (which does not even compile). The runtime's
    version reads the original's CUDA (a helper); the compiler's version macros are reported."""
    src = ("#include <cuda_runtime.h>\n#if CUDART_VERSION >= 2020\nint a;\n#endif\n"
           "#if defined(__NVCC__) && __CUDACC_VER_MAJOR__ > 11\nint b;\n#endif\n")
    out = translate(src, P52)
    assert spans(src, out, "nvcc-ism") == ["CUDART_VERSION", "__NVCC__", "__CUDACC_VER_MAJOR__"]
    assert [f.severity for f in out.findings] == ["info", "warning", "warning"]
    assert "#if CASS_CUDART_VERSION >= 2020" in out.text
    assert "#if defined(__NVCC__) && __CUDACC_VER_MAJOR__ > 11" in out.text  # reported, not guessed


def test_cub_thrust_and_wmma_namespaces() -> None:
    src = ("#include <cub/cub.cuh>\nusing namespace cub;\n__global__ void k() {\n"
           "  typedef cub::BlockReduce<float, 128> R;\n  thrust::cuda::par;\n  nvcuda::wmma::fragment<int> f;\n}\n")
    out = translate(src, P52)
    assert "using namespace hipcub;" in out.text and "typedef hipcub::BlockReduce<float, 128> R;" in out.text
    assert "thrust::hip::par;" in out.text
    assert spans(src, out, "unsupported-api") == ["nvcuda"]


def test_byte_range_limits_rewriting_to_the_region() -> None:
    src = "void a() { cudaDeviceSynchronize(); }\nvoid b() { cudaDeviceSynchronize(); cudaFoo(); }\n"
    start = src.index("void b")
    out = translate(src, P52, byte_range=(start, len(src.encode())))
    # Outside the region only what its code needs: the HIP runtime, which nothing includes.
    assert out.text == ("#include <hip/hip_runtime.h>\nvoid a() { cudaDeviceSynchronize(); }\n"
                        "void b() { hipDeviceSynchronize(); cudaFoo(); }\n")
    assert [e.start_byte for e in out.edits] == [0, src.index("cudaDeviceSynchronize", start)]


@pytest.mark.parametrize(("include", "reported"), [("#include <hip/hip_runtime.h>\n", []),
                                                   ("#include <cuda_runtime.h>\n", ["cuda_runtime.h"])])
def test_a_region_in_a_file_with_a_runtime_include_adds_none(include: str, reported: list[str]) -> None:
    src = f"{include}void b() {{ cudaDeviceSynchronize(); }}\n"
    start = src.index("void b")
    out = translate(src, P52, byte_range=(start, len(src.encode())))
    assert out.text == f"{include}void b() {{ hipDeviceSynchronize(); }}\n"
    # CUDA's runtime include, outside the region, is the region's problem too: it is reported, with the fix.
    assert spans(src, out, "untranslated") == reported
    assert [fix.new_text for f in out.findings for fix in f.fix or []] == ["hip/hip_runtime.h"] * len(reported)


def test_a_caller_parse_tree_is_used() -> None:
    # The caller's tree is of another text of the same length, where the call is in a comment: a
    # translation that parsed the source itself would rename it.
    src = "int f() { cudaDeviceSynchronize(); }\n"
    commented = "/*" + src[2:-3] + "*/\n"
    assert len(commented) == len(src)
    tree = syntax.new_parser().parse(commented.encode())
    assert translate(src, P52, tree=tree).text == src
    assert translate(src, P52).text == "#include <hip/hip_runtime.h>\nint f() { hipDeviceSynchronize(); }\n"


class Cancelled(Exception):
    pass


def test_a_cancellation_check_that_raises_stops_the_translation() -> None:
    def cancel() -> None:
        raise Cancelled

    with pytest.raises(Cancelled):
        translate("void f() { cudaDeviceSynchronize(); }\n", P52, check_cancelled=cancel)


def test_cancellation_is_checked_before_each_macro_body() -> None:
    def checks(source: str) -> int:
        calls: list[None] = []
        translate(source, P52, check_cancelled=lambda: calls.append(None))
        return len(calls)

    bodies = "".join(f"#define CHECK{i}(x) if ((x) != cudaSuccess) cudaDeviceReset()\n" for i in range(5))
    assert checks(bodies) - checks("#define CHECK(x) (x)\n") >= 5
    assert hip(bodies).count("hipDeviceReset()") == 5


def test_parse_errors_are_reported_and_clear_names_still_translate() -> None:
    src = "void f() { cudaDeviceSynchronize(; int x = ) cudaGetLastError(); }\n}}\n"
    out = translate(src, P52)
    assert "parse-error" in codes(out)
    assert "hipDeviceSynchronize(" in out.text and "hipGetLastError()" in out.text
    body = out.text.split("\n", 1)[1]  # after the added runtime include
    assert body.replace("hip", "cuda") == src


def test_lint_reports_without_translating() -> None:
    findings = lint("__global__ void k(int* x) { x[0] = threadIdx.x & 31; }\n", TargetProfile("gfx942", "5.2"))
    assert [f.code for f in findings] == ["warp-size-assumption"]
    assert lint("__global__ void k(int* x) { x[0] = threadIdx.x & 31; }\n", P52) == []


def test_lookup_gives_hover_facts_both_ways() -> None:
    entry = lookup("cudaMallocAsync")
    assert entry is not None and entry.hip == "hipMallocAsync" and entry.hip_added == "5.2.0"
    assert entry.cuda_added == "11.2" and entry.supported
    blas = lookup("cublasSgemm")
    assert blas is not None and blas.alt == "rocblas_sgemm" and blas.alt_kind == "ROC"
    back = lookup("hipDeviceSynchronize")
    assert back is not None and back.cuda == "cudaDeviceSynchronize"
    assert lookup("not_an_api") is None
    unsupported = lookup("cudaDeviceFlushGPUDirectRDMAWrites")
    assert unsupported is not None and not unsupported.supported


def test_profile_validates_and_derives_the_wave_size() -> None:
    assert TargetProfile("gfx942").wave_size == 64 and TargetProfile("gfx90a").wave_size == 64
    assert TargetProfile("gfx1100").wave_size == 32 and TargetProfile("gfx1200").wave_size == 32
    assert TargetProfile(rocm="6.2.4").resolved_rocm() == "6.2"
    with pytest.raises(ValueError, match="unknown GPU arch 'sm_90'"):
        TargetProfile("sm_90")
    with pytest.raises(ValueError, match="bad ROCm version"):
        TargetProfile(rocm="latest")


def test_auto_rocm_reads_the_installed_hip_headers() -> None:
    with open("/usr/include/hip/hip_version.h", encoding="utf-8") as f:
        text = f.read()
    major = text.split("#define HIP_VERSION_MAJOR")[1].split()[0]
    minor = text.split("#define HIP_VERSION_MINOR")[1].split()[0]
    assert TargetProfile().resolved_rocm() == f"{major}.{minor}"


def test_device_side_runtime_calls_are_dynamic_parallelism() -> None:
    src = ("__global__ void k() { cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); }\n"
           "__host__ __device__ void both() { }\nvoid host() { cudaStream_t s; cudaStreamCreate(&s); }\n")
    out = translate(src, P52)
    assert [(f.code, f.name) for f in out.findings] == [("dynamic-parallelism", "cudaStreamCreateWithFlags")]
    assert "hipStreamCreate(&s)" in out.text and "cudaStreamCreateWithFlags(" in out.text


def test_typed_out_pointers_get_the_void_pointer_hip_wants() -> None:
    src = ("void f(float* h, float* d, size_t p) {\n  cudaHostAlloc(&h, 4, cudaHostAllocMapped);\n"
           "  cudaHostGetDevicePointer(&d, h, 0);\n  cudaMallocPitch((void**)&d, &p, 4, 4);\n  cudaMalloc(&d, 4);\n}\n")
    out = hip(src)
    assert "hipHostAlloc(reinterpret_cast<void**>(&h), 4, hipHostMallocMapped);" in out
    assert "hipHostGetDevicePointer(reinterpret_cast<void**>(&d), h, 0);" in out
    assert "hipMallocPitch((void**)&d, &p, 4, 4);" in out  # already a void**
    assert "hipMalloc(&d, 4);" in out  # HIP has the template overload


def test_cuda12_graph_instantiate_becomes_with_flags() -> None:
    src = "void f(cudaGraphExec_t* e, cudaGraph_t g) { cudaGraphInstantiate(e, g, 0); cudaGraphInstantiate(e, g, 0, 0, 0); }\n"
    assert "hipGraphInstantiateWithFlags(e, g, 0); hipGraphInstantiate(e, g, 0, 0, 0);" in hip(src)


def test_value_returning_surface_reads_become_the_pointer_form() -> None:
    src = "__global__ void k(cudaSurfaceObject_t s) { unsigned char c = surf2Dread<unsigned char>(s, 4, 2); }\n"
    assert ("unsigned char c = [&] { unsigned char cass_value_; surf2Dread(&cass_value_, s, 4, 2); "
            "return cass_value_; }();") in hip(src)


def test_image_functions_are_unsupported_on_targets_without_texture_units() -> None:
    src = "__global__ void k(cudaTextureObject_t t, float* o) { o[0] = tex1Dfetch<float>(t, 0); }\n"
    assert translate(src, P52).findings == []
    out = translate(src, TargetProfile("gfx942", "7.1"))
    assert [(f.code, f.severity, f.name) for f in out.findings] == [("unsupported-api", "error", "tex1Dfetch")]


def test_calling_convention_macro_is_dropped() -> None:
    src = "static void CUDART_CB done(void* user) { }\nvoid f(cudaStream_t s) { cudaLaunchHostFunc(s, done, 0); }\n"
    assert hip(src).endswith("static void done(void* user) { }\nvoid f(hipStream_t s) { hipLaunchHostFunc(s, done, 0); }\n")


def test_cooperative_group_members_newer_than_the_target() -> None:
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int* o) {\n"
           "  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n  o[t.meta_group_rank()] = t.size();\n}\n")
    assert [(f.code, f.severity) for f in translate(src, P52).findings] == [("api-newer-than-target", "info")]
    assert translate(src, P71).findings == []


def test_auto_rocm_follows_hip_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    header = tmp_path / "include" / "hip" / "hip_version.h"
    header.parent.mkdir(parents=True)
    header.write_text("#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 4\n")
    monkeypatch.setenv("HIP_PATH", str(tmp_path))
    targets.detect_rocm.cache_clear()
    try:
        assert TargetProfile().resolved_rocm() == "6.4"
    finally:
        targets.detect_rocm.cache_clear()


def test_nvml_is_named_with_what_covers_its_queries() -> None:
    out = translate("#include <nvml.h>\nint main() { return nvmlInit(); }\n", P52)
    assert [(f.code, f.severity) for f in out.findings] == [("unsupported-header", "error")]
    assert "rocm_smi/rocm_smi.h" in out.findings[0].message and "rocm_smi64" in out.findings[0].message


def test_nvtx_markers_and_ranges_become_roctx_and_the_attributes_a_helper() -> None:
    src = ("#include <nvtx3/nvToolsExt.h>\nvoid f() {\n  nvtxRangePush(\"step\");\n  nvtxMark(\"here\");\n"
           "  nvtxRangeId_t r = nvtxRangeStartA(\"io\");\n  nvtxRangeEnd(r);\n  nvtxRangePop();\n"
           "  nvtxEventAttributes_t a = {0};\n  nvtxRangePushEx(&a);\n}\n")
    out = translate(src, P52)
    assert "#include <roctracer/roctx.h>" in out.text
    for roctx in ('roctxRangePushA("step");', 'roctxMarkA("here");', 'roctx_range_id_t r = roctxRangeStartA("io");',
                  "roctxRangeStop(r);", "roctxRangePop();"):
        assert roctx in out.text
    assert [(f.name, f.code, f.severity) for f in out.findings] == [
        ("nvtxEventAttributes_t", "unsupported-api", "info"), ("nvtxRangePushEx", "unsupported-api", "info")]
    assert "cass_nvtxRangePushEx(&a);" in out.text and "colour, category and payload" in out.findings[1].message


def test_grid_constant_is_removed_where_it_stands_and_in_a_macro() -> None:
    """clang's HIP mode has no __grid_constant__ (AMD passes kernel arguments in a constant
    segment): a kernel parameter or a library's macro spelling it would not compile."""
    src = ("#define LIB_GRID_CONSTANT __grid_constant__\n"
           "__global__ void k(const Args __grid_constant__ a) {}\n"
           "__global__ void q(const Args LIB_GRID_CONSTANT a) {}\n")
    out = translate(src, P52)
    assert "__grid_constant__" not in out.text and "__global__ void k(const Args a) {}" in out.text
    assert [f.severity for f in out.findings if f.code == "nvcc-ism"] == ["info", "info"]

def test_device_properties_the_targets_hip_lacks_are_reported_with_what_reads_them() -> None:
    """Shaped like a kernel launcher that sizes its dynamic shared memory from the opt-in limit."""
    src = ("static size_t smem_limit(int device) {\n  cudaDeviceProp prop;\n  cudaGetDeviceProperties(&prop, device);\n"
           "  return prop.sharedMemPerBlockOptin > prop.sharedMemPerBlock ? prop.sharedMemPerBlockOptin\n"
           "                                                              : prop.sharedMemPerBlock;\n}\n")
    old = translate(src, P52)
    found = [f for f in old.findings if f.code == "api-newer-than-target"]
    # AMD has no opt-in above the per-block limit: the field reads the per-block limit, said as info
    assert [(f.name, f.severity) for f in found] == [("sharedMemPerBlockOptin", "info")] * 2
    assert "sharedMemPerBlockOptin" not in old.text and "prop.sharedMemPerBlock > prop.sharedMemPerBlock" in old.text
    assert spans(src, old, "api-newer-than-target") == ["sharedMemPerBlockOptin"] * 2
    assert "api-newer-than-target" not in codes(translate(src, P71))  # ROCm 6+'s hipDeviceProp_t has it
    assert "prop.sharedMemPerBlockOptin" in translate(src, P71).text


def test_a_device_property_the_target_lacks_is_read_as_its_device_attribute_and_a_write_is_a_warning() -> None:
    """simpleIPC's `if (!prop.unifiedAddressing)` did not compile for ROCm 5.2 (HIP 5's
    hipDeviceProp_t lacks the field; its hipDeviceAttribute_t has it)."""
    src = ("int regs(int device) {\n  cudaDeviceProp prop;\n  cudaGetDeviceProperties(&prop, device);\n"
           "  prop.asyncEngineCount = 0;\n  return prop.regsPerMultiprocessor + prop.unifiedAddressing;\n}\n")
    out = translate(src, P52)
    found = [(f.name, f.severity) for f in out.findings if f.code == "api-newer-than-target"]
    assert found == [("asyncEngineCount", "warning"), ("regsPerMultiprocessor", "info"), ("unifiedAddressing", "info")]
    assert ("return cass_hip_device_attribute(hipDeviceAttributeMaxRegistersPerMultiprocessor, device) + "
            "cass_hip_device_attribute(hipDeviceAttributeUnifiedAddressing, device);") in out.text
    assert "prop.asyncEngineCount = 0;" in out.text and "#ifndef CASS_HIP_DEVICE_ATTRIBUTE" in out.text
    assert "prop.unifiedAddressing" in translate(src, P71).text


def test_cudas_integer_min_max_become_helpers_of_the_same_types() -> None:
    """mergeSort's umin(pos + stride, L): HIP has no umin, and its min template would take a mixed
    (unsigned, int) call as int."""
    out = translate("__device__ unsigned f(unsigned a) { return umin(a, 3) + ullmax(a, 1ull); }\n", P71)
    assert "return cass_umin(a, 3) + cass_ullmax(a, 1ull);" in out.text
    assert "__host__ __device__ inline unsigned int cass_umin(unsigned int a, unsigned int b)" in out.text
    assert [f.severity for f in out.findings] == ["info", "info"]


def test_graph_edge_data_is_dropped_when_null_and_an_error_otherwise() -> None:
    src = ("void g(cudaGraph_t g, cudaGraphNode_t* a, cudaGraphNode_t* b, cudaStream_t s, void* e) {\n"
           "  cudaGraphAddDependencies(g, a, b, NULL, 1);\n  cudaGraphAddDependencies(g, a, b, 1);\n"
           "  cudaStreamUpdateCaptureDependencies(s, a, nullptr, 1, 0);\n"
           "  cudaGraphAddDependencies(g, a, b, (cudaGraphEdgeData*)e, 1);\n}\n")
    out = translate(src, P71)
    assert "hipGraphAddDependencies(g, a, b, 1);\n  hipGraphAddDependencies(g, a, b, 1);" in out.text
    assert "hipStreamUpdateCaptureDependencies(s, a, 1, 0);" in out.text
    assert [(f.code, f.severity) for f in out.findings] == [("unsupported-api", "error")]


def test_sparse_column_order_takes_the_spelling_of_the_targets_hipsparse() -> None:
    src = "#include <cusparse.h>\ncusparseOrder_t o = CUSPARSE_ORDER_COL;\n"
    assert "HIPSPARSE_ORDER_COLUMN;" in hip(src, P52)  # hipSPARSE renamed it in ROCm 5.4
    assert "HIPSPARSE_ORDER_COL;" in hip(src, P71)
    roc = translate(src, P52, TranslateOptions(libraries="roc")).text
    assert "rocsparse_order_column;" in roc  # the HIPIFY table swaps the two ROC orders


def test_stream_attributes_are_hips_from_rocm_71() -> None:
    src = "void f(cudaStream_t s) {\n  cudaStreamAttrValue v;\n  cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v);\n}\n"
    assert "hipStreamSetAttribute(s, hipStreamAttributeAccessPolicyWindow, &v);" in hip(src, P71)
    assert set(codes(translate(src, P52))) == {"api-newer-than-target"}


def test_a_member_named_like_a_device_property_of_another_struct_is_left_alone() -> None:
    src = "struct Limits { int asyncEngineCount; };\nint f(Limits l) { return l.asyncEngineCount; }\n"
    assert "api-newer-than-target" not in codes(translate(src, P52))


def test_pow_in_a_file_scope_initializer_takes_doubles() -> None:
    src = ("const long N = pow(2, 36);\nnamespace cfg { const double SCALE = pow(2.0, -3); }\n"
           "long local() { return pow(2, 3); }\n__global__ void k(double* o) { o[0] = pow(o[1], 2); }\n")
    text = hip(src)
    assert "const long N = pow(double(2), double(36));" in text
    assert "const double SCALE = pow(double(2.0), double(-3));" in text
    assert "return pow(2, 3);" in text and "o[0] = pow(o[1], 2);" in text  # inside functions: as written
