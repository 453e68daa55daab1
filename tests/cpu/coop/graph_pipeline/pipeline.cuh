// Shared declarations of the graph_pipeline example: a status-checking macro and the step it captures.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    cudaError_t status_ = (call);                                                       \
    if (status_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status_)); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

#define PIPELINE_THREADS 256

struct StepLog {
  int steps;
  double last_sum;  // of the squares copied back, summed by the host function at the step's end
  const float* squares;
  int n;
};

// One step on `stream`: x = x/2 + 1 and y = x*x on the device, y copied to h_y, then the host sums it.
void enqueue_step(float* d_x, float* d_y, float* h_y, int n, StepLog* log, cudaStream_t stream);
