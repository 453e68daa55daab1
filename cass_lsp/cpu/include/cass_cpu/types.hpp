// CUDA/HIP vector types, dim3 and make_* constructors (layout and alignment as on the GPU).
#pragma once

#define CASS_VEC1(T, N, A)                                             \
  struct __attribute__((aligned(A))) N##1 { T x; };                    \
  inline constexpr N##1 make_##N##1(T x) { return N##1{x}; }
#define CASS_VEC2(T, N, A)                                             \
  struct __attribute__((aligned(A))) N##2 { T x, y; };                 \
  inline constexpr N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define CASS_VEC3(T, N)                                                \
  struct N##3 { T x, y, z; };                                          \
  inline constexpr N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define CASS_VEC4(T, N, A)                                             \
  struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };           \
  inline constexpr N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#define CASS_VECS(T, N, A1, A2, A4) CASS_VEC1(T, N, A1) CASS_VEC2(T, N, A2) CASS_VEC3(T, N) CASS_VEC4(T, N, A4)

CASS_VECS(signed char, char, 1, 2, 4)
CASS_VECS(unsigned char, uchar, 1, 2, 4)
CASS_VECS(short, short, 2, 4, 8)
CASS_VECS(unsigned short, ushort, 2, 4, 8)
CASS_VECS(int, int, 4, 8, 16)
CASS_VECS(unsigned int, uint, 4, 8, 16)
CASS_VECS(long, long, 8, 16, 16)
CASS_VECS(unsigned long, ulong, 8, 16, 16)
CASS_VECS(long long, longlong, 8, 16, 16)
CASS_VECS(unsigned long long, ulonglong, 8, 16, 16)
CASS_VECS(float, float, 4, 8, 16)
CASS_VECS(double, double, 8, 16, 16)

#undef CASS_VEC1
#undef CASS_VEC2
#undef CASS_VEC3
#undef CASS_VEC4
#undef CASS_VECS

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
