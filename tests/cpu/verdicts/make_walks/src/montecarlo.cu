#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "walk.cuh"

auto main(int argc, char** argv) -> int {
  const char* seed_text = std::getenv("WALK_SEED");
  if (seed_text == nullptr) {
    std::fprintf(stderr, "set WALK_SEED\n");
    return 2;
  }
  const int walkers = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 16;
  unsigned int seed = static_cast<unsigned int>(std::strtoul(seed_text, nullptr, 10));
  int* d_end = nullptr;
  WALK_CHECK(cudaMalloc(&d_end, walkers * sizeof(int)));
  std::vector<int> end(walkers);
  for (int round = 0; round < rounds; ++round) {
    run_walks(walkers, seed + round, d_end);
    WALK_CHECK(cudaMemcpy(end.data(), d_end, walkers * sizeof(int), cudaMemcpyDeviceToHost));
    double sum = 0.0, squares = 0.0;
    for (int p : end) {
      sum += p;
      squares += static_cast<double>(p) * p;
    }
    std::printf("round %d: mean %.4f rms %.4f\n", round, sum / walkers, std::sqrt(squares / walkers));
  }
  WALK_CHECK(cudaFree(d_end));
  return 0;
}
