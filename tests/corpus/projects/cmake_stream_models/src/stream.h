#pragma once
#include <cstddef>
void triad(double* a, const double* b, const double* c, double scalar, std::size_t n);
