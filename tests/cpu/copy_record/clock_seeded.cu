// Shaped like cuda-samples' fp16ScalarProduct: the input is drawn from rand() seeded with the clock,
// the kernel's results are copied back, and only a self-check verdict is printed.
#include <cuda_runtime.h>
#include <cmath>
#include <ctime>
#include <vector>
#include "check.h"

__global__ void square(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

int main() {
  std::srand(static_cast<unsigned>(std::time(nullptr)));
  const int n = 1024;
  std::vector<float> host(n), squares(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(std::rand() % 1000);
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  square<<<n / 256, 256>>>(in, out, n);
  CHECK(cudaMemcpy(squares.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool right = true;
  for (int i = 0; i < n; ++i) right = right && std::fabs(squares[i] - host[i] * host[i]) < 0.5f;
  std::printf("%s\n", right ? "PASSED" : "FAILED");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return right ? 0 : 1;
}
