// hipBLAS on the CPU runtime: its names mapped onto the cuBLAS implementation (blas.hpp).
#pragma once
#include "blas.hpp"

// The plain renames (hipblasSgemm -> cublasSgemm, HIPBLAS_OP_N -> CUBLAS_OP_N, ...) of every cuBLAS
// name blas.hpp defines, generated from the API tables by cass_lsp/cpu/hip_names.py; what differs
// from a rename is written out here.
#include "hipblas_names.hpp"

inline const char* hipblasStatusToString(cublasStatus_t s) { return cublasGetStatusName(s); }
