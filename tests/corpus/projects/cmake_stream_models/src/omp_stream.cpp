#include "stream.h"
void triad(double* a, const double* b, const double* c, double scalar, std::size_t n) {
#pragma omp parallel for
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + scalar * c[i];
}
