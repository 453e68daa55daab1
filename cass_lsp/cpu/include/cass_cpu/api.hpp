// The host API subset (CUDA names; hip_api.hpp maps HIP names onto these). Device memory is host
// memory; streams and events run synchronously; the device described is the emulator itself.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <malloc.h>
#include <utility>

#include "sched.hpp"
#include "record.hpp"

#include "enums.hpp"

static_assert(cudaErrorInvalidConfiguration == ::cass::detail::kInvalidConfiguration, "launch error code");

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

struct CUgraph_st;
struct CUstream_st {
  int flags;
  CUgraph_st* capture = nullptr;  // the graph this stream's work goes into while it captures (graph.hpp)
};
struct CUevent_st {
  double ms;
  bool captured = false;  // recorded on a capturing stream: a capture across streams (refused)
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
#define cudaHostRegisterPortable 0x1
#define cudaHostRegisterMapped 0x2
#define cudaMemAttachGlobal 0x1
#define cudaMemAttachHost 0x2
#define cudaMemAttachSingle 0x4
#define cudaDeviceScheduleAuto 0x0
#define cudaDeviceScheduleSpin 0x1
#define cudaDeviceScheduleYield 0x2
#define cudaDeviceScheduleBlockingSync 0x4
#define cudaDeviceBlockingSync 0x4  // the deprecated name, as cuda-samples' simpleStreams spells it
#define cudaDeviceScheduleMask 0x7
#define cudaDeviceMapHost 0x8
#define cudaDeviceLmemResizeToMax 0x10
#define cudaCpuDeviceId (-1)

struct cudaUUID_t {
  char bytes[16];
};
// Every field of CUDA 12's cudaDeviceProp (CUDA 13 dropped clockRate, computeMode and a few more;
// programs written for 12 still read them), then the hipDeviceProp_t fields HIP programs read.
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory, computeMode,
      maxTexture1D, maxTexture1DMipmap, maxTexture1DLinear, maxTexture2D[2], maxTexture2DMipmap[2],
      maxTexture2DLinear[3], maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap,
      maxTexture1DLayered[2], maxTexture2DLayered[3], maxTextureCubemapLayered[2], maxSurface1D, maxSurface2D[2],
      maxSurface3D[3], maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap,
      maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount,
      unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize,
      maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported,
      singleToDoublePrecisionPerfRatio, pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported,
      canUseHostPointerForRegisteredMem, cooperativeLaunch, cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor,
      accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported,
      timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers,
      deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
  unsigned int gpuPciDeviceID, gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
  // hipDeviceProp_t's own fields.
  char gcnArchName[256];
  int gcnArch, asicRevision, isLargeBar, clockInstructionRate, cooperativeMultiDeviceUnmatchedFunc,
      cooperativeMultiDeviceUnmatchedGridDim, cooperativeMultiDeviceUnmatchedBlockDim,
      cooperativeMultiDeviceUnmatchedSharedMem;
  size_t maxSharedMemoryPerMultiProcessor;
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
// mempool.hpp's (included at the end): a free that returns a pool's block, and a synchronize's
// release of what each pool keeps above its release threshold.
inline bool pool_free(void* p);
inline void pools_synchronized();
inline double now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
// Bytes the program holds through the allocation calls: cudaMemGetInfo's free memory is the total
// less these, so it is the same from run to run (the machine's free memory is not) and falls with
// the program's allocations, as on a GPU.
inline size_t g_allocated = 0;
inline void* device_alloc(size_t size) {
  void* p = std::aligned_alloc(256, (size + 255) & ~size_t(255));
  if (p != nullptr) __atomic_add_fetch(&g_allocated, malloc_usable_size(p), __ATOMIC_RELAXED);
  return p;
}
inline void device_free(void* p) {
  ::cass::record::freed(p);
  if (p != nullptr) __atomic_sub_fetch(&g_allocated, malloc_usable_size(p), __ATOMIC_RELAXED);
  std::free(p);
}
}  // namespace detail
}  // namespace cass

