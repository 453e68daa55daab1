#include <cstdlib>
#include "particle.h"

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  int steps = argc > 2 ? std::atoi(argv[2]) : 100;
  particle* p = new particle[n];
  for (int i = 0; i < n; ++i) {
    p[i].position = vec3(0.001f * i, 0.0f, 1.0f);
    p[i].velocity = vec3(0.5f, 0.25f * (i % 7), -0.125f);
  }
  float total = advance(p, n, steps, 0.01f);
  std::printf("particles %d steps %d\n", n, steps);
  std::printf("distance %.4f\n", total);
  std::printf("last %.5f %.5f %.5f\n", p[n - 1].position.x, p[n - 1].position.y, p[n - 1].position.z);
  delete[] p;
  return 0;
}
