"""Translation changes only the tokens it rewrites: every other byte survives as it was."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cass_lsp.translate import Edit, TargetProfile, TranslateOptions, TranslationResult, translate

PROFILES = [TargetProfile("gfx1100", "5.2"), TargetProfile("gfx942", "7.1"), TargetProfile("gfx1100", "7.1"),
            TargetProfile("gfx90a", "6.2")]

FRAGMENTS = [
    "#include <cuda_runtime.h>", "#include \"cublas_v2.h\"", "#include <cub/cub.cuh>",
    "__global__ void k(float* a) {", "}", "{", "(", ")", ";", "\"", "'", "/*", "*/", "//", "\\",
    "cudaMalloc(&d, n);", "cudaStream_t s;", "cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);",
    "k<<<g, b, 0, s>>>(d);", "k<<<", ">>>", "v = __shfl_down_sync(0xffffffff, v, 16);",
    "__syncwarp();", "unsigned m = __activemask();", "__ballot_sync(m, 1)",
    "#define CHECK(x) do { cudaError_t e = (x); } while (0)", "#define FULL 0xffffffff",
    "register int i = threadIdx.x & 31;", "asm(\"trap;\");", "texture<float, 1> t;",
    "\"cudaMalloc in a string\"", "/* cudaFree in a comment */", "// cudaDeviceReset\n",
    "größe = cudaGetLastError();", "int café = 1; // naïve ☃", "cudaGraphInstantiateWithParams(g, h, 0);",
    "#ifdef __CUDA_ARCH__", "#endif", "cub::BlockReduce<float, 128> r;", "thrust::cuda::par",
    "cudaMemcpyToSymbol(c, h, 4);", "hipMalloc(&d, n);", "hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, d);",
    "__shfl_down(v, 1)", "surf2Dread<float>(s, x, y)", "cudaHostAlloc(&p, n, 0);", "static void CUDART_CB cb(void*)",
    "#define LAUNCH(k) k<<<1, 32>>>()", "unsigned b = __ballot_sync(FULL, p); __ffs(b);", "cudaGraphInstantiate(&e, g, 0);",
    "tex2D<float>(t, u, v)", "t.meta_group_rank()", "R\"(raw cudaFree)\"", "\t", " ", "\n", "\r\n", "\r", "\ufeff",
    "\x00", "\x7f",
]


# ASCII identifier bytes: the grammar may end a token before a non-ASCII character, never inside these.
WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def check_edits(source: str, result: TranslationResult) -> None:
    """Edits are sorted, apart, in range, and cut the source only between tokens."""
    data = source.encode("utf-8", "surrogateescape")
    pos = 0
    for edit in result.edits:
        assert pos <= edit.start_byte <= edit.end_byte <= len(data), "edits sorted, non-overlapping, in range"
        for boundary in (edit.start_byte, edit.end_byte):
            assert boundary == len(data) or not 0x80 <= data[boundary] <= 0xBF, "edit splits a UTF-8 character"
            inside_word = 0 < boundary < len(data) and data[boundary - 1] in WORD and data[boundary] in WORD
            assert not inside_word, f"edit boundary inside a word at {boundary}: {data[boundary - 8:boundary + 8]!r}"
        pos = edit.end_byte
    for finding in result.findings:
        assert 0 <= finding.start_byte <= finding.end_byte <= len(data)
        for fix in finding.fix or []:
            assert 0 <= fix.start_byte <= fix.end_byte <= len(data)
    check_survives(source, result)


def check_survives(source: str, result: TranslationResult) -> None:
    """Every source byte outside the edited spans is in ``result.text``, unchanged and in order:
    found by searching the output text, not by re-applying the edits."""
    data = source.encode("utf-8", "surrogateescape")
    out = result.text.encode("utf-8", "surrogateescape")
    bounds = [0, *(b for e in result.edits for b in (e.start_byte, e.end_byte)), len(data)]
    kept = [data[a:b] for a, b in zip(bounds[::2], bounds[1::2], strict=True)]
    assert out.startswith(kept[0]) and out.endswith(kept[-1])
    pos = 0
    for piece in kept:
        found = out.find(piece, pos)
        assert found >= 0, f"source bytes {piece!r} are missing from the output after byte {pos}"
        pos = found + len(piece)
    inserted = sum(len(e.new_text.encode("utf-8", "surrogateescape")) for e in result.edits)
    assert len(out) == sum(map(len, kept)) + inserted


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=6), max_size=40), st.sampled_from(PROFILES),
       st.booleans(), st.booleans(), st.booleans())
# Shapes random lists seldom build: a macro body translated on its own, CRLF between edits.
@example(["#define CHECK(x) do { cudaError_t e = (x); } while (0)", "\r\n", "cudaMalloc(&d, n);", "\r\n",
          "k<<<g, b, 0, s>>>(d);"], PROFILES[0], True, False, False)
def test_translation_never_changes_bytes_outside_its_edits(parts: list[str], profile: TargetProfile,
                                                           ggl: bool, opaque: bool, reverse: bool) -> None:
    source = "".join(parts)
    options = TranslateOptions("hipLaunchKernelGGL" if ggl else "chevron", opaque)
    result = translate(source, profile, options, reverse=reverse)
    check_edits(source, result)


# What a range's translation may edit outside it: the HIP runtime include, a #define'd lane mask, a
# mask variable's type.
COMPAT_HELPER = "// cass: compatibility helper"
NEEDED_OUTSIDE_A_RANGE = {"#include <hip/hip_runtime.h>\n", "#include <hip/hip_runtime.h>\r\n",
                          "0xffffffffffffffffull", "unsigned long long"}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30), st.data())
def test_byte_range_keeps_edits_inside_the_range_but_what_its_code_needs(parts: list[str], data: st.DataObject) -> None:
    source = "".join(parts)
    size = len(source.encode())
    lo = data.draw(st.integers(0, size))
    hi = data.draw(st.integers(lo, size))
    result = translate(source, data.draw(st.sampled_from(PROFILES)), byte_range=(lo, hi))
    check_edits(source, result)
    outside = [e.new_text for e in result.edits if not lo <= e.start_byte <= e.end_byte <= hi]
    # a compatibility helper the range's code calls goes where helpers go, before the first use
    # (`#ifdef __CUDA_ARCH__` run into the next fragment reads as a value of it: CASS_CUDA_ARCH's helper)
    assert {text for text in outside if not text.startswith(COMPAT_HELPER)} <= NEEDED_OUTSIDE_A_RANGE


def test_bom_crlf_tabs_and_non_ascii_survive() -> None:
    source = ("\ufeff#include <cuda_runtime.h>\r\n// größe: ☃ cudaMalloc\r\n\tint café = 0;\n"
              "void f(float* d) {\r\n\tcudaMalloc(&d, 4);\t/* naïve */ cudaFree(d);\r}\n")
    result = translate(source, PROFILES[0])
    assert result.text == ("\ufeff#include <hip/hip_runtime.h>\r\n// größe: ☃ cudaMalloc\r\n\tint café = 0;\n"
                           "void f(float* d) {\r\n\thipMalloc(&d, 4);\t/* naïve */ hipFree(d);\r}\n")
    check_edits(source, result)
    assert [source.encode()[e.start_byte:e.end_byte] for e in result.edits] == [
        b"cuda_runtime.h", b"cudaMalloc", b"cudaFree"]


def test_non_ascii_identifiers_are_not_split() -> None:
    source = "int cudaMallocé = 0; int écudaFree = 1; cudaFree(0);\n"
    result = translate(source, PROFILES[0])
    assert result.text.endswith("int cudaMallocé = 0; int écudaFree = 1; hipFree(0);\n")


def test_invalid_utf8_passes_through() -> None:
    raw = b"void f() { cudaFree(0); } // \xff\xfe bytes\n"
    source = raw.decode("utf-8", "surrogateescape")
    result = translate(source, PROFILES[0])
    assert result.text.encode("utf-8", "surrogateescape").endswith(b"void f() { hipFree(0); } // \xff\xfe bytes\n")
    check_edits(source, result)


def test_edits_are_exposed_as_structs_against_original_offsets() -> None:
    source = "void f() { cudaDeviceSynchronize(); }\n"
    result = translate(source, PROFILES[0])
    start = source.index("cudaDeviceSynchronize")
    assert Edit(start, start + len("cudaDeviceSynchronize"), "hipDeviceSynchronize") in result.edits
