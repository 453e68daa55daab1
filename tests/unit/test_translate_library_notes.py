"""cuFFT under --roc and cuBLAS's legacy API are said, never silent."""

from __future__ import annotations

from cass_lsp.translate import TargetProfile, TranslateOptions, translate

P71 = TargetProfile("gfx1100", "7.1")
ROC = TranslateOptions(libraries="roc")


def test_cufft_under_roc_stays_hipfft_with_one_note_per_file() -> None:
    src = "#include <cufft.h>\nvoid f(cufftHandle* p) { cufftPlan1d(p, 8, CUFFT_C2C, 1); cufftDestroy(*p); }\n"
    result = translate(src, P71, ROC)
    assert "hipfftPlan1d(p, 8, HIPFFT_C2C, 1)" in result.text
    notes = [f for f in result.findings if "hipFFT" in f.message]
    assert [(f.severity, f.name) for f in notes] == [("info", "cufftHandle")]
    assert "rocFFT" in notes[0].message
    assert not [f for f in translate(src, P71).findings if "hipFFT" in f.message]  # the hip setting says nothing


def test_legacy_cublas_calls_are_reported_not_renamed_as_v2() -> None:
    call = "cublasSgemm('N', 'N', 4, 4, 4, 1.0f, a, 4, b, 4, 0.0f, c, 4);"
    src = f"#include <cublas.h>\nvoid f(float* a, float* b, float* c) {{ {call} }}\n"
    for options in (TranslateOptions(), ROC):
        result = translate(src, P71, options)
        assert call in result.text
        (finding,) = [f for f in result.findings if f.name == "cublasSgemm"]
        assert finding.severity == "error" and "cublasSgemm_v2(handle, ...)" in finding.message
    v2 = translate(src.replace("cublas.h", "cublas_v2.h"), P71).text
    assert "hipblasSgemm(" in v2
