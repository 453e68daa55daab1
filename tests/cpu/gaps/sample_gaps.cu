// What NVIDIA's cuda-samples use that HIP lacks, run on the CPU runtime as CUDA and as its rule
// translation (tests/cpu/test_sample_gaps.py): directed rounding (interval), atomicInc_system /
// atomicDec_system (systemWideAtomics), cg::reduce and meta_group_rank/size (reduction, shfl_scan),
// a tile shuffle of a vector type (shfl_scan's uint4; the CPU runtime's CUDA side moves 8 bytes at most).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

#define NF 23
#define ND 20

__global__ void rounding(const float* f, const double* d, int n, float* fo, double* dout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = f[3 * i], b = f[3 * i + 1], c = f[3 * i + 2];
  double x = d[3 * i], y = d[3 * i + 1];
  float fr[NF] = {__fadd_rd(a, b), __fadd_ru(a, b), __fadd_rz(a, b), __fsub_rd(a, b), __fsub_ru(a, b),
                  __fsub_rz(a, b), __fmul_rd(a, b), __fmul_ru(a, b), __fmul_rz(a, b), __fdiv_rd(a, b),
                  __fdiv_ru(a, b), __fdiv_rz(a, b), __fsqrt_rd(a), __fsqrt_ru(a), __fsqrt_rz(a), __fsqrt_rn(a),
                  __frcp_rd(b), __frcp_ru(b), __frcp_rz(b), __frcp_rn(b), __fmaf_rd(a, b, c), __fmaf_ru(a, b, c),
                  __fmaf_rz(a, b, c)};
  double dr[ND] = {__dadd_rd(x, y), __dadd_ru(x, y), __dadd_rz(x, y), __dsub_rd(x, y), __dsub_ru(x, y),
                   __dsub_rz(x, y), __dmul_rd(x, y), __dmul_ru(x, y), __dmul_rz(x, y), __ddiv_rd(x, y),
                   __ddiv_ru(x, y), __ddiv_rz(x, y), __dsqrt_rd(x), __dsqrt_ru(x), __dsqrt_rz(x), __drcp_rd(y),
                   __drcp_ru(y), __drcp_rz(y), __drcp_rn(y), __dadd_rn(x, y)};
  for (int k = 0; k < NF; ++k) fo[i * NF + k] = fr[k];
  for (int k = 0; k < ND; ++k) dout[i * ND + k] = dr[k];
}

__global__ void wrap(unsigned* inc, unsigned* dec) {
  atomicInc_system(inc, 9u);
  atomicDec_system(dec, 6u);
  atomicAdd_block(inc + 1, 1u);
}

struct packed {
  uint2 x, y;
};

__global__ void groups(int* sums, int* maxima, int* meta, unsigned* shuffled) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  int v = (int)(threadIdx.x * 7 % 13);
  int s = cg::reduce(tile, v, cg::plus<int>());
  int m = cg::reduce(tile, v, cg::greater<int>());
  packed p;
  p.y = make_uint2(threadIdx.x, blockIdx.x);
  p.y = tile.shfl_xor(p.y, 5);
  shuffled[blockIdx.x * blockDim.x + threadIdx.x] = p.y.x + 1000u * p.y.y;
  if (tile.thread_rank() == 0) {
    sums[blockIdx.x * 4 + tile.meta_group_rank()] = s;
    maxima[blockIdx.x * 4 + tile.meta_group_rank()] = m;
    meta[blockIdx.x] = (int)tile.meta_group_size();
  }
}

static unsigned state = 12345u;
static unsigned next() { return state = state * 1664525u + 1013904223u; }

template <class T, class U>
static T bits(U u) {
  T t;
  std::memcpy(&t, &u, sizeof t);
  return t;
}

