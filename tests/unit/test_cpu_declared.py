"""What the refusal scan lets through is what the CPU runtime's headers declare: CUB's names, the
Thrust backend policies and the graph API are read from the headers, not kept in a second list."""

from __future__ import annotations

import re

from cass_lsp.cpu import declared, hip_names, include_dir, refuse, unsupported


def test_a_namespace_member_is_what_its_body_declares_and_not_what_a_nested_one_does() -> None:
    source = b"""
namespace cub {
struct DeviceNew { static int Run(); };
template <class T, int N> class BlockNew {};
enum Algorithm { ALGORITHM_A, ALGORITHM_B = 2 };
template <class T> void LoadNew(T* items) { helper(items); }
inline constexpr int kNew{};
namespace detail { inline int hidden() { return 0; } struct Hidden {}; }
}  // namespace cub
namespace other { struct Elsewhere {}; }
"""
    assert declared.namespace_members(source, ("cub",)) == {
        "DeviceNew", "BlockNew", "Algorithm", "ALGORITHM_A", "ALGORITHM_B", "LoadNew", "kNew"}
    assert declared.namespace_members(source, ("cub", "detail")) == {"hidden", "Hidden"}
    file_scope = b"struct Graph { int n; };\ntypedef Graph* graph_t;\n#ifndef X\nint launch(graph_t g) { return 0; }\n#endif\n"
    assert declared.namespace_members(file_scope, ()) == {"Graph", "graph_t", "launch"}


def test_the_runtimes_cub_and_thrust_policies_are_read_from_its_headers() -> None:
    names = declared.cub_names()
    assert {"DeviceRadixSort", "BlockReduce", "WarpScan", "LoadDirectStriped", "BLOCK_LOAD_WARP_TRANSPOSE",
            "KeyValuePair", "CachingDeviceAllocator", "NullType"} <= names
    assert not names & {"detail", "radix_order", "sizing", "Slots"}
    assert declared.thrust_policies("cuda") == declared.thrust_policies("hip") == {"par", "par_nosync"}
    assert declared.thrust_policies("omp") == frozenset()


def test_a_gpu_backends_other_names_are_refused_with_the_policies_the_runtime_maps() -> None:
    found = unsupported("#define A thrust::cuda::par_async\n#define B thrust::omp::par\n#define C thrust::hip::par\n")
    assert [(u.line, u.detail) for u in found] == [
        (0, "thrust::cuda::par_async is not executed by the CPU runtime (it runs Thrust's C++ device system, "
            "where only thrust::cuda::par and par_nosync have a meaning)"),
        (1, "thrust::omp::par is not executed by the CPU runtime (it runs Thrust's C++ device system)"),
    ]


def test_the_graph_names_let_through_are_those_the_runtime_declares() -> None:
    """CUDA 13's cudaGraphAddDependencies takes cudaGraphEdgeData, which cass_cpu/graph.hpp declares:
    it runs. An instantiate flag it does not declare is refused by name instead of failing the build."""
    text = """\
void f(cudaGraph_t g, cudaGraphNode_t* from, cudaGraphNode_t* to, hipGraph_t h, hipGraphExec_t e) {
  cudaGraphEdgeData edges[1] = {};
  cudaGraphAddDependencies(g, from, to, edges, 1);
  hipGraphEdgeData hip_edges[1] = {};
  hipGraphInstantiateWithFlags(&e, h, hipGraphInstantiateFlagAutoFreeOnLaunch);
  hipGraphInstantiateWithFlags(&e, h, hipGraphInstantiateFlagUpload);
}
"""
    assert [(u.construct, u.line, u.detail) for u in unsupported(text)] == [
        ("graphs", 5, "hipGraphInstantiateFlagUpload: this graph function is not executed by the CPU runtime")]
    assert {"cudaGraphEdgeData", "cudaGraphAddDependencies", "cudaGraph_t", "cudaStreamCaptureModeGlobal"} <= (
        declared.graph_names())


def test_no_refusal_rule_refuses_a_name_the_runtime_declares() -> None:
    """The rules that list what the runtime lacks drift when it gains a name: hipLaunchKernel,
    cudaLaunchKernel's HIP name (cass_cpu/hip_names.hpp), was refused as the driver API's launch."""
    names: set[str] = set()
    for header in sorted(include_dir().rglob("*.h*")):
        names |= declared.namespace_members(header.read_bytes(), ())
    renames = re.findall(r"^#define (hip\w+) (cuda\w+)$", hip_names.CPU_HEADER.read_text(), re.M)
    names |= {hip for hip, cuda in renames if cuda in names}
    assert {"cudaLaunchKernel", "hipLaunchKernel", "cudaGraphLaunch", "hipMalloc"} <= names
    refused = {name: construct for name in names for pattern, construct, _ in refuse._RULES if pattern.match(name)}
    assert refused == {}
