// Several kernels in one file, one of them calling a device function that is not inlined,
// and one with a dynamically indexed local array that lives in stack/scratch memory.
__device__ __noinline__ float poly(float x) {
  return ((0.5f * x + 1.0f) * x - 2.0f) * x + 3.0f;  // POLY_LINE
}

__global__ void scale(float* data, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= k;  // SCALE_LINE
}

__global__ void evaluate(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = poly(x[i]);  // EVAL_LINE
}

__global__ void gather_local(const float* src, const int* idx, float* out, int n) {
  float table[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int k = 0; k < 256; ++k) table[k] = src[k * n + i];
  out[i] = table[idx[i] & 255];  // LOCAL_INDEX_LINE
}
