// Matrix transpose through a padded static shared-memory tile (coalesced reads and writes).
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int TILE = 32;
constexpr int ROWS_PER_PASS = 8;

__global__ void transpose(float* out, const float* in, int width, int height)
{
    // The +1 column keeps column reads from hitting the same bank.
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    }
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

__global__ void copy_naive(float* out, const float* in, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) out[y * width + x] = in[y * width + x];
}

int main()
{
    const int width = 1000, height = 777;
    const size_t bytes = sizeof(float) * width * height;
    std::vector<float> h_in(width * height), h_out(width * height);
    for (int i = 0; i < width * height; ++i) h_in[i] = static_cast<float>(i);

    float *d_in, *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice);

    dim3 block(TILE, ROWS_PER_PASS);
    dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    transpose<<<grid, block>>>(d_out, d_in, width, height);
    cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost);

    int bad = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            if (h_out[x * height + y] != h_in[y * width + x]) ++bad;

    dim3 block2(16, 16);
    dim3 grid2((width + 15) / 16, (height + 15) / 16);
    copy_naive<<<grid2, block2>>>(d_out, d_in, width, height);
    cudaError_t err = cudaDeviceSynchronize();
    std::printf("transpose: %d mismatches, copy: %s\n", bad, cudaGetErrorString(err));

    cudaFree(d_in);
    cudaFree(d_out);
    return bad != 0;
}
