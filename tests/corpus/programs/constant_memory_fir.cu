// FIR filter with taps in __constant__ memory (broadcast reads), set with cudaMemcpyToSymbol.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define MAX_TAPS 64

__constant__ float c_taps[MAX_TAPS];
__constant__ int c_num_taps;
__device__ float d_gain = 1.0f;

__global__ void fir(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int t = 0; t < c_num_taps; ++t) {
        int j = i - t;
        if (j >= 0) acc += c_taps[t] * in[j];
    }
    out[i] = acc * d_gain;
}

int main()
{
    const int n = 8192, taps = 31;
    std::vector<float> h_taps(taps);
    float norm = 0.0f;
    for (int t = 0; t < taps; ++t) {
        h_taps[t] = 1.0f - fabsf(t - taps / 2) / (taps / 2 + 1);
        norm += h_taps[t];
    }
    for (float& t : h_taps) t /= norm;

    cudaMemcpyToSymbol(c_taps, h_taps.data(), taps * sizeof(float));
    cudaMemcpyToSymbol(c_num_taps, &taps, sizeof(int));
    float gain = 2.0f;
    cudaMemcpyToSymbol(d_gain, &gain, sizeof(float), 0, cudaMemcpyHostToDevice);

    float check[MAX_TAPS];
    cudaMemcpyFromSymbol(check, c_taps, taps * sizeof(float));
    float* gain_ptr = nullptr;
    cudaGetSymbolAddress(reinterpret_cast<void**>(&gain_ptr), d_gain);
    size_t taps_size = 0;
    cudaGetSymbolSize(&taps_size, c_taps);

    std::vector<float> h_in(n, 1.0f);
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    fir<<<(n + 255) / 256, 256>>>(d_in, d_out, n);

    float last = 0.0f;
    cudaMemcpy(&last, d_out + n - 1, sizeof(float), cudaMemcpyDeviceToHost);
    printf("steady-state output %f (expect %f), taps[0] %f, symbol %zu bytes at %p\n", last, gain, check[0],
           taps_size, static_cast<void*>(gain_ptr));
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
