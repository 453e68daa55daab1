// cuFFT on the CPU runtime (hipFFT maps its names onto these, so an original and its translation run
// the same FFT). Written here rather than linked from FFTW: a radix-2 FFT, Bluestein's algorithm for
// other lengths, in double precision whatever the plan's (so a float transform is as exact as the
// data allow), with no package to install. cuFFT's conventions: the inverse is unnormalized, a real
// transform's complex side holds n/2+1 elements in its last dimension, the first dimension is the
// slowest, PlanMany's basic layout (no embed arrays) and advanced layout (embed, stride, distance),
// and an in-place real transform's real rows padded to 2*(n/2+1). Device memory is host memory and
// launches are synchronous, so a plan's stream orders nothing. What is not here is refused by name
// before building (cass_lsp/cpu/refuse.py).
#pragma once
#include <cmath>
#include <complex>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime.hpp"
#include "complex.hpp"
#include "library_types.hpp"

typedef int cufftHandle;
typedef float cufftReal;
typedef double cufftDoubleReal;
// cufft.h includes cuComplex.h: its complex types are cuComplex's
typedef cuComplex cufftComplex;
typedef cuDoubleComplex cufftDoubleComplex;
typedef enum cufftResult_t {
  CUFFT_SUCCESS = 0,
  CUFFT_INVALID_PLAN = 1,
  CUFFT_ALLOC_FAILED = 2,
  CUFFT_INVALID_TYPE = 3,
  CUFFT_INVALID_VALUE = 4,
  CUFFT_INTERNAL_ERROR = 5,
  CUFFT_EXEC_FAILED = 6,
  CUFFT_SETUP_FAILED = 7,
  CUFFT_INVALID_SIZE = 8,
  CUFFT_UNALIGNED_DATA = 9,
  CUFFT_INCOMPLETE_PARAMETER_LIST = 10,
  CUFFT_INVALID_DEVICE = 11,
  CUFFT_PARSE_ERROR = 12,
  CUFFT_NO_WORKSPACE = 13,
  CUFFT_NOT_IMPLEMENTED = 14,
  CUFFT_LICENSE_ERROR = 15,
  CUFFT_NOT_SUPPORTED = 16
} cufftResult;
typedef enum cufftType_t {
  CUFFT_R2C = 0x2a,
  CUFFT_C2R = 0x2c,
  CUFFT_C2C = 0x29,
  CUFFT_D2Z = 0x6a,
  CUFFT_Z2D = 0x6c,
  CUFFT_Z2Z = 0x69
} cufftType;
#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1
#define CUFFT_VERSION 11000

namespace cass {
namespace fft {

using cplx = std::complex<double>;
constexpr double kPi = 3.14159265358979323846264338327950288;

// One length's forward transform: radix-2 in place for a power of two, else Bluestein's chirp
// convolution through a power-of-two transform of at least 2n-1 points.
class Line {
 public:
  explicit Line(int n) : n_(n) {
    if (is_power_of_two(n)) {
      twiddles_ = roots(n);
      return;
    }
    int m = 1;
    while (m < 2 * n - 1) m <<= 1;
    inner_ = std::make_unique<Line>(m);
    chirp_.resize(n);
    for (long long k = 0; k < n; ++k) {
      long long square = (k * k) % (2LL * n);  // exact: the angle's period is 2n
      chirp_[k] = std::polar(1.0, -kPi * static_cast<double>(square) / n);
    }
    kernel_.assign(m, cplx(0));
    kernel_[0] = std::conj(chirp_[0]);
    for (int k = 1; k < n; ++k) kernel_[k] = kernel_[m - k] = std::conj(chirp_[k]);
    inner_->forward(kernel_.data());
  }

  void forward(cplx* x) const {
    if (inner_ == nullptr) {
      radix2(x);
      return;
    }
    int m = static_cast<int>(kernel_.size());
    std::vector<cplx> a(m, cplx(0));
    for (int k = 0; k < n_; ++k) a[k] = x[k] * chirp_[k];
    inner_->forward(a.data());
    for (int k = 0; k < m; ++k) a[k] *= kernel_[k];
    // the inverse through the forward transform: conj(F(conj(a))) / m
    for (cplx& v : a) v = std::conj(v);
    inner_->forward(a.data());
    for (int k = 0; k < n_; ++k) x[k] = std::conj(a[k]) / static_cast<double>(m) * chirp_[k];
  }

