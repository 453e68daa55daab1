#pragma once

#define DIMS 2
#define MAX_K 8
#define ASSIGN_THREADS 128

// Assigns each point to its nearest centroid and counts the members of each cluster (d_counts zeroed here).
void assign_points(const float* d_points, int n, const float* d_centroids, int k, int* d_labels, int* d_counts);
