#ifndef GRID_H
#define GRID_H

struct HeatParams {
  int nx, ny, iterations;
  float alpha;
  float hot_edge;  // temperature of the top edge; the other edges are 0
};

// params.cpp
bool read_params(const char* path, HeatParams* p);
void jacobi_host(const HeatParams& p, float* u);

// jacobi.cu
void jacobi_gpu(const HeatParams& p, float* d_u, float* d_tmp, float* d_residual);

#endif
