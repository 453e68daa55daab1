// 1-D stencil (radius 3): a naive kernel and a shared-memory kernel with halos, timed as a table.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define RADIUS 3
#define BLOCK 128

__constant__ float weights[2 * RADIUS + 1];

__global__ void stencil_naive(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; k++) {
    int j = i + k;
    if (j >= 0 && j < n) s += weights[k + RADIUS] * in[j];
  }
  out[i] = s;
}

__global__ void stencil_smem(const float* in, float* out, int n) {
  __shared__ float tile[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  tile[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS, right = g + BLOCK;
    tile[l - RADIUS] = left >= 0 ? in[left] : 0.0f;
    tile[l + BLOCK] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (g >= n) return;
  float s = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; k++) s += weights[k + RADIUS] * tile[l + k];
  out[g] = s;
}

static float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  float h_w[2 * RADIUS + 1] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};
  cudaMemcpyToSymbol(weights, h_w, sizeof(h_w));
  float* h_in = (float*)malloc(n * sizeof(float));
  float* h_a = (float*)malloc(n * sizeof(float));
  float* h_b = (float*)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h_in[i] = sinf(0.01f * i) + (i % 17) * 0.01f;
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);

  int grid = (n + BLOCK - 1) / BLOCK;
  cudaEvent_t e0, e1, e2;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventCreate(&e2);
  cudaEventRecord(e0);
  stencil_naive<<<grid, BLOCK>>>(d_in, d_out, n);
  cudaEventRecord(e1);
  cudaEventSynchronize(e1);
  cudaMemcpy(h_a, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  stencil_smem<<<grid, BLOCK>>>(d_in, d_out, n);
  cudaEventRecord(e2);
  cudaEventSynchronize(e2);
  cudaMemcpy(h_b, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  float t_naive = elapsed(e0, e1), t_smem = elapsed(e1, e2);

  int mismatches = 0;
  double sum = 0.0;
  for (int i = 0; i < n; i++) {
    float ref = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; k++)
      if (i + k >= 0 && i + k < n) ref += h_w[k + RADIUS] * h_in[i + k];
    if (fabsf(ref - h_a[i]) > 1e-5f || fabsf(ref - h_b[i]) > 1e-5f) mismatches++;
    sum += h_b[i];
  }
  printf("n=%d radius=%d\n", n, RADIUS);
  printf("out[0]=%.5f out[1000]=%.5f out[n-1]=%.5f sum=%.4f\n", h_b[0], h_b[1000 % n], h_b[n - 1], sum);
  printf("variant  ms  speedup\n");
  printf("base  %.3f  %.1f\n", t_naive, 1.0);
  printf("smem  %.3f  %.1f\n", t_smem, t_smem > 0 ? t_naive / t_smem : 0.0);
  printf("mismatches: %d\n", mismatches);
  printf(mismatches == 0 ? "Test PASSED\n" : "Test FAILED\n");
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_a);
  free(h_b);
  return mismatches != 0;
}
