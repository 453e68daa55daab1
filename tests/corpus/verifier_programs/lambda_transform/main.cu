// Polynomial evaluation and clamping written with __device__ lambdas.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "functional.cuh"

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 30000;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; i++) {
    a[i] = -2.0f + 4.0f * i / n;
    b[i] = 0.5f * cosf(0.01f * i);
  }
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);

  const float c0 = 1.0f, c1 = -0.5f, c2 = 0.25f, c3 = 0.125f, limit = 1.5f;
  auto start = std::chrono::system_clock::now();
  // a <- p(a) with Horner's rule, in place
  launch_for_each(n, [=] __device__(int i) {
    float x = da[i];
    da[i] = ((c3 * x + c2) * x + c1) * x + c0;
  });
  // c <- clamp(a + b)
  zip_with<<<(n + 255) / 256, 256>>>(da, db, dc, n, [=] __device__(float x, float y) {
    float s = x + y;
    return s > limit ? limit : (s < -limit ? -limit : s);
  });
  cudaDeviceSynchronize();
  auto stop = std::chrono::system_clock::now();
  cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);

  int clamped = 0, bad = 0;
  double sum = 0.0;
  for (int i = 0; i < n; i++) {
    float x = a[i];
    float p = ((c3 * x + c2) * x + c1) * x + c0;
    float s = p + b[i];
    float want = s > limit ? limit : (s < -limit ? -limit : s);
    if (fabsf(want - c[i]) > 1e-5f) bad++;
    if (want == limit || want == -limit) clamped++;
    sum += c[i];
  }
  printf("n = %d, clamped = %d, sum = %.4f\n", n, clamped, sum);
  printf("c[0] = %.6f, c[n/2] = %.6f, c[n-1] = %.6f\n", c[0], c[n / 2], c[n - 1]);
  printf("ELAPSED TIME: %.3f MS\n", std::chrono::duration<double, std::milli>(stop - start).count());
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return bad ? 1 : 0;
}
