// Capture a short kernel pipeline into a CUDA graph once, then replay it many times.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(call)                                                                 \
    do {                                                                         \
        cudaError_t rc = call;                                                   \
        if (rc != cudaSuccess) {                                                 \
            printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(rc));    \
            return 1;                                                            \
        }                                                                        \
    } while (0)

__global__ void add_scalar(float* x, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += s;
}

__global__ void scale(float* x, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

int main()
{
    const int n = 1 << 16, replays = 100;
    float* d;
    CK(cudaMalloc(&d, n * sizeof(float)));
    CK(cudaMemset(d, 0, n * sizeof(float)));

    cudaStream_t stream;
    CK(cudaStreamCreate(&stream));
    cudaGraph_t graph;
    cudaGraphExec_t exec;

    CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    add_scalar<<<n / 256, 256, 0, stream>>>(d, n, 1.0f);
    scale<<<n / 256, 256, 0, stream>>>(d, n, 0.5f);
    CK(cudaMemsetAsync(d, 0, sizeof(float), stream));
    CK(cudaStreamEndCapture(stream, &graph));

    size_t nodes = 0;
    CK(cudaGraphGetNodes(graph, nullptr, &nodes));
    CK(cudaGraphInstantiate(&exec, graph, 0));

    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaEventRecord(t0, stream));
    for (int r = 0; r < replays; ++r) CK(cudaGraphLaunch(exec, stream));
    CK(cudaEventRecord(t1, stream));
    CK(cudaStreamSynchronize(stream));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, t0, t1));

    float h[2];
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    printf("%zu nodes, %d replays in %.3f ms; x[0]=%f x[1]=%f (expect 0, ~1)\n", nodes, replays, ms, h[0], h[1]);

    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    CK(cudaEventDestroy(t0));
    CK(cudaEventDestroy(t1));
    CK(cudaStreamDestroy(stream));
    CK(cudaFree(d));
    return 0;
}
