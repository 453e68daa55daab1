// CUDA/HIP graphs on the CPU runtime: stream capture and explicitly built graphs, run node by node.
//
// Streams run their work at the call, so a graph is a list of deferred calls: while a stream
// captures (cudaStreamBeginCapture), its kernel launches (their arguments stored, as a GPU's
// capture stores them), cudaMemcpyAsync, cudaMemsetAsync and cudaLaunchHostFunc become nodes, each
// depending on the one before. cudaGraphInstantiate orders the nodes by their dependencies (a
// topological order, ties in the order the nodes were added: the stream's order for a captured
// graph); cudaGraphLaunch runs them in that order, one after another. Explicit graphs take empty,
// host, 1-D memcpy and memset nodes and cudaGraphAddDependencies. Kernel nodes built by hand
// (cudaGraphAddKernelNode's cudaKernelNodeParams holds the kernel as a void*, which loses its
// parameter types), 3-D memcpy nodes, child graphs and the update functions are refused by
// name before the build (cass_lsp/cpu/refuse.py: any cudaGraph*/hipGraph* name this header does
// not declare, as cass_lsp/cpu/declared.py reads it), and capture across streams stops the run.
#pragma once
#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "api.hpp"

struct CUgraphNode_st {
  std::function<void()> work;  // empty for an empty node
  std::vector<CUgraphNode_st*> deps;
};
struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
  CUgraphNode_st* captured_last = nullptr;  // while a stream captures into this graph
};
struct CUgraphExec_st {
  std::vector<std::function<void()>> order;
};
typedef CUgraph_st* cudaGraph_t;
typedef CUgraphNode_st* cudaGraphNode_t;
typedef CUgraphExec_st* cudaGraphExec_t;

enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1, cudaStreamCaptureModeRelaxed = 2 };
enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1, cudaStreamCaptureStatusInvalidated = 2 };
enum cudaGraphInstantiateFlags { cudaGraphInstantiateFlagAutoFreeOnLaunch = 1 };

struct cudaGraphEdgeData {
  unsigned char from_port, to_port, type, reserved[5];
};
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void* userData;
};
struct cudaMemsetParams {
  void* dst;
  size_t pitch;
  unsigned int value, elementSize;
  size_t width, height;
};

namespace cass {
namespace detail {
inline bool capturing(const void* stream) {
  auto s = static_cast<cudaStream_t>(const_cast<void*>(stream));
  return s != nullptr && s != cudaStreamLegacy && s != cudaStreamPerThread && s->capture != nullptr;
}

inline CUgraphNode_st* add_node(cudaGraph_t g, std::function<void()> work, const cudaGraphNode_t* deps, size_t n) {
  g->nodes.push_back(std::unique_ptr<CUgraphNode_st>(new CUgraphNode_st{std::move(work), {}}));
  CUgraphNode_st* node = g->nodes.back().get();
  if (deps != nullptr) node->deps.assign(deps, deps + n);
  return node;
}

inline void capture(const void* stream, std::function<void()> work) {
  cudaGraph_t g = static_cast<cudaStream_t>(const_cast<void*>(stream))->capture;
  CUgraphNode_st* last = g->captured_last;
  g->captured_last = add_node(g, std::move(work), last != nullptr ? &last : nullptr, last != nullptr ? 1 : 0);
}

// Kahn's algorithm, the ready node added first going first; false on a cycle.
inline bool topological(const CUgraph_st& g, std::vector<const CUgraphNode_st*>& order) {
  std::vector<const CUgraphNode_st*> left;
  for (const auto& node : g.nodes) left.push_back(node.get());
  std::vector<const CUgraphNode_st*> done;
  while (!left.empty()) {
    bool progressed = false;
    for (std::size_t i = 0; i < left.size(); ++i) {
      bool ready = true;
      for (const CUgraphNode_st* d : left[i]->deps)
        if (std::find(done.begin(), done.end(), d) == done.end()) ready = false;
      if (!ready) continue;
      done.push_back(left[i]);
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(i));
      progressed = true;
      break;
    }
    if (!progressed) return false;
  }
  order = std::move(done);
  return true;
}
}  // namespace detail
}  // namespace cass

