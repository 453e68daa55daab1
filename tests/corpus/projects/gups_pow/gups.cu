// GUPS-shaped: the table size is a power of two computed at file scope
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

const long N = pow(2, 20);
namespace cfg { const double SCALE = pow(2.0, -3); }

__global__ void update(unsigned long* t, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) t[i] ^= (unsigned long)pow(2.0, (double)(i % 7));
}

int main() {
    unsigned long* t;
    cudaMallocManaged(&t, N * sizeof(unsigned long));
    for (long i = 0; i < N; ++i) t[i] = i;
    update<<<(N + 255) / 256, 256>>>(t, N);
    cudaDeviceSynchronize();
    long local = pow(2, 3);
    printf("%lu %g %ld\n", t[N - 1], cfg::SCALE, local);
    cudaFree(t);
    return 0;
}
