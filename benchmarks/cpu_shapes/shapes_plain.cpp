// The kernels of shapes.cu written as plain C++ loops, one thread: the reference the CPU runtime's
// time is measured against. Same arguments, same output.
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define RADIUS 3
#define BINS 256

// CPU time of the whole process (every worker): on one worker, the launch's cost whatever else
// the machine runs.
static double cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const char* shape = argv[1];
  int n = atoi(argv[2]), repeat = atoi(argv[3]);
  std::vector<float> x(n), y(n);
  std::vector<unsigned> u(n);
  unsigned long long total = 0;
  unsigned bins[BINS];
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 17);
    u[i] = (unsigned)i * 2654435761u >> 7;
  }
  double best = 1e30, best_cpu = 1e30, check = 0;
  for (int r = 0; r < repeat; ++r) {
    for (int i = 0; i < n; ++i) y[i] = 1.0f;
    total = 0;
    memset(bins, 0, sizeof bins);
    auto start = std::chrono::steady_clock::now();
    double cpu_start = cpu_ms();
    if (!strcmp(shape, "elementwise")) {
      for (int i = 0; i < n; ++i) y[i] = 2.0f * x[i] + y[i];
    } else if (!strcmp(shape, "stencil")) {
      for (int i = RADIUS; i < n - RADIUS; ++i) {
        float sum = 0;
        for (int o = -RADIUS; o <= RADIUS; ++o) sum += x[i + o] * (o + RADIUS + 1);
        y[i] = sum;
      }
    } else if (!strcmp(shape, "reduction")) {
      for (int i = 0; i < n; ++i) total += u[i];
    } else {
      for (int i = 0; i < n; ++i) ++bins[u[i] % BINS];
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    double cpu = cpu_ms() - cpu_start;
    if (ms < best) best = ms;
    if (cpu < best_cpu) best_cpu = cpu;
  }
  if (!strcmp(shape, "reduction")) check = (double)total;
  else if (!strcmp(shape, "histogram")) for (int b = 0; b < BINS; ++b) check += (double)bins[b] * (b + 1);
  else for (int i = 0; i < n; ++i) check += y[i];
  printf("kernel_ms=%.3f kernel_cpu_ms=%.3f check=%.17g\n", best, best_cpu, check);
  return 0;
}
