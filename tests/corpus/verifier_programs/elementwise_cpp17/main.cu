// Three activation functions over the same input, each checked on the host.
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <vector>

#include "ops.cuh"

template <Op op>
float host_apply(float x, float a) {
  if constexpr (op == Op::Scale) return a * x;
  else if constexpr (op == Op::Relu) return x > 0.f ? x : a * x;
  else return 0.5f * x * (1.f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}

template <Op op>
std::tuple<int, double> check(const std::vector<float>& in, float* d_in, float* d_out, float a) {
  int n = (int)in.size();
  run_op<op>(d_in, d_out, a, n);
  std::vector<float> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  double sum = 0.0;
  for (int i = 0; i < n; i++) {
    if (fabsf(out[i] - host_apply<op>(in[i], a)) > 1e-5f * (1.f + fabsf(out[i]))) bad++;
    sum += out[i];
  }
  return {bad, sum};
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 25000;
  std::vector<float> in(n);
  for (int i = 0; i < n; i++) in[i] = -3.0f + 6.0f * ((i * 7919) % n) / n;
  float *d_in, *d_out;
  cudaMalloc(&d_in, total_bytes(n, sizeof(float)));
  cudaMalloc(&d_out, total_bytes(n, sizeof(float)));
  cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  auto [bad_scale, sum_scale] = check<Op::Scale>(in, d_in, d_out, 1.5f);
  auto [bad_relu, sum_relu] = check<Op::Relu>(in, d_in, d_out, 0.1f);
  auto [bad_gelu, sum_gelu] = check<Op::Gelu>(in, d_in, d_out, 0.0f);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms;
  cudaEventElapsedTime(&ms, start, stop);
  const std::array<const char*, 3> names{"scale", "leaky relu", "gelu"};
  const std::array<double, 3> sums{sum_scale, sum_relu, sum_gelu};
  const std::array<int, 3> bads{bad_scale, bad_relu, bad_gelu};
  for (int k = 0; k < 3; k++) printf("%-10s sum %12.4f  wrong %d\n", names[k], sums[k], bads[k]);
  printf("[timing] 3 kernels + copies: %.3fms\n", ms);
  int bad = bad_scale + bad_relu + bad_gelu;
  printf("%s\n", bad ? "FAIL" : "PASS");
  cudaFree(d_in);
  cudaFree(d_out);
  return bad ? 1 : 0;
}
