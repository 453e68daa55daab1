"""Warp intrinsics and warp-size findings per target (ROCm version, wave size)."""

from __future__ import annotations

import pytest

from cass_lsp.translate import TargetProfile, TranslationResult, translate

R52 = TargetProfile("gfx1100", "5.2")
R62 = TargetProfile("gfx1100", "6.2")
R71 = TargetProfile("gfx1100", "7.1")
W64_52 = TargetProfile("gfx942", "5.2")
W64_71 = TargetProfile("gfx942", "7.1")
FULL64 = "0xffffffffffffffffull"


def kernel(body: str) -> str:
    return f"#include <cuda_runtime.h>\n__global__ void k(float* a, unsigned m) {{\n  float v = a[threadIdx.x];\n{body}\n}}\n"


def body_of(result: TranslationResult) -> str:
    return result.text.split("float v = a[threadIdx.x];\n", 1)[1].rsplit("\n}", 1)[0]


def by_code(result: TranslationResult, code: str) -> list[str]:
    return [f.severity for f in result.findings if f.code == code]


@pytest.mark.parametrize("profile", [R52, R62])
@pytest.mark.parametrize(
    ("cuda", "hip"),
    [
        ("v = __shfl_down_sync(0xffffffff, v, 16);", "v = __shfl_down(v, 16);"),
        ("v = __shfl_xor_sync(0xFFFFFFFFu, v, 1, 16);", "v = __shfl_xor(v, 1, 16);"),
        ("v = __shfl_up_sync(~0u, v, 2);", "v = __shfl_up(v, 2);"),
        ("v = __shfl_sync(-1, v, 0);", "v = __shfl(v, 0);"),
        ("a[0] = __ballot_sync(0xffffffff, v > 0);", "a[0] = __ballot(v > 0);"),
        ("a[0] = __any_sync(__activemask(), v > 0) + __all_sync(0xffffffff, v > 1);",
         "a[0] = __any(v > 0) + __all(v > 1);"),
        ("a[0] = __activemask();", "a[0] = __ballot(1);"),
        ("__syncwarp();", '(__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), '
                          '__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));'),
    ],
)
def test_before_rocm7_the_non_sync_forms_are_emitted(profile: TargetProfile, cuda: str, hip: str) -> None:
    out = translate(kernel(cuda), profile)
    assert body_of(out) == hip
    assert out.findings == []


def test_a_partial_mask_is_dropped_with_a_warning_before_rocm7() -> None:
    out = translate(kernel("v = __shfl_down_sync(m, v, 1);"), R52)
    assert body_of(out) == "v = __shfl_down(v, 1);"
    assert by_code(out, "warp-mask-dropped") == ["warning"]


def test_a_full_mask_macro_counts_as_full() -> None:
    src = "#define FULL_MASK 0xffffffff\n" + kernel("v += __shfl_down_sync(FULL_MASK, v, 1);")
    old = translate(src, R52)
    assert body_of(old) == "v += __shfl_down(v, 1);" and old.findings == []
    new = translate(src, R71)
    # The macro precedes the file's runtime include, so the HIP runtime also goes first (as nvcc's does).
    assert new.text.startswith(f"#include <hip/hip_runtime.h>\n#define FULL_MASK {FULL64}\n")
    assert body_of(new) == "v += __shfl_down_sync(FULL_MASK, v, 1);"


@pytest.mark.parametrize(
    ("cuda", "hip"),
    [
        ("v = __shfl_down_sync(0xffffffff, v, 16);", f"v = __shfl_down_sync({FULL64}, v, 16);"),
        ("v = __shfl_sync(0xFFFFFFFFu, v, 0);", f"v = __shfl_sync({FULL64}, v, 0);"),
        ("v = __shfl_xor_sync(~0u, v, 1);", f"v = __shfl_xor_sync({FULL64}, v, 1);"),
        ("v = __shfl_up_sync(-1, v, 1);", f"v = __shfl_up_sync({FULL64}, v, 1);"),
        ("a[0] = __ballot_sync(0xffffffffull, v > 0);", f"a[0] = __ballot_sync({FULL64}, v > 0);"),
        ("v = __shfl_sync(~0ull, v, 0);", "v = __shfl_sync(~0ull, v, 0);"),
        ("a[0] = __any_sync(__activemask(), v > 0);", "a[0] = __any_sync(__activemask(), v > 0);"),
        ("__syncwarp();", "__syncwarp();"),
        ("__syncwarp(0xffffffff);", f"__syncwarp({FULL64});"),
        ("a[0] = __reduce_add_sync(0xffffffff, (int)v);", f"a[0] = __reduce_add_sync({FULL64}, (int)v);"),
    ],
)
def test_rocm7_keeps_sync_forms_with_64_bit_masks(cuda: str, hip: str) -> None:
    out = translate(kernel(cuda), R71)
    assert body_of(out) == hip
    assert out.findings == []


