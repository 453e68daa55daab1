// Colour-space conversion shared by host and device: the same __host__ __device__ functions
// convert on the CPU for verification and on the GPU for the bulk of the image.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

struct RGB {
    uint8_t r, g, b;
};
struct YCbCr {
    float y, cb, cr;
};

__host__ __device__ inline float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

__host__ __device__ inline YCbCr to_ycbcr(RGB p)
{
    float r = p.r / 255.0f, g = p.g / 255.0f, b = p.b / 255.0f;
    YCbCr out;
    out.y = 0.299f * r + 0.587f * g + 0.114f * b;
    out.cb = 0.5f + (b - out.y) * 0.564f;
    out.cr = 0.5f + (r - out.y) * 0.713f;
    return out;
}

__host__ __device__ inline float gamma_correct(float v)
{
#ifdef __CUDA_ARCH__
    return __powf(clamp01(v), 1.0f / 2.2f);  // fast device intrinsic
#else
    return std::pow(clamp01(v), 1.0f / 2.2f);
#endif
}

__device__ int d_converted;

__global__ void convert_image(const RGB* in, YCbCr* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        YCbCr c = to_ycbcr(in[i]);
        c.y = gamma_correct(c.y);
        out[i] = c;
        atomicAdd(&d_converted, 1);
    }
}

int main()
{
    const int w = 640, h = 480, n = w * h;
    std::vector<RGB> image(n);
    for (int i = 0; i < n; ++i) image[i] = RGB{uint8_t(i % 256), uint8_t((i / 256) % 256), uint8_t(i % 97)};

    RGB* d_in;
    YCbCr* d_out;
    cudaMalloc(&d_in, n * sizeof(RGB));
    cudaMalloc(&d_out, n * sizeof(YCbCr));
    cudaMemcpy(d_in, image.data(), n * sizeof(RGB), cudaMemcpyHostToDevice);
    int zero = 0;
    cudaMemcpyToSymbol(d_converted, &zero, sizeof(int));
    convert_image<<<(n + 255) / 256, 256>>>(d_in, d_out, n);

    std::vector<YCbCr> gpu(n);
    cudaMemcpy(gpu.data(), d_out, n * sizeof(YCbCr), cudaMemcpyDeviceToHost);
    int converted = 0;
    cudaMemcpyFromSymbol(&converted, d_converted, sizeof(int));
    float worst = 0.0f;
    for (int i = 0; i < n; i += 17) {
        YCbCr cpu = to_ycbcr(image[i]);
        cpu.y = gamma_correct(cpu.y);
        worst = std::fmax(worst, std::fabs(cpu.y - gpu[i].y) + std::fabs(cpu.cb - gpu[i].cb));
    }
    std::printf("converted %d pixels, max host/device difference %g\n", converted, worst);
    cudaFree(d_in);
    cudaFree(d_out);
    return worst > 1e-3f;
}
