// Fixed-temperature edges; included by src/main.cu by a relative path.
__global__ void hold_edges(Grid g, float* t, float hot) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < g.nx) {
    t[x] = hot;
    t[(g.ny - 1) * g.nx + x] = 0.0f;
  }
}
