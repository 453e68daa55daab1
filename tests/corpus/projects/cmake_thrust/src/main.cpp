#include <cstdlib>

#include "stats.cuh"

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1u << 24);
  print_summary("uniform", summarise_uniform(n, 1234ULL));
  return 0;
}