inline cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode = cudaStreamCaptureModeGlobal) {
  if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread)
    return ::cass::detail::fail(cudaErrorStreamCaptureUnsupported);  // the legacy stream cannot capture
  if (s->capture != nullptr) return ::cass::detail::fail(cudaErrorIllegalState);
  s->capture = new CUgraph_st();
  return cudaSuccess;
}
inline cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* graph) {
  if (!::cass::detail::capturing(s)) return ::cass::detail::fail(cudaErrorIllegalState);
  *graph = s->capture;
  (*graph)->captured_last = nullptr;
  s->capture = nullptr;
  return cudaSuccess;
}
inline cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus* status) {
  *status = ::cass::detail::capturing(s) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
inline cudaError_t cudaGraphCreate(cudaGraph_t* g, unsigned = 0) {
  *g = new CUgraph_st();
  return cudaSuccess;
}
inline cudaError_t cudaGraphDestroy(cudaGraph_t g) {
  delete g;
  return cudaSuccess;
}
inline cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t* nodes, size_t* count) {
  if (nodes != nullptr)
    for (size_t i = 0; i < *count && i < g->nodes.size(); ++i) nodes[i] = g->nodes[i].get();
  *count = g->nodes.size();
  return cudaSuccess;
}
inline cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t g, const cudaGraphNode_t* deps, size_t n) {
  *node = ::cass::detail::add_node(g, nullptr, deps, n);
  return cudaSuccess;
}
inline cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t g, const cudaGraphNode_t* deps, size_t n,
                                        const cudaHostNodeParams* p) {
  const cudaHostNodeParams params = *p;
  *node = ::cass::detail::add_node(g, [params] { params.fn(params.userData); }, deps, n);
  return cudaSuccess;
}
inline cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t g, const cudaGraphNode_t* deps,
                                            size_t n, void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                            int line = __builtin_LINE()) {
  *node = ::cass::detail::add_node(g, [=] { ::cass::detail::copy(dst, src, count, kind, "bytes", line); }, deps, n);
  return cudaSuccess;
}
inline cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t g, const cudaGraphNode_t* deps, size_t n,
                                          const cudaMemsetParams* p) {
  const cudaMemsetParams m = *p;
  if (m.elementSize != 1 && m.elementSize != 2 && m.elementSize != 4) return ::cass::detail::fail(cudaErrorInvalidValue);
  *node = ::cass::detail::add_node(g, [m] {
    for (size_t r = 0; r < (m.height == 0 ? 1 : m.height); ++r) {
      char* row = static_cast<char*>(m.dst) + r * m.pitch;
      for (size_t i = 0; i < m.width; ++i) std::memcpy(row + i * m.elementSize, &m.value, m.elementSize);
    }
  }, deps, n);
  return cudaSuccess;
}
inline cudaError_t cudaGraphAddDependencies(cudaGraph_t, const cudaGraphNode_t* from, const cudaGraphNode_t* to, size_t n) {
  for (size_t i = 0; i < n; ++i) to[i]->deps.push_back(from[i]);
  return cudaSuccess;
}
// CUDA 13's form, with edge data: only default edges (programmatic ones order kernels' parts).
inline cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                            const cudaGraphEdgeData* edges, size_t n) {
  for (size_t i = 0; edges != nullptr && i < n; ++i)
    if (edges[i].type != 0 || edges[i].from_port != 0 || edges[i].to_port != 0)
      ::cass::detail::cannot_run("cudaGraphAddDependencies with programmatic edges: the CPU runtime runs default edges");
  return cudaGraphAddDependencies(g, from, to, n);
}
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t g, unsigned long long = 0) {
  std::vector<const CUgraphNode_st*> order;
  if (!::cass::detail::topological(*g, order)) return ::cass::detail::fail(cudaErrorInvalidValue);  // a cycle
  *exec = new CUgraphExec_st();
  for (const CUgraphNode_st* node : order)
    if (node->work) (*exec)->order.push_back(node->work);  // a copy: later edits of the graph do not change it
  return cudaSuccess;
}
// CUDA 11's and HIP's form (error node and log buffer), which a successful instantiation leaves alone.
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t g, cudaGraphNode_t*, char*, size_t) {
  return cudaGraphInstantiate(exec, g);
}
inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t g, unsigned long long = 0) {
  return cudaGraphInstantiate(exec, g);
}
inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  delete exec;
  return cudaSuccess;
}
inline cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s = nullptr) {
  if (::cass::detail::sticky() != cudaSuccess) return ::cass::detail::sticky();
  if (::cass::detail::capturing(s)) {
    ::cass::detail::capture(s, [exec] { cudaGraphLaunch(exec); });
    return cudaSuccess;
  }
  ::cass::detail::t_last_error = 0;
  for (const auto& work : exec->order) {
    work();
    if (::cass::detail::t_last_error != 0) return static_cast<cudaError_t>(::cass::detail::t_last_error);
  }
  return ::cass::detail::sticky();
}
