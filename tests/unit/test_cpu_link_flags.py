"""The CPU runner links what a program's includes need and g++ does not link by itself."""

from __future__ import annotations

from cass_lsp.cpu import libraries


def test_openmp_functions_link_libgomp_without_turning_the_pragmas_on() -> None:
    # cuda-samples' cudaOpenMP calls omp_get_num_procs(): its CMake links OpenMP::OpenMP_CXX
    assert libraries.link_flags(["#include <omp.h>\nint main() { return omp_get_num_procs(); }\n"]) == ["-lgomp"]


def test_each_library_is_linked_once_in_the_order_first_included() -> None:
    texts = ["#include <cublas_v2.h>\n#include <omp.h>\n", "#include <omp.h>\n#include <hipblas/hipblas.h>\n"]
    assert libraries.link_flags(texts) == ["-lopenblas", "-lgomp"]


def test_a_program_that_includes_no_such_header_links_nothing_more() -> None:
    assert libraries.link_flags(['#include <cstdio>\n#include "omp_helpers.h"\n']) == []
