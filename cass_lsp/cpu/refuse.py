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
from cass_lsp.cpu import ptx
from cass_lsp.syntax import nodes
from cass_lsp.syntax import parsing as syntax

_QUERY = "cpu_source"
_Add = Callable[[str, int, str], None]  # records one finding: construct, 0-based line, detail


class Unsupported(msgspec.Struct, frozen=True):
    construct: str  # short name, e.g. "inline assembly", "library: cuBLAS"
    line: int  # 0-based
    detail: str  # what was found


_LIBRARIES: dict[str, str] = {
    "cublas": "cuBLAS", "cufft": "cuFFT", "curand": "cuRAND", "cusparse": "cuSPARSE", "cusolver": "cuSOLVER",
    "cudnn": "cuDNN", "cutensor": "cuTENSOR", "nccl": "NCCL", "nvrtc": "NVRTC", "nvml": "NVML", "npp": "NPP",
    "nvjpeg": "nvJPEG", "cutlass": "CUTLASS", "thrust": "Thrust", "cub": "CUB", "hipblas": "hipBLAS",
    "hipfft": "hipFFT", "hiprand": "hipRAND", "hipsparse": "hipSPARSE", "hipsolver": "hipSOLVER",
    "hipcub": "hipCUB", "rocblas": "rocBLAS", "rocfft": "rocFFT", "rocrand": "rocRAND", "rocsparse": "rocSPARSE",
    "rocsolver": "rocSOLVER", "rocprim": "rocPRIM", "rocthrust": "rocThrust", "miopen": "MIOpen", "rccl": "RCCL",
    "hiprtc": "hipRTC", "rocwmma": "rocWMMA",
}
# First path component or file stem of an #include -> library key.
_INCLUDE = re.compile(r"^(?:hip/|rocm/)?(?P<stem>[A-Za-z]+)")
_NAME_LIBRARY = re.compile(r"^(?P<lib>cublas|cufft|curand|cusparse|cusolver|cudnn|cutensor|nccl|nvrtc|nvml|hipblas|hipfft|"
                           r"hiprand|hipsparse|hipsolver|rocblas|rocfft|rocrand|rocsparse|rocsolver|miopen|rccl|hiprtc)",
                           re.I)
_NAMESPACE_LIBRARY = frozenset({"cub", "hipcub", "rocprim", "cutlass", "rocwmma"})
_HEADERS: dict[str, tuple[str, str]] = {
    "cooperative_groups.h": ("cooperative groups", "the CPU runtime has no cooperative_groups"),
    "mma.h": ("warp matrix (WMMA)", "tensor-core fragments are not emulated"),
    "cuda_bf16.h": ("bfloat16", "__nv_bfloat16 is not in the CPU runtime"),
    "cuda_fp8.h": ("fp8", "fp8 types are not in the CPU runtime"),
    "hip_bf16.h": ("bfloat16", "hip_bfloat16 is not in the CPU runtime"),
    "texture_fetch_functions.h": ("textures", "texture fetches are not emulated"),
    "surface_functions.h": ("surfaces", "surface reads/writes are not emulated"),
    "cuda_texture_types.h": ("textures", "texture references are not emulated"),
}

_RULES: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"^(?:tex(?:1D|2D|3D|Cubemap)\w*|(?:cuda|hip)(?:Bind|Unbind)Texture\w*|(?:cuda|hip)(?:Create|Destroy)"
                r"TextureObject|(?:cuda|hip)TextureObject_t|(?:cuda|hip)(?:GetTextureReference|CreateChannelDesc|"
                r"MallocArray|Malloc3DArray|MallocMipmappedArray|FreeArray|Memcpy\w*Array\w*)|(?:cuda|hip)Array(?:_t)?|"
                r"cudaResourceDesc|cudaTextureDesc|hipResourceDesc|hipTextureDesc)$"),
     "textures", "texture objects and references are not emulated"),
    (re.compile(r"^(?:surf(?:1D|2D|3D|Cubemap)\w*|(?:cuda|hip)(?:Create|Destroy)SurfaceObject|(?:cuda|hip)SurfaceObject_t)$"),
     "surfaces", "surface objects are not emulated"),
    (re.compile(r"^(?:(?:cuda|hip)Graph\w*|(?:cuda|hip)StreamBeginCapture\w*|(?:cuda|hip)StreamEndCapture)$"),
     "graphs", "CUDA/HIP graphs are not emulated"),
    (re.compile(r"^(?:this_grid|grid_group|this_multi_grid|multi_grid_group|(?:cuda|hip)LaunchCooperativeKernel\w*)$"),
     "grid-wide synchronization", "cooperative launches and grid sync are not emulated"),
    (re.compile(r"^cooperative_groups$"), "cooperative groups", "the CPU runtime has no cooperative_groups"),
    (re.compile(r"^(?:cu|hip)(?:Module\w+|LaunchKernel|LinkCreate\w*|LinkAdd\w*|LinkComplete|ModuleLaunchKernel)$"),
     "driver-API modules", "loading PTX/cubin/code objects and cuLaunchKernel cannot run on a CPU"),
    (re.compile(r"^(?:wmma|nvcuda|__hmma\w*|__imma\w*|__bmma\w*)$"), "warp matrix (WMMA)",
     "tensor-core fragments are not emulated"),
    (re.compile(r"^(?:__builtin_amdgcn_\w+|__builtin_nvvm_\w+|__nvvm_\w+|__ockl_\w+|__ocml_\w+|__builtin_ptx_\w+)$"),
     "target builtins", "GPU-specific compiler builtins have no CPU equivalent"),
    (re.compile(r"^(?:__nv_bfloat16\w*|__nv_fp8\w*|hip_bfloat16|__hip_bfloat16\w*)$"), "bfloat16/fp8",
     "these types are not in the CPU runtime"),
    # (peer access is in it: one device, which has no peer)
    (re.compile(r"^(?:cuda|hip)(?:Ipc\w+|Malloc3D|Memcpy3D\w*)$"),
     "multi-process/3-D memory API", "not in the CPU runtime's API subset"),
]
# Thrust runs on its own C++ device system (cpu/include/cass_cpu/thrust_config.hpp): of the GPU backends'
# own API only the policies that mean "the device" are mapped (cass_cpu/thrust_policy.hpp).
_THRUST_SCOPE = re.compile(rb"\bthrust\s*::\s*(?:system\s*::\s*)?$")
_THRUST_BACKENDS = frozenset({"cuda", "hip", "cuda_cub", "hip_rocprim", "omp", "tbb"})
_THRUST_POLICIES = frozenset({"par", "par_nosync"})
_THRUST_POLICY_HEADERS = frozenset({"thrust/system/cuda/execution_policy.h", "thrust/system/hip/execution_policy.h"})
_MEMBER = re.compile(rb"^::\s*(?P<name>\w+)")
_TOKEN = re.compile(r"[A-Za-z_]\w*")
_UNTYPED_LAUNCH = re.compile(r"\b(?:cuda|hip)LaunchKernel\s*\(\s*\(\s*(?:const\s+)?void\s*\*\s*\)")
_DEVICE_FUNCTION = re.compile(r"\b(?:__global__|__device__)\b")


