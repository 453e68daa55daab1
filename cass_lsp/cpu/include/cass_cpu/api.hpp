// The host API subset (CUDA names; hip_api.hpp maps HIP names onto these). Device memory is host
// memory; streams and events run synchronously; the device described is the emulator itself.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>

#include "sched.hpp"

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorNotReady = 600,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
};
typedef cudaError_t cudaError;
static_assert(cudaErrorInvalidConfiguration == ::cass::detail::kInvalidConfiguration, "launch error code");

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

struct CUstream_st {
  int flags;
};
struct CUevent_st {
  double ms;
};
typedef CUstream_st* cudaStream_t;
typedef CUevent_st* cudaEvent_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaStreamDefault 0x0
#define cudaStreamNonBlocking 0x1
#define cudaEventDefault 0x0
#define cudaEventBlockingSync 0x1
#define cudaEventDisableTiming 0x2
#define cudaHostAllocDefault 0x0
#define cudaHostAllocPortable 0x1
#define cudaHostAllocMapped 0x2
#define cudaHostAllocWriteCombined 0x4
#define cudaHostRegisterDefault 0x0
#define cudaMemAttachGlobal 0x1
#define cudaDeviceScheduleAuto 0x0
#define cudaDeviceScheduleBlockingSync 0x4
#define cudaDeviceMapHost 0x8
#define cudaCpuDeviceId (-1)

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory, computeMode,
      concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, asyncEngineCount, unifiedAddressing,
      memoryClockRate, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize, maxThreadsPerMultiProcessor,
      streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, singleToDoublePrecisionPerfRatio,
      pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported, canUseHostPointerForRegisteredMem,
      cooperativeLaunch, cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  // HIP's hipDeviceProp_t fields, so the one struct serves both APIs.
  char gcnArchName[256];
  int clockInstructionRate;
  size_t maxSharedMemoryPerMultiProcessor;
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaFuncCache { cudaFuncCachePreferNone, cudaFuncCachePreferShared, cudaFuncCachePreferL1, cudaFuncCachePreferEqual };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault, cudaSharedMemBankSizeFourByte, cudaSharedMemBankSizeEightByte };
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
      preferredShmemCarveout;
};
typedef void (*cudaHostFn_t)(void*);
typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void*);

namespace cass {
namespace detail {
inline cudaError_t fail(cudaError_t e) {
  t_last_error = e;
  return e;
}
inline double now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
inline void* device_alloc(size_t size) { return std::aligned_alloc(256, (size + 255) & ~size_t(255)); }
}  // namespace detail
}  // namespace cass

// ---- errors -------------------------------------------------------------------------------------
inline cudaError_t cudaGetLastError() {
  cudaError_t e = static_cast<cudaError_t>(::cass::detail::t_last_error);
  ::cass::detail::t_last_error = 0;
  return e;
}
inline cudaError_t cudaPeekAtLastError() { return static_cast<cudaError_t>(::cass::detail::t_last_error); }
inline const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    default: return "cudaErrorUnknown";
  }
}
inline const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNotSupported: return "operation not supported";
    default: return cudaGetErrorName(e);
  }
}

// ---- device -------------------------------------------------------------------------------------
inline cudaError_t cudaGetDeviceCount(int* n) {
  *n = 1;
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int* d) {
  *d = 0;
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : ::cass::detail::fail(cudaErrorInvalidDevice); }
inline cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaThreadSynchronize() { return cudaSuccess; }
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
inline cudaError_t cudaDriverGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}
inline cudaError_t cudaRuntimeGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  if (device != 0) return ::cass::detail::fail(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "cass-cpu emulated device (warp %d)", CASS_CPU_WARP_SIZE);
  std::snprintf(p->gcnArchName, sizeof p->gcnArchName, "cass-cpu");
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  p->totalGlobalMem = static_cast<size_t>(pages) * static_cast<size_t>(page);
  p->sharedMemPerBlock = CASS_CPU_SHARED_PER_BLOCK;
  p->sharedMemPerBlockOptin = CASS_CPU_SHARED_PER_BLOCK_OPTIN;
  p->sharedMemPerMultiprocessor = p->maxSharedMemoryPerMultiProcessor = CASS_CPU_SHARED_PER_BLOCK_OPTIN;
  p->regsPerBlock = p->regsPerMultiprocessor = 65536;
  p->warpSize = CASS_CPU_WARP_SIZE;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = CASS_CPU_MAX_BLOCK_THREADS;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = p->maxGridSize[2] = 65535;
  p->clockRate = p->clockInstructionRate = 1000000;
  p->totalConstMem = 65536;
  p->major = 8;
  p->minor = 0;
  p->textureAlignment = 512;
  p->multiProcessorCount = static_cast<int>(::cass::detail::worker_count());
  p->canMapHostMemory = p->unifiedAddressing = p->managedMemory = p->concurrentManagedAccess = 1;
  p->pageableMemoryAccess = 1;
  p->maxThreadsPerMultiProcessor = 2048;
  p->maxBlocksPerMultiProcessor = 32;
  p->l2CacheSize = 4 << 20;
  p->memoryBusWidth = 256;
  p->memoryClockRate = 1000000;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, device) != cudaSuccess) return cudaErrorInvalidDevice;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    default: return ::cass::detail::fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetLimit(int, size_t) { return cudaSuccess; }
