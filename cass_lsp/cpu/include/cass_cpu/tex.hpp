// CUDA arrays, texture objects and surface objects (CUDA names; HIP's are renames of them).
//
// Fetches follow the CUDA programming guide's "Texture Fetching" appendix: linear filtering at
// x_B = x - 0.5 with weights in 9-bit fixed point (8 fractional bits, so 1/256 steps, as a GPU
// prints them), addressing applied to texel indices, 8/16-bit integers read as [0, 1] or [-1, 1]
// in cudaReadModeNormalizedFloat. Wrap and mirror need normalized coordinates (as on a GPU,
// unnormalized ones clamp). Texture references (texture<T, dim, mode>) are refused before building:
// CUDA 12 removed them.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "api.hpp"
#include "half_bits.hpp"
#include "types.hpp"

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  cudaChannelFormatKind f;
};
inline cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}
namespace cass {
namespace detail {
// Scalar type and lane count of a texel type (float, uchar4, ...), for channel descs and fetches.
template <class T>
struct Texel {
  using Scalar = T;
  static constexpr int lanes = 1;
};
#define CASS_TEXEL(S, N)                                                                    \
  template <>                                                                               \
  struct Texel<N##1> { using Scalar = S; static constexpr int lanes = 1; };                 \
  template <>                                                                               \
  struct Texel<N##2> { using Scalar = S; static constexpr int lanes = 2; };                 \
  template <>                                                                               \
  struct Texel<N##4> { using Scalar = S; static constexpr int lanes = 4; };
CASS_TEXEL(signed char, char)
CASS_TEXEL(unsigned char, uchar)
CASS_TEXEL(short, short)
CASS_TEXEL(unsigned short, ushort)
CASS_TEXEL(int, int)
CASS_TEXEL(unsigned int, uint)
CASS_TEXEL(float, float)
#undef CASS_TEXEL
template <class S>
constexpr cudaChannelFormatKind kind_of() {
  return S(-1) < S(0) ? (S(0.5) != S(0) ? cudaChannelFormatKindFloat : cudaChannelFormatKindSigned)
                      : cudaChannelFormatKindUnsigned;
}
}  // namespace detail
}  // namespace cass
template <class T>
inline cudaChannelFormatDesc cudaCreateChannelDesc() {
  using S = typename ::cass::detail::Texel<T>::Scalar;
  constexpr int lanes = ::cass::detail::Texel<T>::lanes, bits = 8 * sizeof(S);
  return cudaChannelFormatDesc{bits, lanes > 1 ? bits : 0, lanes > 2 ? bits : 0, lanes > 3 ? bits : 0,
                               ::cass::detail::kind_of<S>()};
}
template <>
inline cudaChannelFormatDesc cudaCreateChannelDesc<char>() {
  return cudaChannelFormatDesc{8, 0, 0, 0, char(-1) < 0 ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned};
}

inline cudaChannelFormatDesc cudaCreateChannelDescHalf() { return {16, 0, 0, 0, cudaChannelFormatKindFloat}; }
inline cudaChannelFormatDesc cudaCreateChannelDescHalf1() { return {16, 0, 0, 0, cudaChannelFormatKindFloat}; }
inline cudaChannelFormatDesc cudaCreateChannelDescHalf2() { return {16, 16, 0, 0, cudaChannelFormatKindFloat}; }
inline cudaChannelFormatDesc cudaCreateChannelDescHalf4() { return {16, 16, 16, 16, cudaChannelFormatKindFloat}; }

struct cudaExtent {
  size_t width, height, depth;
};
struct cudaPos {
  size_t x, y, z;
};
struct cudaPitchedPtr {
  void* ptr;
  size_t pitch, xsize, ysize;
};
inline cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { return cudaExtent{w, h, d}; }
inline cudaPos make_cudaPos(size_t x, size_t y, size_t z) { return cudaPos{x, y, z}; }
inline cudaPitchedPtr make_cudaPitchedPtr(void* p, size_t pitch, size_t xsize, size_t ysize) {
  return cudaPitchedPtr{p, pitch, xsize, ysize};
}
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08
// Rows of an array are its width of texels, packed: a copy to or from it gives the pitch it uses.
struct cudaArray {
  cudaChannelFormatDesc desc;
  size_t width, height, depth, texel;
  unsigned flags;
  unsigned char* data;
  size_t pitch() const { return width * texel; }
  size_t slice() const { return pitch() * (height != 0 ? height : 1); }
};
typedef cudaArray* cudaArray_t;
typedef const cudaArray* cudaArray_const_t;

