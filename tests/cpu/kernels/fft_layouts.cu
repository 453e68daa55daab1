// cuFFT plans of every shape and layout against a direct DFT (tests/cpu/test_gpu_libraries.py): a 2-D
// in-place real pair, a 3-D double inverse, a batched D2Z with an advanced layout, and refused plans.
#include <cufft.h>
#include <cstdio>
#include <cmath>
#include <vector>
#include <complex>
typedef std::complex<double> C;
// naive multi-d DFT, row-major dims, sign -1 forward
static std::vector<C> dft(const std::vector<C>& x, std::vector<int> d, int sign) {
  int n = 1; for (int v : d) n *= v;
  std::vector<C> y(n);
  for (int o = 0; o < n; ++o) {
    C s = 0;
    for (int i = 0; i < n; ++i) {
      double ph = 0; int oo = o, ii = i;
      for (int a = (int)d.size() - 1; a >= 0; --a) { ph += (double)((oo % d[a]) * (ii % d[a])) / d[a]; oo /= d[a]; ii /= d[a]; }
      s += x[i] * std::polar(1.0, sign * 2 * M_PI * ph);
    }
    y[o] = s;
  }
  return y;
}
int main() {
  double worst = 0;
  // 2D R2C in-place 6x10, and Z2Z 3D 4x3x5 double, D2Z 1D batch with advanced layout
  { int nx = 6, ny = 10, nyc = ny / 2 + 1;
    std::vector<float> buf(nx * 2 * nyc);
    std::vector<C> x(nx * ny);
    for (int i = 0; i < nx; ++i) for (int j = 0; j < ny; ++j) { float v = sinf(i * 1.3f + j * 0.7f); buf[i * 2 * nyc + j] = v; x[i * ny + j] = v; }
    cufftHandle p; if (cufftPlan2d(&p, nx, ny, CUFFT_R2C) != CUFFT_SUCCESS) return 9;
    cufftExecR2C(p, buf.data(), (cufftComplex*)buf.data());
    auto y = dft(x, {nx, ny}, -1);
    cufftComplex* c = (cufftComplex*)buf.data();
    for (int i = 0; i < nx; ++i) for (int k = 0; k < nyc; ++k) worst = fmax(worst, std::abs(y[i * ny + k] - C(c[i * nyc + k].x, c[i * nyc + k].y)));
    printf("2d r2c inplace %g\n", worst);
    cufftHandle q; cufftPlan2d(&q, nx, ny, CUFFT_C2R);
    cufftExecC2R(q, c, buf.data());
    double w2 = 0; for (int i = 0; i < nx; ++i) for (int j = 0; j < ny; ++j) w2 = fmax(w2, fabs(buf[i * 2 * nyc + j] / (nx * ny) - x[i * ny + j].real()));
    printf("2d c2r inplace roundtrip %g\n", w2);
    cufftDestroy(p); cufftDestroy(q);
  }
  { std::vector<int> d = {4, 3, 5}; int n = 60;
    std::vector<cufftDoubleComplex> z(n); std::vector<C> x(n);
    for (int i = 0; i < n; ++i) { z[i].x = cos(i * 0.3); z[i].y = sin(i * 0.11); x[i] = C(z[i].x, z[i].y); }
    cufftHandle p; cufftPlan3d(&p, 4, 3, 5, CUFFT_Z2Z);
    cufftExecZ2Z(p, z.data(), z.data(), CUFFT_INVERSE);
    auto y = dft(x, d, +1); double w = 0;
    for (int i = 0; i < n; ++i) w = fmax(w, std::abs(y[i] - C(z[i].x, z[i].y)));
    printf("3d z2z inverse %g\n", w);
  }
  { // D2Z 1D n=12 batch 3, input stride 2 dist 30, output stride 1 dist 8 (advanced)
    int n = 12, b = 3; int dims[1] = {n}; int inem[1] = {15}, onem[1] = {8};
    std::vector<double> in(90); for (int i = 0; i < 90; ++i) in[i] = sin(i * 0.37);
    std::vector<cufftDoubleComplex> out(24);
    cufftHandle p; int r = cufftPlanMany(&p, 1, dims, inem, 2, 30, onem, 1, 8, CUFFT_D2Z, b);
    cufftExecD2Z(p, in.data(), out.data());
    double w = 0;
    for (int bb = 0; bb < b; ++bb) { std::vector<C> x(n); for (int i = 0; i < n; ++i) x[i] = in[bb * 30 + i * 2];
      auto y = dft(x, {n}, -1); for (int k = 0; k <= n / 2; ++k) w = fmax(w, std::abs(y[k] - C(out[bb * 8 + k].x, out[bb * 8 + k].y))); }
    printf("d2z advanced %d %g\n", r, w);
    cufftHandle bad; printf("bad plan %d, bad exec %d, bad type exec %d\n", cufftPlan1d(&bad, 0, CUFFT_C2C, 1), cufftExecC2C(12345, 0, 0, CUFFT_FORWARD), cufftExecR2C(p, 0, 0));
  }
}
