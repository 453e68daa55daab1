// Runs the triad a few times and prints the checksum of a: a = b + scalar * c.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "Triad.h"

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : (1u << 25);
  int times = argc > 2 ? std::atoi(argv[2]) : 10;
  std::unique_ptr<Triad> model(make_triad(n));
  model->init(0.1, 0.2, 0.3);
  for (int i = 0; i < times; ++i) model->triad();
  std::printf("n=%zu checksum=%.6f\n", n, model->checksum());
  return 0;
}