namespace cass {
namespace detail {
inline size_t texel_bytes(const cudaChannelFormatDesc& d) { return static_cast<size_t>(d.x + d.y + d.z + d.w) / 8; }
inline cudaError_t array_alloc(cudaArray_t* out, const cudaChannelFormatDesc* desc, size_t w, size_t h, size_t d,
                               unsigned flags, int line) {
  if (out == nullptr || desc == nullptr || w == 0 || texel_bytes(*desc) == 0) return fail(cudaErrorInvalidValue);
  auto* a = new cudaArray{*desc, w, h, d, texel_bytes(*desc), flags, nullptr};
  void* storage = nullptr;
  cudaError_t e = cudaMalloc(&storage, a->slice() * (d != 0 ? d : 1), line);
  if (e != cudaSuccess) {
    delete a;
    return e;
  }
  std::memset(storage, 0, a->slice() * (d != 0 ? d : 1));
  a->data = static_cast<unsigned char*>(storage);
  *out = a;
  return cudaSuccess;
}
}  // namespace detail
}  // namespace cass
inline cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width,
                                   size_t height = 0, unsigned flags = 0, int line = __builtin_LINE()) {
  return ::cass::detail::array_alloc(array, desc, width, height, 0, flags, line);
}
inline cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                                     unsigned flags = 0, int line = __builtin_LINE()) {
  return ::cass::detail::array_alloc(array, desc, extent.width, extent.height, extent.depth, flags, line);
}
inline cudaError_t cudaFreeArray(cudaArray_t array) {
  if (array == nullptr) return cudaSuccess;
  cudaFree(array->data);
  delete array;
  return cudaSuccess;
}
inline cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  if (desc == nullptr || array == nullptr) return ::cass::detail::fail(cudaErrorInvalidValue);
  *desc = array->desc;
  return cudaSuccess;
}
inline cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned* flags,
                                    cudaArray_t array) {
  if (array == nullptr) return ::cass::detail::fail(cudaErrorInvalidValue);
  if (desc != nullptr) *desc = array->desc;
  if (extent != nullptr) *extent = cudaExtent{array->width, array->height, array->depth};
  if (flags != nullptr) *flags = array->flags;
  return cudaSuccess;
}

// Offsets into an array are in bytes across a row (wOffset) and in rows (hOffset), as in CUDA.
namespace cass {
namespace detail {
inline bool array_fits(cudaArray_const_t a, size_t w_offset, size_t h_offset, size_t width, size_t height) {
  return a != nullptr && w_offset + width <= a->pitch() && h_offset + height <= (a->height != 0 ? a->height : 1);
}
}  // namespace detail
}  // namespace cass
inline cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src,
                                       size_t spitch, size_t width, size_t height,
                                       cudaMemcpyKind kind = cudaMemcpyDefault, int line = __builtin_LINE()) {
  if (::cass::detail::sticky() != cudaSuccess) return ::cass::detail::sticky();
  if (!::cass::detail::array_fits(dst, w_offset, h_offset, width, height) || spitch < width)
    return ::cass::detail::fail(cudaErrorInvalidValue);
  return ::cass::detail::copy_2d(dst->data + h_offset * dst->pitch() + w_offset, dst->pitch(), src, spitch, width,
                                 height, kind, "bytes", line);
}
inline cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src,
                                            size_t spitch, size_t width, size_t height,
                                            cudaMemcpyKind kind = cudaMemcpyDefault, cudaStream_t = nullptr,
                                            int line = __builtin_LINE()) {
  return cudaMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, kind, line);
}
template <class D>
inline cudaError_t cudaMemcpy2DFromArray(D* dst, size_t dpitch, cudaArray_const_t src, size_t w_offset,
                                         size_t h_offset, size_t width, size_t height,
                                         cudaMemcpyKind kind = cudaMemcpyDefault, int line = __builtin_LINE()) {
  if (::cass::detail::sticky() != cudaSuccess) return ::cass::detail::sticky();
  if (!::cass::detail::array_fits(src, w_offset, h_offset, width, height) || dpitch < width)
    return ::cass::detail::fail(cudaErrorInvalidValue);
  return ::cass::detail::copy_2d(dst, dpitch, src->data + h_offset * src->pitch() + w_offset, src->pitch(), width,
                                 height, kind, ::cass::record::type_of<D>(), line);
}
template <class D>
inline cudaError_t cudaMemcpy2DFromArrayAsync(D* dst, size_t dpitch, cudaArray_const_t src, size_t w_offset,
                                              size_t h_offset, size_t width, size_t height,
                                              cudaMemcpyKind kind = cudaMemcpyDefault, cudaStream_t = nullptr,
                                              int line = __builtin_LINE()) {
  return cudaMemcpy2DFromArray(dst, dpitch, src, w_offset, h_offset, width, height, kind, line);
}
// The deprecated 1-D forms: count bytes from (wOffset, hOffset) on, running on across rows.
inline cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src,
                                     size_t count, cudaMemcpyKind kind = cudaMemcpyDefault,
                                     int line = __builtin_LINE()) {
  if (dst == nullptr || h_offset * dst->pitch() + w_offset + count > dst->slice() * (dst->depth ? dst->depth : 1))
    return ::cass::detail::fail(cudaErrorInvalidValue);
  return ::cass::detail::copy(dst->data + h_offset * dst->pitch() + w_offset, src, count, kind, "bytes", line);
}
template <class D>
inline cudaError_t cudaMemcpyFromArray(D* dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                                       cudaMemcpyKind kind = cudaMemcpyDefault, int line = __builtin_LINE()) {
  if (src == nullptr || h_offset * src->pitch() + w_offset + count > src->slice() * (src->depth ? src->depth : 1))
    return ::cass::detail::fail(cudaErrorInvalidValue);
  return ::cass::detail::copy(dst, src->data + h_offset * src->pitch() + w_offset, count, kind,
                              ::cass::record::type_of<D>(), line);
}

struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  cudaMemcpyKind kind;
};
// Pitched allocations: rows padded to 256 bytes, as cudaMallocPitch pads them.
inline cudaError_t cudaMalloc3D(cudaPitchedPtr* p, cudaExtent extent, int line = __builtin_LINE()) {
  size_t pitch = (extent.width + 255) & ~size_t(255);
  *p = cudaPitchedPtr{nullptr, pitch, extent.width, extent.height};
  return cudaMalloc(&p->ptr, pitch * extent.height * extent.depth, line);
}
// Where an array takes part, extent.width and its position's x count texels; otherwise bytes.
inline cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p, int line = __builtin_LINE()) {
  if (::cass::detail::sticky() != cudaSuccess) return ::cass::detail::sticky();
  if (p == nullptr || (p->srcArray == nullptr) == (p->srcPtr.ptr == nullptr) ||
      (p->dstArray == nullptr) == (p->dstPtr.ptr == nullptr))
    return ::cass::detail::fail(cudaErrorInvalidValue);
  cudaArray_const_t array = p->srcArray != nullptr ? p->srcArray : p->dstArray;
  size_t unit = array != nullptr ? array->texel : 1, row = p->extent.width * unit;
  size_t rows = p->extent.height != 0 ? p->extent.height : 1, slices = p->extent.depth != 0 ? p->extent.depth : 1;
  for (const auto& [a, pos] : {std::make_pair(p->srcArray, p->srcPos), std::make_pair(p->dstArray, p->dstPos)})
    if (a != nullptr && (pos.x + p->extent.width > a->width || pos.y + rows > (a->height ? a->height : 1) ||
                         pos.z + slices > (a->depth ? a->depth : 1)))
      return ::cass::detail::fail(cudaErrorInvalidValue);
  struct Side {
    unsigned char* base;
    size_t pitch, slice;
  };
  auto side = [&](cudaArray_t a, const cudaPitchedPtr& ptr, const cudaPos& pos) {
    if (a != nullptr)
      return Side{a->data + pos.z * a->slice() + pos.y * a->pitch() + pos.x * a->texel, a->pitch(), a->slice()};
    auto* base = static_cast<unsigned char*>(ptr.ptr);
    return Side{base + (pos.z * ptr.ysize + pos.y) * ptr.pitch + pos.x * unit, ptr.pitch, ptr.pitch * ptr.ysize};
  };
  Side src = side(p->srcArray, p->srcPtr, p->srcPos), dst = side(p->dstArray, p->dstPtr, p->dstPos);
  for (size_t z = 0; z < slices; ++z) {
    cudaError_t e = ::cass::detail::copy_2d(dst.base + z * dst.slice, dst.pitch, src.base + z * src.slice, src.pitch,
                                            row, rows, p->kind, "bytes", line);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t = nullptr, int line = __builtin_LINE()) {
  return cudaMemcpy3D(p, line);
}

enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3,
};
struct cudaMipmappedArray;
typedef cudaMipmappedArray* cudaMipmappedArray_t;
struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
  } res;
  unsigned int flags;
};
struct cudaResourceViewDesc;
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization, seamlessCubemap;
};
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };

