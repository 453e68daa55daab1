#include "image.cuh"

__global__ void resample_kernel(cudaTextureObject_t tex, float* out, int ow, int oh) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= ow || y >= oh) return;
  float u = (x + 0.5f) / ow * 1.25f - 0.125f;
  float v = (y + 0.5f) / oh * 1.25f - 0.125f;
  out[y * ow + x] = tex2D<float>(tex, u, v);
}

__global__ void mirror_difference_kernel(cudaTextureObject_t line, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * tex1Dfetch<float>(line, i) - tex1Dfetch<float>(line, n - 1 - i);
}

__global__ void unpack_rgba_kernel(cudaTextureObject_t rgba, float4* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[y * width + x] = tex2D<float4>(rgba, x + 0.5f, y + 0.5f);
}

void resample(cudaTextureObject_t tex, float* out, int ow, int oh) {
  dim3 block(kTile, kTile), grid((ow + kTile - 1) / kTile, (oh + kTile - 1) / kTile);
  resample_kernel<<<grid, block>>>(tex, out, ow, oh);
  IMG_CHECK(cudaGetLastError());
}

void mirror_difference(cudaTextureObject_t line, float* out, int n) {
  mirror_difference_kernel<<<(n + 255) / 256, 256>>>(line, out, n);
  IMG_CHECK(cudaGetLastError());
}

void unpack_rgba(cudaTextureObject_t rgba, float4* out, int width, int height) {
  dim3 block(kTile, kTile), grid((width + kTile - 1) / kTile, (height + kTile - 1) / kTile);
  unpack_rgba_kernel<<<grid, block>>>(rgba, out, width, height);
  IMG_CHECK(cudaGetLastError());
}
