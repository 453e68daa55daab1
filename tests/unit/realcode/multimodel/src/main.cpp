#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "models.h"

int main(int argc, char** argv)
{
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1u << 24);
  int steps = argc > 2 ? std::atoi(argv[2]) : 100;
  std::vector<double> cells(n);
  for (std::size_t i = 0; i < n; ++i)
    cells[i] = std::exp(-1e-6 * (double(i) - n / 2.0) * (double(i) - n / 2.0));
  auto advector = make_advector<double>(n, 0);
  advector->upload(cells);
  double before = advector->mass();
  for (int s = 0; s < steps; ++s)
    advector->step(0.4);
  double after = advector->mass();
  std::printf("%s (advect %s): mass %.9g -> %.9g\n", advector->model().c_str(), ADVECT_VERSION, before, after);
  return std::fabs(after - before) <= 1e-9 * std::fabs(before) ? 0 : 1;
}
