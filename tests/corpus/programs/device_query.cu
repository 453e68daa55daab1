// Prints what a port usually has to re-check: device limits, memory, versions, attributes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static void check(cudaError_t status, const char* what)
{
    if (status != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
        std::exit(1);
    }
}

static int attribute(cudaDeviceAttr attr, int device)
{
    int value = 0;
    check(cudaDeviceGetAttribute(&value, attr, device), "cudaDeviceGetAttribute");
    return value;
}

int main()
{
    int runtime = 0, driver = 0;
    check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
    std::printf("runtime %d.%d, driver %d.%d\n", runtime / 1000, (runtime % 1000) / 10,
                driver / 1000, (driver % 1000) / 10);

    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaErrorNoDevice || count == 0) {
        std::printf("no CUDA device\n");
        return 0;
    }
    check(status, "cudaGetDeviceCount");

    for (int dev = 0; dev < count; ++dev) {
        cudaDeviceProp prop;
        check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
        check(cudaSetDevice(dev), "cudaSetDevice");
        size_t free_bytes = 0, total_bytes = 0;
        check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");

        std::printf("device %d: %s (sm_%d%d)\n", dev, prop.name, prop.major, prop.minor);
        std::printf("  multiprocessors      %d\n", prop.multiProcessorCount);
        std::printf("  warp size            %d\n", prop.warpSize);
        std::printf("  max threads / block  %d\n", prop.maxThreadsPerBlock);
        std::printf("  max block dims       %d x %d x %d\n", prop.maxThreadsDim[0],
                    prop.maxThreadsDim[1], prop.maxThreadsDim[2]);
        std::printf("  shared mem / block   %zu bytes\n", prop.sharedMemPerBlock);
        std::printf("  registers / block    %d\n", prop.regsPerBlock);
        std::printf("  L2 cache             %d bytes\n", prop.l2CacheSize);
        std::printf("  global memory        %zu MiB (%zu MiB free)\n", total_bytes >> 20,
                    free_bytes >> 20);
        std::printf("  clock rate           %d kHz\n", attribute(cudaDevAttrClockRate, dev));
        std::printf("  concurrent kernels   %d\n", attribute(cudaDevAttrConcurrentKernels, dev));
        std::printf("  managed memory       %d\n", attribute(cudaDevAttrManagedMemory, dev));
        std::printf("  cooperative launch   %d\n", attribute(cudaDevAttrCooperativeLaunch, dev));
        std::printf("  max smem optin       %d\n",
                    attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    }

    int current = -1;
    check(cudaGetDevice(&current), "cudaGetDevice");
    std::printf("current device %d\n", current);
    return 0;
}
