"""A translation's compile error on a HIP library name newer than the library headers clang reads
is the headers' gap (cass_lsp.verify.header_gaps), not the translation's defect."""

from __future__ import annotations

from cass_lsp.verify.header_gaps import newer_than_headers

# what a ROCm 7.1 profile's compile records: Debian 13's library headers are ROCm 5.5's
ROCM71 = {"clang": "19.1.7", "hip-libs": "trixie: libhipblas-dev 5.5.1-4, libhipfft-dev 5.5.1-2 (hipblas, hipfft)"}


def test_a_hipblas_v2_name_is_newer_than_rocm_55s_headers() -> None:
    why = newer_than_headers("use of undeclared identifier 'hipblasCgemm_v2'; did you mean 'hipblasCgemm'?", ROCM71)
    assert why == ("the library headers here (libhipblas-dev 5.5) do not declare hipblasCgemm_v2, which the target "
                   "ROCm has (since ROCm 6.0.0)")  # fmt: skip


def test_names_the_headers_have_and_other_errors_stay_the_translations() -> None:
    newer = {**ROCM71, "hip-libs": "trixie: libhipblas-dev 6.4.3-1 (hipblas)"}
    assert newer_than_headers("use of undeclared identifier 'hipblasCgemm_v2'", newer) is None
    assert newer_than_headers("use of undeclared identifier 'hipblasSgemm'", ROCM71) is None  # ROCm 1.8
    assert newer_than_headers("use of undeclared identifier 'hipMallocAsync'", ROCM71) is None  # not a library's
    assert newer_than_headers("use of undeclared identifier 'hipblasCgemm_v2'", {"clang": "19.1.7"}) is None
    assert newer_than_headers("no matching function for call to 'hipblasCgemm_v2'", ROCM71) is None
