// Softmax over the rows of a matrix; every row must sum to 1 and match the host.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "api.h"

int main(int argc, char** argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 300;
  int cols = argc > 2 ? atoi(argv[2]) : 100;
  float temperature = argc > 3 ? (float)atof(argv[3]) : 1.0f;
  std::vector<float> x((size_t)rows * cols), y(x.size());
  for (size_t i = 0; i < x.size(); i++) x[i] = 4.0f * sinf(0.37f * i) + 0.001f * (i % 101);
  float *d_x, *d_y;
  cudaMalloc(&d_x, x.size() * sizeof(float));
  cudaMalloc(&d_y, y.size() * sizeof(float));
  cudaMemcpy(d_x, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  softmax_forward(d_x, d_y, rows, cols, temperature);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  cudaMemcpy(y.data(), d_y, y.size() * sizeof(float), cudaMemcpyDeviceToHost);

  double worst = 0.0;
  for (int r = 0; r < rows; r++) {
    const float* xr = &x[(size_t)r * cols];
    float m = -1e30f;
    for (int c = 0; c < cols; c++) m = fmaxf(m, xr[c] * (1.0f / temperature));
    double s = 0.0;
    for (int c = 0; c < cols; c++) s += exp(xr[c] * (1.0f / temperature) - m);
    for (int c = 0; c < cols; c++) {
      double ref = exp(xr[c] * (1.0f / temperature) - m) / s;
      worst = fmax(worst, fabs(ref - y[(size_t)r * cols + c]));
    }
  }
  printf("softmax %d x %d, temperature %.2f (rows per block %d)\n", rows, cols, temperature, ROWS_PER_BLOCK);
  printf("y[0][0..3] = %.6f %.6f %.6f %.6f\n", y[0], y[1], y[2], y[3]);
  printf("y[last][last] = %.6f\n", y[y.size() - 1]);
  printf("elapsed: %.4f msec\n", ms);
  printf("max abs error %s\n", worst < 1e-5 ? "< 1e-5: PASS" : ">= 1e-5: FAIL");
  cudaFree(d_x);
  cudaFree(d_y);
  return worst < 1e-5 ? 0 : 1;
}
