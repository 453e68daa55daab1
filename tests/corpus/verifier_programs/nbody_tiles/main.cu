// All-pairs n-body with shared-memory tiles; the first step's velocities checked on the host.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "body.cuh"

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  int steps = argc > 2 ? atoi(argv[2]) : 4;
  const float dt = 0.01f;
  std::vector<float4> pos(n);
  std::vector<float3> vel(n);
  for (int i = 0; i < n; i++) {
    float a = 0.37f * i, r = 1.0f + 0.002f * (i % 500);
    pos[i] = make_float4(r * cosf(a), r * sinf(a), 0.01f * ((i % 21) - 10), 1.0f / n * (1 + i % 3));
    vel[i] = make_float3(0.f, 0.f, 0.f);
  }
  Bodies d;
  cudaMalloc(&d.pos, n * sizeof(float4));
  cudaMalloc(&d.vel, n * sizeof(float3));
  cudaMemcpy(d.pos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(d.vel, vel.data(), n * sizeof(float3), cudaMemcpyHostToDevice);

  // One step, checked against the host reference.
  nbody_step(d, n, dt);
  std::vector<float3> v1(n);
  cudaMemcpy(v1.data(), d.vel, n * sizeof(float3), cudaMemcpyDeviceToHost);
  double worst = 0.0;
  for (int i = 0; i < n; i += 37) {
    float a[3];
    body_acceleration_host(reinterpret_cast<const float*>(pos.data()), n, i, a);
    worst = fmax(worst, fabs(a[0] * dt - v1[i].x) + fabs(a[1] * dt - v1[i].y) + fabs(a[2] * dt - v1[i].z));
  }

  auto t0 = std::chrono::steady_clock::now();
  for (int s = 1; s < steps; s++) nbody_step(d, n, dt);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  cudaMemcpy(pos.data(), d.pos, n * sizeof(float4), cudaMemcpyDeviceToHost);
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / (steps > 1 ? steps - 1 : 1);
  double gflops = 20.0 * n * (double)n / (ms * 1e6);

  double cx = 0, cy = 0, cz = 0;
  for (int i = 0; i < n; i++) {
    cx += pos[i].x * pos[i].w;
    cy += pos[i].y * pos[i].w;
    cz += pos[i].z * pos[i].w;
  }
  printf("bodies %d, steps %d\n", n, steps);
  printf("body 0: %.5f %.5f %.5f\n", pos[0].x, pos[0].y, pos[0].z);
  printf("body %d: %.5f %.5f %.5f\n", n / 2, pos[n / 2].x, pos[n / 2].y, pos[n / 2].z);
  printf("center of mass: %.5f %.5f %.5f\n", cx, cy, cz);
  printf("%.3f ms/step, %.2f GFLOPS\n", ms, gflops);
  bool ok = worst < 1e-4;
  printf("first-step check: %s\n", ok ? "PASS" : "FAIL");
  cudaFree(d.pos);
  cudaFree(d.vel);
  return ok ? 0 : 1;
}
