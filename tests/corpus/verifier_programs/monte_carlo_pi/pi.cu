// Monte Carlo estimate of pi with a counter-based hash generator, so the host can replay it exactly.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <ctime>

#define THREADS_PER_BLOCK 128
#define SAMPLES_PER_THREAD 16

__host__ __device__ inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

__host__ __device__ inline bool sample_inside(uint32_t seed, uint32_t k) {
  float u = (hash32(seed * 2654435761U + 2 * k) >> 8) * (1.0f / 16777216.0f);
  float v = (hash32(seed * 2654435761U + 2 * k + 1) >> 8) * (1.0f / 16777216.0f);
  return u * u + v * v <= 1.0f;
}

__global__ void count_inside(unsigned long long* block_hits, uint32_t seed) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned hits = 0;
  for (int s = 0; s < SAMPLES_PER_THREAD; s++) {
    bool inside = sample_inside(seed, tid * SAMPLES_PER_THREAD + s);
    // every thread of the block votes; the barrier returns the block's count
    hits += __syncthreads_count(inside);
  }
  if (threadIdx.x == 0) block_hits[blockIdx.x] = hits;
}

int main(int argc, char** argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 200;
  uint32_t seed = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 42u;
  unsigned long long* d_hits;
  cudaMalloc(&d_hits, blocks * sizeof(unsigned long long));
  clock_t begin = clock();
  count_inside<<<blocks, THREADS_PER_BLOCK>>>(d_hits, seed);
  cudaDeviceSynchronize();
  clock_t end = clock();
  unsigned long long* hits = (unsigned long long*)malloc(blocks * sizeof(unsigned long long));
  cudaMemcpy(hits, d_hits, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost);

  unsigned long long total = 0, expected = 0;
  for (int b = 0; b < blocks; b++) total += hits[b];
  unsigned long long samples = (unsigned long long)blocks * THREADS_PER_BLOCK * SAMPLES_PER_THREAD;
  for (unsigned long long k = 0; k < samples; k++) expected += sample_inside(seed, (uint32_t)k);
  double secs = (double)(end - begin) / CLOCKS_PER_SEC;
  printf("samples: %llu\n", samples);
  printf("inside: %llu (host %llu), block 0: %llu\n", total, expected, hits[0]);
  printf("pi ~= %.6f\n", 4.0 * total / samples);
  printf("rate: %.2f Msamples/s\n", secs > 0 ? samples / secs / 1e6 : 0.0);
  printf(total == expected ? "PASS\n" : "FAIL\n");
  free(hits);
  cudaFree(d_hits);
  return total == expected ? EXIT_SUCCESS : EXIT_FAILURE;
}
