"""Code tree-sitter-cuda misreads still gets its runtime calls translated, with a finding.

nvcc accepts statement macros used without a semicolon (``TIMER_START`` on its own line, a
``CHECK_CUDA(...)`` that expands to a block); the grammar cannot know they are statements and reads
them as the type of a declaration of the next statement's callee, sometimes inside an ERROR region.
Those misread declarations must not make the file's API names its own.
"""

from __future__ import annotations

from pathlib import Path

from cass_lsp.translate import TargetProfile, TranslationResult, translate
from cass_lsp.translate.rules import engine_settings

P52 = TargetProfile("gfx1100", "5.2")


def parse_messages(result: TranslationResult) -> list[str]:
    return [f.message for f in result.findings if f.code == "parse-error"]


def test_a_misread_statement_does_not_make_the_name_the_files_own() -> None:
    src = ("void copy(float* d, const float* h, size_t n) {\n    PROFILE_BEGIN\n"
           "    cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);\n}\n"
           "void later(float* d, const float* h, size_t n) { cudaMemcpy(d, h, n, cudaMemcpyDefault); }\n")
    text = translate(src, P52).text
    assert text.count("hipMemcpy(") == 2 and "cudaMemcpy" not in text


def test_the_files_own_declarations_stay_its_own() -> None:
    # A wrapper the file defines under an API name is not the API; a block-scope variable with a
    # real type on its own line is a declaration, not a misread statement.
    src = ("static int cudaGetDeviceCount(int* n) { *n = 1; return 0; }\n"
           "__device__ float f(float v) {\n    float\n        saturate = v;\n    return saturate;\n}\n"
           "int main() { int n; return cudaGetDeviceCount(&n); }\n")
    result = translate(src, P52)
    assert "hipGetDeviceCount" not in result.text and "saturate = v" in result.text
    assert parse_messages(result) == []


def test_calls_whose_translation_needs_the_call_are_reported_not_renamed() -> None:
    # cudaMemcpyToSymbol needs HIP_SYMBOL around its symbol, which a by-name rename cannot add.
    src = ("__constant__ float taps[4];\nvoid load(const float* h) {\n    TRACE_SCOPE\n"
           "    cudaMemcpyToSymbol(taps, h, sizeof taps);\n}\n")
    result = translate(src, P52)
    assert "cudaMemcpyToSymbol(taps" in result.text
    untranslated = [f for f in result.findings if f.code == "untranslated"]
    assert [f.name for f in untranslated] == ["cudaMemcpyToSymbol"]
    assert "translate this use by hand" in untranslated[0].message


def test_names_swallowed_by_an_unparsable_region_are_renamed_by_name() -> None:
    src = "void f(float* d) {\n    int x = ) cudaFree(d) @ cudaDeviceSynchronize();\n}\n"
    result = translate(src, P52)
    assert "hipFree(d)" in result.text and "hipDeviceSynchronize()" in result.text
    assert any(m.startswith("unparsable code: translated by name") for m in parse_messages(result))


def test_guard_macros_reading_as_parenthesized_declarations_still_translate() -> None:
    # `GUARD( cudaMemcpy(d, h,\n n, kind) )` after a GUARD with no semicolon reads as `GUARD (cudaMemcpy(...))`,
    # a declaration of cudaMemcpy in parentheses: it must not make cudaMemcpy the file's own. GUARD is
    # not defined in the file (it comes from a header), so the pre-pass cannot help here.
    src = ("int run(float* d, float* h, int n) {\n    GUARD( cudaMalloc(&d, n * sizeof(float)) )\n"
           "    GUARD( cudaMemcpy(d, h,\n        n * sizeof(float), cudaMemcpyHostToDevice) )\n"
           "    GUARD( cudaMemcpy(h, d,\n        n * sizeof(float), cudaMemcpyDeviceToHost) )\n    return 0;\n}\n")
    result = translate(src, P52)
    assert "cuda" not in result.text.replace("hipMemcpy", ""), result.text
    assert result.text.count("hipMemcpy(") == 2


def test_api_names_the_file_declares_are_said_once() -> None:
    src = ("static int cudaGetDeviceCount(int* n) { *n = 1; return 0; }\n"
           "int main() { int n; return cudaGetDeviceCount(&n) + cudaGetDeviceCount(&n); }\n")
    result = translate(src, P52)
    told = [f for f in result.findings if f.name == "cudaGetDeviceCount"]
    assert [(f.code, f.severity) for f in told] == [("untranslated", "info")]
    assert "declared by this file" in told[0].message and src[told[0].start_byte:told[0].end_byte] == "cudaGetDeviceCount"


