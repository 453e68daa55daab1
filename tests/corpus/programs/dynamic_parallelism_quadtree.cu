// Adaptive refinement with dynamic parallelism: a parent kernel launches child grids from the
// device for the cells that need more work. Needs relocatable device code (nvcc -rdc=true).
#include <cstdio>
#include <cuda_runtime.h>

__device__ float field(float x, float y) { return sinf(10.0f * x) * cosf(10.0f * y); }

__global__ void refine_cell(float x0, float y0, float size, int depth, int* evaluated)
{
    int i = threadIdx.x % 4, j = threadIdx.x / 4;
    float h = size / 4.0f;
    float v = field(x0 + (i + 0.5f) * h, y0 + (j + 0.5f) * h);
    atomicAdd(evaluated, 1);
    if (depth > 0 && fabsf(v) > 0.9f) {
        // Launch a child grid on the sub-cell from device code.
        refine_cell<<<1, 16>>>(x0 + i * h, y0 + j * h, h, depth - 1, evaluated);
    }
}

__global__ void coarse_pass(int cells, int max_depth, int* evaluated)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cells * cells) return;
    float size = 1.0f / cells;
    float x0 = (c % cells) * size, y0 = (c / cells) * size;
    if (fabsf(field(x0 + 0.5f * size, y0 + 0.5f * size)) > 0.5f) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        refine_cell<<<1, 16, 0, s>>>(x0, y0, size, max_depth, evaluated);
        cudaStreamDestroy(s);
    }
}

int main()
{
    int* d_count;
    cudaMalloc(&d_count, sizeof(int));
    cudaMemset(d_count, 0, sizeof(int));
    cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 16384);
    coarse_pass<<<4, 64>>>(16, 2, d_count);
    cudaError_t err = cudaDeviceSynchronize();
    int count = 0;
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("%s: %d evaluations\n", cudaGetErrorString(err), count);
    cudaFree(d_count);
    return 0;
}
