// Double-precision dot product: grid-stride partial sums, shared-memory and shuffle reduction per block.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sys/time.h>

#define CHECK_CUDA(call)                                                            \
  do {                                                                              \
    cudaError_t err = (call);                                                       \
    if (err != cudaSuccess) {                                                       \
      fprintf(stderr, "%s in %s at line %d\n", cudaGetErrorString(err), __FILE__, __LINE__); \
      exit(EXIT_FAILURE);                                                           \
    }                                                                               \
  } while (0)

static double wall_us() {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return tv.tv_sec * 1e6 + tv.tv_usec;
}

template <unsigned BLOCK>
__global__ void dot_partial(const double* a, const double* b, double* partial, int n) {
  static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "block must be whole warps");
  __shared__ double warp_sums[BLOCK / 32];
  double s = 0.0;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x) s += a[i] * b[i];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < BLOCK / 32 ? warp_sums[lane] : 0.0;
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
    if (lane == 0) partial[blockIdx.x] = s;
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 200000;
  const int blocks = argc > 2 ? atoi(argv[2]) : 48;
  double* a = (double*)malloc(n * sizeof(double));
  double* b = (double*)malloc(n * sizeof(double));
  double* partial = (double*)malloc(blocks * sizeof(double));
  for (int i = 0; i < n; i++) {
    a[i] = 1.0 / (1 + i % 100);
    b[i] = (i % 3 == 0) ? -0.5 : 0.75 + 1e-6 * i;
  }
  double *da, *db, *dp;
  CHECK_CUDA(cudaMalloc(&da, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&db, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dp, blocks * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(da, a, n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b, n * sizeof(double), cudaMemcpyHostToDevice));
  double t0 = wall_us();
  dot_partial<256><<<blocks, 256>>>(da, db, dp, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  double t1 = wall_us();
  CHECK_CUDA(cudaMemcpy(partial, dp, blocks * sizeof(double), cudaMemcpyDeviceToHost));
  double gpu = 0.0, ref = 0.0;
  for (int i = 0; i < blocks; i++) gpu += partial[i];
  for (int i = 0; i < n; i++) ref += a[i] * b[i];
  printf("n = %d, blocks = %d\n", n, blocks);
  printf("partial[0] = %.10f, partial[last] = %.10f\n", partial[0], partial[blocks - 1]);
  printf("dot = %.10f (host %.10f)\n", gpu, ref);
  printf("Dot product time: %.0f usec\n", t1 - t0);
  int ok = fabs(gpu - ref) < 1e-9 * fabs(ref) + 1e-9;
  printf("Test %s\n", ok ? "PASSED" : "FAILED");
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dp));
  free(a);
  free(b);
  free(partial);
  return ok ? 0 : 1;
}