def unsupported(text: str) -> list[Unsupported]:
    """Every construct in ``text`` that the CPU runtime cannot run, in source order (one per line)."""
    source = text.encode("utf-8")
    tree = syntax.parse(source)
    found: dict[tuple[str, int], Unsupported] = {}

    def add(construct: str, line: int, detail: str) -> None:
        found.setdefault((construct, line), Unsupported(construct, line, detail))

    for name, captured in syntax.captures(_QUERY, tree.root_node).items():
        for node in captured:
            line = node.start_point.row
            node_text = source[node.start_byte : node.end_byte].decode("utf-8", "replace")
            if name == "cpu.include":
                _include(node_text.strip('<>"'), line, add)
            elif name == "cpu.asm":
                _asm(source, node, add)
            elif name == "cpu.name":
                library_guarded = _under_library_test(node, source)
                _name(node_text, line, add if not library_guarded else _without_libraries(add),
                      source[node.end_byte : node.end_byte + 16].lstrip(), source[max(0, node.start_byte - 24) : node.start_byte])
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
                if any(_NAME_LIBRARY.match(token.lstrip("_")) for token in _TOKEN.findall(text)):
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
    if stem == "thrust":
        _thrust_include(path, line, add)
        return
    for key, library in _LIBRARIES.items():
        if stem.startswith(key) and (stem == key or key not in ("cub", "npp")):
            add(f"library: {library}", line, f"#include <{path}>: {library} has no CPU implementation here")
            return
    if path.startswith("cuda/"):
        add("library: libcu++", line, f"#include <{path}>: cuda::std is not in the CPU runtime")


def _thrust_include(path: str, line: int, add: _Add) -> None:
    if cccl_include_dir() is None:
        add("library: Thrust", line, f"#include <{path}>: the CPU runtime compiles Thrust from the nvidia-cuda-cccl "
            "wheel's headers, which are not installed (pip install 'cass-lsp[nvidia]')")
    elif path.startswith("thrust/system/") and not path.startswith("thrust/system/cpp/") and (
        path.count("/") > 2 and path not in _THRUST_POLICY_HEADERS
    ):
        add("library: Thrust", line, f"#include <{path}>: Thrust's GPU and threaded backends are not executed by the "
            "CPU runtime (it runs Thrust's C++ device system)")


def _thrust_backend(name: str, line: int, add: _Add, after: bytes, scope: str) -> None:
    member = _MEMBER.match(after)
    if name in ("cuda", "hip") and member is not None and member["name"].decode() in _THRUST_POLICIES:
        return
    what = f"{scope}{name}::{member['name'].decode()}" if member else f"{scope}{name}"
    add("library: Thrust", line, f"{what} is not executed by the CPU runtime (it runs Thrust's C++ device system, "
        f"where only thrust::{name}::par and par_nosync have a meaning)" if name in ("cuda", "hip") else
        f"{what} is not executed by the CPU runtime (it runs Thrust's C++ device system)")


def _name(name: str, line: int, add: _Add, after: bytes, before: bytes = b"") -> None:
    scope = _THRUST_SCOPE.search(before)
    if name in _THRUST_BACKENDS and scope is not None:
        _thrust_backend(name, line, add, after, "thrust::system::" if b"system" in scope.group() else "thrust::")
        return
    if name in ("texture", "surface") and after.startswith(b"<"):
        add("textures" if name == "texture" else "surfaces", line, f"{name}<...> references are not emulated")
        return
    if name in _NAMESPACE_LIBRARY and after.startswith(b"::"):
        add(f"library: {_LIBRARIES[name]}", line, f"{name}:: has no CPU implementation here")
        return
    if name == "cuda" and after.startswith(b"::"):
        add("library: libcu++", line, "cuda:: (libcu++) is not in the CPU runtime")
        return
    m = _NAME_LIBRARY.match(name)
    if m:
        library = _LIBRARIES[m["lib"].lower()]
        add(f"library: {library}", line, f"{name}: {library} has no CPU implementation here")
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
    for m in _TOKEN.finditer(body):
        after = body[m.end() : m.end() + 16].lstrip().encode()
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
