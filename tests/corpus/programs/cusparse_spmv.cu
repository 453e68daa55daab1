// y = A x for a CSR matrix with the cuSPARSE generic API (SpMV).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CHECK_CUDA(f)                                                           \
    {                                                                           \
        cudaError_t s = (f);                                                    \
        if (s != cudaSuccess) {                                                 \
            printf("CUDA %s at line %d\n", cudaGetErrorString(s), __LINE__);    \
            return EXIT_FAILURE;                                                \
        }                                                                       \
    }
#define CHECK_CUSPARSE(f)                                                       \
    {                                                                           \
        cusparseStatus_t s = (f);                                               \
        if (s != CUSPARSE_STATUS_SUCCESS) {                                     \
            printf("cuSPARSE %s at line %d\n", cusparseGetErrorString(s), __LINE__); \
            return EXIT_FAILURE;                                                \
        }                                                                       \
    }

int main()
{
    // Tridiagonal 1-D Laplacian.
    const int rows = 1000;
    std::vector<int> offsets(rows + 1), columns;
    std::vector<float> values;
    for (int r = 0; r < rows; ++r) {
        offsets[r] = static_cast<int>(values.size());
        for (int c = r - 1; c <= r + 1; ++c) {
            if (c < 0 || c >= rows) continue;
            columns.push_back(c);
            values.push_back(c == r ? 2.0f : -1.0f);
        }
    }
    offsets[rows] = static_cast<int>(values.size());
    const int nnz = offsets[rows];
    std::vector<float> x(rows, 1.0f), y(rows, 0.0f);

    int *d_offsets, *d_columns;
    float *d_values, *d_x, *d_y;
    CHECK_CUDA(cudaMalloc(&d_offsets, (rows + 1) * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_columns, nnz * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_values, nnz * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_x, rows * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_y, rows * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d_offsets, offsets.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_columns, columns.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_values, values.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_x, x.data(), rows * sizeof(float), cudaMemcpyHostToDevice));

    cusparseHandle_t handle = nullptr;
    cusparseSpMatDescr_t matA;
    cusparseDnVecDescr_t vecX, vecY;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateCsr(&matA, rows, rows, nnz, d_offsets, d_columns, d_values,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                     CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecX, rows, d_x, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecY, rows, d_y, CUDA_R_32F));

    float alpha = 1.0f, beta = 0.0f;
    size_t buffer_size = 0;
    CHECK_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta,
                                           vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &buffer_size));
    void* d_buffer = nullptr;
    CHECK_CUDA(cudaMalloc(&d_buffer, buffer_size));
    CHECK_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                                CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, d_buffer));

    CHECK_CUDA(cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));
    printf("y[0]=%g y[1]=%g y[last]=%g (expect 1 0 1)\n", y[0], y[1], y[rows - 1]);

    CHECK_CUSPARSE(cusparseDestroySpMat(matA));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecX));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecY));
    CHECK_CUSPARSE(cusparseDestroy(handle));
    cudaFree(d_buffer);
    cudaFree(d_offsets);
    cudaFree(d_columns);
    cudaFree(d_values);
    cudaFree(d_x);
    cudaFree(d_y);
    return EXIT_SUCCESS;
}