  void inverse(cplx* x) const {  // unnormalized, as cuFFT's
    for (int k = 0; k < n_; ++k) x[k] = std::conj(x[k]);
    forward(x);
    for (int k = 0; k < n_; ++k) x[k] = std::conj(x[k]);
  }

 private:
  static bool is_power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }
  static std::vector<cplx> roots(int n) {
    std::vector<cplx> w(n / 2 > 0 ? n / 2 : 1);
    for (int k = 0; k < n / 2; ++k) w[k] = std::polar(1.0, -2.0 * kPi * k / n);
    return w;
  }
  void radix2(cplx* x) const {
    for (int i = 1, j = 0; i < n_; ++i) {
      int bit = n_ >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(x[i], x[j]);
    }
    for (int len = 2; len <= n_; len <<= 1) {
      int step = n_ / len;
      for (int i = 0; i < n_; i += len)
        for (int k = 0; k < len / 2; ++k) {
          cplx u = x[i + k], v = x[i + k + len / 2] * twiddles_[k * step];
          x[i + k] = u + v;
          x[i + k + len / 2] = u - v;
        }
    }
  }

  int n_;
  std::vector<cplx> twiddles_;
  std::unique_ptr<Line> inner_;
  std::vector<cplx> chirp_, kernel_;
};

struct Layout {
  std::vector<long long> embed;  // the row-major extents elements are placed in (empty: the dims)
  long long stride = 1, dist = 0;
};

struct Plan {
  cufftType type = CUFFT_C2C;
  std::vector<int> dims;  // slowest first
  int batch = 1;
  bool advanced = false;  // embed arrays were given: their layouts, else cuFFT's basic layout
  Layout in, out;
  std::vector<std::unique_ptr<Line>> lines;  // one per dimension
  cudaStream_t stream = nullptr;
};

struct Registry {
  std::mutex lock;
  std::map<int, std::unique_ptr<Plan>> plans;
  int next = 1;
};
inline Registry& registry() {
  static Registry r;
  return r;
}
inline Plan* find(cufftHandle h) {
  std::lock_guard<std::mutex> g(registry().lock);
  auto it = registry().plans.find(h);
  return it == registry().plans.end() || it->second == nullptr ? nullptr : it->second.get();
}

inline bool real_input(cufftType t) { return t == CUFFT_R2C || t == CUFFT_D2Z; }
inline bool real_output(cufftType t) { return t == CUFFT_C2R || t == CUFFT_Z2D; }
inline bool valid_type(cufftType t) {
  return t == CUFFT_R2C || t == CUFFT_C2R || t == CUFFT_C2C || t == CUFFT_D2Z || t == CUFFT_Z2D || t == CUFFT_Z2Z;
}

// The extents of a side's elements: the complex side of a real transform has n/2+1 in its last
// dimension.
inline std::vector<long long> logical(const Plan& p, bool real_side) {
  std::vector<long long> e(p.dims.begin(), p.dims.end());
  bool halved = !real_side && (real_input(p.type) || real_output(p.type));
  if (halved) e.back() = e.back() / 2 + 1;
  return e;
}

inline cufftResult make(cufftHandle h, int rank, const int* n, const int* inembed, int istride, int idist,
                        const int* onembed, int ostride, int odist, cufftType type, int batch) {
  Plan* p = find(h);
  if (p == nullptr) return CUFFT_INVALID_PLAN;
  if (!valid_type(type)) return CUFFT_INVALID_TYPE;
  if (rank < 1 || rank > 3 || batch < 1 || n == nullptr) return CUFFT_INVALID_VALUE;
  for (int i = 0; i < rank; ++i)
    if (n[i] < 1) return CUFFT_INVALID_SIZE;
  p->type = type;
  p->dims.assign(n, n + rank);
  p->batch = batch;
  p->advanced = inembed != nullptr && onembed != nullptr;
  if (p->advanced) {
    if (istride < 1 || ostride < 1) return CUFFT_INVALID_VALUE;
    p->in = Layout{std::vector<long long>(inembed, inembed + rank), istride, idist};
    p->out = Layout{std::vector<long long>(onembed, onembed + rank), ostride, odist};
  }
  p->lines.clear();
  for (int d : p->dims) p->lines.push_back(std::make_unique<Line>(d));
  return CUFFT_SUCCESS;
}

// Where element ``index`` (row-major over ``extents``) of batch ``b`` lies, in elements.
inline long long offset(const Layout& layout, const std::vector<long long>& extents, long long index, long long b) {
  long long place = 0, rest = index, scale = 1;
  for (int d = static_cast<int>(extents.size()) - 1; d >= 0; --d) {
    long long coordinate = rest % extents[d];
    rest /= extents[d];
    place += coordinate * scale;
    scale *= layout.embed[d];
  }
  return b * layout.dist + place * layout.stride;
}

inline long long count(const std::vector<long long>& e) {
  long long c = 1;
  for (long long v : e) c *= v;
  return c;
}

// A side's layout: the plan's advanced one, or the basic one (contiguous, rows of an in-place real
// side padded to the complex side's length).
inline Layout side_layout(const Plan& p, bool input, bool real_side, bool in_place) {
  if (p.advanced) return input ? p.in : p.out;
  Layout l;
  l.embed = logical(p, real_side);
  if (real_side && in_place) l.embed.back() = 2 * (l.embed.back() / 2 + 1);
  l.dist = count(l.embed);
  return l;
}

// Every line of the transform along dimension ``d`` of the row-major array ``x`` (extents ``e``).
inline void along(const Plan& p, std::vector<cplx>& x, const std::vector<long long>& e, int d, bool inverse) {
  long long inner = 1;
  for (size_t k = d + 1; k < e.size(); ++k) inner *= e[k];
  long long outer = count(e) / (inner * e[d]);
  std::vector<cplx> line(e[d]);
  for (long long o = 0; o < outer; ++o)
    for (long long i = 0; i < inner; ++i) {
      cplx* base = x.data() + o * e[d] * inner + i;
      for (long long k = 0; k < e[d]; ++k) line[k] = base[k * inner];
      if (inverse)
        p.lines[d]->inverse(line.data());
      else
        p.lines[d]->forward(line.data());
      for (long long k = 0; k < e[d]; ++k) base[k * inner] = line[k];
    }
}

inline void transform(const Plan& p, std::vector<cplx>& x, bool inverse) {
  std::vector<long long> e(p.dims.begin(), p.dims.end());
  for (int d = 0; d < static_cast<int>(e.size()); ++d) along(p, x, e, d, inverse);
}

// A complex array as its scalars (float2 and double2 are two of them).
inline float* scalars(cufftComplex* p) { return reinterpret_cast<float*>(p); }
inline double* scalars(cufftDoubleComplex* p) { return reinterpret_cast<double*>(p); }

template <class R>
inline cplx read(const R* data, long long at, bool complex_side) {
  return complex_side ? cplx(data[2 * at], data[2 * at + 1]) : cplx(data[at], 0.0);
}

// One execution: each batch gathered into a full complex array, transformed, scattered. A real
// side's scalars are R; a complex side's are pairs of R (float2 / double2 are two R).
template <class R>
inline cufftResult execute(cufftHandle h, const R* in, R* out, int direction, cufftType expected) {
  Plan* found = find(h);
  if (found == nullptr) return CUFFT_INVALID_PLAN;
  const Plan& p = *found;
  if (p.type != expected) return CUFFT_INVALID_TYPE;
  if (in == nullptr || out == nullptr) return CUFFT_INVALID_VALUE;
  if (p.type == CUFFT_C2C || p.type == CUFFT_Z2Z) {
    if (direction != CUFFT_FORWARD && direction != CUFFT_INVERSE) return CUFFT_INVALID_VALUE;
  } else {
    direction = real_input(p.type) ? CUFFT_FORWARD : CUFFT_INVERSE;
  }
  bool in_place = static_cast<const void*>(in) == static_cast<const void*>(out);
  bool real_in = real_input(p.type), real_out = real_output(p.type);
  std::vector<long long> full(p.dims.begin(), p.dims.end());
  std::vector<long long> in_e = logical(p, real_in), out_e = logical(p, real_out);
  Layout li = side_layout(p, true, real_in, in_place), lo = side_layout(p, false, real_out, in_place);
  long long n = count(full), last = full.back();
  std::vector<std::vector<cplx>> results(p.batch);  // all read before any is written: in place is safe
  for (long long b = 0; b < p.batch; ++b) {
    std::vector<cplx> x(n, cplx(0));
    if (real_out) {  // the Hermitian half given; the rest is the conjugate of its mirror
      long long half = in_e.back();
      for (long long i = 0; i < n; ++i) {
        long long k = i % last, row = i / last;
        if (k < half) {
          x[i] = read(in, offset(li, in_e, row * half + k, b), true);
          continue;
        }
        long long mirror_row = 0, rest = row, scale = 1;
        for (int d = static_cast<int>(full.size()) - 2; d >= 0; --d) {
          long long c = rest % full[d];
          rest /= full[d];
          mirror_row += ((full[d] - c) % full[d]) * scale;
          scale *= full[d];
        }
        x[i] = std::conj(read(in, offset(li, in_e, mirror_row * half + (last - k), b), true));
      }
    } else {
      for (long long i = 0; i < n; ++i) x[i] = read(in, offset(li, in_e, i, b), !real_in);
    }
    transform(p, x, direction == CUFFT_INVERSE);
    results[b] = std::move(x);
  }
  for (long long b = 0; b < p.batch; ++b) {
    const std::vector<cplx>& x = results[b];
    long long kept = out_e.back();
    for (long long i = 0; i < count(out_e); ++i) {
      long long row = i / kept, k = i % kept;
      const cplx& v = x[row * last + k];
      long long at = offset(lo, out_e, i, b);
      if (real_out) {
        out[at] = static_cast<R>(v.real());
      } else {
        out[2 * at] = static_cast<R>(v.real());
        out[2 * at + 1] = static_cast<R>(v.imag());
      }
    }
  }
  return CUFFT_SUCCESS;
}

}  // namespace fft
}  // namespace cass

