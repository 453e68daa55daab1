#include <cfloat>

#include "kmeans.h"

__global__ void assign_kernel(const float* __restrict__ points, int n, const float* __restrict__ centroids, int k,
                              int* __restrict__ labels, int* __restrict__ counts) {
  __shared__ float c[MAX_K * DIMS];
  __shared__ int local_counts[MAX_K];
  if (threadIdx.x < k * DIMS) c[threadIdx.x] = centroids[threadIdx.x];
  if (threadIdx.x < MAX_K) local_counts[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float px = points[i * DIMS], py = points[i * DIMS + 1];
    int best = 0;
    float best_d = FLT_MAX;
    for (int j = 0; j < k; j++) {
      float dx = px - c[j * DIMS], dy = py - c[j * DIMS + 1];
      float d = dx * dx + dy * dy;
      if (d < best_d) {
        best_d = d;
        best = j;
      }
    }
    labels[i] = best;
    atomicAdd(&local_counts[best], 1);
  }
  __syncthreads();
  if (threadIdx.x < k) atomicAdd(&counts[threadIdx.x], local_counts[threadIdx.x]);
}

void assign_points(const float* d_points, int n, const float* d_centroids, int k, int* d_labels, int* d_counts) {
  cudaMemset(d_counts, 0, k * sizeof(int));
  assign_kernel<<<(n + ASSIGN_THREADS - 1) / ASSIGN_THREADS, ASSIGN_THREADS>>>(d_points, n, d_centroids, k, d_labels,
                                                                               d_counts);
}
