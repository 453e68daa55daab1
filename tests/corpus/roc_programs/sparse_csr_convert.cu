// Sparse formats with cuSPARSE: CSR row pointers to COO row indices and back, with a matrix
// descriptor and a stream.
#include <cstdio>
#include <cuda_runtime.h>
#include <cusparse.h>

static void check(cusparseStatus_t status, const char* what) {
    if (status != CUSPARSE_STATUS_SUCCESS) std::printf("%s failed: %d\n", what, static_cast<int>(status));
}

int main() {
    const int rows = 4, nnz = 6;
    const int host_row_ptr[rows + 1] = {0, 2, 3, 5, 6};
    int *row_ptr, *coo_rows, *row_ptr_again;
    cudaMalloc(&row_ptr, (rows + 1) * sizeof(int));
    cudaMalloc(&coo_rows, nnz * sizeof(int));
    cudaMalloc(&row_ptr_again, (rows + 1) * sizeof(int));
    cudaMemcpy(row_ptr, host_row_ptr, sizeof(host_row_ptr), cudaMemcpyHostToDevice);

    cusparseHandle_t handle;
    check(cusparseCreate(&handle), "create");
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    check(cusparseSetStream(handle, stream), "set stream");

    cusparseMatDescr_t descr;
    check(cusparseCreateMatDescr(&descr), "descriptor");
    check(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL), "type");
    check(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO), "base");

    check(cusparseXcsr2coo(handle, row_ptr, nnz, rows, coo_rows, CUSPARSE_INDEX_BASE_ZERO), "csr2coo");
    check(cusparseXcoo2csr(handle, coo_rows, nnz, rows, row_ptr_again, CUSPARSE_INDEX_BASE_ZERO), "coo2csr");
    cudaStreamSynchronize(stream);

    int back[rows + 1];
    cudaMemcpy(back, row_ptr_again, sizeof(back), cudaMemcpyDeviceToHost);
    std::printf("last row pointer %d (base %d)\n", back[rows], static_cast<int>(cusparseGetMatIndexBase(descr)));
    check(cusparseDestroyMatDescr(descr), "destroy descriptor");
    check(cusparseDestroy(handle), "destroy");
    cudaStreamDestroy(stream);
    cudaFree(row_ptr);
    cudaFree(coo_rows);
    cudaFree(row_ptr_again);
    return 0;
}