inline cufftResult cufftCreate(cufftHandle* plan) {
  if (plan == nullptr) return CUFFT_INVALID_VALUE;
  auto& r = ::cass::fft::registry();
  std::lock_guard<std::mutex> g(r.lock);
  *plan = r.next++;
  r.plans[*plan] = std::make_unique<::cass::fft::Plan>();
  return CUFFT_SUCCESS;
}
inline cufftResult cufftDestroy(cufftHandle plan) {
  auto& r = ::cass::fft::registry();
  std::lock_guard<std::mutex> g(r.lock);
  return r.plans.erase(plan) == 1 ? CUFFT_SUCCESS : CUFFT_INVALID_PLAN;
}
inline cufftResult cufftMakePlanMany(cufftHandle plan, int rank, int* n, int* inembed, int istride, int idist,
                                     int* onembed, int ostride, int odist, cufftType type, int batch,
                                     size_t* work = nullptr) {
  if (work != nullptr) *work = 0;
  return ::cass::fft::make(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
}
inline cufftResult cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t* work = nullptr) {
  return cufftMakePlanMany(plan, 1, &nx, nullptr, 1, 0, nullptr, 1, 0, type, batch, work);
}
inline cufftResult cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t* work = nullptr) {
  int n[2] = {nx, ny};
  return cufftMakePlanMany(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, work);
}
inline cufftResult cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t* work = nullptr) {
  int n[3] = {nx, ny, nz};
  return cufftMakePlanMany(plan, 3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, work);
}
// A plan whose parameters are refused is not made: the handle is released, as cuFFT leaves none.
inline cufftResult cass_fft_planned(cufftHandle* plan, cufftResult made) {
  if (made != CUFFT_SUCCESS) cufftDestroy(*plan);
  return made;
}
inline cufftResult cufftPlanMany(cufftHandle* plan, int rank, int* n, int* inembed, int istride, int idist,
                                 int* onembed, int ostride, int odist, cufftType type, int batch) {
  if (cufftCreate(plan) != CUFFT_SUCCESS) return CUFFT_INVALID_VALUE;
  return cass_fft_planned(plan, cufftMakePlanMany(*plan, rank, n, inembed, istride, idist, onembed, ostride, odist,
                                                  type, batch));
}
inline cufftResult cufftPlan1d(cufftHandle* plan, int nx, cufftType type, int batch) {
  if (cufftCreate(plan) != CUFFT_SUCCESS) return CUFFT_INVALID_VALUE;
  return cass_fft_planned(plan, cufftMakePlan1d(*plan, nx, type, batch));
}
inline cufftResult cufftPlan2d(cufftHandle* plan, int nx, int ny, cufftType type) {
  if (cufftCreate(plan) != CUFFT_SUCCESS) return CUFFT_INVALID_VALUE;
  return cass_fft_planned(plan, cufftMakePlan2d(*plan, nx, ny, type));
}
inline cufftResult cufftPlan3d(cufftHandle* plan, int nx, int ny, int nz, cufftType type) {
  if (cufftCreate(plan) != CUFFT_SUCCESS) return CUFFT_INVALID_VALUE;
  return cass_fft_planned(plan, cufftMakePlan3d(*plan, nx, ny, nz, type));
}
inline cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream) {
  ::cass::fft::Plan* p = ::cass::fft::find(plan);
  if (p == nullptr) return CUFFT_INVALID_PLAN;
  p->stream = stream;
  return CUFFT_SUCCESS;
}
// The transforms need no work area of the caller's: one given is accepted and left alone.
inline cufftResult cufftSetAutoAllocation(cufftHandle plan, int) {
  return ::cass::fft::find(plan) == nullptr ? CUFFT_INVALID_PLAN : CUFFT_SUCCESS;
}
inline cufftResult cufftSetWorkArea(cufftHandle plan, void*) {
  return ::cass::fft::find(plan) == nullptr ? CUFFT_INVALID_PLAN : CUFFT_SUCCESS;
}
inline cufftResult cufftGetSize(cufftHandle plan, size_t* work) {
  if (::cass::fft::find(plan) == nullptr) return CUFFT_INVALID_PLAN;
  *work = 0;
  return CUFFT_SUCCESS;
}
inline cufftResult cufftGetVersion(int* version) {
  *version = CUFFT_VERSION;
  return CUFFT_SUCCESS;
}
inline cufftResult cufftExecC2C(cufftHandle plan, cufftComplex* in, cufftComplex* out, int direction) {
  return ::cass::fft::execute(plan, ::cass::fft::scalars(in), ::cass::fft::scalars(out), direction, CUFFT_C2C);
}
inline cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex* in, cufftDoubleComplex* out, int direction) {
  return ::cass::fft::execute(plan, ::cass::fft::scalars(in), ::cass::fft::scalars(out), direction, CUFFT_Z2Z);
}
inline cufftResult cufftExecR2C(cufftHandle plan, cufftReal* in, cufftComplex* out) {
  return ::cass::fft::execute(plan, in, ::cass::fft::scalars(out), CUFFT_FORWARD, CUFFT_R2C);
}
inline cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal* in, cufftDoubleComplex* out) {
  return ::cass::fft::execute(plan, in, ::cass::fft::scalars(out), CUFFT_FORWARD, CUFFT_D2Z);
}
inline cufftResult cufftExecC2R(cufftHandle plan, cufftComplex* in, cufftReal* out) {
  return ::cass::fft::execute(plan, ::cass::fft::scalars(in), out, CUFFT_INVERSE, CUFFT_C2R);
}
inline cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex* in, cufftDoubleReal* out) {
  return ::cass::fft::execute(plan, ::cass::fft::scalars(in), out, CUFFT_INVERSE, CUFFT_Z2D);
}
