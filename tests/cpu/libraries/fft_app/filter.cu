// Checks a batch of signals through cuFFT: a real round trip (R2C then C2R, which scales by n) and a
// complex forward transform against a direct DFT computed on the host.
#include <cmath>
#include <vector>
#include "spectrum.cuh"

static float sample(int b, int i) { return (float)sin(0.05 * (i + 1) * (b + 1)) + (float)((i * 7 + b) % 5) * 0.1f; }

int main(int argc, char** argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 384;
    int batch = argc > 2 ? atoi(argv[2]) : 3;
    int bins = n / 2 + 1;
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));

    std::vector<float> signal(n * batch);
    for (int b = 0; b < batch; ++b)
        for (int i = 0; i < n; ++i) signal[b * n + i] = sample(b, i);
    float *in, *out;
    cufftComplex* spectrum;
    CHECK_CUDA(cudaMalloc(&in, n * batch * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&out, n * batch * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&spectrum, bins * batch * sizeof(cufftComplex)));
    CHECK_CUDA(cudaMemcpy(in, signal.data(), n * batch * sizeof(float), cudaMemcpyHostToDevice));
    round_trip(n, batch, stream, in, spectrum, out);

    std::vector<cufftComplex> half(bins * batch);
    std::vector<float> back(n * batch);
    CHECK_CUDA(cudaMemcpy(half.data(), spectrum, half.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(back.data(), out, back.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double spectrum_error = 0, trip_error = 0, energy = 0;
    for (int b = 0; b < batch; ++b) {
        for (int k = 0; k < bins; ++k) {
            double re = 0, im = 0;
            for (int i = 0; i < n; ++i) {
                double angle = -2.0 * M_PI * (double)((long long)k * i % n) / n;
                re += signal[b * n + i] * cos(angle);
                im += signal[b * n + i] * sin(angle);
            }
            spectrum_error = fmax(spectrum_error, hypot(re - half[b * bins + k].x, im - half[b * bins + k].y));
            energy += re * re + im * im;
        }
        for (int i = 0; i < n; ++i)
            trip_error = fmax(trip_error, fabs(back[b * n + i] / n - signal[b * n + i]));
    }
    printf("R2C %d x %d: spectral energy %.3f, error %.2e; C2R round trip error %.2e %s\n", n, batch, energy,
           spectrum_error, trip_error, spectrum_error < 1e-2 && trip_error < 1e-4 ? "ok" : "WRONG");
    bool ok = spectrum_error < 1e-2 && trip_error < 1e-4;

    std::vector<cufftComplex> z(n * batch), Z(n * batch);
    for (int i = 0; i < n * batch; ++i) {
        z[i].x = sample(i % 4, i);
        z[i].y = (float)((i * 3) % 11) / 11.0f - 0.5f;
    }
    cufftComplex *dz, *dZ;
    CHECK_CUDA(cudaMalloc(&dz, n * batch * sizeof(cufftComplex)));
    CHECK_CUDA(cudaMalloc(&dZ, n * batch * sizeof(cufftComplex)));
    CHECK_CUDA(cudaMemcpy(dz, z.data(), z.size() * sizeof(cufftComplex), cudaMemcpyHostToDevice));
    complex_forward(n, batch, stream, dz, dZ);
    CHECK_CUDA(cudaMemcpy(Z.data(), dZ, Z.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    double c2c_error = 0, dc = 0;
    for (int b = 0; b < batch; ++b)
        for (int k = 0; k < n; ++k) {
            double re = 0, im = 0;
            for (int i = 0; i < n; ++i) {
                double angle = -2.0 * M_PI * (double)((long long)k * i % n) / n;
                const cufftComplex& v = z[b * n + i];
                re += v.x * cos(angle) - v.y * sin(angle);
                im += v.x * sin(angle) + v.y * cos(angle);
            }
            c2c_error = fmax(c2c_error, hypot(re - Z[b * n + k].x, im - Z[b * n + k].y));
            if (k == 0) dc += re;
        }
    printf("C2C %d x %d: DC sum %.4f, error %.2e %s\n", n, batch, dc, c2c_error, c2c_error < 1e-2 ? "ok" : "WRONG");
    ok = ok && c2c_error < 1e-2;

    CHECK_CUDA(cudaFree(in));
    CHECK_CUDA(cudaFree(out));
    CHECK_CUDA(cudaFree(spectrum));
    CHECK_CUDA(cudaFree(dz));
    CHECK_CUDA(cudaFree(dZ));
    CHECK_CUDA(cudaStreamDestroy(stream));
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
