// cuSPARSE on the CPU runtime (hipSPARSE's names in <hipsparse/hipsparse.h> map onto these): handles
// and streams; the generic API's CSR matrices, dense vectors and dense matrices; SpMV and SpMM (float
// and double values, 32- or 64-bit indices, host-side alpha/beta) with their buffer sizes; the
// Xcsr2coo and Xcoo2csr index conversions. Device memory is host memory and work runs when it is
// called, in stream order like a kernel launch. Every other cuSPARSE name is refused before the
// build (cass_lsp/cpu/refuse.py, through libraries.py, which reads the runtime's headers for the
// names they define), so a program never passes because a call did nothing.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include <cass_cpu/api.hpp>
#include <library_types.h>

typedef enum {
  CUSPARSE_STATUS_SUCCESS = 0,
  CUSPARSE_STATUS_NOT_INITIALIZED = 1,
  CUSPARSE_STATUS_ALLOC_FAILED = 2,
  CUSPARSE_STATUS_INVALID_VALUE = 3,
  CUSPARSE_STATUS_ARCH_MISMATCH = 4,
  CUSPARSE_STATUS_MAPPING_ERROR = 5,
  CUSPARSE_STATUS_EXECUTION_FAILED = 6,
  CUSPARSE_STATUS_INTERNAL_ERROR = 7,
  CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  CUSPARSE_STATUS_ZERO_PIVOT = 9,
  CUSPARSE_STATUS_NOT_SUPPORTED = 10,
  CUSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11,
} cusparseStatus_t;

typedef enum {
  CUSPARSE_OPERATION_NON_TRANSPOSE = 0,
  CUSPARSE_OPERATION_TRANSPOSE = 1,
  CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2,
} cusparseOperation_t;
typedef enum { CUSPARSE_INDEX_16U = 1, CUSPARSE_INDEX_32I = 2, CUSPARSE_INDEX_64I = 3 } cusparseIndexType_t;
typedef enum { CUSPARSE_INDEX_BASE_ZERO = 0, CUSPARSE_INDEX_BASE_ONE = 1 } cusparseIndexBase_t;
typedef enum { CUSPARSE_ORDER_COL = 1, CUSPARSE_ORDER_ROW = 2 } cusparseOrder_t;
typedef enum {
  CUSPARSE_SPMV_ALG_DEFAULT = 0,
  CUSPARSE_SPMV_COO_ALG1 = 1,
  CUSPARSE_SPMV_CSR_ALG1 = 2,
  CUSPARSE_SPMV_CSR_ALG2 = 3,
  CUSPARSE_SPMV_COO_ALG2 = 4,
} cusparseSpMVAlg_t;
typedef enum {
  CUSPARSE_SPMM_ALG_DEFAULT = 0,
  CUSPARSE_SPMM_COO_ALG1 = 1,
  CUSPARSE_SPMM_COO_ALG2 = 2,
  CUSPARSE_SPMM_COO_ALG3 = 3,
  CUSPARSE_SPMM_CSR_ALG1 = 4,
  CUSPARSE_SPMM_COO_ALG4 = 5,
  CUSPARSE_SPMM_CSR_ALG2 = 6,
  CUSPARSE_SPMM_CSR_ALG3 = 12,
} cusparseSpMMAlg_t;

struct cusparseContext {
  cudaStream_t stream = nullptr;
};
struct cusparseSpMatDescr {
  int64_t rows, cols, nnz;
  void *offsets, *columns, *values;
  cusparseIndexType_t offset_type, column_type;
  cusparseIndexBase_t base;
  cudaDataType value_type;
};
struct cusparseDnVecDescr {
  int64_t size;
  void* values;
  cudaDataType value_type;
};
struct cusparseDnMatDescr {
  int64_t rows, cols, ld;
  void* values;
  cudaDataType value_type;
  cusparseOrder_t order;
};
typedef cusparseContext* cusparseHandle_t;
typedef cusparseSpMatDescr* cusparseSpMatDescr_t;
typedef cusparseDnVecDescr* cusparseDnVecDescr_t;
typedef cusparseDnMatDescr* cusparseDnMatDescr_t;
typedef const cusparseSpMatDescr* cusparseConstSpMatDescr_t;
typedef const cusparseDnVecDescr* cusparseConstDnVecDescr_t;
typedef const cusparseDnMatDescr* cusparseConstDnMatDescr_t;

