// The driver API side of a port: explicit init, primary context, device queries and raw
// device memory, mixed with a runtime-launched kernel.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

#define DRV(call)                                                                  \
    do {                                                                           \
        CUresult r_ = (call);                                                      \
        if (r_ != CUDA_SUCCESS) {                                                  \
            const char* msg = nullptr;                                             \
            cuGetErrorString(r_, &msg);                                            \
            std::printf("%s failed: %s\n", #call, msg ? msg : "unknown");          \
            return 1;                                                              \
        }                                                                          \
    } while (0)

__global__ void iota(int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}

int main()
{
    DRV(cuInit(0));
    int version = 0, count = 0;
    DRV(cuDriverGetVersion(&version));
    DRV(cuDeviceGetCount(&count));
    if (count == 0) return 0;

    CUdevice dev;
    DRV(cuDeviceGet(&dev, 0));
    char name[256];
    DRV(cuDeviceGetName(name, sizeof(name), dev));
    size_t total = 0;
    DRV(cuDeviceTotalMem(&total, dev));
    int sms = 0, warp = 0;
    DRV(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    DRV(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    std::printf("driver %d, %s, %zu MiB, %d SMs, warp %d\n", version, name, total >> 20, sms, warp);

    CUcontext ctx;
    DRV(cuDevicePrimaryCtxRetain(&ctx, dev));
    DRV(cuCtxSetCurrent(ctx));

    const int n = 1000;
    CUdeviceptr buf;
    DRV(cuMemAlloc(&buf, n * sizeof(int)));
    DRV(cuMemsetD32(buf, 0, n));
    iota<<<(n + 127) / 128, 128>>>(reinterpret_cast<int*>(buf), n);
    DRV(cuCtxSynchronize());
    int host[n];
    DRV(cuMemcpyDtoH(host, buf, n * sizeof(int)));
    host[0] = -1;
    DRV(cuMemcpyHtoD(buf, host, sizeof(int)));
    size_t free_b = 0, total_b = 0;
    DRV(cuMemGetInfo(&free_b, &total_b));
    std::printf("host[999] = %d, %zu MiB free\n", host[999], free_b >> 20);
    DRV(cuMemFree(buf));
    DRV(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
