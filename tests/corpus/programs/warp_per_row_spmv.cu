// CSR SpMV, one warp per row: lanes stride over the row and the partial sums are combined
// with a hard-coded 32-lane shuffle tree. Classic code that silently assumes warpSize == 32.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define WARPS_PER_BLOCK 8

__global__ void spmv_warp_per_row(int rows, const int* __restrict__ row_ptr, const int* __restrict__ cols,
                                  const float* __restrict__ vals, const float* __restrict__ x, float* y)
{
    int warp_id = (blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE;
    int lane = threadIdx.x & (WARP_SIZE - 1);
    if (warp_id >= rows) return;

    float sum = 0.0f;
    for (int e = row_ptr[warp_id] + lane; e < row_ptr[warp_id + 1]; e += WARP_SIZE) sum += vals[e] * x[cols[e]];

    sum += __shfl_down_sync(0xffffffff, sum, 16);
    sum += __shfl_down_sync(0xffffffff, sum, 8);
    sum += __shfl_down_sync(0xffffffff, sum, 4);
    sum += __shfl_down_sync(0xffffffff, sum, 2);
    sum += __shfl_down_sync(0xffffffff, sum, 1);
    if (lane == 0) y[warp_id] = sum;
}

__global__ void row_lengths(int rows, const int* row_ptr, int* long_rows_per_warp)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    bool is_long = row < rows && row_ptr[row + 1] - row_ptr[row] > 4;
    unsigned int mask = __ballot_sync(0xffffffffu, is_long);
    if ((threadIdx.x % 32) == 0) long_rows_per_warp[row >> 5] = __popc(mask);
}

int main()
{
    const int rows = 4096;
    std::vector<int> row_ptr(rows + 1), cols;
    std::vector<float> vals;
    for (int r = 0; r < rows; ++r) {
        row_ptr[r] = static_cast<int>(cols.size());
        int len = 1 + r % 9;
        for (int k = 0; k < len; ++k) {
            cols.push_back((r * 7 + k * 13) % rows);
            vals.push_back(1.0f);
        }
    }
    row_ptr[rows] = static_cast<int>(cols.size());
    std::vector<float> x(rows, 2.0f);

    int *d_row_ptr, *d_cols, *d_long;
    float *d_vals, *d_x, *d_y;
    cudaMalloc(&d_row_ptr, row_ptr.size() * sizeof(int));
    cudaMalloc(&d_cols, cols.size() * sizeof(int));
    cudaMalloc(&d_vals, vals.size() * sizeof(float));
    cudaMalloc(&d_x, rows * sizeof(float));
    cudaMalloc(&d_y, rows * sizeof(float));
    cudaMalloc(&d_long, (rows / 32) * sizeof(int));
    cudaMemcpy(d_row_ptr, row_ptr.data(), row_ptr.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_cols, cols.data(), cols.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_vals, vals.data(), vals.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, x.data(), rows * sizeof(float), cudaMemcpyHostToDevice);

    int threads = WARPS_PER_BLOCK * WARP_SIZE;
    int blocks = (rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    spmv_warp_per_row<<<blocks, threads>>>(rows, d_row_ptr, d_cols, d_vals, d_x, d_y);
    row_lengths<<<rows / 256, 256>>>(rows, d_row_ptr, d_long);

    std::vector<float> y(rows);
    cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < rows; ++r) bad += y[r] != 2.0f * (1 + r % 9);
    std::printf("spmv: %d wrong rows\n", bad);
    cudaFree(d_row_ptr);
    cudaFree(d_cols);
    cudaFree(d_vals);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_long);
    return bad != 0;
}