int main() {
  const int n = 3000;
  static float f[3 * n], fo[n * NF];
  static double d[3 * n], dout[n * ND];
  const float fs[] = {0.0f, -0.0f, 1.0f, -1.0f, 3.0f, INFINITY, -INFINITY, 3.4028235e38f, -3.4028235e38f,
                      1e-45f, 1.17549435e-38f, 0.1f, 1e30f, 1e-30f};
  const double ds[] = {0.0, -0.0, 1.0, -1.0, 3.0, INFINITY, -INFINITY, 1.7976931348623157e308, 1e-300, 0.1, 1e300};
  const int nfs = sizeof fs / sizeof fs[0], nds = sizeof ds / sizeof ds[0];
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      int j = 3 * i + k;
      if (i < nfs * nfs) {  // every pair of special values
        f[j] = fs[k == 0 ? i / nfs : (k == 1 ? i % nfs : (i / nfs + i) % nfs)];
        d[j] = ds[(k == 0 ? i / nfs : i % nfs) % nds];
      } else if (i % 2) {  // ordinary values of a few binades, where most rounding happens
        f[j] = (float)((int)(next() % 2000001u) - 1000000) / (float)(1 + next() % 1000u);
        d[j] = (double)((int)(next() % 2000001u) - 1000000) / (double)(1 + next() % 1000u) * 1e-3;
      } else {  // any bits (NaNs, infinities and subnormals too)
        f[j] = bits<float>(next());
        d[j] = bits<double>(((unsigned long long)next() << 32) | next());
      }
    }
  }
  float *df, *dfo;
  double *dd, *ddo;
  cudaMalloc(&df, sizeof f);
  cudaMalloc(&dfo, sizeof fo);
  cudaMalloc(&dd, sizeof d);
  cudaMalloc(&ddo, sizeof dout);
  cudaMemcpy(df, f, sizeof f, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, d, sizeof d, cudaMemcpyHostToDevice);
  rounding<<<(n + 127) / 128, 128>>>(df, dd, n, dfo, ddo);
  cudaMemcpy(fo, dfo, sizeof fo, cudaMemcpyDeviceToHost);
  cudaMemcpy(dout, ddo, sizeof dout, cudaMemcpyDeviceToHost);
  unsigned long long hash = 1469598103934665603ull;
  for (int i = 0; i < n * NF; ++i) {
    unsigned u = std::isnan(fo[i]) ? 0x7fc00000u : bits<unsigned>(fo[i]);
    hash = (hash ^ u) * 1099511628211ull;
    if (i < nfs * nfs * NF) printf("f%d.%d %08x\n", i / NF, i % NF, u);
  }
  for (int i = 0; i < n * ND; ++i) {
    unsigned long long u = std::isnan(dout[i]) ? 0x7ff8000000000000ull : bits<unsigned long long>(dout[i]);
    hash = (hash ^ u) * 1099511628211ull;
    if (i < nds * nds * ND) printf("d%d.%d %016llx\n", i / ND, i % ND, u);
  }
  printf("rounding hash %016llx\n", hash);

  unsigned* counters;
  cudaMalloc(&counters, 3 * sizeof(unsigned));
  cudaMemset(counters, 0, 3 * sizeof(unsigned));
  wrap<<<3, 37>>>(counters, counters + 2);
  unsigned host[3];
  cudaMemcpy(host, counters, sizeof host, cudaMemcpyDeviceToHost);
  printf("inc %u block %u dec %u\n", host[0], host[1], host[2]);

  int *sums, *maxima, *meta, hs[8], hm[8], hmeta[2];
  unsigned *shuffled, hsh[256];
  cudaMalloc(&shuffled, sizeof hsh);
  cudaMalloc(&sums, sizeof hs);
  cudaMalloc(&maxima, sizeof hm);
  cudaMalloc(&meta, sizeof hmeta);
  groups<<<2, 128>>>(sums, maxima, meta, shuffled);
  cudaMemcpy(hsh, shuffled, sizeof hsh, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 256; i += 37) printf("shuffled %d %u\n", i, hsh[i]);
  cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost);
  cudaMemcpy(hm, maxima, sizeof hm, cudaMemcpyDeviceToHost);
  cudaMemcpy(hmeta, meta, sizeof hmeta, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; ++i) printf("tile %d sum %d max %d\n", i, hs[i], hm[i]);
  printf("meta %d %d\n", hmeta[0], hmeta[1]);
  return 0;
}