// ---- errors -------------------------------------------------------------------------------------
namespace cass {
namespace detail {
// The error a failed device-side assert or trap left; every call that waits for the device reports it.
inline cudaError_t sticky() { return static_cast<cudaError_t>(__atomic_load_n(&g_sticky_error, __ATOMIC_ACQUIRE)); }
}  // namespace detail
}  // namespace cass
inline cudaError_t cudaGetLastError() {
  cudaError_t e = static_cast<cudaError_t>(::cass::detail::t_last_error);
  ::cass::detail::t_last_error = 0;
  return e != cudaSuccess ? e : ::cass::detail::sticky();
}
inline cudaError_t cudaPeekAtLastError() {
  cudaError_t e = static_cast<cudaError_t>(::cass::detail::t_last_error);
  return e != cudaSuccess ? e : ::cass::detail::sticky();
}
// The CUDA runtime's own messages for the errors a program commonly prints; the others by name.
inline const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidPitchValue: return "invalid pitch argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorMissingConfiguration: return "__global__ function call is not configured";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNoKernelImageForDevice: return "no kernel image is available for execution on the device";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorIllegalInstruction: return "an illegal instruction was encountered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotPermitted: return "operation not permitted";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
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
namespace cass {
namespace detail {
inline unsigned g_device_flags = 0;
}  // namespace detail
}  // namespace cass
inline cudaError_t cudaSetDeviceFlags(unsigned flags) {
  ::cass::detail::g_device_flags = flags;
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceFlags(unsigned* flags) {
  *flags = ::cass::detail::g_device_flags;
  return cudaSuccess;
}
inline cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp*) {
  *device = 0;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetPCIBusId(char* id, int len, int device) {
  if (device != 0) return ::cass::detail::fail(cudaErrorInvalidDevice);
  std::snprintf(id, static_cast<size_t>(len), "0000:00:00.0");
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSynchronize() {
  ::cass::detail::pools_synchronized();
  return ::cass::detail::sticky();
}
inline cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
// A reset ends the context and with it a sticky error, as on a GPU.
inline cudaError_t cudaDeviceReset() {
  __atomic_store_n(&::cass::detail::g_sticky_error, 0, __ATOMIC_RELEASE);
  ::cass::detail::t_last_error = 0;
  return cudaSuccess;
}
inline cudaError_t cudaThreadExit() { return cudaDeviceReset(); }
inline cudaError_t cudaDriverGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}
inline cudaError_t cudaRuntimeGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}
// The emulated device: a compute capability 8.0 GPU whose multiprocessors are the worker threads.
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  if (device != 0) return ::cass::detail::fail(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "cass-cpu emulated device (warp %d)", CASS_CPU_WARP_SIZE);
  std::snprintf(p->gcnArchName, sizeof p->gcnArchName, "cass-cpu");
  std::memcpy(p->uuid.bytes, "cass-cpu-device0", 16);
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  p->totalGlobalMem = static_cast<size_t>(pages) * static_cast<size_t>(page);
  p->sharedMemPerBlock = CASS_CPU_SHARED_PER_BLOCK;
  p->sharedMemPerBlockOptin = CASS_CPU_SHARED_PER_BLOCK_OPTIN;
  p->sharedMemPerMultiprocessor = p->maxSharedMemoryPerMultiProcessor = CASS_CPU_SHARED_PER_BLOCK_OPTIN + 1024;
  p->reservedSharedMemPerBlock = 1024;
  p->regsPerBlock = p->regsPerMultiprocessor = 65536;
  p->warpSize = CASS_CPU_WARP_SIZE;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = CASS_CPU_MAX_BLOCK_THREADS;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = p->maxGridSize[2] = 65535;
  p->clockRate = p->clockInstructionRate = 1410000;  // kHz
  p->memoryClockRate = 1215000;
  p->memoryBusWidth = 5120;
  p->totalConstMem = 65536;
  p->major = 8;
  p->minor = 0;
  p->gcnArch = 800;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->surfaceAlignment = 512;
  p->multiProcessorCount = static_cast<int>(::cass::detail::worker_count());
  p->deviceOverlap = p->concurrentKernels = 1;
  p->cooperativeLaunch = 1;  // coop.hpp: every block of a cooperative grid is resident at once
  p->asyncEngineCount = 2;
  p->computeMode = 0;  // cudaComputeModeDefault
  p->maxTexture1D = 131072;
  p->maxTexture1DMipmap = 32768;
  p->maxTexture1DLinear = 268435456;
  p->maxTexture2D[0] = 131072;
  p->maxTexture2D[1] = 65536;
  p->maxTexture2DMipmap[0] = p->maxTexture2DMipmap[1] = 32768;
  p->maxTexture2DLinear[0] = p->maxTexture2DLinear[1] = 131072;
  p->maxTexture2DLinear[2] = 2097120;
  p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = 32768;
  p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
  p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = 8192;
  p->maxTexture3DAlt[2] = 32768;
  p->maxTextureCubemap = 32768;
  p->maxTexture1DLayered[0] = 32768;
  p->maxTexture1DLayered[1] = 2048;
  p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768;
  p->maxTexture2DLayered[2] = 2048;
  p->maxTextureCubemapLayered[0] = 32768;
  p->maxTextureCubemapLayered[1] = 2046;
  p->maxSurface1D = 32768;
  p->maxSurface2D[0] = 131072;
  p->maxSurface2D[1] = 65536;
  p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = 16384;
  p->maxSurface1DLayered[0] = 32768;
  p->maxSurface1DLayered[1] = 2048;
  p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768;
  p->maxSurface2DLayered[2] = 2048;
  p->maxSurfaceCubemap = 32768;
  p->maxSurfaceCubemapLayered[0] = 32768;
  p->maxSurfaceCubemapLayered[1] = 2046;
  p->canMapHostMemory = p->unifiedAddressing = p->managedMemory = p->concurrentManagedAccess = 1;
  p->pageableMemoryAccess = p->pageableMemoryAccessUsesHostPageTables = p->directManagedMemAccessFromHost = 1;
  p->hostNativeAtomicSupported = p->canUseHostPointerForRegisteredMem = p->hostRegisterSupported = 1;
  p->streamPrioritiesSupported = p->globalL1CacheSupported = p->localL1CacheSupported = 1;
  p->computePreemptionSupported = p->memoryPoolsSupported = p->unifiedFunctionPointers = 1;
  p->singleToDoublePrecisionPerfRatio = 2;
  p->maxThreadsPerMultiProcessor = 2048;
  p->maxBlocksPerMultiProcessor = 32;
  p->l2CacheSize = 40 << 20;
  p->persistingL2CacheMaxSize = 30 << 20;
  p->accessPolicyMaxWindowSize = 134213632;
  p->deviceNumaId = p->hostNumaId = -1;
  p->isLargeBar = 1;
  return cudaSuccess;
}
namespace cass {
namespace detail {
// cudaDeviceGetAttribute's answers: the property an attribute mirrors; 0 (unsupported feature) for
// the attributes no field describes.
inline int device_attribute(const cudaDeviceProp& p, cudaDeviceAttr attr) {
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: return p.maxThreadsPerBlock;
    case cudaDevAttrMaxBlockDimX: return p.maxThreadsDim[0];
    case cudaDevAttrMaxBlockDimY: return p.maxThreadsDim[1];
    case cudaDevAttrMaxBlockDimZ: return p.maxThreadsDim[2];
    case cudaDevAttrMaxGridDimX: return p.maxGridSize[0];
    case cudaDevAttrMaxGridDimY: return p.maxGridSize[1];
    case cudaDevAttrMaxGridDimZ: return p.maxGridSize[2];
    case cudaDevAttrMaxSharedMemoryPerBlock: return static_cast<int>(p.sharedMemPerBlock);
    case cudaDevAttrTotalConstantMemory: return static_cast<int>(p.totalConstMem);
    case cudaDevAttrWarpSize: return p.warpSize;
    case cudaDevAttrMaxPitch: return static_cast<int>(p.memPitch);
    case cudaDevAttrMaxRegistersPerBlock: return p.regsPerBlock;
    case cudaDevAttrClockRate: return p.clockRate;
    case cudaDevAttrTextureAlignment: return static_cast<int>(p.textureAlignment);
    case cudaDevAttrGpuOverlap: return p.deviceOverlap;
    case cudaDevAttrMultiProcessorCount: return p.multiProcessorCount;
    case cudaDevAttrKernelExecTimeout: return p.kernelExecTimeoutEnabled;
    case cudaDevAttrIntegrated: return p.integrated;
    case cudaDevAttrCanMapHostMemory: return p.canMapHostMemory;
    case cudaDevAttrComputeMode: return p.computeMode;
    case cudaDevAttrMaxTexture1DWidth: return p.maxTexture1D;
    case cudaDevAttrMaxTexture2DWidth: return p.maxTexture2D[0];
    case cudaDevAttrMaxTexture2DHeight: return p.maxTexture2D[1];
    case cudaDevAttrMaxTexture3DWidth: return p.maxTexture3D[0];
    case cudaDevAttrMaxTexture3DHeight: return p.maxTexture3D[1];
    case cudaDevAttrMaxTexture3DDepth: return p.maxTexture3D[2];
    case cudaDevAttrMaxTexture2DLayeredWidth: return p.maxTexture2DLayered[0];
    case cudaDevAttrMaxTexture2DLayeredHeight: return p.maxTexture2DLayered[1];
    case cudaDevAttrMaxTexture2DLayeredLayers: return p.maxTexture2DLayered[2];
    case cudaDevAttrSurfaceAlignment: return static_cast<int>(p.surfaceAlignment);
    case cudaDevAttrConcurrentKernels: return p.concurrentKernels;
    case cudaDevAttrEccEnabled: return p.ECCEnabled;
    case cudaDevAttrPciBusId: return p.pciBusID;
    case cudaDevAttrPciDeviceId: return p.pciDeviceID;
    case cudaDevAttrTccDriver: return p.tccDriver;
    case cudaDevAttrMemoryClockRate: return p.memoryClockRate;
    case cudaDevAttrGlobalMemoryBusWidth: return p.memoryBusWidth;
    case cudaDevAttrL2CacheSize: return p.l2CacheSize;
    case cudaDevAttrMaxThreadsPerMultiProcessor: return p.maxThreadsPerMultiProcessor;
    case cudaDevAttrAsyncEngineCount: return p.asyncEngineCount;
    case cudaDevAttrUnifiedAddressing: return p.unifiedAddressing;
    case cudaDevAttrMaxTexture1DLayeredWidth: return p.maxTexture1DLayered[0];
    case cudaDevAttrMaxTexture1DLayeredLayers: return p.maxTexture1DLayered[1];
    case cudaDevAttrMaxTexture2DGatherWidth: return p.maxTexture2DGather[0];
    case cudaDevAttrMaxTexture2DGatherHeight: return p.maxTexture2DGather[1];
    case cudaDevAttrMaxTexture3DWidthAlt: return p.maxTexture3DAlt[0];
    case cudaDevAttrMaxTexture3DHeightAlt: return p.maxTexture3DAlt[1];
    case cudaDevAttrMaxTexture3DDepthAlt: return p.maxTexture3DAlt[2];
    case cudaDevAttrPciDomainId: return p.pciDomainID;
    case cudaDevAttrTexturePitchAlignment: return static_cast<int>(p.texturePitchAlignment);
    case cudaDevAttrMaxTextureCubemapWidth: return p.maxTextureCubemap;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: return p.maxTextureCubemapLayered[0];
    case cudaDevAttrMaxTextureCubemapLayeredLayers: return p.maxTextureCubemapLayered[1];
    case cudaDevAttrMaxSurface1DWidth: return p.maxSurface1D;
    case cudaDevAttrMaxSurface2DWidth: return p.maxSurface2D[0];
    case cudaDevAttrMaxSurface2DHeight: return p.maxSurface2D[1];
    case cudaDevAttrMaxSurface3DWidth: return p.maxSurface3D[0];
    case cudaDevAttrMaxSurface3DHeight: return p.maxSurface3D[1];
    case cudaDevAttrMaxSurface3DDepth: return p.maxSurface3D[2];
    case cudaDevAttrMaxSurface1DLayeredWidth: return p.maxSurface1DLayered[0];
    case cudaDevAttrMaxSurface1DLayeredLayers: return p.maxSurface1DLayered[1];
    case cudaDevAttrMaxSurface2DLayeredWidth: return p.maxSurface2DLayered[0];
    case cudaDevAttrMaxSurface2DLayeredHeight: return p.maxSurface2DLayered[1];
    case cudaDevAttrMaxSurface2DLayeredLayers: return p.maxSurface2DLayered[2];
    case cudaDevAttrMaxSurfaceCubemapWidth: return p.maxSurfaceCubemap;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: return p.maxSurfaceCubemapLayered[0];
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: return p.maxSurfaceCubemapLayered[1];
    case cudaDevAttrMaxTexture1DLinearWidth: return p.maxTexture1DLinear;
    case cudaDevAttrMaxTexture2DLinearWidth: return p.maxTexture2DLinear[0];
    case cudaDevAttrMaxTexture2DLinearHeight: return p.maxTexture2DLinear[1];
    case cudaDevAttrMaxTexture2DLinearPitch: return p.maxTexture2DLinear[2];
    case cudaDevAttrMaxTexture2DMipmappedWidth: return p.maxTexture2DMipmap[0];
    case cudaDevAttrMaxTexture2DMipmappedHeight: return p.maxTexture2DMipmap[1];
    case cudaDevAttrComputeCapabilityMajor: return p.major;
    case cudaDevAttrComputeCapabilityMinor: return p.minor;
    case cudaDevAttrMaxTexture1DMipmappedWidth: return p.maxTexture1DMipmap;
    case cudaDevAttrStreamPrioritiesSupported: return p.streamPrioritiesSupported;
    case cudaDevAttrGlobalL1CacheSupported: return p.globalL1CacheSupported;
    case cudaDevAttrLocalL1CacheSupported: return p.localL1CacheSupported;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return static_cast<int>(p.sharedMemPerMultiprocessor);
    case cudaDevAttrMaxRegistersPerMultiprocessor: return p.regsPerMultiprocessor;
    case cudaDevAttrManagedMemory: return p.managedMemory;
    case cudaDevAttrIsMultiGpuBoard: return p.isMultiGpuBoard;
    case cudaDevAttrMultiGpuBoardGroupID: return p.multiGpuBoardGroupID;
    case cudaDevAttrHostNativeAtomicSupported: return p.hostNativeAtomicSupported;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: return p.singleToDoublePrecisionPerfRatio;
    case cudaDevAttrPageableMemoryAccess: return p.pageableMemoryAccess;
    case cudaDevAttrConcurrentManagedAccess: return p.concurrentManagedAccess;
    case cudaDevAttrComputePreemptionSupported: return p.computePreemptionSupported;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: return p.canUseHostPointerForRegisteredMem;
    case cudaDevAttrCooperativeLaunch: return p.cooperativeLaunch;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return static_cast<int>(p.sharedMemPerBlockOptin);
    case cudaDevAttrHostRegisterSupported: return p.hostRegisterSupported;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: return p.pageableMemoryAccessUsesHostPageTables;
    case cudaDevAttrDirectManagedMemAccessFromHost: return p.directManagedMemAccessFromHost;
    case cudaDevAttrMaxBlocksPerMultiprocessor: return p.maxBlocksPerMultiProcessor;
    case cudaDevAttrMaxPersistingL2CacheSize: return p.persistingL2CacheMaxSize;
    case cudaDevAttrMaxAccessPolicyWindowSize: return p.accessPolicyMaxWindowSize;
    case cudaDevAttrReservedSharedMemoryPerBlock: return static_cast<int>(p.reservedSharedMemPerBlock);
    case cudaDevAttrSparseCudaArraySupported: return p.sparseCudaArraySupported;
    case cudaDevAttrHostRegisterReadOnlySupported: return p.hostRegisterReadOnlySupported;
    case cudaDevAttrTimelineSemaphoreInteropSupported: return p.timelineSemaphoreInteropSupported;
    case cudaDevAttrMemoryPoolsSupported: return p.memoryPoolsSupported;
    case cudaDevAttrGPUDirectRDMASupported: return p.gpuDirectRDMASupported;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: return static_cast<int>(p.gpuDirectRDMAFlushWritesOptions);
    case cudaDevAttrGPUDirectRDMAWritesOrdering: return p.gpuDirectRDMAWritesOrdering;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: return static_cast<int>(p.memoryPoolSupportedHandleTypes);
    case cudaDevAttrClusterLaunch: return p.clusterLaunch;
    case cudaDevAttrDeferredMappingCudaArraySupported: return p.deferredMappingCudaArraySupported;
    case cudaDevAttrIpcEventSupport: return p.ipcEventSupported;
    case cudaDevAttrMemSyncDomainCount: return 1;
    case cudaDevAttrNumaConfig: return p.deviceNumaConfig;
    case cudaDevAttrNumaId: return p.deviceNumaId;
    case cudaDevAttrMpsEnabled: return p.mpsEnabled;
    case cudaDevAttrHostNumaId: return p.hostNumaId;
    case cudaDevAttrGpuPciDeviceId: return static_cast<int>(p.gpuPciDeviceID);
    case cudaDevAttrGpuPciSubsystemId: return static_cast<int>(p.gpuPciSubsystemID);
    case cudaDevAttrHostNumaMultinodeIpcSupported: return p.hostNumaMultinodeIpcSupported;
    default: return 0;
  }
}
}  // namespace detail
}  // namespace cass
inline cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, device) != cudaSuccess) return cudaErrorInvalidDevice;
  if (value == nullptr || !cass_known_device_attr(attr)) return ::cass::detail::fail(cudaErrorInvalidValue);
  *value = ::cass::detail::device_attribute(p, attr);
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }
enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06,
};
namespace cass {
namespace detail {
// What cudaDeviceGetLimit reports: the values set, CUDA's defaults before. They limit nothing here
// (a fiber's stack is CASS_CPU_STACK_KB; device printf and malloc are the C library's).
inline size_t g_limits[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 64, 0};
}  // namespace detail
}  // namespace cass
inline cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (limit < 0 || limit > cudaLimitPersistingL2CacheSize) return ::cass::detail::fail(cudaErrorUnsupportedLimit);
  ::cass::detail::g_limits[limit] = value;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (limit < 0 || limit > cudaLimitPersistingL2CacheSize) return ::cass::detail::fail(cudaErrorUnsupportedLimit);
  *value = ::cass::detail::g_limits[limit];
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* c) {
  *c = cudaFuncCachePreferNone;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least != nullptr) *least = 0;
  if (greatest != nullptr) *greatest = -5;
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaFuncSetSharedMemConfig(F, cudaSharedMemConfig) {
  return cudaSuccess;
}
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
  *n = ::cass::detail::blocks_per_sm(block_size);
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block, F, size_t = 0, int limit = 0) {
  *block = limit > 0 && limit < 256 ? limit : 256;
  *min_grid = 8 * static_cast<int>(::cass::detail::worker_count());
  return cudaSuccess;
}

