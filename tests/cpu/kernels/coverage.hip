// The HIP side of coverage.cu's launch and API checks, for the CPU runtime (wave 32 or 64, AMD or
// NVIDIA platform) and for nvcc through the HIP-on-NVIDIA shim (tests/cpu/test_runtime_coverage.py).
#include <cstdio>
#include <hip/hip_runtime.h>

__global__ void count_launch(int* hits, int n) { atomicAdd(hits, n); }
__global__ void no_arguments() {}
template <typename T, int N>
__global__ void set_to(T* d) { d[threadIdx.x] = N; }

int main() {
  int* hits;
  hipMalloc(&hits, sizeof(int));
  hipMemset(hits, 0, sizeof(int));
  int n = 1;
  hipLaunchKernelGGL(count_launch, dim3(2), dim3(32), 0, 0, hits, n++);
  count_launch<<<2, 32>>>(hits, n++);
  int h = 0;
  hipMemcpy(&h, hits, sizeof(int), hipMemcpyDeviceToHost);
  printf("launch_hits=%d n=%d\n", h, n);
  hipLaunchKernelGGL(no_arguments, dim3(1), dim3(32), 0, 0);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(set_to<int, 7>), dim3(1), dim3(1), 0, 0, hits);
  hipMemcpy(&h, hits, sizeof(int), hipMemcpyDeviceToHost);
  printf("ggl_forms=%s,%d\n", hipGetErrorName(hipGetLastError()), h);
  int mode = -1;
  hipError_t e = hipDeviceGetAttribute(&mode, hipDeviceAttributeComputeMode, 0);
  printf("compute_mode=%s,%d\n", hipGetErrorName(e), mode);
  printf("assert_error=%s\n", hipGetErrorString(hipErrorAssert));
#if defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
  printf("platform=amd\n");
#elif defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_AMD__)
  printf("platform=nvidia\n");
#else
  printf("platform=both or none\n");
#endif
  hipFree(hits);
  return 0;
}
