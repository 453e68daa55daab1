#include <hip/hip_runtime.h>
#include <cstdio>

#define HIP_CHECK(x) do { hipError_t e = (x); if (e != hipSuccess) { printf("%s\n", hipGetErrorString(e)); return 1; } } while (0)

__global__ void reduce_max(const float* in, float* out, int n) {
    HIP_DYNAMIC_SHARED(float, smem)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : -1e30f;
    for (int o = warpSize / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_down(v, o));
    v = __shfl(v, 0);
    smem[threadIdx.x] = v;
    __syncthreads();
    int flag = __atomic_load_n(reinterpret_cast<const int*>(out), __ATOMIC_RELAXED);
    if (threadIdx.x == 0 && flag >= 0) atomicMax(out, smem[0]);
}

int main() {
    float *d, *h;
    HIP_CHECK(hipMallocHost((void**)&h, 1024 * sizeof(float)));
    HIP_CHECK(hipMalloc(&d, 1024 * sizeof(float)));
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    printf("%s %d kHz mode %d\n", prop.name, prop.clockRate, prop.computeMode);
    hipLaunchKernelGGL(reduce_max, dim3(4), dim3(256), 256 * sizeof(float), 0, d, d, 1024);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipHostFree(h));
    return 0;
}
