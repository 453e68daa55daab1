// Known-answer program for the CPU runtime's cuRAND (tests/cpu/test_curand.py computes every line
// it prints on its own, from the papers and cuRAND's documented seeding, and compares).
#include <cstdio>
#include <cstring>
#include <curand.h>
#include <curand_kernel.h>

static unsigned int float_bits(float f) {
  unsigned int u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

int main() {
  // Philox4x32-10 known-answer vectors (Random123's kat_vectors)
  const uint4 counters[3] = {{0, 0, 0, 0},
                             {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                             {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}};
  const uint2 keys[3] = {{0, 0}, {0xffffffffu, 0xffffffffu}, {0xa4093822u, 0x299f31d0u}};
  for (int i = 0; i < 3; ++i) {
    const uint4 r = cass::rand::philox4x32_10(counters[i], keys[i]);
    std::printf("philox %08x %08x %08x %08x\n", r.x, r.y, r.z, r.w);
  }
  const unsigned long long starts[][3] = {{0xf7dcefddaad26b49ull, 0, 0}, {1234, 0, 0}, {1234, 1, 0}, {1234, 5, 0},
                                          {1234, 3, 1000}, {987654321987ull, 4095, 77}};
  for (const auto& s : starts) {
    curandState x;
    curand_init(s[0], s[1], s[2], &x);
    std::printf("xorwow %llu %llu %llu:", s[0], s[1], s[2]);
    for (int i = 0; i < 6; ++i) std::printf(" %u", curand(&x));
    std::printf("\n");
    curandStateMRG32k3a m;
    curand_init(s[0], s[1], s[2], &m);
    std::printf("mrg32k3a %llu %llu %llu:", s[0], s[1], s[2]);
    for (int i = 0; i < 6; ++i) std::printf(" %u", curand(&m));
    std::printf("\n");
    curandStatePhilox4_32_10_t p;
    curand_init(s[0], s[1], s[2], &p);
    std::printf("philox4 %llu %llu %llu:", s[0], s[1], s[2]);
    for (int i = 0; i < 6; ++i) std::printf(" %u", curand(&p));
    std::printf("\n");
  }
  // the output transforms, on draws printed beside them
  curandState x;
  curand_init(42, 7, 0, &x);
  for (int i = 0; i < 4; ++i) {
    curandState copy = x;
    const unsigned int a = curand(&copy), b = curand(&copy);
    curandState u = x, n = x;
    const float uniform = curand_uniform(&u);
    const float normal = curand_normal(&n), second = curand_normal(&n);
    std::printf("transform %u %u %08x %.9g %.9g\n", a, b, float_bits(uniform), normal, second);
    x = copy;
  }
  // skipahead against drawing
  curandState walk, jump;
  curand_init(5, 2, 0, &walk);
  jump = walk;
  for (int i = 0; i < 100000; ++i) curand(&walk);
  skipahead(100000ull, &jump);
  std::printf("skipahead %u %u\n", curand(&walk), curand(&jump));
  // the host API, legacy ordering
  curandGenerator_t g;
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW);
  curandSetPseudoRandomGeneratorSeed(g, 2024);
  static unsigned int bits[8200];
  curandGenerate(g, bits, 8200);
  std::printf("host xorwow %u %u %u %u %u\n", bits[0], bits[1], bits[4095], bits[4096], bits[8199]);
  curandDestroyGenerator(g);
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  curandSetPseudoRandomGeneratorSeed(g, 2024);
  curandSetGeneratorOffset(g, 6);
  curandGenerate(g, bits, 8200);
  std::printf("host philox %u %u %u %u %u\n", bits[0], bits[1], bits[2], bits[4095], bits[8199]);
  static float normals[3];
  std::printf("odd normal count %d\n", static_cast<int>(curandGenerateNormal(g, normals, 3, 0.f, 1.f)));
  curandDestroyGenerator(g);
  return 0;
}
