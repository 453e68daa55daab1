// The five-point update; included by src/main.cu through the include path.
__global__ void stencil_step(Grid g, const float* __restrict__ in, float* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= g.nx - 1 || y >= g.ny - 1) return;
  const int i = y * g.nx + x;
  out[i] = in[i] + g.alpha * (in[i - 1] + in[i + 1] + in[i - g.nx] + in[i + g.nx] - 4.0f * in[i]);
}
