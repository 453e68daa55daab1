// All-pairs n-body step with shared-memory tiles; the physics lives in nbody_math.cuh.
#include <cstdio>
#include <vector>
#include "nbody_math.cuh"

constexpr int kTile = 128;

__global__ void integrate(Body* bodies, int n, float dt)
{
    __shared__ float4 tile[kTile];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 self = i < n ? bodies[i].pos : make_float4(0, 0, 0, 0);
    float3 acc = make_float3(0, 0, 0);

    for (int base = 0; base < n; base += kTile) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? bodies[j].pos : make_float4(0, 0, 0, 0);
        __syncthreads();
        #pragma unroll 8
        for (int k = 0; k < kTile; ++k) acc = pair_acceleration(self, tile[k], acc);
        __syncthreads();
    }
    if (i < n) {
        float4 v = bodies[i].vel;
        v.x += acc.x * dt;
        v.y += acc.y * dt;
        v.z += acc.z * dt;
        bodies[i].vel = v;
        bodies[i].pos.x += v.x * dt;
        bodies[i].pos.y += v.y * dt;
        bodies[i].pos.z += v.z * dt;
    }
}

int main()
{
    const int n = 1024;
    std::vector<Body> h(n);
    for (int i = 0; i < n; ++i) {
        float a = 0.0061f * i;
        h[i].pos = make_float4(cosf(a) * (1 + i % 3), sinf(a) * (1 + i % 5), 0.001f * i, 1.0f / n);
        h[i].vel = make_float4(0, 0, 0, 0);
    }
    Body* d;
    cudaMalloc(&d, n * sizeof(Body));
    cudaMemcpy(d, h.data(), n * sizeof(Body), cudaMemcpyHostToDevice);
    for (int step = 0; step < 10; ++step) {
        integrate<<<(n + kTile - 1) / kTile, kTile>>>(d, n, 0.01f);
        check_launch("integrate");
    }
    cudaMemcpy(h.data(), d, n * sizeof(Body), cudaMemcpyDeviceToHost);
    float3 p = xyz(h[0].pos);
    printf("body 0 at (%f, %f, %f)\n", p.x, p.y, p.z);
    cudaFree(d);
    return 0;
}
