// 3x3 box blur reading a CUDA array through a texture object (bilinear, clamped addressing).
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void box_blur(cudaTextureObject_t tex, float* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) sum += tex2D<float>(tex, x + dx + 0.5f, y + dy + 0.5f);
    out[y * width + x] = sum / 9.0f;
}

__global__ void sample_half_pixel(cudaTextureObject_t tex, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, i) * 2.0f;
}

int main()
{
    const int width = 320, height = 240;
    std::vector<float> image(width * height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) image[y * width + x] = ((x / 8 + y / 8) & 1) ? 1.0f : 0.0f;

    cudaChannelFormatDesc channel = cudaCreateChannelDesc<float>();
    cudaArray_t array;
    cudaMallocArray(&array, &channel, width, height);
    cudaMemcpy2DToArray(array, 0, 0, image.data(), width * sizeof(float), width * sizeof(float), height,
                        cudaMemcpyHostToDevice);

    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc desc = {};
    desc.addressMode[0] = cudaAddressModeClamp;
    desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModeLinear;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &desc, nullptr);

    float* d_out;
    cudaMalloc(&d_out, width * height * sizeof(float));
    dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
    box_blur<<<grid, block>>>(tex, d_out, width, height);

    // A linear-memory texture for 1-D fetches.
    cudaResourceDesc lin = {};
    lin.resType = cudaResourceTypeLinear;
    lin.res.linear.devPtr = d_out;
    lin.res.linear.desc = channel;
    lin.res.linear.sizeInBytes = width * height * sizeof(float);
    cudaTextureDesc point = {};
    point.readMode = cudaReadModeElementType;
    cudaTextureObject_t lin_tex = 0;
    cudaCreateTextureObject(&lin_tex, &lin, &point, nullptr);
    float* d_doubled;
    cudaMalloc(&d_doubled, width * height * sizeof(float));
    sample_half_pixel<<<(width * height + 255) / 256, 256>>>(lin_tex, d_doubled, width * height);

    std::vector<float> out(width * height);
    cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("blur(8,8) = %f\n", out[8 * width + 8]);

    cudaDestroyTextureObject(tex);
    cudaDestroyTextureObject(lin_tex);
    cudaFreeArray(array);
    cudaFree(d_out);
    cudaFree(d_doubled);
    return 0;
}