// ---- memory -------------------------------------------------------------------------------------
inline cudaError_t cudaMalloc(void** p, size_t size, int line = __builtin_LINE()) {
  if (::cass::detail::sticky() != cudaSuccess) return ::cass::detail::sticky();
  *p = size == 0 ? nullptr : ::cass::detail::device_alloc(size);
  ::cass::record::allocated(*p, size, line);
  return size != 0 && *p == nullptr ? ::cass::detail::fail(cudaErrorMemoryAllocation) : cudaSuccess;
}
template <class T>
inline cudaError_t cudaMalloc(T** p, size_t size, int line = __builtin_LINE()) {
  return cudaMalloc(reinterpret_cast<void**>(p), size, line);
}
template <class T>
inline cudaError_t cudaMallocManaged(T** p, size_t size, unsigned = cudaMemAttachGlobal, int line = __builtin_LINE()) {
  return cudaMalloc(reinterpret_cast<void**>(p), size, line);
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
inline cudaError_t cudaMallocPitch(T** p, size_t* pitch, size_t width, size_t height, int line = __builtin_LINE()) {
  *pitch = (width + 255) & ~size_t(255);
  return cudaMalloc(reinterpret_cast<void**>(p), *pitch * height, line);
}
enum cudaMemoryType { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
};
// Device and host memory are one here: every pointer reads as managed memory, reachable from both.
inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* a, const void* p) {
  a->type = p != nullptr ? cudaMemoryTypeManaged : cudaMemoryTypeUnregistered;
  a->device = 0;
  a->devicePointer = a->hostPointer = const_cast<void*>(p);
  return cudaSuccess;
}
// (cudaMallocAsync and the memory pools are in mempool.hpp: a free of a pool's block returns it to
// its pool, as cudaFree of cudaMallocAsync's memory does on a GPU)
inline cudaError_t cudaFreeAsync(void* p, cudaStream_t s) {
  if (::cass::detail::capturing(s))
    ::cass::detail::cannot_run("cudaFreeAsync on a capturing stream (graph memory nodes are not executed)");
  if (!::cass::detail::pool_free(p)) ::cass::detail::device_free(p);
  return cudaSuccess;
}
inline cudaError_t cudaFree(void* p) {
  if (!::cass::detail::pool_free(p)) ::cass::detail::device_free(p);
  return cudaSuccess;
}
inline cudaError_t cudaFreeHost(void* p) {
  ::cass::detail::device_free(p);
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
  *total = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(page);
  size_t held = __atomic_load_n(&::cass::detail::g_allocated, __ATOMIC_RELAXED);
  *free_bytes = held < *total ? *total - held : 0;
  return cudaSuccess;
}
namespace cass {
namespace detail {
// Every linear copy: ``type`` names the host destination's elements for the copy record.
inline cudaError_t copy(void* dst, const void* src, size_t n, cudaMemcpyKind kind, const char* type, int line) {
  // After a failed device-side assert a GPU copies nothing more.
  if (::cass::detail::sticky() != cudaSuccess) return ::cass::detail::sticky();
  // A GPU runtime refuses a size no allocation can have (programs test their error paths this way);
  // memmove would run off the end of the heap instead.
  if (n > static_cast<size_t>(PTRDIFF_MAX)) return ::cass::detail::fail(cudaErrorInvalidValue);
  if (n != 0) std::memmove(dst, src, n);
  if (::cass::record::to_host(dst, src, kind)) ::cass::record::copied(src, n, n, 1, type, line);
  return cudaSuccess;
}
}  // namespace detail
}  // namespace cass
inline cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, cudaMemcpyKind kind = cudaMemcpyDefault,
                              int line = __builtin_LINE()) {
  return ::cass::detail::copy(dst, src, n, kind, "bytes", line);
}
// Typed destinations: the copy record compares their elements as numbers.
template <class D>
inline cudaError_t cudaMemcpy(D* dst, const void* src, size_t n, cudaMemcpyKind kind = cudaMemcpyDefault,
                              int line = __builtin_LINE()) {
  return ::cass::detail::copy(dst, src, n, kind, ::cass::record::type_of<D>(), line);
}
// One emulated device: no peer to reach. Programs guard their multi-GPU path with
// cudaGetDeviceCount; what reaches these gets a GPU's answers for a device that does not exist.
inline cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
  if (device != 0 || peer != 0) return ::cass::detail::fail(cudaErrorInvalidDevice);
  *can = 0;  // a device is not its own peer
  return cudaSuccess;
}
inline cudaError_t cudaDeviceEnablePeerAccess(int, unsigned) { return ::cass::detail::fail(cudaErrorInvalidDevice); }
inline cudaError_t cudaDeviceDisablePeerAccess(int) { return ::cass::detail::fail(cudaErrorPeerAccessNotEnabled); }
inline cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t n) {
  if (dst_device != 0 || src_device != 0) return ::cass::detail::fail(cudaErrorInvalidDevice);
  return cudaMemcpy(dst, src, n);
}
inline cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t n,
                                       cudaStream_t = nullptr) {
  return cudaMemcpyPeer(dst, dst_device, src, src_device, n);
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, cudaMemcpyKind k = cudaMemcpyDefault,
                                   cudaStream_t s = nullptr, int line = __builtin_LINE()) {
  if (::cass::detail::capturing(s))
    return ::cass::detail::capture(s, [=] { ::cass::detail::copy(dst, src, n, k, "bytes", line); }), cudaSuccess;
  return ::cass::detail::copy(dst, src, n, k, "bytes", line);
}
template <class D>
inline cudaError_t cudaMemcpyAsync(D* dst, const void* src, size_t n, cudaMemcpyKind k = cudaMemcpyDefault,
                                   cudaStream_t s = nullptr, int line = __builtin_LINE()) {
  if (::cass::detail::capturing(s))
    return ::cass::detail::capture(s, [=] { ::cass::detail::copy(dst, src, n, k, ::cass::record::type_of<D>(), line); }),
           cudaSuccess;
  return ::cass::detail::copy(dst, src, n, k, ::cass::record::type_of<D>(), line);
}
namespace cass {
namespace detail {
inline cudaError_t copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                           cudaMemcpyKind kind, const char* type, int line) {
  for (size_t r = 0; r < height; ++r)
    std::memmove(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width);
  if (::cass::record::to_host(dst, src, kind)) ::cass::record::copied(src, width, spitch, height, type, line);
  return cudaSuccess;
}
}  // namespace detail
}  // namespace cass
template <class D>
inline cudaError_t cudaMemcpy2D(D* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                                cudaMemcpyKind kind = cudaMemcpyDefault, int line = __builtin_LINE()) {
  return ::cass::detail::copy_2d(dst, dpitch, src, spitch, width, height, kind, ::cass::record::type_of<D>(), line);
}
template <class D>
inline cudaError_t cudaMemcpy2DAsync(D* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind = cudaMemcpyDefault, cudaStream_t = nullptr,
                                     int line = __builtin_LINE()) {
  return ::cass::detail::copy_2d(dst, dpitch, src, spitch, width, height, kind, ::cass::record::type_of<D>(), line);
}
inline cudaError_t cudaMemset(void* p, int value, size_t n) {
  if (::cass::detail::sticky() != cudaSuccess) return ::cass::detail::sticky();
  std::memset(p, value, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void* p, int value, size_t n, cudaStream_t s = nullptr) {
  if (::cass::detail::capturing(s)) return ::cass::detail::capture(s, [=] { cudaMemset(p, value, n); }), cudaSuccess;
  return cudaMemset(p, value, n);
}
inline cudaError_t cudaMemset2D(void* p, size_t pitch, int value, size_t width, size_t height) {
  for (size_t r = 0; r < height; ++r) std::memset(static_cast<char*>(p) + r * pitch, value, width);
  return cudaSuccess;
}
inline cudaError_t cudaMemPrefetchAsync(const void*, size_t, int, cudaStream_t = nullptr) { return cudaSuccess; }
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6,
};
inline cudaError_t cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, int) { return cudaSuccess; }
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
                                        cudaMemcpyKind = cudaMemcpyDeviceToHost, int line = __builtin_LINE()) {
  if (offset + n > sizeof(T)) return ::cass::detail::fail(cudaErrorInvalidValue);
  const char* from = reinterpret_cast<const char*>(&symbol) + offset;
  std::memcpy(dst, from, n);
  if (::cass::record::recording()) ::cass::record::copied(from, n, n, 1, ::cass::record::type_of<T>(), line);
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t n, size_t offset = 0,
                                             cudaMemcpyKind k = cudaMemcpyDeviceToHost, cudaStream_t = nullptr,
                                             int line = __builtin_LINE()) {
  return cudaMemcpyFromSymbol(dst, symbol, n, offset, k, line);
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
inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void*, size_t = 0, unsigned = cudaMemAttachSingle) {
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) {
  ::cass::detail::pools_synchronized();
  return ::cass::detail::sticky();
}
inline cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned = 0) {
  if (e != nullptr && e->captured && !::cass::detail::capturing(s))
    ::cass::detail::cannot_run("stream capture across streams (cudaStreamWaitEvent on an event recorded while "
                               "capturing): the CPU runtime captures one stream into a graph");
  return cudaSuccess;
}
inline cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void* data) {
  if (::cass::detail::capturing(s)) return ::cass::detail::capture(s, [=] { fn(data); }), cudaSuccess;
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
inline cudaError_t cudaStreamGetPriority(cudaStream_t, int* priority) {
  *priority = 0;
  return cudaSuccess;
}
inline cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned* flags) {
  *flags = s != nullptr && s != cudaStreamLegacy && s != cudaStreamPerThread ? static_cast<unsigned>(s->flags) : 0u;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = nullptr) {
  e->captured = ::cass::detail::capturing(s);
  e->ms = ::cass::detail::now_ms();
  return cudaSuccess;
}
inline cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s = nullptr, unsigned = 0) {
  return cudaEventRecord(e, s);
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) {
  ::cass::detail::pools_synchronized();
  return ::cass::detail::sticky();
}
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
inline cudaError_t launch_packed(void (*f)(P...), dim3 g, dim3 b, void** args, size_t shmem, cudaStream_t stream,
                                 std::index_sequence<I...>, bool cooperative = false) {
  t_last_error = 0;
  Launcher launcher =
      ::cass::launch(cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel", g, b, shmem, stream);
  launcher.cooperative = cooperative;
  // The values are stored with the launch, as <<<>>>'s are (a captured launch outlives args[]).
  launcher([f](auto&... a) { f(a...); }, *static_cast<std::remove_reference_t<P>*>(args[I])...);
  return static_cast<cudaError_t>(t_last_error);
}
}  // namespace detail
}  // namespace cass
template <class... P>
inline cudaError_t cudaLaunchKernel(void (*f)(P...), dim3 g, dim3 b, void** args, size_t shmem = 0,
                                    cudaStream_t stream = nullptr) {
  return ::cass::detail::launch_packed(f, g, b, args, shmem, stream, std::index_sequence_for<P...>{});
}
// Through an untyped pointer the parameter types are lost, and with them how to read args[].
inline cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, size_t = 0, cudaStream_t = nullptr) {
  ::cass::detail::cannot_run("cudaLaunchKernel through an untyped (void*) kernel pointer");
}
// As on a GPU, a cooperative grid must fit on the device at once: at most the occupancy
// calculator's blocks per multiprocessor times multiProcessorCount, or cudaErrorCooperativeLaunchTooLarge.
// (rewrite.py drops the usual `(void*)` cast of the kernel, which would lose its parameter types.)
template <class... P>
inline cudaError_t cudaLaunchCooperativeKernel(void (*f)(P...), dim3 g, dim3 b, void** args, size_t shmem = 0,
                                               cudaStream_t stream = nullptr) {
  if (::cass::detail::sticky() != cudaSuccess) return ::cass::detail::sticky();
  const unsigned long long blocks = 1ull * g.x * g.y * g.z;
  if (blocks > ::cass::detail::cooperative_grid_limit(b.x * b.y * b.z))
    return ::cass::detail::fail(cudaErrorCooperativeLaunchTooLarge);
  return ::cass::detail::launch_packed(f, g, b, args, shmem, stream, std::index_sequence_for<P...>{}, true);
}
inline cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, size_t = 0, cudaStream_t = nullptr) {
  ::cass::detail::cannot_run("cudaLaunchCooperativeKernel through an untyped (void*) kernel pointer");
}

#include "mempool.hpp"  // defines pool_free and pools_synchronized, declared above
