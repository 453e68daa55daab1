// Fits a batch of small linear models: features projected with GEMM, a batched double-precision
// product, and an axpy/dot update; every result checked against loops on the host.
#include <cmath>
#include <vector>
#include "blas_ops.cuh"

static float feature(int i) { return (float)((i * 37) % 101) / 50.0f - 1.0f; }

int main(int argc, char** argv)
{
    Problem p = {argc > 1 ? atoi(argv[1]) : 96, argc > 2 ? atoi(argv[2]) : 64, argc > 3 ? atoi(argv[3]) : 48,
                 argc > 4 ? atoi(argv[4]) : 4};
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    cublasHandle_t h;
    CHECK_CUBLAS(cublasCreate(&h));
    CHECK_CUBLAS(cublasSetStream(h, stream));

    // single precision: C = A^T B
    std::vector<float> hA(p.k * p.m), hB(p.k * p.n), hC(p.m * p.n);
    for (int i = 0; i < p.k * p.m; ++i) hA[i] = feature(i);
    for (int i = 0; i < p.k * p.n; ++i) hB[i] = feature(3 * i + 1);
    float *A, *B, *C;
    CHECK_CUDA(cudaMalloc(&A, hA.size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&B, hB.size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&C, hC.size() * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(A, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(B, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice));
    project(h, p, A, B, C);
    CHECK_CUDA(cudaMemcpy(hC.data(), C, hC.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double worst = 0, sum = 0;
    for (int j = 0; j < p.n; ++j)
        for (int i = 0; i < p.m; ++i) {
            double want = 0;
            for (int l = 0; l < p.k; ++l) want += (double)hA[i * p.k + l] * hB[j * p.k + l];
            worst = fmax(worst, fabs(want - hC[j * p.m + i]));
            sum += hC[j * p.m + i];
        }
    printf("gemm %dx%dx%d: checksum %.4f, max error %.2e %s\n", p.m, p.n, p.k, sum, worst,
           worst < 1e-3 ? "ok" : "WRONG");
    bool ok = worst < 1e-3;

    // double precision, strided batch: C_b = 0.5 A_b B_b
    size_t a_size = (size_t)p.m * p.k, b_size = (size_t)p.k * p.n, c_size = (size_t)p.m * p.n;
    std::vector<double> dA(a_size * p.batch), dB(b_size * p.batch), dC(c_size * p.batch);
    for (size_t i = 0; i < dA.size(); ++i) dA[i] = feature((int)i + 7);
    for (size_t i = 0; i < dB.size(); ++i) dB[i] = feature(5 * (int)i + 2);
    double *bA, *bB, *bC;
    CHECK_CUDA(cudaMalloc(&bA, dA.size() * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&bB, dB.size() * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&bC, dC.size() * sizeof(double)));
    CHECK_CUDA(cudaMemcpy(bA, dA.data(), dA.size() * sizeof(double), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(bB, dB.data(), dB.size() * sizeof(double), cudaMemcpyHostToDevice));
    project_batched(h, p, bA, bB, bC);
    CHECK_CUDA(cudaMemcpy(dC.data(), bC, dC.size() * sizeof(double), cudaMemcpyDeviceToHost));
    worst = 0;
    sum = 0;
    for (int b = 0; b < p.batch; ++b)
        for (int j = 0; j < p.n; ++j)
            for (int i = 0; i < p.m; ++i) {
                double want = 0;
                for (int l = 0; l < p.k; ++l) want += dA[b * a_size + l * p.m + i] * dB[b * b_size + j * p.k + l];
                double got = dC[b * c_size + j * p.m + i];
                worst = fmax(worst, fabs(0.5 * want - got));
                sum += got;
            }
    printf("strided batch of %d: checksum %.6f, max error %.2e %s\n", p.batch, sum, worst,
           worst < 1e-9 ? "ok" : "WRONG");
    ok = ok && worst < 1e-9;

    // level 1 with a device-side scalar and result
    int len = p.m * p.n;
    std::vector<float> hx(len), hy(len);
    for (int i = 0; i < len; ++i) {
        hx[i] = feature(i) * 0.25f;
        hy[i] = feature(i + 11);
    }
    float *x, *y, *dot;
    CHECK_CUDA(cudaMalloc(&x, len * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&y, len * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dot, sizeof(float)));
    CHECK_CUDA(cudaMemcpy(x, hx.data(), len * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(y, hy.data(), len * sizeof(float), cudaMemcpyHostToDevice));
    update(h, len, 2.0f, x, y, dot);
    float got_dot;
    CHECK_CUDA(cudaMemcpy(&got_dot, dot, sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<float> updated(len);
    CHECK_CUDA(cudaMemcpy(updated.data(), y, len * sizeof(float), cudaMemcpyDeviceToHost));
    double want_dot = 0;
    worst = 0;
    for (int i = 0; i < len; ++i) {
        double want_y = (double)hy[i] + 2.0 * hx[i];
        worst = fmax(worst, fabs(want_y - updated[i]));
        want_dot += (double)hx[i] * want_y;
    }
    double dot_error = fabs(want_dot - got_dot) / fmax(1.0, fabs(want_dot));
    printf("axpy/dot over %d: dot %.4f, max error %.2e, dot error %.2e %s\n", len, got_dot, worst, dot_error,
           worst < 1e-5 && dot_error < 1e-4 ? "ok" : "WRONG");
    ok = ok && worst < 1e-5 && dot_error < 1e-4;

    CHECK_CUBLAS(cublasDestroy(h));
    CHECK_CUDA(cudaStreamDestroy(stream));
    CHECK_CUDA(cudaFree(A));
    CHECK_CUDA(cudaFree(B));
    CHECK_CUDA(cudaFree(C));
    CHECK_CUDA(cudaFree(bA));
    CHECK_CUDA(cudaFree(bB));
    CHECK_CUDA(cudaFree(bC));
    CHECK_CUDA(cudaFree(x));
    CHECK_CUDA(cudaFree(y));
    CHECK_CUDA(cudaFree(dot));
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
