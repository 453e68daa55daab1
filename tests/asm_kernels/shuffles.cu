// Warp-level reductions with shuffles and a ballot.
__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);  // SHFL_LINE
  return v;
}

__global__ void warp_totals(const float* in, float* out, unsigned* votes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  float s = warp_sum(v);  // CALL_LINE
  unsigned ballot = __ballot_sync(0xffffffffu, v > 0.0f);
  if ((threadIdx.x & 31) == 0) {
    out[i / 32] = s;
    votes[i / 32] = ballot;
  }
}
