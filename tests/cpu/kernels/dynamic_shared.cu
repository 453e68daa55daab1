// Dynamic shared memory sized by the launch: extern __shared__ inside a kernel and at file scope.
#include <cstdio>
#include <cuda_runtime.h>

extern __shared__ int file_scope_buffer[];

__global__ void reverse_blocks(const float* in, float* out) {
  extern __shared__ float buffer[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  buffer[t] = in[base + t];
  __syncthreads();
  out[base + t] = buffer[blockDim.x - 1 - t];
}

__global__ void pair_sums(const int* in, int* out) {
  int t = threadIdx.x;
  int* a = file_scope_buffer;
  int* b = file_scope_buffer + blockDim.x;
  a[t] = in[blockIdx.x * blockDim.x + t];
  b[t] = 2 * a[t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = a[(t + 1) % blockDim.x] + b[t];
}

int main() {
  const int blocks = 4, threads = 96, n = blocks * threads;
  float in[n], out[n];
  int iin[n], iout[n];
  for (int i = 0; i < n; ++i) {
    in[i] = (float)i;
    iin[i] = i * 3 % 17;
  }
  float *din, *dout;
  int *diin, *diout;
  cudaMalloc(&din, sizeof in);
  cudaMalloc(&dout, sizeof out);
  cudaMalloc(&diin, sizeof iin);
  cudaMalloc(&diout, sizeof iout);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  cudaMemcpy(diin, iin, sizeof iin, cudaMemcpyHostToDevice);
  reverse_blocks<<<blocks, threads, threads * sizeof(float)>>>(din, dout);
  pair_sums<<<blocks, threads, 2 * threads * sizeof(int), 0>>>(diin, diout);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(iout, diout, sizeof iout, cudaMemcpyDeviceToHost);
  printf("out[0]=%.0f out[95]=%.0f out[96]=%.0f out[383]=%.0f\n", out[0], out[95], out[96], out[383]);
  long long s = 0;
  for (int i = 0; i < n; ++i) s += (long long)iout[i] * (i + 1);
  printf("pair_weighted=%lld\n", s);
  return 0;
}