template <class F>
inline cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) { return cudaSuccess; }
template <class F>
inline cudaError_t cudaFuncSetCacheConfig(F, cudaFuncCache) { return cudaSuccess; }
template <class F>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* a, F) {
  std::memset(a, 0, sizeof *a);
  a->maxThreadsPerBlock = CASS_CPU_MAX_BLOCK_THREADS;
  a->maxDynamicSharedSizeBytes = CASS_CPU_SHARED_PER_BLOCK_OPTIN;
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, F, int block_size, size_t) {
  *n = block_size > 0 ? (2048 / block_size > 0 ? 2048 / block_size : 1) : 0;
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block, F, size_t = 0, int limit = 0) {
  *block = limit > 0 && limit < 256 ? limit : 256;
  *min_grid = 8 * static_cast<int>(::cass::detail::worker_count());
  return cudaSuccess;
}

// ---- memory -------------------------------------------------------------------------------------
inline cudaError_t cudaMalloc(void** p, size_t size) {
  *p = size == 0 ? nullptr : ::cass::detail::device_alloc(size);
  return size != 0 && *p == nullptr ? ::cass::detail::fail(cudaErrorMemoryAllocation) : cudaSuccess;
}
template <class T>
inline cudaError_t cudaMalloc(T** p, size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(p), size);
}
template <class T>
inline cudaError_t cudaMallocManaged(T** p, size_t size, unsigned = cudaMemAttachGlobal) {
  return cudaMalloc(reinterpret_cast<void**>(p), size);
}
template <class T>
inline cudaError_t cudaMallocHost(T** p, size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(p), size);
}
template <class T>
inline cudaError_t cudaHostAlloc(T** p, size_t size, unsigned) {
  return cudaMalloc(reinterpret_cast<void**>(p), size);
}
template <class T>
inline cudaError_t cudaMallocPitch(T** p, size_t* pitch, size_t width, size_t height) {
  *pitch = (width + 255) & ~size_t(255);
  return cudaMalloc(reinterpret_cast<void**>(p), *pitch * height);
}
inline cudaError_t cudaFree(void* p) {
  std::free(p);
  return cudaSuccess;
}
inline cudaError_t cudaFreeHost(void* p) {
  std::free(p);
  return cudaSuccess;
}
inline cudaError_t cudaHostRegister(void*, size_t, unsigned) { return cudaSuccess; }
inline cudaError_t cudaHostUnregister(void*) { return cudaSuccess; }
template <class T>
inline cudaError_t cudaHostGetDevicePointer(T** d, void* h, unsigned) {
  *d = static_cast<T*>(h);
  return cudaSuccess;
}
inline cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total) {
  long page = sysconf(_SC_PAGESIZE);
  *free_bytes = static_cast<size_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<size_t>(page);
  *total = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(page);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, cudaMemcpyKind = cudaMemcpyDefault) {
  // A GPU runtime refuses a size no allocation can have (programs test their error paths this way);
  // memmove would run off the end of the heap instead.
  if (n > static_cast<size_t>(PTRDIFF_MAX)) return ::cass::detail::fail(cudaErrorInvalidValue);
  if (n != 0) std::memmove(dst, src, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, cudaMemcpyKind k = cudaMemcpyDefault,
                                   cudaStream_t = nullptr) {
  return cudaMemcpy(dst, src, n, k);
}
inline cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                                cudaMemcpyKind = cudaMemcpyDefault) {
  for (size_t r = 0; r < height; ++r)
    std::memmove(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind k = cudaMemcpyDefault, cudaStream_t = nullptr) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, k);
}
inline cudaError_t cudaMemset(void* p, int value, size_t n) {
  std::memset(p, value, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void* p, int value, size_t n, cudaStream_t = nullptr) { return cudaMemset(p, value, n); }
inline cudaError_t cudaMemset2D(void* p, size_t pitch, int value, size_t width, size_t height) {
  for (size_t r = 0; r < height; ++r) std::memset(static_cast<char*>(p) + r * pitch, value, width);
  return cudaSuccess;
}
inline cudaError_t cudaMemPrefetchAsync(const void*, size_t, int, cudaStream_t = nullptr) { return cudaSuccess; }
inline cudaError_t cudaMemAdvise(const void*, size_t, int, int) { return cudaSuccess; }
// Symbols are ordinary globals here (__constant__ and __device__ are empty).
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t n, size_t offset = 0,
                                      cudaMemcpyKind = cudaMemcpyHostToDevice) {
  if (offset + n > sizeof(T)) return ::cass::detail::fail(cudaErrorInvalidValue);
  std::memcpy(reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset, src, n);
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t n, size_t offset = 0,
                                           cudaMemcpyKind k = cudaMemcpyHostToDevice, cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, src, n, offset, k);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t n, size_t offset = 0,
                                        cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  if (offset + n > sizeof(T)) return ::cass::detail::fail(cudaErrorInvalidValue);
  std::memcpy(dst, reinterpret_cast<const char*>(&symbol) + offset, n);
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t n, size_t offset = 0,
                                             cudaMemcpyKind k = cudaMemcpyDeviceToHost, cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(dst, symbol, n, offset, k);
}
template <class P, class T>
inline cudaError_t cudaGetSymbolAddress(P** p, const T& symbol) {
  *p = reinterpret_cast<P*>(const_cast<T*>(&symbol));
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaGetSymbolSize(size_t* n, const T&) {
  *n = sizeof(T);
  return cudaSuccess;
}

// ---- streams and events (synchronous) ---------------------------------------------------------
inline cudaError_t cudaStreamCreate(cudaStream_t* s) {
  *s = new CUstream_st{0};
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  *s = new CUstream_st{static_cast<int>(flags)};
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned flags, int) {
  return cudaStreamCreateWithFlags(s, flags);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (s != cudaStreamLegacy && s != cudaStreamPerThread) delete s;
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned = 0) { return cudaSuccess; }
inline cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t fn, void* data) {
  fn(data);
  return cudaSuccess;
}
inline cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void* data, unsigned) {
  cb(s, cudaSuccess, data);
  return cudaSuccess;
}
inline cudaError_t cudaEventCreate(cudaEvent_t* e) {
  *e = new CUevent_st{0.0};
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) { return cudaEventCreate(e); }
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr) {
  e->ms = ::cass::detail::now_ms();
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  *ms = static_cast<float>(end->ms - start->ms);
  return cudaSuccess;
}
inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
inline cudaError_t cudaProfilerStop() { return cudaSuccess; }

