// A second helper, reached only through helper_cuda.h's angle include.
#pragma once
#include <chrono>

inline double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}
