// Monte Carlo pi and normal statistics, both cuRAND APIs: the host API (MRG32k3a) here, the device
// API in mc_kernels.cu. Usage: mc [blocks] [threads] [samples per thread]. Each estimate is checked
// against its analytic value (pi; the normal's mean, deviation and one-sigma mass).
#include <cmath>
#include <vector>
#include "mc.cuh"

static bool near(const char* what, double value, double expected, double tolerance)
{
    const bool ok = std::fabs(value - expected) <= tolerance;
    std::printf("%-22s %.6f (expected %.6f +- %.4f) %s\n", what, value, expected, tolerance, ok ? "ok" : "FAIL");
    return ok;
}

int main(int argc, char** argv)
{
    RunShape shape{argc > 1 ? std::atoi(argv[1]) : 64, argc > 2 ? std::atoi(argv[2]) : 128,
                   argc > 3 ? std::atoi(argv[3]) : 4096};
    if (shape.blocks <= 0 || shape.threads <= 0 || shape.samples <= 0 || shape.samples % 4 != 0) {
        std::fprintf(stderr, "usage: %s [blocks] [threads] [samples per thread, a multiple of 4]\n", argv[0]);
        return 2;
    }
    const double samples = double(shape.blocks) * shape.threads * shape.samples;
    bool ok = true;

    // host API: uniform doubles in pairs, then normals with a mean and a deviation
    const size_t n = size_t(shape.blocks) * shape.threads * 16;
    double* d_uniform = nullptr;
    float* d_normal = nullptr;
    CUDA_CHECK(cudaMalloc(&d_uniform, 2 * n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_normal, n * sizeof(float)));
    curandGenerator_t gen;
    CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_MRG32K3A));
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 20240601ULL));
    CURAND_CHECK(curandSetGeneratorOffset(gen, 3));
    CURAND_CHECK(curandGenerateUniformDouble(gen, d_uniform, 2 * n));
    CURAND_CHECK(curandGenerateNormal(gen, d_normal, n, 2.0f, 0.5f));
    std::vector<double> uniform(2 * n);
    std::vector<float> normal(n);
    CUDA_CHECK(cudaMemcpy(uniform.data(), d_uniform, 2 * n * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(normal.data(), d_normal, n * sizeof(float), cudaMemcpyDeviceToHost));
    CURAND_CHECK(curandDestroyGenerator(gen));
    size_t inside = 0;
    for (size_t i = 0; i < n; ++i) inside += uniform[2 * i] * uniform[2 * i] + uniform[2 * i + 1] * uniform[2 * i + 1] <= 1.0;
    double sum = 0, square = 0;
    for (float x : normal) {
        sum += x;
        square += double(x) * x;
    }
    const double mean = sum / n, deviation = std::sqrt(square / n - mean * mean);
    std::printf("host api: %zu of %zu pairs inside, first normal %.6f\n", inside, n, normal[0]);
    ok &= near("host pi", 4.0 * inside / n, M_PI, 6.0 * std::sqrt(M_PI * (4 - M_PI) / n));
    ok &= near("host normal mean", mean, 2.0, 6.0 * 0.5 / std::sqrt(double(n)));
    ok &= near("host normal deviation", deviation, 0.5, 0.01);

    // device API: XORWOW pi, Philox normal histogram
    unsigned long long* d_hits = nullptr;
    unsigned int* d_bins = nullptr;
    CUDA_CHECK(cudaMalloc(&d_hits, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_bins, kBins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(d_hits, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_bins, 0, kBins * sizeof(unsigned int)));
    estimate_pi_device(shape, 1234ULL, d_hits);
    normal_histogram_device(shape, 42ULL, d_bins);
    unsigned long long hits = 0;
    unsigned int bins[kBins];
    CUDA_CHECK(cudaMemcpy(&hits, d_hits, sizeof(hits), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(bins, d_bins, sizeof(bins), cudaMemcpyDeviceToHost));
    std::printf("device api: %llu of %.0f points inside\n", hits, samples);
    ok &= near("device pi", 4.0 * hits / samples, M_PI, 6.0 * std::sqrt(M_PI * (4 - M_PI) / samples));
    double one_sigma = 0;
    for (int b = 0; b < kBins; ++b) {
        const double lo = (b - kBins / 2) * kBinWidth;
        const double expected = 0.5 * (std::erf((lo + kBinWidth) / std::sqrt(2.0)) - std::erf(lo / std::sqrt(2.0)));
        std::printf("bin [%5.2f, %5.2f) %8u  (expected %.0f)\n", lo, lo + kBinWidth, bins[b], expected * samples);
        if (lo >= -1.0 && lo < 1.0) one_sigma += bins[b];
    }
    ok &= near("device one-sigma mass", one_sigma / samples, std::erf(1.0 / std::sqrt(2.0)),
               6.0 * std::sqrt(0.6827 * 0.3173 / samples));
    CUDA_CHECK(cudaFree(d_uniform));
    CUDA_CHECK(cudaFree(d_normal));
    CUDA_CHECK(cudaFree(d_hits));
    CUDA_CHECK(cudaFree(d_bins));
    std::printf("%s\n", ok ? "all estimates within tolerance" : "ESTIMATE OUT OF TOLERANCE");
    return ok ? 0 : 1;
}