// ---- launching without <<<>>> -------------------------------------------------------------------
namespace cass {
namespace detail {
template <class... P, size_t... I>
inline cudaError_t launch_packed(void (*f)(P...), dim3 g, dim3 b, void** args, size_t shmem,
                                 std::index_sequence<I...>) {
  t_last_error = 0;
  ::cass::launch("cudaLaunchKernel", g, b, shmem)([&] { f(*static_cast<std::remove_reference_t<P>*>(args[I])...); });
  return static_cast<cudaError_t>(t_last_error);
}
}  // namespace detail
}  // namespace cass
template <class... P>
inline cudaError_t cudaLaunchKernel(void (*f)(P...), dim3 g, dim3 b, void** args, size_t shmem = 0,
                                    cudaStream_t = nullptr) {
  return ::cass::detail::launch_packed(f, g, b, args, shmem, std::index_sequence_for<P...>{});
}
// Through an untyped pointer the parameter types are lost, and with them how to read args[].
inline cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, size_t = 0, cudaStream_t = nullptr) {
  ::cass::detail::cannot_run("cudaLaunchKernel through an untyped (void*) kernel pointer");
}
template <class... A>
inline cudaError_t cudaLaunchCooperativeKernel(A...) {
  ::cass::detail::cannot_run("cooperative launch (grid-wide synchronization)");
}
