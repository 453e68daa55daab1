// Spectral low-pass filter of a batch of complex signals: cuFFT forward, a kernel that zeroes the
// high frequencies and scales by 1/n, cuFFT inverse in place; then cuBLAS measures how much of the
// signal the filter removed (axpy for the difference, nrm2 for its norm).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cufft.h>
#include <cublas_v2.h>

#define FFT_CHECK(call)                                                             \
    do {                                                                            \
        cufftResult result_ = (call);                                               \
        if (result_ != CUFFT_SUCCESS) {                                             \
            std::fprintf(stderr, "%s:%d cuFFT error %d\n", __FILE__, __LINE__,      \
                         static_cast<int>(result_));                                \
            std::exit(1);                                                           \
        }                                                                           \
    } while (0)

#define BLAS_CHECK(call)                                                            \
    do {                                                                            \
        if ((call) != CUBLAS_STATUS_SUCCESS) {                                      \
            std::fprintf(stderr, "%s:%d cuBLAS failed\n", __FILE__, __LINE__);      \
            std::exit(1);                                                           \
        }                                                                           \
    } while (0)

__global__ void low_pass(cufftComplex* spectrum, int n, int batch, int keep)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n * batch) return;
    int bin = i % n;
    int frequency = bin <= n / 2 ? bin : n - bin;
    float scale = frequency <= keep ? 1.0f / n : 0.0f;
    spectrum[i].x *= scale;
    spectrum[i].y *= scale;
}

int main()
{
    const int n = 512, batch = 8, keep = 32;
    const int total = n * batch;
    std::vector<cufftComplex> host(total);
    for (int i = 0; i < total; ++i) {
        host[i].x = static_cast<float>((i * 7919) % 101) / 101.0f;
        host[i].y = 0.0f;
    }

    cufftComplex *signal, *filtered;
    cudaMalloc(&signal, total * sizeof(cufftComplex));
    cudaMalloc(&filtered, total * sizeof(cufftComplex));
    cudaMemcpy(signal, host.data(), total * sizeof(cufftComplex), cudaMemcpyHostToDevice);
    cudaMemcpy(filtered, signal, total * sizeof(cufftComplex), cudaMemcpyDeviceToDevice);

    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cufftHandle plan;
    int lengths[1] = {n};
    FFT_CHECK(cufftPlanMany(&plan, 1, lengths, nullptr, 1, n, nullptr, 1, n, CUFFT_C2C, batch));
    FFT_CHECK(cufftSetStream(plan, stream));
    FFT_CHECK(cufftExecC2C(plan, filtered, filtered, CUFFT_FORWARD));
    low_pass<<<(total + 255) / 256, 256, 0, stream>>>(filtered, n, batch, keep);
    FFT_CHECK(cufftExecC2C(plan, filtered, filtered, CUFFT_INVERSE));

    cublasHandle_t blas;
    BLAS_CHECK(cublasCreate(&blas));
    BLAS_CHECK(cublasSetStream(blas, stream));
    // the complex arrays as 2 * total floats: removed = signal - filtered
    const float minus_one = -1.0f;
    BLAS_CHECK(cublasSaxpy(blas, 2 * total, &minus_one, reinterpret_cast<float*>(filtered), 1,
                           reinterpret_cast<float*>(signal), 1));
    float removed = 0.0f;
    BLAS_CHECK(cublasSnrm2(blas, 2 * total, reinterpret_cast<float*>(signal), 1, &removed));
    cudaStreamSynchronize(stream);
    std::printf("norm of what the filter removed: %f\n", removed);

    BLAS_CHECK(cublasDestroy(blas));
    FFT_CHECK(cufftDestroy(plan));
    cudaStreamDestroy(stream);
    cudaFree(signal);
    cudaFree(filtered);
    return 0;
}
