// A whole CUDA program: runtime API calls on the host, a warp-synchronous kernel on the device.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void butterfly(const int* in, int* out) {
  int v = in[threadIdx.x];
  v += __shfl_xor_sync(0xffffffffu, v, 1);  // XOR_LINE
  out[threadIdx.x] = v;
}

int main() {
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(in, 0, 64 * sizeof(int));
  butterfly<<<1, 64>>>(in, out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
