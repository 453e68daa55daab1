// Game of Life on two CUDA arrays accessed through surface objects (read + write per step).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void life_step(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    int alive = 0;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            if (dx == 0 && dy == 0) continue;
            int nx = (x + dx + width) % width, ny = (y + dy + height) % height;
            unsigned char c;
            surf2Dread(&c, src, nx * sizeof(unsigned char), ny);
            alive += c;
        }
    }
    unsigned char self = surf2Dread<unsigned char>(src, x * sizeof(unsigned char), y);
    unsigned char next = (alive == 3 || (self && alive == 2)) ? 1 : 0;
    surf2Dwrite(next, dst, x * sizeof(unsigned char), y);
}

int main()
{
    const int width = 128, height = 128;
    unsigned char grid[height][width] = {};
    grid[10][11] = grid[11][12] = grid[12][10] = grid[12][11] = grid[12][12] = 1;  // glider

    cudaChannelFormatDesc desc = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t arrays[2];
    for (auto& a : arrays) cudaMallocArray(&a, &desc, width, height, cudaArraySurfaceLoadStore);
    cudaMemcpy2DToArray(arrays[0], 0, 0, grid, width, width, height, cudaMemcpyHostToDevice);

    cudaSurfaceObject_t surfaces[2];
    for (int i = 0; i < 2; ++i) {
        cudaResourceDesc res;
        memset(&res, 0, sizeof(res));
        res.resType = cudaResourceTypeArray;
        res.res.array.array = arrays[i];
        cudaCreateSurfaceObject(&surfaces[i], &res);
    }

    dim3 block(16, 16), blocks(width / 16, height / 16);
    for (int step = 0; step < 8; ++step) life_step<<<blocks, block>>>(surfaces[step & 1], surfaces[(step + 1) & 1], width, height);
    cudaMemcpy2DFromArray(grid, width, arrays[0], 0, 0, width, height, cudaMemcpyDeviceToHost);

    int population = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) population += grid[y][x];
    std::printf("population after 8 steps: %d (glider keeps 5)\n", population);

    for (int i = 0; i < 2; ++i) {
        cudaDestroySurfaceObject(surfaces[i]);
        cudaFreeArray(arrays[i]);
    }
    return population != 5;
}