namespace cass {
namespace detail {
// What a texture or surface object reads: texels of ``desc`` from ``base``, rows ``pitch`` bytes
// apart, slices ``slice`` bytes apart; extents in texels (0 where the dimension is absent).
struct TexView {
  cudaResourceDesc resource;
  cudaTextureDesc texture;
  cudaChannelFormatDesc desc;
  unsigned char* base;
  size_t width, height, depth, pitch, slice, texel;
  bool layered;
  int bits[4];        // desc's channel widths, and each channel's byte offset in a texel: set once
  size_t offset[4];   // by view_of, not per fetch
};
inline std::vector<TexView>& tex_views() {
  static std::vector<TexView> views;
  return views;
}
inline const TexView& tex_view(unsigned long long handle) {
  auto& views = tex_views();
  if (handle == 0 || handle > views.size() || views[handle - 1].base == nullptr) {
    std::fprintf(stderr, "cass-cpu: texture/surface object %llu does not exist (destroyed or never created)\n", handle);
    __trap();
  }
  return views[handle - 1];
}
inline cudaError_t view_of(const cudaResourceDesc* r, TexView* v) {
  if (r == nullptr) return fail(cudaErrorInvalidValue);
  v->resource = *r;
  v->layered = false;
  switch (r->resType) {
    case cudaResourceTypeArray: {
      cudaArray_t a = r->res.array.array;
      if (a == nullptr) return fail(cudaErrorInvalidResourceHandle);
      v->desc = a->desc;
      v->base = a->data;
      v->width = a->width;
      v->layered = (a->flags & (cudaArrayLayered | cudaArrayCubemap)) != 0;  // a cubemap's faces are its layers
      v->height = a->height;
      v->depth = a->depth;
      v->pitch = a->pitch();
      v->slice = a->slice();
      break;
    }
    case cudaResourceTypeLinear:
      v->desc = r->res.linear.desc;
      v->base = static_cast<unsigned char*>(r->res.linear.devPtr);
      v->width = texel_bytes(v->desc) != 0 ? r->res.linear.sizeInBytes / texel_bytes(v->desc) : 0;
      v->height = v->depth = 0;
      v->pitch = v->slice = r->res.linear.sizeInBytes;
      break;
    case cudaResourceTypePitch2D:
      v->desc = r->res.pitch2D.desc;
      v->base = static_cast<unsigned char*>(r->res.pitch2D.devPtr);
      v->width = r->res.pitch2D.width;
      v->height = r->res.pitch2D.height;
      v->depth = 0;
      v->pitch = r->res.pitch2D.pitchInBytes;
      v->slice = v->pitch * v->height;
      if (v->pitch < v->width * texel_bytes(v->desc)) return fail(cudaErrorInvalidValue);
      break;
    default:  // mipmapped arrays: refused before building; a value from elsewhere is an error
      return fail(cudaErrorInvalidValue);
  }
  v->texel = texel_bytes(v->desc);
  if (v->base == nullptr || v->texel == 0 || v->width == 0) return fail(cudaErrorInvalidValue);
  for (int bits : {v->desc.x, v->desc.y, v->desc.z, v->desc.w})  // channels a fetch can read
    if (bits != 0 && bits != 8 && bits != 16 && bits != 32) return fail(cudaErrorInvalidValue);
  if (v->desc.f == cudaChannelFormatKindFloat && (v->desc.x == 8 || v->desc.y == 8))
    return fail(cudaErrorInvalidValue);
  const int bits[4] = {v->desc.x, v->desc.y, v->desc.z, v->desc.w};
  size_t offset = 0;
  for (int c = 0; c < 4; ++c) {
    v->bits[c] = bits[c];
    v->offset[c] = offset;
    offset += static_cast<size_t>(bits[c]) / 8;
  }
  return cudaSuccess;
}
inline cudaError_t add_view(unsigned long long* handle, const TexView& v) {
  if (handle == nullptr) return fail(cudaErrorInvalidValue);
  tex_views().push_back(v);
  *handle = tex_views().size();
  return cudaSuccess;
}
inline cudaError_t drop_view(unsigned long long handle) {
  auto& views = tex_views();
  if (handle == 0) return cudaSuccess;
  if (handle > views.size()) return fail(cudaErrorInvalidValue);
  views[handle - 1].base = nullptr;
  return cudaSuccess;
}
}  // namespace detail
}  // namespace cass
inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t* tex, const cudaResourceDesc* resource,
                                           const cudaTextureDesc* texture, const cudaResourceViewDesc* view) {
  ::cass::detail::TexView v{};
  if (texture == nullptr) return ::cass::detail::fail(cudaErrorInvalidValue);
  // what would change the values fetched and is not emulated: stopped, never ignored
  if (view != nullptr) ::cass::detail::cannot_run("texture resource views are not emulated");
  if (texture->sRGB != 0) ::cass::detail::cannot_run("sRGB textures are not emulated");
  if (resource != nullptr && resource->resType == cudaResourceTypeMipmappedArray)
    ::cass::detail::cannot_run("mipmapped textures are not emulated");
  cudaError_t e = ::cass::detail::view_of(resource, &v);
  if (e != cudaSuccess) return e;
  v.texture = *texture;
  return ::cass::detail::add_view(tex, v);
}
inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex) { return ::cass::detail::drop_view(tex); }
inline cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* out, cudaTextureObject_t tex) {
  *out = ::cass::detail::tex_view(tex).resource;
  return cudaSuccess;
}
inline cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* out, cudaTextureObject_t tex) {
  *out = ::cass::detail::tex_view(tex).texture;
  return cudaSuccess;
}
inline cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surf, const cudaResourceDesc* resource) {
  ::cass::detail::TexView v{};
  if (resource != nullptr && resource->resType != cudaResourceTypeArray)
    return ::cass::detail::fail(cudaErrorInvalidValue);
  cudaError_t e = ::cass::detail::view_of(resource, &v);
  return e != cudaSuccess ? e : ::cass::detail::add_view(surf, v);
}
inline cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf) { return ::cass::detail::drop_view(surf); }