namespace cass_cpu::sparse {

inline cusparseStatus_t not_executed(const char* what) {
  std::fprintf(stderr, "cass-cpu: cuSPARSE %s is not executed by the CPU runtime\n", what);
  return CUSPARSE_STATUS_NOT_SUPPORTED;
}

inline int64_t index_at(const void* base, cusparseIndexType_t type, int64_t i) {
  return type == CUSPARSE_INDEX_64I ? static_cast<const int64_t*>(base)[i] : static_cast<const int32_t*>(base)[i];
}

inline bool known_index(cusparseIndexType_t type) { return type == CUSPARSE_INDEX_32I || type == CUSPARSE_INDEX_64I; }

// The device's stream order: earlier work on the handle's stream is finished first.
inline void in_order(cusparseHandle_t handle) { cudaStreamSynchronize(handle->stream); }

template <typename T>
T dense_at(const cusparseDnMatDescr& m, int64_t row, int64_t col) {
  const T* v = static_cast<const T*>(m.values);
  return m.order == CUSPARSE_ORDER_ROW ? v[row * m.ld + col] : v[row + col * m.ld];
}

template <typename T>
T& dense_ref(const cusparseDnMatDescr& m, int64_t row, int64_t col) {
  T* v = static_cast<T*>(m.values);
  return m.order == CUSPARSE_ORDER_ROW ? v[row * m.ld + col] : v[row + col * m.ld];
}

// Calls f(row, column, value) for every stored entry of the CSR matrix a.
template <typename T, typename F>
void each_entry(const cusparseSpMatDescr& a, F&& f) {
  const T* values = static_cast<const T*>(a.values);
  for (int64_t row = 0; row < a.rows; ++row) {
    const int64_t begin = index_at(a.offsets, a.offset_type, row) - a.base;
    const int64_t end = index_at(a.offsets, a.offset_type, row + 1) - a.base;
    for (int64_t k = begin; k < end; ++k) f(row, index_at(a.columns, a.column_type, k) - a.base, values[k]);
  }
}

template <typename T>
void spmv(cusparseOperation_t op, T alpha, const cusparseSpMatDescr& a, const T* x, T beta, T* y) {
  const int64_t out = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? a.rows : a.cols;
  for (int64_t i = 0; i < out; ++i) y[i] = beta == T(0) ? T(0) : beta * y[i];
  each_entry<T>(a, [&](int64_t row, int64_t col, T v) {
    if (op == CUSPARSE_OPERATION_NON_TRANSPOSE)
      y[row] += alpha * v * x[col];
    else
      y[col] += alpha * v * x[row];
  });
}

template <typename T>
void spmm(cusparseOperation_t op_a, cusparseOperation_t op_b, T alpha, const cusparseSpMatDescr& a,
          const cusparseDnMatDescr& b, T beta, const cusparseDnMatDescr& c) {
  for (int64_t i = 0; i < c.rows; ++i)
    for (int64_t j = 0; j < c.cols; ++j) {
      T& out = dense_ref<T>(c, i, j);
      out = beta == T(0) ? T(0) : beta * out;
    }
  const bool b_transposed = op_b != CUSPARSE_OPERATION_NON_TRANSPOSE;
  each_entry<T>(a, [&](int64_t row, int64_t col, T v) {
    const int64_t i = op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? row : col;
    const int64_t k = op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? col : row;
    for (int64_t j = 0; j < c.cols; ++j)
      dense_ref<T>(c, i, j) += alpha * v * (b_transposed ? dense_at<T>(b, j, k) : dense_at<T>(b, k, j));
  });
}

}  // namespace cass_cpu::sparse

