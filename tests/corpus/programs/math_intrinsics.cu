// Softmax and a few physics formulas written with fast-math intrinsics and libdevice calls.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void softmax_rows(const float* logits, float* probs, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* row = logits + r * cols;
    float peak = -INFINITY;
    for (int c = 0; c < cols; ++c) peak = fmaxf(peak, row[c]);
    float denom = 0.0f;
    for (int c = 0; c < cols; ++c) denom += __expf(row[c] - peak);
    float inv = __frcp_rn(denom);
    for (int c = 0; c < cols; ++c) probs[r * cols + c] = __expf(row[c] - peak) * inv;
}

__global__ void wave_field(float* out, int n, float k, float omega, float t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = 0.01f * i;
    float s, c;
    sincosf(k * x - omega * t, &s, &c);
    float fast = __sinf(x) * __cosf(x);
    float decay = __fdividef(1.0f, 1.0f + x * x);
    float r = rsqrtf(1.0f + x);
    float logit = __logf(1.0f + x) + log1pf(x) + __log2f(2.0f + x);
    float sat = __saturatef(fast);
    out[i] = fmaf(s, decay, c * r) + __fmul_rn(logit, sat) + erff(x) + sqrtf(x) + __powf(x, 0.5f);
}

__global__ void angles(const float2* v, float* theta, float* len, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        theta[i] = atan2f(v[i].y, v[i].x);
        len[i] = hypotf(v[i].x, v[i].y) + __fsqrt_rn(fabsf(v[i].x)) + exp2f(-fabsf(v[i].y));
    }
}

int main()
{
    const int rows = 128, cols = 10, n = 1 << 14;
    float *d_logits, *d_probs, *d_wave, *d_theta, *d_len;
    float2* d_vec;
    cudaMalloc(&d_logits, rows * cols * sizeof(float));
    cudaMalloc(&d_probs, rows * cols * sizeof(float));
    cudaMalloc(&d_wave, n * sizeof(float));
    cudaMalloc(&d_vec, n * sizeof(float2));
    cudaMalloc(&d_theta, n * sizeof(float));
    cudaMalloc(&d_len, n * sizeof(float));
    cudaMemset(d_logits, 0, rows * cols * sizeof(float));
    cudaMemset(d_vec, 0, n * sizeof(float2));

    softmax_rows<<<1, rows>>>(d_logits, d_probs, rows, cols);
    wave_field<<<n / 256, 256>>>(d_wave, n, 2.0f, 3.0f, 0.5f);
    angles<<<n / 256, 256>>>(d_vec, d_theta, d_len, n);

    float p0 = 0.0f;
    cudaMemcpy(&p0, d_probs, sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("uniform softmax p0 = %f (expect 0.1)\n", p0);
    cudaFree(d_logits);
    cudaFree(d_probs);
    cudaFree(d_wave);
    cudaFree(d_vec);
    cudaFree(d_theta);
    cudaFree(d_len);
    return std::fabs(p0 - 0.1f) > 1e-4f;
}
