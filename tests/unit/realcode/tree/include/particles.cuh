/* Particle kernels: device helpers used by the solver (.cu) and the host driver (.cpp).
   Like many CUDA headers it includes nothing: nvcc provides cuda_runtime.h. */
#ifndef PARTICLES_CUH
#define PARTICLES_CUH

struct Particle { float x, y, vx, vy; };

__host__ __device__ inline float kinetic(const Particle& p) { return 0.5f * (p.vx * p.vx + p.vy * p.vy); }

__device__ inline void accumulate(float* total, float v) { atomicAdd_system(total, v); }

void launch_step(Particle* d, int n, cudaStream_t stream);

#endif
