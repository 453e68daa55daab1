// Circular convolution of two real signals by FFT: forward R2C, pointwise product, inverse C2R.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cufft.h>

#define CUFFT_CHECK(call)                                                     \
    do {                                                                      \
        cufftResult r = (call);                                               \
        if (r != CUFFT_SUCCESS) {                                             \
            std::fprintf(stderr, "cuFFT error %d: %s\n", static_cast<int>(r), #call); \
            return 1;                                                         \
        }                                                                     \
    } while (0)

__global__ void multiply_scale(cufftComplex* a, const cufftComplex* b, int n, float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        cufftComplex x = a[i], y = b[i];
        a[i].x = (x.x * y.x - x.y * y.y) * scale;
        a[i].y = (x.x * y.y + x.y * y.x) * scale;
    }
}

int main()
{
    const int n = 1024;
    const int bins = n / 2 + 1;
    std::vector<float> signal(n), kernel(n, 0.0f);
    for (int i = 0; i < n; ++i) signal[i] = std::sin(0.05f * i);
    kernel[0] = 0.5f;
    kernel[1] = 0.25f;
    kernel[n - 1] = 0.25f;

    cufftReal *d_signal, *d_kernel;
    cufftComplex *d_sig_hat, *d_ker_hat;
    cudaMalloc(&d_signal, n * sizeof(cufftReal));
    cudaMalloc(&d_kernel, n * sizeof(cufftReal));
    cudaMalloc(&d_sig_hat, bins * sizeof(cufftComplex));
    cudaMalloc(&d_ker_hat, bins * sizeof(cufftComplex));
    cudaMemcpy(d_signal, signal.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_kernel, kernel.data(), n * sizeof(float), cudaMemcpyHostToDevice);

    cufftHandle forward, inverse;
    CUFFT_CHECK(cufftPlan1d(&forward, n, CUFFT_R2C, 1));
    CUFFT_CHECK(cufftPlan1d(&inverse, n, CUFFT_C2R, 1));
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    CUFFT_CHECK(cufftSetStream(forward, stream));
    CUFFT_CHECK(cufftSetStream(inverse, stream));

    CUFFT_CHECK(cufftExecR2C(forward, d_signal, d_sig_hat));
    CUFFT_CHECK(cufftExecR2C(forward, d_kernel, d_ker_hat));
    multiply_scale<<<(bins + 127) / 128, 128, 0, stream>>>(d_sig_hat, d_ker_hat, bins, 1.0f / n);
    CUFFT_CHECK(cufftExecC2R(inverse, d_sig_hat, d_signal));
    cudaStreamSynchronize(stream);

    std::vector<float> out(n);
    cudaMemcpy(out.data(), d_signal, n * sizeof(float), cudaMemcpyDeviceToHost);
    float expect = 0.5f * signal[10] + 0.25f * (signal[9] + signal[11]);
    std::printf("out[10] = %f, expected %f\n", out[10], expect);

    // A batched complex-to-complex plan as well, the other common shape.
    cufftHandle batched;
    cufftComplex* d_batch;
    cudaMalloc(&d_batch, 4 * 256 * sizeof(cufftComplex));
    cudaMemset(d_batch, 0, 4 * 256 * sizeof(cufftComplex));
    CUFFT_CHECK(cufftPlan1d(&batched, 256, CUFFT_C2C, 4));
    CUFFT_CHECK(cufftExecC2C(batched, d_batch, d_batch, CUFFT_FORWARD));
    CUFFT_CHECK(cufftExecC2C(batched, d_batch, d_batch, CUFFT_INVERSE));
    cudaFree(d_batch);

    cufftDestroy(forward);
    cufftDestroy(inverse);
    cufftDestroy(batched);
    cudaStreamDestroy(stream);
    cudaFree(d_signal);
    cudaFree(d_kernel);
    cudaFree(d_sig_hat);
    cudaFree(d_ker_hat);
    return 0;
}