def test_rocm7_widens_a_32_bit_mask_variable_on_wave32() -> None:
    out = translate(kernel("v = __shfl_down_sync(m, v, 1);"), R71)
    assert body_of(out) == "v = __shfl_down_sync(static_cast<unsigned long long>(m), v, 1);"
    assert by_code(out, "warp-mask-width") == ["info"]


def test_rocm7_flags_a_32_bit_mask_variable_on_wave64_with_a_fix() -> None:
    src = kernel("v = __shfl_down_sync(m, v, 1);")
    out = translate(src, W64_71)
    assert body_of(out) == "v = __shfl_down_sync(m, v, 1);"
    finding = next(f for f in out.findings if f.code == "warp-mask-width")
    assert finding.severity == "error" and finding.fix is not None
    assert finding.fix[0].new_text == "static_cast<unsigned long long>(m)"


def test_a_mask_declared_64_bit_is_accepted() -> None:
    src = kernel("unsigned long long mm = __ballot_sync(0xffffffff, v > 0);\n  v = __shfl_down_sync(mm, v, 1);")
    out = translate(src, W64_71)
    assert "warp-mask-width" not in [f.code for f in out.findings]


def test_rocm7_only_intrinsics_are_newer_than_older_targets() -> None:
    out = translate(kernel("a[0] = __match_any_sync(0xffffffff, (int)v);"), R52)
    assert by_code(out, "api-newer-than-target") == ["error"]
    assert "__match_any_sync" in out.text


@pytest.mark.parametrize(
    ("snippet", "what"),
    [
        ("a[1] = threadIdx.x & 31;", "threadIdx.x & 31"),
        ("a[1] = threadIdx.x % 32;", "threadIdx.x % 32"),
        ("a[1] = threadIdx.x / 32;", "threadIdx.x / 32"),
        ("int lane = tid & 0x1f;", "tid & 0x1f"),
        ("v = __shfl_xor_sync(0xffffffff, v, 1, 32);", "32"),
        ("for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);", "o"),
    ],
)
def test_warp_size_assumptions_are_flagged_for_wave64_only(snippet: str, what: str) -> None:
    src = kernel(snippet.replace("tid", "threadIdx.x") if "int lane" not in snippet else "int tid = 0;\n  " + snippet)
    for profile in (W64_52, W64_71):
        out = translate(src, profile)
        data = src.encode()
        flagged = [data[f.start_byte:f.end_byte].decode() for f in out.findings if f.code == "warp-size-assumption"]
        assert what.replace("tid", "threadIdx.x") in flagged or what in flagged, (profile, flagged)
    assert [f for f in translate(src, R52).findings if f.code == "warp-size-assumption"] == []


@pytest.mark.parametrize(
    ("profile", "declared"), [(R52, "unsigned b"), (R71, "unsigned long long b"), (W64_52, "unsigned long long b"),
                              (W64_71, "unsigned long long b")])
def test_variables_holding_ballots_are_widened_where_it_matters(profile: TargetProfile, declared: str) -> None:
    out = translate(kernel("unsigned b = __ballot_sync(0xffffffff, v > 0);\n  unsigned act = __activemask();\n"
                           "  v = __shfl_sync(act, v, 0);"), profile)
    assert f"{declared} = __ballot" in out.text
    widened = declared != "unsigned b"
    assert ("unsigned long long act" in out.text) == widened
    assert by_code(out, "warp-mask-width") == (["info", "info"] if widened else [])
    assert "static_cast" not in out.text


