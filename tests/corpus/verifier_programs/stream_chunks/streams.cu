// Overlap of copies and kernels: the same work done sequentially, then in chunks over several streams.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define N_STREAMS 4

#define checkCuda(ans) check((ans), __FILE__, __LINE__)
inline cudaError_t check(cudaError_t result, const char* file, int line) {
  if (result != cudaSuccess) {
    fprintf(stderr, "CUDA Runtime Error at %s:%d: %s\n", file, line, cudaGetErrorString(result));
    exit(1);
  }
  return result;
}

// A cheap integer mix per element, so that a wrong offset shows in the checksum.
__global__ void mix(unsigned int* a, int offset) {
  int i = offset + blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int v = a[i];
  for (int r = 0; r < 8; r++) v = (v ^ (v >> 7)) * 0x9E3779B1u + i;
  a[i] = v;
}

static unsigned long long checksum(const unsigned int* a, int n) {
  unsigned long long s = 0;
  for (int i = 0; i < n; i++) s = s * 1000003ull + a[i];
  return s;
}

int main(int argc, char** argv) {
  const int block = 256;
  const int chunk = argc > 1 ? atoi(argv[1]) : 4096;
  const int n = chunk * N_STREAMS;
  const size_t bytes = n * sizeof(unsigned int), chunk_bytes = chunk * sizeof(unsigned int);
  unsigned int *h, *d, *expected;
  checkCuda(cudaMallocHost((void**)&h, bytes));
  checkCuda(cudaMalloc((void**)&d, bytes));
  expected = (unsigned int*)malloc(bytes);
  for (int i = 0; i < n; i++) {
    unsigned int v = (unsigned int)i * 2246822519u;
    for (int r = 0; r < 8; r++) v = (v ^ (v >> 7)) * 0x9E3779B1u + i;
    expected[i] = v;
  }
  cudaStream_t streams[N_STREAMS];
  for (int s = 0; s < N_STREAMS; s++) checkCuda(cudaStreamCreate(&streams[s]));
  cudaEvent_t start, stop;
  checkCuda(cudaEventCreate(&start));
  checkCuda(cudaEventCreate(&stop));
  float ms;

  for (int i = 0; i < n; i++) h[i] = (unsigned int)i * 2246822519u;
  checkCuda(cudaEventRecord(start, 0));
  checkCuda(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  mix<<<n / block, block>>>(d, 0);
  checkCuda(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
  checkCuda(cudaEventRecord(stop, 0));
  checkCuda(cudaEventSynchronize(stop));
  checkCuda(cudaEventElapsedTime(&ms, start, stop));
  printf("Time for sequential transfer and execute (ms): %f\n", ms);
  bool seq_ok = memcmp(h, expected, bytes) == 0;
  printf("  checksum %llu %s\n", checksum(h, n), seq_ok ? "ok" : "WRONG");

  for (int i = 0; i < n; i++) h[i] = (unsigned int)i * 2246822519u;
  checkCuda(cudaEventRecord(start, 0));
  for (int s = 0; s < N_STREAMS; s++) {
    int offset = s * chunk;
    checkCuda(cudaMemcpyAsync(&d[offset], &h[offset], chunk_bytes, cudaMemcpyHostToDevice, streams[s]));
    mix<<<chunk / block, block, 0, streams[s]>>>(d, offset);
    checkCuda(cudaMemcpyAsync(&h[offset], &d[offset], chunk_bytes, cudaMemcpyDeviceToHost, streams[s]));
  }
  checkCuda(cudaEventRecord(stop, 0));
  checkCuda(cudaEventSynchronize(stop));
  checkCuda(cudaEventElapsedTime(&ms, start, stop));
  printf("Time for asynchronous transfer and execute (ms): %f\n", ms);
  bool async_ok = memcmp(h, expected, bytes) == 0;
  printf("  checksum %llu %s\n", checksum(h, n), async_ok ? "ok" : "WRONG");

  for (int s = 0; s < N_STREAMS; s++) checkCuda(cudaStreamDestroy(streams[s]));
  checkCuda(cudaEventDestroy(start));
  checkCuda(cudaEventDestroy(stop));
  checkCuda(cudaFreeHost(h));
  checkCuda(cudaFree(d));
  free(expected);
  printf("%s\n", seq_ok && async_ok ? "PASS" : "FAIL");
  return seq_ok && async_ok ? 0 : 1;
}
