// Half-precision AXPY and a mixed-precision dot product with __half and __half2.
#include <cstdio>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void haxpy(int n, __half a, const __half* x, __half* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pairs = n / 2;
    const __half2* x2 = reinterpret_cast<const __half2*>(x);
    __half2* y2 = reinterpret_cast<__half2*>(y);
    __half2 a2 = __half2half2(a);
    for (int p = i; p < pairs; p += gridDim.x * blockDim.x) y2[p] = __hfma2(a2, x2[p], y2[p]);
    if (i == 0 && (n & 1)) y[n - 1] = __hfma(a, x[n - 1], y[n - 1]);
}

__global__ void hdot(int n, const __half* x, const __half* y, float* out)
{
    __shared__ float acc[256];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        sum += __half2float(__hmul(x[i], y[i]));
    }
    acc[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) acc[threadIdx.x] += acc[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, acc[0]);
}

__global__ void convert(const float* in, __half* out, __half2* packed, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __float2half_rn(in[i]);
    if (i < n / 2) {
        __half2 p = __floats2half2_rn(in[2 * i], in[2 * i + 1]);
        float lo = __low2float(p);
        float hi = __high2float(p);
        packed[i] = __hgt(__float2half(lo), __float2half(hi)) ? __lowhigh2highlow(p) : p;
    }
}

int main()
{
    const int n = 1 << 16;
    std::vector<float> hf(n);
    for (int i = 0; i < n; ++i) hf[i] = 0.001f * (i % 100);
    float* d_f;
    __half *d_x, *d_y;
    __half2* d_packed;
    float* d_dot;
    cudaMalloc(&d_f, n * sizeof(float));
    cudaMalloc(&d_x, n * sizeof(__half));
    cudaMalloc(&d_y, n * sizeof(__half));
    cudaMalloc(&d_packed, (n / 2) * sizeof(__half2));
    cudaMalloc(&d_dot, sizeof(float));
    cudaMemcpy(d_f, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_dot, 0, sizeof(float));

    convert<<<n / 256, 256>>>(d_f, d_x, d_packed, n);
    convert<<<n / 256, 256>>>(d_f, d_y, d_packed, n);
    haxpy<<<64, 256>>>(n, __float2half(2.0f), d_x, d_y);
    hdot<<<64, 256>>>(n, d_x, d_y, d_dot);

    std::vector<__half> hy(n);
    float dot = 0;
    cudaMemcpy(hy.data(), d_y, n * sizeof(__half), cudaMemcpyDeviceToHost);
    cudaMemcpy(&dot, d_dot, sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("y[5] = %f, dot = %f\n", __half2float(hy[5]), dot);
    cudaFree(d_f);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_packed);
    cudaFree(d_dot);
    return 0;
}