@pytest.mark.parametrize("profile", [R52, R71, W64_52, W64_71])
def test_bit_counts_of_masks_use_the_64_bit_forms(profile: TargetProfile) -> None:
    out = translate(kernel("a[1] = __popc(__ballot_sync(0xffffffff, v > 0));\n"
                           "  unsigned active = __activemask();\n  a[2] = __ffs(active) + __clz(active);"), profile)
    assert "a[1] = __popcll(__ballot" in out.text
    widened = profile is not R52
    assert ("__ffsll(active)" in out.text) == widened
    assert ("__clz(active)" in out.text)
    clz = [f.severity for f in out.findings if f.code == "warp-size-assumption" and f.name == "__clz"]
    assert clz == (["warning"] if profile.wave_size == 64 else [])


def test_a_constant_full_mask_counts_as_full() -> None:
    src = "constexpr unsigned kAll = 0xFFFFFFFFu;\n" + kernel("v = __shfl_xor_sync(kAll, v, 1);")
    assert body_of(translate(src, R52)) == "v = __shfl_xor(v, 1);"
    new = translate(src, W64_71)
    assert body_of(new) == f"v = __shfl_xor_sync({FULL64}, v, 1);"
    assert new.findings == []


def test_hard_coded_warp_size_constants_are_flagged_for_wave64() -> None:
    src = ("#define WARP_SIZE 32\nconstexpr int kWarpSize = 32;\nconstexpr int kWarp = 32;\n#define NUM_WARPS 32\n"
           "const int warps_per_block = 32;\n__device__ int lanes() { return WARP_SIZE; }\n")
    out = translate(src, W64_52)
    assert [f.code for f in out.findings] == ["warp-size-assumption"] * 3
    assert translate(src, R52).findings == []


def test_macro_bodies_get_the_same_warp_rules() -> None:
    src = ("#define SHFL(v, o) __shfl_down_sync(0xffffffff, v, o)\n"
           "#define LANE (threadIdx.x & 31)\n")
    assert translate(src, R52).text.endswith("#define SHFL(v, o) __shfl_down(v, o)\n#define LANE (threadIdx.x & 31)\n")
    assert f"__shfl_down_sync({FULL64}, v, o)" in translate(src, R71).text
    assert [f.code for f in translate(src, W64_52).findings] == ["warp-size-assumption"]


# A kernel translated on its own ("Translate kernel to HIP": byte_range = the kernel), with its lane
# mask #defined above it.
RANGE_SOURCE = """#define FULL_MASK 0xffffffff
#define SCALE 2.0f

__global__ void reduce(float* out, const float* in) {
    float v = in[threadIdx.x] * SCALE;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL_MASK, v, o);
    unsigned active = __activemask();
    if (threadIdx.x == 0) out[blockIdx.x] = v + __popc(active);
}
"""


def kernel_range(source: str, start: str = "__global__") -> tuple[int, int]:
    data = source.encode()
    return data.index(start.encode()), len(data)


def test_a_kernel_range_widens_the_define_it_uses_outside_the_range() -> None:
    lo, hi = kernel_range(RANGE_SOURCE)
    result = translate(RANGE_SOURCE, R71, byte_range=(lo, hi))
    define = RANGE_SOURCE.index("0xffffffff")
    assert (define, define + len("0xffffffff"), FULL64) in [(e.start_byte, e.end_byte, e.new_text)
                                                             for e in result.edits]
    assert result.text.startswith(f"#include <hip/hip_runtime.h>\n#define FULL_MASK {FULL64}\n#define SCALE 2.0f\n")
    # Outside the kernel: the define and the runtime include, as in whole-file translation.
    assert [e.start_byte for e in result.edits if not lo <= e.start_byte <= hi] == [0, define]
    assert result.text == translate(RANGE_SOURCE, R71).text


def test_a_range_starting_inside_a_mask_declaration_still_widens_its_type() -> None:
    source = "__global__ void k(int* c) {\n    unsigned b = __ballot_sync(0xffffffff, c[0] > 0);\n}\n"
    lo = source.index("b = __ballot_sync")
    result = translate(source, R71, byte_range=(lo, len(source)))
    assert "    unsigned long long b = __ballot_sync(0xffffffffffffffffull, c[0] > 0);" in result.text
    assert [f.code for f in result.findings] == ["warp-mask-width"]
