// Overlaps copies and compute with several streams and pinned memory, timed with events.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                          \
    do {                                                                                  \
        cudaError_t e = (x);                                                              \
        if (e != cudaSuccess) {                                                           \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__,  \
                    __LINE__);                                                            \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

__global__ void scale_offset(float* data, int n, float scale, float offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = data[i];
        for (int k = 0; k < 16; ++k) v = v * scale + offset;
        data[i] = v;
    }
}

int main()
{
    const int kStreams = 4;
    const int n = 1 << 22;
    const int chunk = n / kStreams;
    const size_t chunk_bytes = chunk * sizeof(float);

    float* host = nullptr;
    CHECK(cudaHostAlloc(&host, n * sizeof(float), cudaHostAllocDefault));
    float* host_out = nullptr;
    CHECK(cudaMallocHost(&host_out, n * sizeof(float)));
    for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000) / 1000.0f;

    float* dev = nullptr;
    CHECK(cudaMalloc(&dev, n * sizeof(float)));

    cudaStream_t streams[kStreams];
    for (int s = 0; s < kStreams; ++s) CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));

    cudaEvent_t start, stop, chunk_done[kStreams];
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int s = 0; s < kStreams; ++s) CHECK(cudaEventCreateWithFlags(&chunk_done[s], cudaEventDisableTiming));

    CHECK(cudaEventRecord(start, streams[0]));
    for (int s = 0; s < kStreams; ++s) {
        if (s > 0) CHECK(cudaStreamWaitEvent(streams[s], start, 0));
        float* d = dev + s * chunk;
        CHECK(cudaMemcpyAsync(d, host + s * chunk, chunk_bytes, cudaMemcpyHostToDevice, streams[s]));
        scale_offset<<<(chunk + 255) / 256, 256, 0, streams[s]>>>(d, chunk, 0.99f, 0.01f);
        CHECK(cudaMemcpyAsync(host_out + s * chunk, d, chunk_bytes, cudaMemcpyDeviceToHost, streams[s]));
        CHECK(cudaEventRecord(chunk_done[s], streams[s]));
    }
    for (int s = 1; s < kStreams; ++s) CHECK(cudaStreamWaitEvent(streams[0], chunk_done[s], 0));
    CHECK(cudaEventRecord(stop, streams[0]));
    CHECK(cudaEventSynchronize(stop));

    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("%d streams: %.3f ms, %.2f GB/s\n", kStreams, ms, 2.0 * n * sizeof(float) / ms / 1e6);
    if (cudaStreamQuery(streams[1]) == cudaSuccess) std::printf("stream 1 idle\n");
    std::printf("out[12345] = %f\n", host_out[12345]);

    for (int s = 0; s < kStreams; ++s) {
        CHECK(cudaStreamSynchronize(streams[s]));
        CHECK(cudaStreamDestroy(streams[s]));
        CHECK(cudaEventDestroy(chunk_done[s]));
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(dev));
    CHECK(cudaFreeHost(host));
    CHECK(cudaFreeHost(host_out));
    return 0;
}