namespace cass {
namespace detail {
// One channel of the texel at (i, j, k), as a double (exact for every channel type).
inline double channel(const TexView& v, size_t i, size_t j, size_t k, int c) {
  const int* bits = v.bits;
  if (bits[c] == 0) return c == 3 ? 1.0 : 0.0;  // an absent channel reads as 0 (alpha as 1)
  const unsigned char* p = v.base + k * v.slice + j * v.pitch + i * v.texel + v.offset[c];
  auto load = [p](auto value) {
    std::memcpy(&value, p, sizeof value);
    return value;
  };
  switch (v.desc.f) {
    case cudaChannelFormatKindFloat:
      return bits[c] == 16 ? half_bits_to_float(load(static_cast<unsigned short>(0))) : load(0.0f);
    case cudaChannelFormatKindSigned:
      return bits[c] == 8 ? load(static_cast<signed char>(0)) : bits[c] == 16 ? load(static_cast<short>(0)) : load(0);
    default:
      return bits[c] == 8 ? load(static_cast<unsigned char>(0)) : bits[c] == 16 ? load(static_cast<unsigned short>(0))
                                                                               : load(0u);
  }
}
// What a fetch returns for one channel: the element itself, or [0, 1] / [-1, 1] for 8- and 16-bit
// integers in normalized-float read mode.
inline double read_value(const TexView& v, size_t i, size_t j, size_t k, int c) {
  double x = channel(v, i, j, k, c);
  const int* bits = v.bits;
  if (v.texture.readMode != cudaReadModeNormalizedFloat || v.desc.f == cudaChannelFormatKindFloat || bits[c] > 16 ||
      bits[c] == 0)
    return x;
  double top = v.desc.f == cudaChannelFormatKindSigned ? std::ldexp(1.0, bits[c] - 1) - 1 : std::ldexp(1.0, bits[c]) - 1;
  return x / top < -1.0 ? -1.0 : x / top;
}
// A texel index after the address mode, or -1 for a border texel.
inline long address(long i, size_t n, cudaTextureAddressMode mode, bool normalized) {
  long size = static_cast<long>(n);
  // Inside, every mode reads the texel itself: the common case, without the divisions below (a
  // 2-D point fetch spent a fifth of its time in them).
  if (i >= 0 && i < size) return i;
  if (normalized && mode == cudaAddressModeWrap) {
    long m = i % size;
    return m < 0 ? m + size : m;
  }
  if (normalized && mode == cudaAddressModeMirror) {
    long m = i % (2 * size);
    if (m < 0) m += 2 * size;
    return m < size ? m : 2 * size - 1 - m;
  }
  if (mode == cudaAddressModeBorder) return i < 0 || i >= size ? -1 : i;
  return i < 0 ? 0 : i >= size ? size - 1 : i;
}
// Texel coordinates along one dimension: unnormalized, and for linear filtering the lower texel
// and the weight of the upper one, in 1/256 steps.
struct Axis {
  long lower;
  float alpha;
};
inline Axis axis(float x, size_t n, bool normalized, bool linear) {
  float scaled = normalized ? x * static_cast<float>(n) : x;
  if (!linear) return Axis{static_cast<long>(std::floor(scaled)), 0.0f};
  float xb = scaled - 0.5f, lower = std::floor(xb);
  return Axis{static_cast<long>(lower), std::nearbyint((xb - lower) * 256.0f) / 256.0f};
}
// The filtered value of channels 0 .. lanes-1 at (x, y, z) over ``dims`` dimensions (a layer is not
// filtered): coordinates, addresses and weights are worked out once for all channels.
inline void sample(const TexView& v, int dims, const float (&at)[3], size_t layer, double* out, int lanes) {
  const cudaTextureDesc& t = v.texture;
  bool normalized = t.normalizedCoords != 0, linear = t.filterMode == cudaFilterModeLinear;
  size_t extent[3] = {v.width, v.height != 0 ? v.height : 1, v.depth != 0 ? v.depth : 1};
  Axis ax[3] = {{0, 0.0f}, {0, 0.0f}, {0, 0.0f}};
  for (int d = 0; d < dims; ++d) ax[d] = axis(at[d], extent[d], normalized, linear);
  // the texel at idx after the address modes, or false for a border texel
  auto locate = [&](const long (&idx)[3], size_t (&where)[3]) {
    where[0] = where[1] = 0;
    where[2] = layer;
    for (int d = 0; d < dims; ++d) {
      long w = address(idx[d], extent[d], t.addressMode[d], normalized);
      if (w < 0) return false;
      where[d] = static_cast<size_t>(w);
    }
    return true;
  };
  if (!linear) {
    long idx[3] = {ax[0].lower, ax[1].lower, ax[2].lower};
    size_t where[3];
    bool inside = locate(idx, where);
    for (int c = 0; c < lanes; ++c) out[c] = inside ? read_value(v, where[0], where[1], where[2], c) : t.borderColor[c];
    return;
  }
  float total[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int corner = 0; corner < (1 << dims); ++corner) {
    float weight = 1.0f;
    long idx[3] = {ax[0].lower, ax[1].lower, ax[2].lower};
    for (int d = 0; d < dims; ++d) {
      bool upper = (corner >> d) & 1;
      idx[d] += upper;
      weight *= upper ? ax[d].alpha : 1.0f - ax[d].alpha;
    }
    size_t where[3];
    bool inside = locate(idx, where);
    for (int c = 0; c < lanes; ++c) {
      double texel = inside ? read_value(v, where[0], where[1], where[2], c) : static_cast<double>(t.borderColor[c]);
      total[c] += weight * static_cast<float>(texel);
    }
  }
  for (int c = 0; c < lanes; ++c) out[c] = total[c];
}
// A T read from a texel is the texel's own bytes: T's channel desc is the view's, and the read mode
// returns elements (floats and 32-bit integers are never normalized).
template <class T>
inline bool reads_bytes(const TexView& v) {
  static const cudaChannelFormatDesc own = cudaCreateChannelDesc<T>();
  const cudaChannelFormatDesc& d = v.desc;
  if (d.x != own.x || d.y != own.y || d.z != own.z || d.w != own.w || d.f != own.f || sizeof(T) != v.texel) return false;
  return v.texture.readMode != cudaReadModeNormalizedFloat || d.f == cudaChannelFormatKindFloat || d.x > 16;
}
// A point fetch of such a T (false where it is not one, or for a border texel).
template <class T>
inline bool fetch_bytes(const TexView& v, int dims, const float (&at)[3], size_t layer, T* out) {
  const cudaTextureDesc& t = v.texture;
  if (t.filterMode == cudaFilterModeLinear || !reads_bytes<T>(v)) return false;
  bool normalized = t.normalizedCoords != 0;
  size_t extent[3] = {v.width, v.height != 0 ? v.height : 1, v.depth != 0 ? v.depth : 1};
  size_t where[3] = {0, 0, layer};
  for (int d3 = 0; d3 < dims; ++d3) {
    long w = address(axis(at[d3], extent[d3], normalized, false).lower, extent[d3], t.addressMode[d3], normalized);
    if (w < 0) return false;
    where[d3] = static_cast<size_t>(w);
  }
  std::memcpy(out, v.base + where[2] * v.slice + where[1] * v.pitch + where[0] * v.texel, sizeof(T));
  return true;
}
// A linear fetch of float texels into a T of the view's channels: sample()'s arithmetic (float
// weights, corners in the same order), the texels read as floats instead of one channel at a time
// through double (false where it is not one).
template <class T>
inline bool fetch_floats(const TexView& v, int dims, const float (&at)[3], size_t layer, T* out) {
  if constexpr (!std::is_same_v<typename Texel<T>::Scalar, float>) {
    return false;
  } else {
    const cudaTextureDesc& t = v.texture;
    if (t.filterMode != cudaFilterModeLinear || !reads_bytes<T>(v)) return false;
    constexpr int lanes = Texel<T>::lanes;
    bool normalized = t.normalizedCoords != 0;
    size_t extent[3] = {v.width, v.height != 0 ? v.height : 1, v.depth != 0 ? v.depth : 1};
    Axis ax[3] = {{0, 0.0f}, {0, 0.0f}, {0, 0.0f}};
    for (int d = 0; d < dims; ++d) ax[d] = axis(at[d], extent[d], normalized, true);
    float total[lanes] = {};
    for (int corner = 0; corner < (1 << dims); ++corner) {
      float weight = 1.0f;
      size_t where[3] = {0, 0, layer};
      bool inside = true;
      for (int d = 0; d < dims; ++d) {
        bool upper = (corner >> d) & 1;
        weight *= upper ? ax[d].alpha : 1.0f - ax[d].alpha;
        long w = address(ax[d].lower + upper, extent[d], t.addressMode[d], normalized);
        inside = inside && w >= 0;
        where[d] = w < 0 ? 0 : static_cast<size_t>(w);
      }
      float texel[lanes];
      if (inside)
        std::memcpy(texel, v.base + where[2] * v.slice + where[1] * v.pitch + where[0] * v.texel, sizeof texel);
      for (int c = 0; c < lanes; ++c) total[c] += weight * (inside ? texel[c] : t.borderColor[c]);
    }
    std::memcpy(out, total, sizeof total);
    return true;
  }
}
template <class T>
inline T fetch(const TexView& v, int dims, const float (&at)[3], size_t layer) {
  T out{};
  if (fetch_floats(v, dims, at, layer, &out)) return out;
  // (what most fetches are, at a fraction of the channel-by-channel cost below: simplePitchLinearTexture's
  // float fetches ran past verify's 20 s)
  if (fetch_bytes(v, dims, at, layer, &out)) return out;
  auto* lanes = reinterpret_cast<typename Texel<T>::Scalar*>(&out);
  double value[4];
  sample(v, dims, at, layer, value, Texel<T>::lanes);
  for (int c = 0; c < Texel<T>::lanes; ++c) lanes[c] = static_cast<typename Texel<T>::Scalar>(value[c]);
  return out;
}
template <class T>
inline T fetch_element(const TexView& v, long i) {
  T out{};
  auto* lanes = reinterpret_cast<typename Texel<T>::Scalar*>(&out);
  // tex1Dfetch: no filtering, no normalized coordinates; out of range reads as zero
  bool inside = i >= 0 && static_cast<size_t>(i) < v.width;
  if (inside && reads_bytes<T>(v)) {
    std::memcpy(&out, v.base + static_cast<size_t>(i) * v.texel, sizeof(T));
    return out;
  }
  for (int c = 0; c < Texel<T>::lanes; ++c)
    lanes[c] = static_cast<typename Texel<T>::Scalar>(inside ? read_value(v, static_cast<size_t>(i), 0, 0, c) : 0.0);
  return out;
}
}  // namespace detail
}  // namespace cass
template <class T>
inline T tex1Dfetch(cudaTextureObject_t tex, int i) {
  return ::cass::detail::fetch_element<T>(::cass::detail::tex_view(tex), i);
}
template <class T>
inline T tex1D(cudaTextureObject_t tex, float x) {
  return ::cass::detail::fetch<T>(::cass::detail::tex_view(tex), 1, {x, 0.0f, 0.0f}, 0);
}
template <class T>
inline T tex2D(cudaTextureObject_t tex, float x, float y) {
  return ::cass::detail::fetch<T>(::cass::detail::tex_view(tex), 2, {x, y, 0.0f}, 0);
}
template <class T>
inline T tex3D(cudaTextureObject_t tex, float x, float y, float z) {
  return ::cass::detail::fetch<T>(::cass::detail::tex_view(tex), 3, {x, y, z}, 0);
}
template <class T>
inline T tex1DLayered(cudaTextureObject_t tex, float x, int layer) {
  return ::cass::detail::fetch<T>(::cass::detail::tex_view(tex), 1, {x, 0.0f, 0.0f}, static_cast<size_t>(layer));
}
template <class T>
inline T tex2DLayered(cudaTextureObject_t tex, float x, float y, int layer) {
  return ::cass::detail::fetch<T>(::cass::detail::tex_view(tex), 2, {x, y, 0.0f}, static_cast<size_t>(layer));
}
namespace cass {
namespace detail {
// The face a cubemap fetch of direction (x, y, z) reads and where on it: the major axis picks the
// face and the other two give (s, t) in [0, 1] (the CUDA programming guide's cubemap fetch table,
// OpenGL's); a texture without normalized coordinates takes them in texels.
inline size_t cube_face(const TexView& v, float x, float y, float z, float (&at)[3]) {
  float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z), sc, tc, major;
  size_t face;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1, sc = x >= 0 ? -z : z, tc = -y, major = ax;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3, sc = x, tc = y >= 0 ? z : -z, major = ay;
  } else {
    face = z >= 0 ? 4 : 5, sc = z >= 0 ? x : -x, tc = -y, major = az;
  }
  float s = major > 0 ? (sc / major + 1.0f) * 0.5f : 0.5f, t = major > 0 ? (tc / major + 1.0f) * 0.5f : 0.5f;
  bool normalized = v.texture.normalizedCoords != 0;
  at[0] = normalized ? s : s * static_cast<float>(v.width);
  at[1] = normalized ? t : t * static_cast<float>(v.height != 0 ? v.height : 1);
  at[2] = 0.0f;
  return face;
}
}  // namespace detail
}  // namespace cass
template <class T>
inline T texCubemap(cudaTextureObject_t tex, float x, float y, float z) {
  const ::cass::detail::TexView& v = ::cass::detail::tex_view(tex);
  float at[3];
  size_t face = ::cass::detail::cube_face(v, x, y, z, at);
  return ::cass::detail::fetch<T>(v, 2, at, face);
}
template <class T>
inline T texCubemapLayered(cudaTextureObject_t tex, float x, float y, float z, int layer) {
  const ::cass::detail::TexView& v = ::cass::detail::tex_view(tex);
  float at[3];
  size_t face = ::cass::detail::cube_face(v, x, y, z, at);
  return ::cass::detail::fetch<T>(v, 2, at, 6 * static_cast<size_t>(layer) + face);
}
// The forms that write through a pointer.
template <class T>
inline void texCubemap(T* out, cudaTextureObject_t tex, float x, float y, float z) { *out = texCubemap<T>(tex, x, y, z); }
template <class T>
inline void texCubemapLayered(T* out, cudaTextureObject_t tex, float x, float y, float z, int layer) {
  *out = texCubemapLayered<T>(tex, x, y, z, layer);
}
template <class T>
inline void tex1Dfetch(T* out, cudaTextureObject_t tex, int i) { *out = tex1Dfetch<T>(tex, i); }
template <class T>
inline void tex1D(T* out, cudaTextureObject_t tex, float x) { *out = tex1D<T>(tex, x); }
template <class T>
inline void tex2D(T* out, cudaTextureObject_t tex, float x, float y) { *out = tex2D<T>(tex, x, y); }
template <class T>
inline void tex3D(T* out, cudaTextureObject_t tex, float x, float y, float z) { *out = tex3D<T>(tex, x, y, z); }
template <class T>
inline void tex2DLayered(T* out, cudaTextureObject_t tex, float x, float y, int layer) {
  *out = tex2DLayered<T>(tex, x, y, layer);
}

