// The kernels of one pipeline step and the function that queues them on a stream.
#include "pipeline.cuh"

__global__ void halve_plus_one(float* x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 0.5f * x[i] + 1.0f;
}

__global__ void square_into(const float* x, float* y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}

static void CUDART_CB log_step(void* data)
{
    StepLog* log = static_cast<StepLog*>(data);
    double sum = 0.0;
    for (int i = 0; i < log->n; ++i) sum += log->squares[i];
    log->last_sum = sum;
    ++log->steps;
}

void enqueue_step(float* d_x, float* d_y, float* h_y, int n, StepLog* log, cudaStream_t stream)
{
    const int blocks = (n + PIPELINE_THREADS - 1) / PIPELINE_THREADS;
    halve_plus_one<<<blocks, PIPELINE_THREADS, 0, stream>>>(d_x, n);
    square_into<<<blocks, PIPELINE_THREADS, 0, stream>>>(d_x, d_y, n);
    CHECK(cudaMemcpyAsync(h_y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaLaunchHostFunc(stream, log_step, log));
}
