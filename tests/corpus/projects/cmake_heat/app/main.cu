// heat_app PLATE STEPS: diffuse the hot spots of PLATE for STEPS steps, print the plate's
// statistics every 10 steps and how long the steps took.
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "heat.cuh"

static bool read_plate(const char* path, int* width, int* height, std::vector<float>* cells) {
  std::ifstream in(path);
  if (!in || !(in >> *width >> *height) || *width < 3 || *height < 3) return false;
  cells->assign(static_cast<size_t>(*width) * *height, 0.0f);
  int x, y;
  float temperature;
  while (in >> x >> y >> temperature) {
    if (x < 0 || y < 0 || x >= *width || y >= *height) return false;
    (*cells)[cell_index(x, y, *width)] = temperature;
  }
  return true;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: heat_app PLATE STEPS\n";
    return 2;
  }
  int width = 0, height = 0;
  std::vector<float> cells;
  if (!read_plate(argv[1], &width, &height, &cells)) {
    std::cerr << argv[1] << ": not a plate\n";
    return 1;
  }
  const int steps = std::stoi(argv[2]);
  Plate a{width, height, nullptr};
  Plate b{width, height, nullptr};
  const size_t bytes = cells.size() * sizeof(float);
  CUDA_CHECK(cudaMalloc(&a.cells, bytes));
  CUDA_CHECK(cudaMalloc(&b.cells, bytes));
  CUDA_CHECK(cudaMemcpy(a.cells, cells.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(b.cells, cells.data(), bytes, cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  for (int step = 1; step <= steps; ++step) {
    step_plate(a, b, 0.2f);
    std::swap(a, b);
    if (step % 10 == 0) {
      float sum = 0.0f, max = 0.0f;
      plate_stats(a, &sum, &max);
      std::printf("step %3d: total heat %.3f, hottest %.4f\n", step, sum, max);
    }
  }
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("%d steps on %dx%d in %.3f ms\n", steps, width, height, ms);
  CUDA_CHECK(cudaFree(a.cells));
  CUDA_CHECK(cudaFree(b.cells));
  return 0;
}
