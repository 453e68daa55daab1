// Histogram with shared-memory atomics, then global atomics; a CAS loop for a float max.
__device__ float atomic_max_float(float* addr, float value) {
  int* as_int = reinterpret_cast<int*>(addr);
  int old = *as_int;
  while (__int_as_float(old) < value) {
    int assumed = old;
    old = atomicCAS(as_int, assumed, __float_as_int(value));  // CAS_LINE
    if (old == assumed) break;
  }
  return __int_as_float(old);
}

__global__ void histogram(const unsigned char* data, unsigned* bins, float* peak, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);  // SHARED_ATOMIC_LINE
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);  // GLOBAL_ATOMIC_LINE
  if (threadIdx.x == 0) atomic_max_float(peak, static_cast<float>(local[0]));
}
