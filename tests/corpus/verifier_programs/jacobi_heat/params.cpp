#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "grid.h"

// "key value" lines; '#' starts a comment.
bool read_params(const char* path, HeatParams* p) {
  FILE* f = std::fopen(path, "r");
  if (!f) return false;
  char line[256], key[64];
  double value;
  int seen = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (line[0] == '#' || std::sscanf(line, "%63s %lf", key, &value) != 2) continue;
    if (!std::strcmp(key, "nx")) p->nx = (int)value, seen |= 1;
    else if (!std::strcmp(key, "ny")) p->ny = (int)value, seen |= 2;
    else if (!std::strcmp(key, "iterations")) p->iterations = (int)value, seen |= 4;
    else if (!std::strcmp(key, "alpha")) p->alpha = (float)value, seen |= 8;
    else if (!std::strcmp(key, "hot_edge")) p->hot_edge = (float)value, seen |= 16;
  }
  std::fclose(f);
  return seen == 31;
}

void jacobi_host(const HeatParams& p, float* u) {
  std::vector<float> next(u, u + p.nx * p.ny);
  for (int it = 0; it < p.iterations; it++) {
    for (int y = 1; y < p.ny - 1; y++)
      for (int x = 1; x < p.nx - 1; x++) {
        int i = y * p.nx + x;
        next[i] = u[i] + p.alpha * (u[i - 1] + u[i + 1] + u[i - p.nx] + u[i + p.nx] - 4.0f * u[i]);
      }
    std::memcpy(u, next.data(), sizeof(float) * p.nx * p.ny);
  }
}
