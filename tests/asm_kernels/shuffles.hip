// The HIP spelling of a warp reduction: mask-less shuffles, wave-size aware.
#include <hip/hip_runtime.h>

__device__ inline float wave_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    v += __shfl_down(v, offset);  // SHFL_LINE
  return v;
}

__global__ void wave_totals(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;  // LOAD_LINE
  float s = wave_sum(v);
  if (threadIdx.x % warpSize == 0) out[i / warpSize] = s;
  __syncthreads();  // BARRIER_LINE
}

int main() {
  float *in = nullptr, *out = nullptr;
  hipMalloc(&in, 1024 * sizeof(float));
  hipMalloc(&out, 32 * sizeof(float));
  hipLaunchKernelGGL(wave_totals, dim3(4), dim3(256), 0, 0, in, out, 1024);
  hipDeviceSynchronize();
  hipFree(in);
  hipFree(out);
  return 0;
}
