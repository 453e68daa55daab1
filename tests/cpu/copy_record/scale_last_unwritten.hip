// Scales a signal and prints a checksum of its first PREVIEW samples.
#include <hip/hip_runtime.h>
#include <vector>
#include "check.h"

__global__ void scale_offset(const float* in, float* out, float gain, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) out[i] = gain * in[i] + 0.25f;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 16;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = 0.001f * (i % 977);
  float *in, *out;
  CHECK(hipMalloc(&in, n * sizeof(float)));
  CHECK(hipMalloc(&out, n * sizeof(float)));
  CHECK(hipMemcpy(in, host.data(), n * sizeof(float), hipMemcpyHostToDevice));
  scale_offset<<<(n + 255) / 256, 256>>>(in, out, 3.0f, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(host.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  double sum = 0;
  for (int i = 0; i < PREVIEW; ++i) sum += host[i];
  std::printf("checksum of the first %d samples: %.6f\n", PREVIEW, sum);
  CHECK(hipFree(in));
  CHECK(hipFree(out));
  return 0;
}
