"""Constructs the CPU runtime cannot emulate, found before building so a run never passes by omission.

Names are read from the syntax tree (so comments and strings do not count); ``#define`` bodies,
which the grammar leaves as text, are scanned by pattern.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec
import tree_sitter

from cass_lsp.core.wheels import cccl_include_dir
from cass_lsp.cpu import declared, libraries, ptx
from cass_lsp.syntax import nodes
from cass_lsp.syntax import parsing as syntax

_QUERY = "cpu_source"
_Add = Callable[[str, int, str], None]  # records one finding: construct, 0-based line, detail


class Unsupported(msgspec.Struct, frozen=True):
    construct: str  # short name, e.g. "inline assembly", "library: cuBLAS"
    line: int  # 0-based
    detail: str  # what was found


# First path component or file stem of an #include -> library key.
_INCLUDE = re.compile(r"^(?:hip/|rocm/)?(?P<stem>[A-Za-z]+)")
_NAMESPACE_LIBRARY = frozenset({"cub", "hipcub", "rocprim", "cutlass", "rocwmma"})
# The namespaces the runtime's CUB (cass_cpu/cub/) serves: a member it does not declare
# (declared.cub_names) is refused by name, and so is a header of theirs the runtime does not have.
_CUB_NAMESPACES = frozenset({"cub", "hipcub"})
_MEMBER = re.compile(rb"::\s*(?P<name>[A-Za-z_]\w*)")
# how far past a name its qualifier is read (cub::DeviceSegmentedRadixSort)
_AFTER = 48
_HEADERS: dict[str, tuple[str, str]] = {
    "mma.h": ("warp matrix (WMMA)", "tensor-core fragments are not emulated"),
    "cuda_fp8.h": ("fp8", "fp8 types are not in the CPU runtime"),
    "hip_fp8.h": ("fp8", "fp8 types are not in the CPU runtime"),
    "cuda_texture_types.h": ("textures", "texture references are not emulated"),
}

# (cudaGraphics*, GL/EGL/VDPAU/D3D interop, is no graph: _RULES names it)
_GRAPH_NAME = re.compile(r"^(?:cuda|hip)(?P<name>Graph(?!ics)\w+)$")
_GRAPH_DETAIL = "this graph function is not executed by the CPU runtime"
_RULES: list[tuple[re.Pattern[str], str, str]] = [
    # Texture and surface objects over arrays, linear and pitched memory are in the runtime
    # (cass_cpu/tex.hpp); what is not is refused by name.
    (re.compile(r"^(?:(?:cuda|hip)(?:Bind|Unbind)Texture\w*|(?:cuda|hip)GetTextureReference|(?:cuda|hip)"
                r"GetTextureAlignmentOffset|hipTexRef\w*|textureReference|(?:cuda|hip)(?:Bind|Unbind)Surface\w*|"
                r"(?:cuda|hip)GetSurfaceReference|surfaceReference)$"),
     "textures", "texture and surface references (removed in CUDA 12) are not emulated by the CPU runtime"),
    (re.compile(r"^(?:texCubemap(?:Layered)?(?:Lod|Grad)|tex[123]D(?:Layered)?(?:Lod|Grad)|tex2Dgather|(?:cuda|hip)(?:Malloc|Free)"
                r"MipmappedArray|(?:cuda|hip)GetMipmappedArrayLevel|(?:cuda|hip)Memcpy(?:2D)?ArrayToArray\w*|"
                r"(?:cuda|hip)ResourceViewDesc|(?:cuda|hip)GetTextureObjectResourceViewDesc|"
                r"(?:cuda|hip)Memcpy(?:To|From)ArrayAsync)$"),
     "textures", "not executed by the CPU runtime (mipmaps and level-of-detail fetches, gathers, resource views, array-to-array copies)"),
    (re.compile(r"^(?:surfCubemap\w*|surf[123]DLayered\w*)$"), "surfaces", "not executed by the CPU runtime"),
    # (cass_cpu/graph.hpp runs stream capture and graphs of empty, host, 1-D memcpy and memset nodes:
    # a graph name it does not declare is refused by _GRAPH_NAME; these are capture's other names)
    (re.compile(r"^(?:cuda|hip)(?:StreamBeginCaptureToGraph|StreamGetCaptureInfo\w*|"
                r"StreamUpdateCaptureDependencies\w*|ThreadExchangeStreamCaptureMode|UserObject\w*)$"),
     "graphs", _GRAPH_DETAIL),
    # OpenGL/EGL/VDPAU/Direct3D interop: cudaGraphicsResource read as a graph name was "this graph
    # function is not executed" for cuda-samples' GL samples
    (re.compile(r"^(?:(?:cuda|hip)Graphics\w+|(?:cuda|hip)(?:GL|EGL|VDPAU|D3D\d+)[A-Z]\w*|cuGraphics\w+)$"),
     "graphics interop", "OpenGL/EGL/VDPAU/Direct3D interop needs a GPU driver's graphics context"),
    # (cass_cpu/cg.hpp runs blocks, tiles, coalesced groups, the grid, reduce and the scans)
    (re.compile(r"^(?:this_multi_grid|multi_grid_group|(?:cuda|hip)LaunchCooperativeKernelMultiDevice)$"),
     "multi-device cooperative launch", "one device: a multi-grid has nothing to span"),
    (re.compile(r"^(?:labeled_partition|binary_partition|memcpy_async|this_cluster|cluster_group|block_tile_memory|"
                r"reduce_update_async|reduce_store_async|invoke_one|invoke_one_broadcast)$"),
     "cooperative groups", "this cooperative_groups function is not executed by the CPU runtime"),
    # (hipLaunchKernel is the runtime API's cudaLaunchKernel, which runs; cuLaunchKernel's HIP name is
    # hipModuleLaunchKernel)
    (re.compile(r"^(?:cu|hip)(?:Module\w+|LinkCreate\w*|LinkAdd\w*|LinkComplete)$|^cuLaunchKernel$"),
     "driver-API modules", "loading PTX/cubin/code objects and cuLaunchKernel cannot run on a CPU"),
    (re.compile(r"^(?:wmma|nvcuda|__hmma\w*|__imma\w*|__bmma\w*)$"), "warp matrix (WMMA)",
     "tensor-core fragments are not emulated"),
    (re.compile(r"^(?:__builtin_amdgcn_\w+|__builtin_nvvm_\w+|__nvvm_\w+|__ockl_\w+|__ocml_\w+|__builtin_ptx_\w+)$"),
     "target builtins", "GPU-specific compiler builtins have no CPU equivalent"),
    (re.compile(r"^(?:__nv_fp8\w*|__hip_fp8\w*)$"), "fp8", "fp8 types are not in the CPU runtime"),
    # (peer access is in it: one device, which has no peer; so are memory pools, cass_cpu/mempool.hpp,
    # but not their export to another process)
    (re.compile(r"^(?:cuda|hip)(?:Ipc\w+|Memcpy3DPeer\w*|MemPool(?:Export|Import)\w*|MemPoolPtrExportData)$"),
     "multi-process/3-D memory API", "not in the CPU runtime's API subset"),
]
# Thrust runs on its own C++ device system (cpu/include/cass_cpu/thrust_config.hpp): of the GPU backends'
# own API only the policies that mean "the device" are mapped (declared.thrust_policies).
_THRUST_SCOPE = re.compile(rb"\bthrust\s*::\s*(?:system\s*::\s*)?$")
# Thrust's GPU and threaded backends, which the runtime does not run: a fact of CCCL (cuda, cuda_cub,
# omp, tbb) and rocThrust (hip, hip_rocprim), not of the runtime's headers, and rocThrust's are not
# here to read, so they are listed.
_THRUST_BACKENDS = frozenset({"cuda", "hip", "cuda_cub", "hip_rocprim", "omp", "tbb"})
_TOKEN = re.compile(r"[A-Za-z_]\w*")
_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
_UNTYPED_LAUNCH = re.compile(r"\b(?:cuda|hip)LaunchKernel\s*\(\s*\(\s*(?:const\s+)?void\s*\*\s*\)")
_DEVICE_FUNCTION = re.compile(r"\b(?:__global__|__device__)\b")


def unsupported(text: str) -> list[Unsupported]:
    """Every construct in ``text`` that the CPU runtime cannot run, in source order (one per line)."""
    source = text.encode("utf-8")
    tree = syntax.parse(source)
    found: dict[tuple[str, int], Unsupported] = {}

    def add(construct: str, line: int, detail: str) -> None:
        found.setdefault((construct, line), Unsupported(construct, line, detail))

    # in source order: the first finding of a construct on a line is the one kept, and a capture
    # list's own order differs from one query run to the next
    captures = [(node, name) for name, nodes_captured in syntax.captures(_QUERY, tree.root_node).items()
                for node in nodes_captured]
    for node, name in sorted(captures, key=lambda c: (c[0].start_byte, c[0].end_byte, c[1])):
        line = node.start_point.row
        node_text = source[node.start_byte : node.end_byte].decode("utf-8", "replace")
        if name == "cpu.include":
            _include(node_text.strip('<>"'), line, add)
        elif name == "cpu.asm":
            _asm(source, node, add)
        elif name == "cpu.name":
            library_guarded = _under_library_test(node, source)
            _name(node_text, line, add if not library_guarded else _without_libraries(add),
                  source[node.end_byte : node.end_byte + _AFTER].lstrip(), source[max(0, node.start_byte - 24) : node.start_byte])
        elif name == "cpu.launch.config" and _in_device_function(source, node):
            add("dynamic parallelism", line, "a kernel launched from device code")
        elif name == "cpu.macro_body":
            _macro(node_text, line, add)
    for m in _UNTYPED_LAUNCH.finditer(text):
        add("untyped kernel launch", text.count("\n", 0, m.start()),
            "cudaLaunchKernel/hipLaunchKernel through a void* loses the parameter types")
    return sorted(found.values(), key=lambda u: (u.line, u.construct))


def _under_library_test(node: tree_sitter.Node, source: bytes) -> bool:
    """``node`` is tested by a preprocessor condition (a name tested is not used), or lies in the
    branch of a test of whether a library's header was included (``#ifdef CUBLAS_API_H_`` in NVIDIA's
    helper_cuda.h): that code is there only when the #include is, which is refused on its own."""
    child = node
    for ancestor in _ancestors(node):
        if ancestor.type in (nodes.IFDEF, nodes.IF, nodes.ELIF, nodes.DEFINED):
            field = {nodes.IFDEF: "name", nodes.IF: "condition", nodes.ELIF: "condition"}.get(ancestor.type)
            condition = ancestor.child_by_field_name(field) if field else ancestor
            if condition is None or condition == child or ancestor.type == nodes.DEFINED:
                return True
            negated = ancestor.type == nodes.IFDEF and source[ancestor.start_byte : ancestor.start_byte + 8].startswith(b"#ifndef")
            # the #else branch, and the body of an #ifndef, run when the library is absent
            if ancestor.child_by_field_name("alternative") != child and not negated:
                text = source[condition.start_byte : condition.end_byte].decode("utf-8", "replace")
                if any(libraries.NAME_LIBRARY.match(token.lstrip("_")) for token in _TOKEN.findall(text)):
                    return True
        child = ancestor
    return False


