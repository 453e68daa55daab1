"""The cuBLAS names the CPU runtime defines are read from cass_cpu/blas.hpp, including those its
macros build by token pasting (each routine is written once for S, D, C and Z), so the refusal scan
neither refuses a routine the runtime runs nor lets through one it lacks."""

from __future__ import annotations

import pytest

from cass_lsp.cpu import libraries


@pytest.mark.parametrize("name", ["cublasSgemm_v2", "cublasDtrsm_v2", "cublasIdamax_v2", "cublasSgemmBatched",
                                  "cublasZgemmStridedBatched", "cublasCgemm3m", "cublasScnrm2_v2", "cublasCsscal_v2",
                                  "cublasZherk_v2", "cublasCdotc_v2"])
def test_a_routine_written_once_for_every_precision_is_defined_in_each(name: str) -> None:
    assert name in libraries.defined_names("cuBLAS")
    assert not libraries.unexecuted("cuBLAS", name)


@pytest.mark.parametrize("name", ["cublasCtrsm_v2", "cublasZsymm_v2", "cublasCgeru_v2"])
def test_a_routine_the_runtime_lacks_in_a_precision_stays_unexecuted(name: str) -> None:
    assert libraries.unexecuted("cuBLAS", name)


def test_token_pasting_macros_expand_with_the_macros_they_invoke() -> None:
    header = ("#define INNER(P, T) T cass##P##f(T x);\n"
              "#define OUTER(P, T) INNER(P, T) T cass##P##g(T x);\n"
              "OUTER(S, float)\n")
    assert "cassSf" in libraries._pasted(header) and "cassSg" in libraries._pasted(header)
