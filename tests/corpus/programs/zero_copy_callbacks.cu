// Mapped (zero-copy) host memory, host callbacks in stream order, and peer access between
// GPUs when more than one is present.
#include <cstdio>
#include <cuda_runtime.h>

struct Progress {
    int batches_done;
};

static void CUDART_CB on_batch_done(void* user)
{
    Progress* p = static_cast<Progress*>(user);
    ++p->batches_done;
}

__global__ void accumulate(const float* mapped_in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += mapped_in[i];
}

int main()
{
    cudaSetDeviceFlags(cudaDeviceMapHost);
    const int n = 1 << 16, batches = 4;

    float* host_mapped = nullptr;
    cudaHostAlloc(&host_mapped, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocPortable);
    for (int i = 0; i < n; ++i) host_mapped[i] = 1.0f;
    float* dev_view = nullptr;
    cudaHostGetDevicePointer(&dev_view, host_mapped, 0);

    float* out;
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(out, 0, n * sizeof(float));

    cudaStream_t stream;
    cudaStreamCreate(&stream);
    Progress progress = {0};
    for (int b = 0; b < batches; ++b) {
        accumulate<<<n / 256, 256, 0, stream>>>(dev_view, out, n);
        cudaLaunchHostFunc(stream, on_batch_done, &progress);
    }
    cudaStreamSynchronize(stream);

    int devices = 0;
    cudaGetDeviceCount(&devices);
    if (devices > 1) {
        int can = 0;
        cudaDeviceCanAccessPeer(&can, 0, 1);
        if (can) {
            cudaDeviceEnablePeerAccess(1, 0);
            float* remote;
            cudaSetDevice(1);
            cudaMalloc(&remote, n * sizeof(float));
            cudaSetDevice(0);
            cudaMemcpyPeer(remote, 1, out, 0, n * sizeof(float));
            cudaFree(remote);
            cudaDeviceDisablePeerAccess(1);
        }
    }

    float first = 0.0f;
    cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("%d callbacks ran, out[0] = %f (expect %d)\n", progress.batches_done, first, batches);
    cudaStreamDestroy(stream);
    cudaFree(out);
    cudaFreeHost(host_mapped);
    return 0;
}
