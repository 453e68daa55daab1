"""A translation's compile error on a HIP library name newer than the library headers clang reads
is the headers' gap (cass_lsp.verify.header_gaps), not the translation's defect."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.toolchains import hiplibs
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


# every profile reads Debian 12's hipSPARSE and hipRAND (ROCm 5.3) from /usr/include
SYSTEM = {"system-hip-libs": "libhiprand-dev 5.3.3-4, libhipsparse-dev 5.3.3+dfsg-2~deb12u1"}


def test_hipsparse_and_hiprand_names_newer_than_rocm_53s_headers() -> None:
    rocm71 = {**ROCM71, **SYSTEM, "hip": "7.1.25424 triton"}
    why = newer_than_headers("use of undeclared identifier 'HIPSPARSE_CSR2CSC_ALG_DEFAULT'", rocm71)
    assert why == ("the library headers here (libhipsparse-dev 5.3) do not declare HIPSPARSE_CSR2CSC_ALG_DEFAULT,"
                   " which the target ROCm has (since ROCm 5.6.0)")  # fmt: skip
    assert newer_than_headers("use of undeclared identifier 'HIPRAND_ORDERING_PSEUDO_BEST'", rocm71) is not None
    assert newer_than_headers("use of undeclared identifier 'hipsparseSpMV'", rocm71) is None  # ROCm 4.1
    assert newer_than_headers("use of undeclared identifier 'hiprandCreateGenerator'", rocm71) is None


def test_a_name_the_target_rocm_lacks_stays_the_translations() -> None:
    rocm52 = {**SYSTEM, "hip": "5.2.3 /usr/include"}
    assert newer_than_headers("use of undeclared identifier 'HIPSPARSE_CSR2CSC_ALG_DEFAULT'", rocm52) is None


def test_the_installed_debian_12_packages_are_read_from_dpkgs_status(tmp_path: Path) -> None:
    status = tmp_path / "status"
    status.write_text("Package: libhipsparse-dev\nStatus: install ok installed\nVersion: 5.3.3+dfsg-2~deb12u1\n"
                      " continued: line\n\nPackage: libhiprand-dev\nStatus: deinstall ok config-files\nVersion: 5.3.3-4\n\n"
                      "Package: gcc\nStatus: install ok installed\nVersion: 4:12.2.0-3\n")  # fmt: skip
    assert hiplibs.system_version(status) == "libhipsparse-dev 5.3.3+dfsg-2~deb12u1"
    assert hiplibs.system_version(tmp_path / "absent") is None
