// Inclusive scan of each block's values in shared memory (Hillis-Steele), timed.
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <vector>

constexpr int kBlock = 128;

__global__ void scan_blocks(const int *in, int *out, int n) {
  __shared__ int buffer[kBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  buffer[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < kBlock; offset <<= 1) {
    const int add = threadIdx.x >= offset ? buffer[threadIdx.x - offset] : 0;
    __syncthreads();
    buffer[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n) out[i] = buffer[threadIdx.x];
}

int main() {
  findCudaDevice();
  const int n = 1000;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (i * 37) % 11;
  int *in = nullptr, *out = nullptr;
  checkCudaErrors(cudaMalloc(&in, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&out, n * sizeof(int)));
  checkCudaErrors(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  const auto started = std::chrono::steady_clock::now();
  scan_blocks<<<(n + kBlock - 1) / kBlock, kBlock>>>(in, out, n);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaDeviceSynchronize());
  printf("scan took %.3f ms\n", elapsed_ms(started));
  checkCudaErrors(cudaMemcpy(host.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int block = 0; block < n; block += kBlock * 2) printf("block %d ends at %d\n", block / kBlock, host[block + kBlock - 1]);
  checkCudaErrors(cudaFree(in));
  checkCudaErrors(cudaFree(out));
  return 0;
}
