// Host driver: a plain C++ file, built by nvcc (or hipcc) with the rest.
#include "precision.h"
#include "particles.cuh"
#include "bridge.h"
#include <cstdio>

int main() {
    T budget = REAL_MAX;
    Particle p{0.f, 0.f, 1.f, 2.f};
    std::printf("%f %f\n", (double)budget, kinetic(p));
    return solver_run(1024, nullptr);
}