inline cusparseStatus_t cusparseCreate(cusparseHandle_t* handle) {
  if (handle == nullptr) return CUSPARSE_STATUS_INVALID_VALUE;
  *handle = new cusparseContext();
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseDestroy(cusparseHandle_t handle) {
  if (handle == nullptr) return CUSPARSE_STATUS_NOT_INITIALIZED;
  delete handle;
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseSetStream(cusparseHandle_t handle, cudaStream_t stream) {
  if (handle == nullptr) return CUSPARSE_STATUS_NOT_INITIALIZED;
  handle->stream = stream;
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseGetStream(cusparseHandle_t handle, cudaStream_t* stream) {
  if (handle == nullptr) return CUSPARSE_STATUS_NOT_INITIALIZED;
  *stream = handle->stream;
  return CUSPARSE_STATUS_SUCCESS;
}
inline const char* cusparseGetErrorName(cusparseStatus_t status) {
  switch (status) {
    case CUSPARSE_STATUS_SUCCESS: return "CUSPARSE_STATUS_SUCCESS";
    case CUSPARSE_STATUS_NOT_INITIALIZED: return "CUSPARSE_STATUS_NOT_INITIALIZED";
    case CUSPARSE_STATUS_ALLOC_FAILED: return "CUSPARSE_STATUS_ALLOC_FAILED";
    case CUSPARSE_STATUS_INVALID_VALUE: return "CUSPARSE_STATUS_INVALID_VALUE";
    case CUSPARSE_STATUS_ARCH_MISMATCH: return "CUSPARSE_STATUS_ARCH_MISMATCH";
    case CUSPARSE_STATUS_MAPPING_ERROR: return "CUSPARSE_STATUS_MAPPING_ERROR";
    case CUSPARSE_STATUS_EXECUTION_FAILED: return "CUSPARSE_STATUS_EXECUTION_FAILED";
    case CUSPARSE_STATUS_INTERNAL_ERROR: return "CUSPARSE_STATUS_INTERNAL_ERROR";
    case CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSPARSE_STATUS_ZERO_PIVOT: return "CUSPARSE_STATUS_ZERO_PIVOT";
    case CUSPARSE_STATUS_NOT_SUPPORTED: return "CUSPARSE_STATUS_NOT_SUPPORTED";
    case CUSPARSE_STATUS_INSUFFICIENT_RESOURCES: return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
  }
  return "CUSPARSE_STATUS_UNKNOWN";
}
inline const char* cusparseGetErrorString(cusparseStatus_t status) { return cusparseGetErrorName(status); }

inline cusparseStatus_t cusparseCreateCsr(cusparseSpMatDescr_t* descr, int64_t rows, int64_t cols, int64_t nnz,
                                          void* offsets, void* columns, void* values, cusparseIndexType_t offset_type,
                                          cusparseIndexType_t column_type, cusparseIndexBase_t base,
                                          cudaDataType value_type) {
  if (descr == nullptr || rows < 0 || cols < 0 || nnz < 0) return CUSPARSE_STATUS_INVALID_VALUE;
  if (!cass_cpu::sparse::known_index(offset_type) || !cass_cpu::sparse::known_index(column_type))
    return cass_cpu::sparse::not_executed("16-bit index type");
  *descr = new cusparseSpMatDescr{rows, cols, nnz, offsets, columns, values, offset_type, column_type, base, value_type};
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseDestroySpMat(cusparseConstSpMatDescr_t descr) {
  delete descr;
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseSpMatGetSize(cusparseConstSpMatDescr_t descr, int64_t* rows, int64_t* cols, int64_t* nnz) {
  if (descr == nullptr) return CUSPARSE_STATUS_INVALID_VALUE;
  *rows = descr->rows;
  *cols = descr->cols;
  *nnz = descr->nnz;
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t* descr, int64_t size, void* values, cudaDataType type) {
  if (descr == nullptr || size < 0) return CUSPARSE_STATUS_INVALID_VALUE;
  *descr = new cusparseDnVecDescr{size, values, type};
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseDestroyDnVec(cusparseConstDnVecDescr_t descr) {
  delete descr;
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseCreateDnMat(cusparseDnMatDescr_t* descr, int64_t rows, int64_t cols, int64_t ld,
                                            void* values, cudaDataType type, cusparseOrder_t order) {
  if (descr == nullptr || rows < 0 || cols < 0 || ld < (order == CUSPARSE_ORDER_ROW ? cols : rows))
    return CUSPARSE_STATUS_INVALID_VALUE;
  *descr = new cusparseDnMatDescr{rows, cols, ld, values, type, order};
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseDestroyDnMat(cusparseConstDnMatDescr_t descr) {
  delete descr;
  return CUSPARSE_STATUS_SUCCESS;
}

inline cusparseStatus_t cusparseSpMV_bufferSize(cusparseHandle_t handle, cusparseOperation_t, const void*,
                                                cusparseConstSpMatDescr_t, cusparseConstDnVecDescr_t, const void*,
                                                cusparseDnVecDescr_t, cudaDataType, cusparseSpMVAlg_t,
                                                size_t* bytes) {
  if (handle == nullptr) return CUSPARSE_STATUS_NOT_INITIALIZED;
  *bytes = 0;  // the CPU algorithms need no work space
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t op, const void* alpha,
                                     cusparseConstSpMatDescr_t a, cusparseConstDnVecDescr_t x, const void* beta,
                                     cusparseDnVecDescr_t y, cudaDataType compute, cusparseSpMVAlg_t, void*) {
  if (handle == nullptr) return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (a == nullptr || x == nullptr || y == nullptr || alpha == nullptr || beta == nullptr)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE) return cass_cpu::sparse::not_executed("SpMV of a conjugate transpose");
  const bool same = a->value_type == compute && x->value_type == compute && y->value_type == compute;
  cass_cpu::sparse::in_order(handle);
  if (same && compute == CUDA_R_32F) {
    cass_cpu::sparse::spmv(op, *static_cast<const float*>(alpha), *a, static_cast<const float*>(x->values),
                           *static_cast<const float*>(beta), static_cast<float*>(y->values));
  } else if (same && compute == CUDA_R_64F) {
    cass_cpu::sparse::spmv(op, *static_cast<const double*>(alpha), *a, static_cast<const double*>(x->values),
                           *static_cast<const double*>(beta), static_cast<double*>(y->values));
  } else {
    return cass_cpu::sparse::not_executed("SpMV with these value types (float or double, all alike, are)");
  }
  return CUSPARSE_STATUS_SUCCESS;
}

inline cusparseStatus_t cusparseSpMM_bufferSize(cusparseHandle_t handle, cusparseOperation_t, cusparseOperation_t,
                                                const void*, cusparseConstSpMatDescr_t, cusparseConstDnMatDescr_t,
                                                const void*, cusparseDnMatDescr_t, cudaDataType, cusparseSpMMAlg_t,
                                                size_t* bytes) {
  if (handle == nullptr) return CUSPARSE_STATUS_NOT_INITIALIZED;
  *bytes = 0;
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t op_a, cusparseOperation_t op_b,
                                     const void* alpha, cusparseConstSpMatDescr_t a, cusparseConstDnMatDescr_t b,
                                     const void* beta, cusparseDnMatDescr_t c, cudaDataType compute, cusparseSpMMAlg_t,
                                     void*) {
  if (handle == nullptr) return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (a == nullptr || b == nullptr || c == nullptr || alpha == nullptr || beta == nullptr)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (op_a == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE || op_b == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    return cass_cpu::sparse::not_executed("SpMM of a conjugate transpose");
  const bool same = a->value_type == compute && b->value_type == compute && c->value_type == compute;
  cass_cpu::sparse::in_order(handle);
  if (same && compute == CUDA_R_32F) {
    cass_cpu::sparse::spmm(op_a, op_b, *static_cast<const float*>(alpha), *a, *b, *static_cast<const float*>(beta), *c);
  } else if (same && compute == CUDA_R_64F) {
    cass_cpu::sparse::spmm(op_a, op_b, *static_cast<const double*>(alpha), *a, *b, *static_cast<const double*>(beta), *c);
  } else {
    return cass_cpu::sparse::not_executed("SpMM with these value types (float or double, all alike, are)");
  }
  return CUSPARSE_STATUS_SUCCESS;
}

inline cusparseStatus_t cusparseXcsr2coo(cusparseHandle_t handle, const int* csr_offsets, int nnz, int rows,
                                         int* coo_rows, cusparseIndexBase_t base) {
  if (handle == nullptr) return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (nnz < 0 || rows < 0) return CUSPARSE_STATUS_INVALID_VALUE;
  cass_cpu::sparse::in_order(handle);
  for (int row = 0; row < rows; ++row)
    for (int k = csr_offsets[row] - base; k < csr_offsets[row + 1] - base; ++k) coo_rows[k] = row + base;
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseXcoo2csr(cusparseHandle_t handle, const int* coo_rows, int nnz, int rows,
                                         int* csr_offsets, cusparseIndexBase_t base) {
  if (handle == nullptr) return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (nnz < 0 || rows < 0) return CUSPARSE_STATUS_INVALID_VALUE;
  cass_cpu::sparse::in_order(handle);
  for (int row = 0; row <= rows; ++row) csr_offsets[row] = 0;
  for (int k = 0; k < nnz; ++k) ++csr_offsets[coo_rows[k] - base + 1];  // sorted rows, as cuSPARSE requires
  for (int row = 0; row < rows; ++row) csr_offsets[row + 1] += csr_offsets[row];
  for (int row = 0; row <= rows; ++row) csr_offsets[row] += base;
  return CUSPARSE_STATUS_SUCCESS;
}
