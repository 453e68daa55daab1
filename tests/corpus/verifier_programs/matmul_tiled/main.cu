// C = A * B for rectangular matrices, timed per iteration; checked against a host triple loop.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "matmul.cuh"

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e = (call);                                                  \
    if (e != cudaSuccess) {                                                  \
      printf("CUDA error %d: %s at line %d\n", (int)e, cudaGetErrorString(e), __LINE__); \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  } while (0)

int main(int argc, char** argv) {
  int M = argc > 1 ? atoi(argv[1]) : 96;
  int N = argc > 2 ? atoi(argv[2]) : 80;
  int K = argc > 3 ? atoi(argv[3]) : 72;
  int iters = argc > 4 ? atoi(argv[4]) : 3;
  std::vector<float> A(M * K), B(K * N), C(M * N), R(M * N);
  for (int i = 0; i < M * K; i++) A[i] = (float)((i * 7) % 13) * 0.25f - 1.0f;
  for (int i = 0; i < K * N; i++) B[i] = (float)((i * 5) % 11) * 0.125f - 0.5f;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0.0f;
      for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];
      R[i * N + j] = s;
    }

  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));

  auto t0 = std::chrono::steady_clock::now();
  for (int it = 0; it < iters; it++) matmul_gpu(dA, dB, dC, M, N, K);
  CHECK(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  double usec = std::chrono::duration<double, std::micro>(t1 - t0).count() / iters;
  CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));

  double max_err = 0.0, trace = 0.0;
  for (int i = 0; i < M * N; i++) max_err = fmax(max_err, fabs(C[i] - R[i]));
  for (int i = 0; i < M && i < N; i++) trace += C[i * N + i];
  double bytes = (double)(M * K + K * N + M * N) * sizeof(float);
  double flops = 2.0 * M * N * K;
  printf("M=%d N=%d K=%d tile=%d\n", M, N, K, TILE);
  printf("C[0][0]=%.4f C[M-1][N-1]=%.4f trace=%.4f\n", C[0], C[M * N - 1], trace);
  printf("t = %.1f usec/iter, BW = %.3f GB/s, P = %.3f Gflop/s\n", usec, bytes / usec / 1e3, flops / usec / 1e3);
  printf("max error %.2e: %s\n", max_err, max_err < 1e-3 ? "PASS" : "FAIL");
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return max_err < 1e-3 ? 0 : 1;
}
