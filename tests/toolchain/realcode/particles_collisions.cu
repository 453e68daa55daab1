// Particle update with the helpers CUDA lacks and HIP has: float atomicMin and float4 operators.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK_CUDA(call) { cudaError_t err = call; if (err != cudaSuccess) { \
    printf("%s at %s:%d\n", cudaGetErrorString(err), __FILE__, __LINE__); exit(1); } }

__device__ float atomicMin(float* addr, float val) {
    int* a = (int*)addr;
    int old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __float_as_int(fminf(val, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}

inline __host__ __device__ void operator-=(float4& a, float4 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; a.w -= b.w; }
inline __host__ __device__ float4 operator*(float4 a, float s) { return make_float4(a.x * s, a.y * s, a.z * s, a.w * s); }

__constant__ float damping[4];

__global__ void damp(float4* v, float* lowest, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 d = v[i] * damping[0];
    v[i] -= d;
    atomicMin(lowest, v[i].x);
}

int main() {
    const int n = 1 << 16;
    float4* v; float* lowest;
    CHECK_CUDA(cudaMalloc(&v, n * sizeof(float4)))
    CHECK_CUDA(cudaMalloc(&lowest, sizeof(float)))
    dim3 threads = make_uint3(256, 1, 1);
    dim3 blocks((n + 255) / 256);
    float host[4] = {0.1f, 0.f, 0.f, 0.f};
    cudaStream_t s;
    cudaGraph_t graph; cudaGraphNode_t copy, kernel;
    cudaGraphExec_t exec;
    CHECK_CUDA(cudaStreamCreate(&s))
    CHECK_CUDA(cudaGraphCreate(&graph, 0))
    CHECK_CUDA(cudaGraphAddMemcpyNodeToSymbol(&copy, graph, nullptr, 0, damping, host, sizeof(host), 0,
                                              cudaMemcpyHostToDevice))
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0))
    CHECK_CUDA(cudaGraphLaunch(exec, s))
    damp<<<blocks, threads, 0, s>>>(v, lowest, n);
    float result;
    CHECK_CUDA(cudaMemcpy(&result, lowest, sizeof(float), cudaMemcpyDeviceToHost))
    printf("%f\n", result);
    (void)kernel;
    return 0;
}
