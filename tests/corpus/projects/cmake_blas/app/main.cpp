// Uses the library through its plain C++ interface only.
#include <cstdio>
#include <vector>

#include "vecops.h"

int main() {
  const int n = 4;
  std::vector<float> a(n * n, 1.0f), b(n * n, 2.0f), c(n * n, 0.0f);
  if (vecops::gemm(a.data(), b.data(), c.data(), n) != 0) return 1;
  std::vector<float> x(1000, 1.0f), y(1000, 0.5f);
  if (vecops::scale_add(2.0f, x.data(), y.data(), x.size()) != 0) return 1;
  std::printf("c[0] = %.1f, y[999] = %.1f\n", c[0], y[999]);
  return 0;
}
