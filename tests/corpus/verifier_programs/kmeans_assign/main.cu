// Lloyd's k-means on 2-D points read from a binary file of float pairs: assignment on the GPU,
// centroid update on the host, a fixed number of iterations.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kmeans.h"

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "data.bin";
  int k = argc > 2 ? atoi(argv[2]) : 5;
  int iterations = argc > 3 ? atoi(argv[3]) : 6;
  if (k < 1 || k > MAX_K) {
    fprintf(stderr, "k must be in 1..%d\n", MAX_K);
    return 2;
  }
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long bytes = ftell(f);
  fseek(f, 0, SEEK_SET);
  int n = (int)(bytes / (DIMS * sizeof(float)));
  std::vector<float> points((size_t)n * DIMS);
  if (fread(points.data(), sizeof(float), points.size(), f) != points.size()) {
    fprintf(stderr, "short read\n");
    return 1;
  }
  fclose(f);

  std::vector<float> centroids(points.begin(), points.begin() + k * DIMS);  // the first k points
  std::vector<int> labels(n), counts(k);
  float *d_points, *d_centroids;
  int *d_labels, *d_counts;
  cudaMalloc(&d_points, points.size() * sizeof(float));
  cudaMalloc(&d_centroids, MAX_K * DIMS * sizeof(float));
  cudaMalloc(&d_labels, n * sizeof(int));
  cudaMalloc(&d_counts, MAX_K * sizeof(int));
  cudaMemcpy(d_points, points.data(), points.size() * sizeof(float), cudaMemcpyHostToDevice);

  double total_ms = 0.0;
  for (int it = 0; it < iterations; it++) {
    cudaMemcpy(d_centroids, centroids.data(), k * DIMS * sizeof(float), cudaMemcpyHostToDevice);
    auto t0 = std::chrono::steady_clock::now();
    assign_points(d_points, n, d_centroids, k, d_labels, d_counts);
    cudaDeviceSynchronize();
    total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    cudaMemcpy(labels.data(), d_labels, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(counts.data(), d_counts, k * sizeof(int), cudaMemcpyDeviceToHost);
    std::vector<double> sum(k * DIMS, 0.0);
    std::vector<int> host_counts(k, 0);
    for (int i = 0; i < n; i++) {
      host_counts[labels[i]]++;
      for (int d = 0; d < DIMS; d++) sum[labels[i] * DIMS + d] += points[i * DIMS + d];
    }
    for (int j = 0; j < k; j++) {
      if (host_counts[j] != counts[j]) {
        printf("iteration %d: cluster %d has %d members, device counted %d\nFAIL\n", it, j, host_counts[j], counts[j]);
        return 1;
      }
      if (counts[j] > 0)
        for (int d = 0; d < DIMS; d++) centroids[j * DIMS + d] = (float)(sum[j * DIMS + d] / counts[j]);
    }
    printf("iteration %d: sizes", it);
    for (int j = 0; j < k; j++) printf(" %d", counts[j]);
    printf("\n");
  }
  for (int j = 0; j < k; j++) printf("centroid %d: (%.4f, %.4f)\n", j, centroids[j * DIMS], centroids[j * DIMS + 1]);
  printf("assignment: %.3f ms total, %.1f Mpoints/s\n", total_ms, n * (double)iterations / total_ms / 1e3);
  printf("PASS\n");
  cudaFree(d_points);
  cudaFree(d_centroids);
  cudaFree(d_labels);
  cudaFree(d_counts);
  return 0;
}
