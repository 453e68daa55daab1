#include "spectrum.cuh"

__global__ void low_pass(cufftComplex* spectrum, int bins, int batch, int keep)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bins * batch) return;
    if (i % bins >= keep) {
        spectrum[i].x = 0.0f;
        spectrum[i].y = 0.0f;
    }
}

void round_trip(int n, int batch, cudaStream_t stream, const float* in, cufftComplex* spectrum, float* out)
{
    cufftHandle forward, inverse;
    CHECK_CUFFT(cufftPlan1d(&forward, n, CUFFT_R2C, batch));
    CHECK_CUFFT(cufftPlan1d(&inverse, n, CUFFT_C2R, batch));
    CHECK_CUFFT(cufftSetStream(forward, stream));
    CHECK_CUFFT(cufftSetStream(inverse, stream));
    CHECK_CUFFT(cufftExecR2C(forward, (cufftReal*)in, spectrum));
    int bins = n / 2 + 1;
    low_pass<<<(bins * batch + 255) / 256, 256, 0, stream>>>(spectrum, bins, batch, bins);  // keeps every bin
    CHECK_CUFFT(cufftExecC2R(inverse, spectrum, out));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUFFT(cufftDestroy(forward));
    CHECK_CUFFT(cufftDestroy(inverse));
}

void complex_forward(int n, int batch, cudaStream_t stream, cufftComplex* data, cufftComplex* out)
{
    cufftHandle plan;
    int dims[1] = {n};
    CHECK_CUFFT(cufftPlanMany(&plan, 1, dims, NULL, 1, n, NULL, 1, n, CUFFT_C2C, batch));
    CHECK_CUFFT(cufftSetStream(plan, stream));
    CHECK_CUFFT(cufftExecC2C(plan, data, out, CUFFT_FORWARD));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUFFT(cufftDestroy(plan));
}
