// Sum of a float array on the GPU against a double-precision host sum.
#include <cmath>
#include <vector>

#include "reduce.cuh"

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : (1 << 16);
  int repeat = argc > 2 ? atoi(argv[2]) : 5;
  std::vector<float> h(n);
  for (int i = 0; i < n; i++) h[i] = (float)((i * 37) % 101) / 101.0f - 0.25f;

  float *d_in, *d_partial;
  int max_blocks = (n + REDUCE_THREADS * 2 - 1) / (REDUCE_THREADS * 2);
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_partial, max_blocks * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  int blocks = 0;
  CHECK(cudaEventRecord(start));
  for (int r = 0; r < repeat; r++) blocks = reduce_partial(d_in, d_partial, n);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));

  std::vector<float> partial(blocks);
  CHECK(cudaMemcpy(partial.data(), d_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  double gpu = 0.0;
  for (int b = 0; b < blocks; b++) gpu += partial[b];
  double ref = 0.0;
  for (int i = 0; i < n; i++) ref += h[i];

  printf("n = %d, blocks = %d\n", n, blocks);
  printf("first partials: %.5f %.5f %.5f\n", partial[0], partial[1 % blocks], partial[2 % blocks]);
  printf("gpu sum = %.4f, host sum = %.4f\n", gpu, ref);
  printf("Average kernel execution time %.1f (ms)\n", ms / repeat);
  bool ok = fabs(gpu - ref) <= 1e-3 * fabs(ref) + 1e-2;
  printf("%s\n", ok ? "PASS" : "FAIL");
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_partial));
  return ok ? 0 : 1;
}