def _ancestors(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    out = []
    parent = node.parent
    while parent is not None:
        out.append(parent)
        parent = parent.parent
    return out


def _without_libraries(add: _Add) -> _Add:
    def filtered(construct: str, line: int, detail: str) -> None:
        if not construct.startswith("library: "):
            add(construct, line, detail)

    return filtered


def _include(path: str, line: int, add: _Add) -> None:
    base = path.rsplit("/", 1)[-1]
    if base in _HEADERS:
        construct, detail = _HEADERS[base]
        add(construct, line, f"#include <{path}>: {detail}")
        return
    m = _INCLUDE.match(path)
    stem = m["stem"].lower() if m else ""
    if stem == "thrust" and cccl_include_dir() is None:
        # the runtime's own Thrust headers too: they configure CCCL's, and include them
        add("library: Thrust", line, f"#include <{path}>: the CPU runtime compiles Thrust from the nvidia-cuda-cccl "
            "wheel's headers, which are not installed (pip install 'cass-lsp[nvidia]')")
        return
    if libraries.provides(path):
        # the runtime's own header (curand.h, cublas_v2.h): what the library needs here to link
        provided = libraries.header_library(path)
        why = libraries.missing(provided) if provided is not None else None
        if why is not None:
            add(f"library: {provided}", line, f"#include <{path}>: {why}")
        return
    if stem in _CUB_NAMESPACES and path.startswith(f"{stem}/"):
        # the runtime's CUB has these headers (libraries.provides above); not this one
        library = libraries.LIBRARIES[stem]
        add(f"library: {library}", line, f"#include <{path}>: not in the CPU runtime's {library}")
        return
    if stem == "thrust":
        _thrust_include(path, line, add)
        return
    for key, library in libraries.LIBRARIES.items():
        if stem.startswith(key) and (stem == key or key not in ("cub", "npp")):
            partly = libraries.implemented(library)
            add(f"library: {library}", line, f"#include <{path}>: the CPU runtime does not have this {library} header"
                if partly else f"#include <{path}>: {library} has no CPU implementation here")
            return
    if path.startswith("cuda/"):
        add("library: libcu++", line, f"#include <{path}>: cuda::std is not in the CPU runtime")


def _thrust_include(path: str, line: int, add: _Add) -> None:
    # (the runtime's own backend headers, thrust/system/cuda|hip/execution_policy.h, are answered by
    # libraries.provides before this)
    if path.startswith("thrust/system/") and not path.startswith("thrust/system/cpp/") and path.count("/") > 2:
        add("library: Thrust", line, f"#include <{path}>: Thrust's GPU and threaded backends are not executed by the "
            "CPU runtime (it runs Thrust's C++ device system)")


def _thrust_backend(name: str, line: int, add: _Add, after: bytes, scope: str) -> None:
    member = _MEMBER.match(after)
    policies = declared.thrust_policies(name)
    if member is not None and member["name"].decode() in policies:
        return
    what = f"{scope}{name}::{member['name'].decode()}" if member else f"{scope}{name}"
    add("library: Thrust", line, f"{what} is not executed by the CPU runtime (it runs Thrust's C++ device system, "
        f"where only thrust::{name}::{' and '.join(sorted(policies))} have a meaning)" if policies else
        f"{what} is not executed by the CPU runtime (it runs Thrust's C++ device system)")


def _name(name: str, line: int, add: _Add, after: bytes, before: bytes = b"") -> None:
    scope = _THRUST_SCOPE.search(before)
    if name in _THRUST_BACKENDS and scope is not None:
        _thrust_backend(name, line, add, after, "thrust::system::" if b"system" in scope.group() else "thrust::")
        return
    if name in ("texture", "surface") and after.startswith(b"<"):
        add("textures" if name == "texture" else "surfaces", line,
            f"{name}<...> references (removed in CUDA 12) are not emulated by the CPU runtime")
        return
    if name in _CUB_NAMESPACES and after.startswith(b"::"):
        member = _MEMBER.match(after)
        if member is None or member["name"].decode() not in declared.cub_names():
            what = f"{name}::{member['name'].decode()}" if member else f"{name}::"
            add(f"library: {libraries.LIBRARIES[name]}", line, f"{what} is not executed by the CPU runtime's {libraries.LIBRARIES[name]}")
        return
    if name in _NAMESPACE_LIBRARY and after.startswith(b"::"):
        add(f"library: {libraries.LIBRARIES[name]}", line, f"{name}:: has no CPU implementation here")
        return
    if name == "cuda" and after.startswith(b"::"):
        add("library: libcu++", line, "cuda:: (libcu++) is not in the CPU runtime")
        return
    m = libraries.NAME_LIBRARY.match(name)
    if m:
        library = libraries.LIBRARIES[m["lib"].lower()]
        if not libraries.implemented(library):
            add(f"library: {library}", line, f"{name}: {library} has no CPU implementation here")
        elif libraries.unexecuted(library, name):  # a program's own CURAND_CHECK is not cuRAND's
            add(f"library: {library}", line, f"{name}: the CPU runtime does not execute this {library} name")
        return
    graph = _GRAPH_NAME.match(name)
    if graph is not None and f"cuda{graph['name']}" not in declared.graph_names():
        add("graphs", line, f"{name}: {_GRAPH_DETAIL}")
        return
    for pattern, construct, detail in _RULES:
        if pattern.match(name):
            add(construct, line, f"{name}: {detail}")
            return


def _macro(body: str, first_line: int, add: _Add) -> None:
    try:
        ptx.in_macro_body(body)
    except ptx.Untranslated as why:
        add("inline assembly", first_line + why.line, _asm_detail(why))
    # a string in the body is text (a message naming the library), not a use of a name
    body = _STRING.sub(lambda m: " " * len(m.group()), body)
    for m in _TOKEN.finditer(body):
        after = body[m.end() : m.end() + _AFTER].lstrip().encode()
        before = body[max(0, m.start() - 24) : m.start()].encode()
        _name(m.group(), first_line + body.count("\n", 0, m.start()), add, after, before)


def _asm(source: bytes, node: tree_sitter.Node, add: _Add) -> None:
    why = ptx.refusal(source, node)
    if why is not None:
        add("inline assembly", why.line, _asm_detail(why))


def _asm_detail(why: ptx.Untranslated) -> str:
    if why.amd:
        return f"AMD GCN instruction {why.instruction}: a CPU cannot execute it"
    return f"PTX instruction {why.instruction} is not executed by the CPU runtime"


def _in_device_function(source: bytes, node: tree_sitter.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type == nodes.FUNCTION_DEFINITION:
            body = parent.child_by_field_name(nodes.Field.BODY)
            head = source[parent.start_byte : body.start_byte if body is not None else parent.end_byte]
            return _DEVICE_FUNCTION.search(head.decode("utf-8", "replace")) is not None
        parent = parent.parent
    return False