def test_maskless_warp_calls_in_unparsable_code_get_their_mask_in_reverse() -> None:
    src = ("__device__ float f(float v) {\n    int x = ) __shfl_down(v, 1) @ __ballot( v > 0 );\n"
           "    return v + __shfl_xor(v, 2);\n}\n")
    text = translate(src, reverse=True).text
    assert "__shfl_down_sync(0xffffffff, v, 1)" in text and "__ballot_sync( 0xffffffff, v > 0 )" in text
    assert "__shfl_xor_sync(0xffffffff, v, 2)" in text


def test_a_kept_api_name_with_no_finding_gets_one() -> None:
    # A mask-less HIP warp function named, not called: no rule can give it its mask, and CUDA has no
    # such function; the safety net must say so rather than keep it silently.
    src = "__device__ float pick(float v) {\n    auto shuffle = __shfl_down;\n    return shuffle(v, 1, 32);\n}\n"
    result = translate(src, reverse=True)
    kept = [f for f in result.findings if f.name == "__shfl_down"]
    assert [(f.code, f.severity) for f in kept] == [("untranslated", "warning")]
    assert "translate this use by hand" in kept[0].message
    assert src[kept[0].start_byte:kept[0].end_byte] == "__shfl_down"


def test_a_parse_error_in_a_macro_body_stays_inside_the_file() -> None:
    """Hypothesis found it: a directive's text is parsed as a macro body inside a wrapper, and the
    error node reached into the wrapper (bytes 6-30 of a 28-byte file)."""
    source = "#endif\u00c0 t.meta_group_rank()"
    result = translate(source, TargetProfile("gfx1100", "5.2"))
    size = len(source.encode())
    assert result.findings and all(0 <= f.start_byte <= f.end_byte <= size for f in result.findings), result.findings


_LICENSE = """Copyright (c) 2020-2023 NVIDIA CORPORATION & AFFILIATES. All rights reserved.

Redistribution and use in source and binary forms, with or without modification, are permitted provided
that the following conditions are met:
- Redistributions of source code must retain the above copyright notice, this list of conditions and the
  disclaimer.

This software is provided by the copyright holders "as is" and any express or implied warranties are
disclaimed; in no event shall the copyright owner be liable for any direct or indirect damages (including,
but not limited to, procurement of substitute goods or services; loss of use, data, or profits).
"""


def test_prose_named_cu_is_left_as_it_is_with_one_note() -> None:
    out = translate(_LICENSE, TargetProfile(rocm="5.2"))
    assert out.text == _LICENSE
    assert [(f.code, f.severity) for f in out.findings] == [("not-code", "info")]


def test_code_that_fails_to_parse_is_not_taken_for_prose() -> None:
    src = "#include <cstdio>\nMY_KERNEL_BEGIN(k) cudaDeviceSynchronize() MY_KERNEL_END\nint x = 1;\n"
    assert "not-code" not in [f.code for f in translate(src, TargetProfile(rocm="5.2")).findings]


def test_a_tree_translation_puts_no_runtime_include_into_prose(tmp_path: Path) -> None:
    from cass_lsp.services import translation
    from cass_lsp.services.outputs import Unit

    (tmp_path / "LICENSE.gups.cu").write_text(_LICENSE)
    (tmp_path / "gups.cu").write_text("__global__ void k() {}\nint main() { k<<<1, 1>>>(); return 0; }\n")
    out = tmp_path / "out"
    out.mkdir()
    units = [Unit(str(tmp_path / n), str(out / n.replace(".cu", ".hip")), False) for n in ("LICENSE.gups.cu", "gups.cu")]
    translation._configure(engine_settings("gfx1100", "5.2", "chevron", False, False))
    outcomes = [translation.translate_unit(u) for u in units]
    translation.place_runtime_includes(outcomes, [str(tmp_path)])
    assert (out / "LICENSE.gups.cu").read_text() == _LICENSE  # copied under its own name, not renamed
    assert not (out / "LICENSE.gups.hip").exists()
    assert (out / "gups.hip").read_text().startswith("#include <hip/hip_runtime.h>\n")
