#include "poisson.cuh"

// Row r's entries in column order: south, west, centre, east, north (those inside the grid).
__global__ void row_lengths(int* offsets, int nx, int ny) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nx * ny) return;
  int x = r % nx, y = r / nx;
  offsets[r + 1] = 1 + (x > 0) + (x < nx - 1) + (y > 0) + (y < ny - 1);
  if (r == 0) offsets[0] = 0;
}

__global__ void fill_rows(const int* offsets, int* columns, float* values, int nx, int ny) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nx * ny) return;
  int x = r % nx, y = r / nx, at = offsets[r];
  if (y > 0) { columns[at] = r - nx; values[at++] = -1.0f; }
  if (x > 0) { columns[at] = r - 1; values[at++] = -1.0f; }
  columns[at] = r; values[at++] = 4.0f;
  if (x < nx - 1) { columns[at] = r + 1; values[at++] = -1.0f; }
  if (y < ny - 1) { columns[at] = r + nx; values[at] = -1.0f; }
}

Csr build_laplacian(int nx, int ny, cudaStream_t stream) {
  Csr a;
  a.rows = nx * ny;
  const int block = 128, grid = (a.rows + block - 1) / block;
  CUDA_CHECK(cudaMalloc(&a.offsets, (a.rows + 1) * sizeof(int)));
  row_lengths<<<grid, block, 0, stream>>>(a.offsets, nx, ny);
  int* lengths = static_cast<int*>(std::malloc((a.rows + 1) * sizeof(int)));
  CUDA_CHECK(cudaMemcpyAsync(lengths, a.offsets, (a.rows + 1) * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  for (int r = 0; r < a.rows; ++r) lengths[r + 1] += lengths[r];  // exclusive scan on the host
  a.nnz = lengths[a.rows];
  CUDA_CHECK(cudaMemcpyAsync(a.offsets, lengths, (a.rows + 1) * sizeof(int), cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMalloc(&a.columns, a.nnz * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&a.values, a.nnz * sizeof(float)));
  fill_rows<<<grid, block, 0, stream>>>(a.offsets, a.columns, a.values, nx, ny);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::free(lengths);
  return a;
}

void free_csr(Csr& a) {
  CUDA_CHECK(cudaFree(a.offsets));
  CUDA_CHECK(cudaFree(a.columns));
  CUDA_CHECK(cudaFree(a.values));
}
