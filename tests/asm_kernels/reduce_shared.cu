// Block-wide sum with a shared-memory tree: global loads, shared stores, barriers.
constexpr int kBlock = 256;

__global__ void block_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[kBlock];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;  // LOAD_LINE
  tile[tid] = v;
  __syncthreads();  // BARRIER_LINE
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) tile[tid] += tile[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = tile[0];  // STORE_LINE
}
