#include <cstdio>

#include "stats.cuh"

void print_summary(const char* label, const Summary& s) {
  std::printf("%s: mean=%.4f variance=%.4f min=%.4f max=%.4f\n", label, s.mean, s.variance, s.min, s.max);
}
