// test_heat stencil|reduce: one kernel against a host reference; exits 1 when they disagree.
#include <cmath>
#include <cstring>
#include <vector>

#include "heat.cuh"

static std::vector<float> ramp(int width, int height) {
  std::vector<float> cells(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) cells[cell_index(x, y, width)] = static_cast<float>((x * 7 + y * 13) % 23);
  return cells;
}

static int test_stencil() {
  const int width = 45, height = 37;  // not a multiple of the tile
  std::vector<float> cells = ramp(width, height);
  const size_t bytes = cells.size() * sizeof(float);
  Plate from{width, height, nullptr}, to{width, height, nullptr};
  CUDA_CHECK(cudaMalloc(&from.cells, bytes));
  CUDA_CHECK(cudaMalloc(&to.cells, bytes));
  CUDA_CHECK(cudaMemcpy(from.cells, cells.data(), bytes, cudaMemcpyHostToDevice));
  step_plate(from, to, 0.1f);
  std::vector<float> got(cells.size());
  CUDA_CHECK(cudaMemcpy(got.data(), to.cells, bytes, cudaMemcpyDeviceToHost));
  double worst = 0.0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float want = cells[cell_index(x, y, width)];
      if (x > 0 && y > 0 && x < width - 1 && y < height - 1) {
        want += 0.1f * (cells[cell_index(x - 1, y, width)] + cells[cell_index(x + 1, y, width)] +
                        cells[cell_index(x, y - 1, width)] + cells[cell_index(x, y + 1, width)] - 4.0f * want);
      }
      worst = std::fmax(worst, std::fabs(want - got[cell_index(x, y, width)]));
    }
  }
  std::printf("stencil %dx%d: worst error %.2e, corner %.4f, centre %.4f\n", width, height, worst, got[0],
              got[cell_index(width / 2, height / 2, width)]);
  CUDA_CHECK(cudaFree(from.cells));
  CUDA_CHECK(cudaFree(to.cells));
  return worst < 1e-4 ? 0 : 1;
}

static int test_reduce() {
  const int width = 300, height = 211;
  std::vector<float> cells = ramp(width, height);
  const size_t bytes = cells.size() * sizeof(float);
  Plate plate{width, height, nullptr};
  CUDA_CHECK(cudaMalloc(&plate.cells, bytes));
  CUDA_CHECK(cudaMemcpy(plate.cells, cells.data(), bytes, cudaMemcpyHostToDevice));
  float sum = 0.0f, max = 0.0f;
  plate_stats(plate, &sum, &max);
  double want_sum = 0.0;
  float want_max = 0.0f;
  for (float c : cells) {
    want_sum += c;
    want_max = std::fmax(want_max, c);
  }
  std::printf("reduce %d cells: sum %.1f (host %.1f), max %.1f (host %.1f)\n", width * height, sum, want_sum, max,
              want_max);
  CUDA_CHECK(cudaFree(plate.cells));
  return std::fabs(sum - want_sum) <= 1e-4 * want_sum && max == want_max ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "stencil") == 0) return test_stencil();
  if (argc == 2 && std::strcmp(argv[1], "reduce") == 0) return test_reduce();
  std::fprintf(stderr, "usage: test_heat stencil|reduce\n");
  return 2;
}