// Surfaces: x counts bytes; out of range traps (cudaBoundaryModeTrap), reads zero or clamps.
namespace cass {
namespace detail {
inline unsigned char* surface_texel(cudaSurfaceObject_t surf, int x, int y, int z, size_t size,
                                    cudaSurfaceBoundaryMode mode) {
  const TexView& v = tex_view(surf);
  long col = x, row = y, slice = z;
  long limits[3] = {static_cast<long>(v.width * v.texel), static_cast<long>(v.height ? v.height : 1),
                    static_cast<long>(v.depth ? v.depth : 1)};
  long* at[3] = {&col, &row, &slice};
  for (int d = 0; d < 3; ++d) {
    long hi = d == 0 ? limits[0] - static_cast<long>(size) : limits[d] - 1;
    if (*at[d] >= 0 && *at[d] <= hi) continue;
    if (mode == cudaBoundaryModeZero) return nullptr;
    if (mode == cudaBoundaryModeTrap) {
      std::fprintf(stderr, "cass-cpu: surface access at (%d, %d, %d) is out of range\n", x, y, z);
      __trap();
    }
    *at[d] = *at[d] < 0 ? 0 : hi;
  }
  return v.base + static_cast<size_t>(slice) * v.slice + static_cast<size_t>(row) * v.pitch + static_cast<size_t>(col);
}
template <class T>
inline T surface_read(cudaSurfaceObject_t surf, int x, int y, int z, cudaSurfaceBoundaryMode mode) {
  T out{};
  if (unsigned char* p = surface_texel(surf, x, y, z, sizeof(T), mode)) std::memcpy(&out, p, sizeof(T));
  return out;
}
template <class T>
inline void surface_write(const T& value, cudaSurfaceObject_t surf, int x, int y, int z, cudaSurfaceBoundaryMode mode) {
  if (unsigned char* p = surface_texel(surf, x, y, z, sizeof(T), mode)) std::memcpy(p, &value, sizeof(T));
}
}  // namespace detail
}  // namespace cass
template <class T>
inline T surf1Dread(cudaSurfaceObject_t s, int x, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  return ::cass::detail::surface_read<T>(s, x, 0, 0, m);
}
template <class T>
inline void surf1Dread(T* out, cudaSurfaceObject_t s, int x, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  *out = surf1Dread<T>(s, x, m);
}
template <class T>
inline T surf2Dread(cudaSurfaceObject_t s, int x, int y, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  return ::cass::detail::surface_read<T>(s, x, y, 0, m);
}
template <class T>
inline void surf2Dread(T* out, cudaSurfaceObject_t s, int x, int y, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  *out = surf2Dread<T>(s, x, y, m);
}
template <class T>
inline T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  return ::cass::detail::surface_read<T>(s, x, y, z, m);
}
template <class T>
inline void surf3Dread(T* out, cudaSurfaceObject_t s, int x, int y, int z,
                       cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  *out = surf3Dread<T>(s, x, y, z, m);
}
template <class T>
inline void surf1Dwrite(T value, cudaSurfaceObject_t s, int x, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  ::cass::detail::surface_write(value, s, x, 0, 0, m);
}
template <class T>
inline void surf2Dwrite(T value, cudaSurfaceObject_t s, int x, int y, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  ::cass::detail::surface_write(value, s, x, y, 0, m);
}
template <class T>
inline void surf3Dwrite(T value, cudaSurfaceObject_t s, int x, int y, int z,
                        cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  ::cass::detail::surface_write(value, s, x, y, z, m);
}
