"""Calls whose shape differs between CUDA and HIP: arguments HIP wants wrapped, a changed
signature, an argument HIP lacks (graph edge data), a value-returning form HIP lacks, and image
functions some targets cannot run."""

from __future__ import annotations

import re

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.translate import codes as fc
from cass_lsp.translate import launch
from cass_lsp.translate.context import RuleContext

_KERNEL_CAST = "reinterpret_cast<const void*>("
_OUT_POINTER = "reinterpret_cast<void**>("
_SYMBOL = "HIP_SYMBOL("
_OPTIONS = "const_cast<const char**>("
# CUDA APIs whose C++ overloads take a symbol, a kernel or a typed T** directly, where HIP (without
# such a template) takes the symbol's address (HIP_SYMBOL), a ``const void*`` or a ``void**``:
# API -> (argument index, wrapper opening), checked against the HIP 5.2 and 7.1 headers.
WRAPPED_ARGUMENT: dict[str, tuple[tuple[int, str], ...]] = {
    "cudaMemcpyToSymbol": ((0, _SYMBOL),),
    "cudaMemcpyToSymbolAsync": ((0, _SYMBOL),),
    "cudaMemcpyFromSymbol": ((1, _SYMBOL),),
    "cudaMemcpyFromSymbolAsync": ((1, _SYMBOL),),
    "cudaGetSymbolAddress": ((0, _OUT_POINTER), (1, _SYMBOL)),
    "cudaGetSymbolSize": ((1, _SYMBOL),),
    "cudaGraphAddMemcpyNodeToSymbol": ((4, _SYMBOL),),
    "cudaGraphAddMemcpyNodeFromSymbol": ((5, _SYMBOL),),
    "cudaGraphMemcpyNodeSetParamsToSymbol": ((1, _SYMBOL),),
    "cudaGraphMemcpyNodeSetParamsFromSymbol": ((2, _SYMBOL),),
    "cudaGraphExecMemcpyNodeSetParamsToSymbol": ((2, _SYMBOL),),
    "cudaGraphExecMemcpyNodeSetParamsFromSymbol": ((3, _SYMBOL),),
    "cudaFuncSetAttribute": ((0, _KERNEL_CAST),),
    "cudaFuncSetCacheConfig": ((0, _KERNEL_CAST),),
    "cudaFuncSetSharedMemConfig": ((0, _KERNEL_CAST),),
    "cudaFuncGetAttributes": ((1, _KERNEL_CAST),),
    "cudaLaunchKernel": ((0, _KERNEL_CAST),),
    "cudaHostAlloc": ((0, _OUT_POINTER),),
    "cudaMallocHost": ((0, _OUT_POINTER),),
    "cudaMallocPitch": ((0, _OUT_POINTER),),
    "cudaHostGetDevicePointer": ((0, _OUT_POINTER),),
    "cudaIpcOpenMemHandle": ((0, _OUT_POINTER),),
    # NVRTC takes the options as const char* const*, HIP as const char**: a char*[] (nvrtc_helper.h's
    # compileParams) converts to the first only
    "nvrtcCompileProgram": ((2, _OPTIONS),),
}
# Texture and surface functions HIP marks unavailable where clang defines __HIP_NO_IMAGE_SUPPORT.
IMAGE_FUNCTIONS = frozenset({
    "tex1D", "tex1DGrad", "tex1DLayered", "tex1DLayeredGrad", "tex1DLayeredLod", "tex1DLod", "tex1Dfetch", "tex2D",
    "tex2DGrad", "tex2DLayered", "tex2DLayeredGrad", "tex2DLayeredLod", "tex2DLod", "tex2Dgather", "tex3D",
    "tex3DGrad", "tex3DLod", "texCubemap", "texCubemapGrad", "texCubemapLayered", "texCubemapLayeredGrad",
    "texCubemapLayeredLod", "texCubemapLod", "surf1DLayeredread", "surf1DLayeredwrite", "surf1Dread", "surf1Dwrite",
    "surf2DLayeredread", "surf2DLayeredwrite", "surf2Dread", "surf2Dwrite", "surf3Dread", "surf3Dwrite",
    "surfCubemapLayeredread", "surfCubemapLayeredwrite", "surfCubemapread", "surfCubemapwrite",
})
SURFACE_READS = frozenset({"surf1Dread", "surf2Dread", "surf3Dread", "surf1DLayeredread", "surf2DLayeredread"})
# CUDA 12.3's graph calls with edge data (CUDA 13's only forms): one more argument, a
# cudaGraphEdgeData pointer that HIP's forms lack (HIP's edges are the default ones). API ->
# (its index, the argument count with it, the HIP call taking the others where not the tables').
EDGE_DATA: dict[str, tuple[int, int, str | None]] = {
    "cudaGraphAddDependencies": (3, 5, None),
    "cudaGraphRemoveDependencies": (3, 5, None),
    "cudaGraphGetEdges": (3, 5, None),
    "cudaGraphNodeGetDependencies": (2, 4, None),
    "cudaGraphNodeGetDependentNodes": (2, 4, None),
    "cudaGraphAddNode": (3, 6, None),
    "cudaStreamUpdateCaptureDependencies": (2, 5, None),
    "cudaStreamGetCaptureInfo": (5, 7, "hipStreamGetCaptureInfo_v2"),
}
_NULL = frozenset({"NULL", "nullptr", "0", "__null"})
# The driver API's occupancy calls take a CUoccupancyB2DSize callback (dynamic shared memory per
# block size) before the fixed size; HIP's module forms take only the fixed size: API -> (the
# callback's index, the argument count with it). Null (matrixMulDrv passes 0), it is dropped.
SIZE_CALLBACK: dict[str, tuple[int, int]] = {
    "cuOccupancyMaxPotentialBlockSize": (3, 6),
    "cuOccupancyMaxPotentialBlockSizeWithFlags": (3, 7),
}
# CUDA C++ overloads whose last argument defaults where HIP's declaration has no default (HIP 5.2's
# hipStreamWaitEvent and hipMalloc3DArray take the flags always): API -> (the argument count
# without it, CUDA's default), which the translation passes.
DEFAULTED_ARGUMENT: dict[str, tuple[int, str]] = {
    "cudaStreamWaitEvent": (2, "0"),
    "cudaMalloc3DArray": (3, "0"),
}
# CUDA C++ overloads that HIP spells as another function: API -> (argument count, HIP's call).
OVERLOADS: dict[str, tuple[int, str]] = {
    "cudaEventCreate": (2, "cudaEventCreateWithFlags"),  # cudaEventCreate(&e, flags)
}
# Calls that only make later work faster, which a target lacking them can leave out (the work is done
# anyway): API -> (the first ROCm with the HIP call, why dropping it keeps the program's meaning).
# The call becomes its arguments' evaluation and hipSuccess.
OPTIONAL_CALLS: dict[str, tuple[tuple[int, int], str]] = {
    "cudaGraphUpload": ((5, 3), "uploading a graph ahead of its launch is an optimisation: hipGraphLaunch uploads "
                                "it"),
}
# CUDA 13's managed-memory calls take a cudaMemLocation where CUDA 12's took a device number (CUDA
# 12.2 spelled them ..._v2); HIP's location forms are the _v2 calls, from HIP 7.1: API -> (the
# location argument's index, the HIP call). A call whose argument there is a cudaMemLocation (a
# variable the file declares so, or a braced one) is the location form.
LOCATION_FORMS: dict[str, tuple[int, str]] = {
    "cudaMemPrefetchAsync": (2, "hipMemPrefetchAsync_v2"),
    "cudaMemAdvise": (3, "hipMemAdvise_v2"),
}
_LOCATION_FORMS_SINCE = (7, 1)
# Names any call rule here handles.
NAMES = frozenset({*WRAPPED_ARGUMENT, "cudaGraphInstantiate", *EDGE_DATA, *IMAGE_FUNCTIONS, *DEFAULTED_ARGUMENT,
                   *OVERLOADS, *OPTIONAL_CALLS, *LOCATION_FORMS, *SIZE_CALLBACK})
_READ_VALUE = "cass_value_"


def handle(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """True when the name is fully handled here."""
    if name in WRAPPED_ARGUMENT:
        return wrapped_call(p, name, node)
    if name == "cudaGraphInstantiate":
        return graph_instantiate(p, node)
    if name in DEFAULTED_ARGUMENT:
        return defaulted_argument(p, name, node)
    if name in OVERLOADS:
        return overload(p, name, node)
    if name in OPTIONAL_CALLS:
        return optional_call(p, name, node)
    if name in LOCATION_FORMS:
        return location_form(p, name, node)
    if name in EDGE_DATA:
        return edge_data_call(p, name, node)
    if name in SIZE_CALLBACK:
        return size_callback_call(p, name, node)
    return image_call(p, name, node)


def wrapped_call(p: RuleContext, name: str, name_node: tree_sitter.Node) -> bool:
    """Rename the API and wrap its symbol, kernel or out-pointer argument the way HIP needs it."""
    call = p.call_of(name_node)
    if call is not None and not p.inside(call):
        return True
    p.apply_entry(name, name_node.start_byte, name_node.end_byte)
    if call is None:
        return True
    args = p.arguments(call)
    for index, opening in WRAPPED_ARGUMENT[name]:
        if index >= len(args):
            continue
        arg = args[index]
        text = p.text(arg)
        if (arg.type in nodes.STRINGS or arg.type == nodes.CAST or text.strip() in _NULL
                or text.startswith((_SYMBOL, "reinterpret_cast", "const_cast"))):
            continue
        p.edit(arg.start_byte, arg.start_byte, opening)
        p.edit(arg.end_byte, arg.end_byte, ")")
    return True


def graph_instantiate(p: RuleContext, node: tree_sitter.Node) -> bool:
    """CUDA 12's ``cudaGraphInstantiate(exec, graph, flags)`` is HIP's ``hipGraphInstantiateWithFlags``;
    HIP's ``hipGraphInstantiate`` keeps CUDA 11's five arguments."""
    call = p.call_of(node)
    if call is None or len(p.arguments(call)) != 3 or not p.inside(call):
        return False
    p.apply_entry("cudaGraphInstantiateWithFlags", node.start_byte, node.end_byte)
    return True


def defaulted_argument(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """``cudaStreamWaitEvent(s, e)`` -> ``hipStreamWaitEvent(s, e, 0)``: CUDA's default, passed."""
    call = p.call_of(node)
    count, default = DEFAULTED_ARGUMENT[name]
    args = p.arguments(call) if call is not None and p.inside(call) else []
    if len(args) != count:
        return False  # every argument given (or not a call): the plain rename
    p.apply_entry(name, node.start_byte, node.end_byte)
    p.edit(args[-1].end_byte, args[-1].end_byte, f", {default}", "runtime")
    return True


def overload(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """``cudaEventCreate(&e, flags)``, CUDA's C++ overload, is HIP's ``hipEventCreateWithFlags``."""
    call = p.call_of(node)
    count, other = OVERLOADS[name]
    if call is None or not p.inside(call) or len(p.arguments(call)) != count:
        return False
    p.apply_entry(other, node.start_byte, node.end_byte)
    return True


def location_form(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """``cudaMemPrefetchAsync(p, n, location, flags, s)`` (CUDA 13) -> ``hipMemPrefetchAsync_v2(...)``."""
    call = p.call_of(node)
    index, hip = LOCATION_FORMS[name]
    args = p.arguments(call) if call is not None and p.inside(call) else []
    if len(args) <= index:
        return False
    location = p.text(args[index]).strip()
    source = p.file_source.decode("utf-8", "surrogateescape")
    declared = re.fullmatch(r"\w+", location) and re.search(
        rf"\bcudaMemLocation\s+(?:\w+\s*,\s*)*{re.escape(location)}\b", source)
    if not (declared or location.startswith(("{", "cudaMemLocation{", "cudaMemLocation {"))):
        return False  # CUDA 12's device-number form: the table's rename
    p.need_runtime()
    if p.target.rocm < _LOCATION_FORMS_SINCE:
        p.find(fc.API_NEWER_THAN_TARGET, "error", f"{name} with a cudaMemLocation (CUDA 12.2's _v2, CUDA 13's only "
               f"form) is HIP's {hip}, from ROCm 7.1; the target is ROCm {p.target.rocm_text}: pass a device number "
               "(hipCpuDeviceId for the host) to the older form, or target ROCm 7.1", node.start_byte,
               node.end_byte, name=name, family="runtime")
        return True
    p.edit(node.start_byte, node.end_byte, hip, "runtime")
    return True


def optional_call(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """``cudaGraphUpload(g, s)`` before ROCm 5.3 -> ``((void)(g), (void)(s), hipSuccess)``."""
    since, why = OPTIONAL_CALLS[name]
    call = p.call_of(node)
    if p.target.rocm >= since or call is None or not p.inside(call):
        return False
    evaluated = "".join(f"(void)({p.text(a)}), " for a in p.arguments(call))
    p.edit(call.start_byte, call.end_byte, f"({evaluated}hipSuccess)", "runtime")
    p.need_runtime()
    p.find(fc.API_NEWER_THAN_TARGET, "info", f"{name} needs ROCm {since[0]}.{since[1]} (the target is ROCm "
           f"{p.target.rocm_text}): left out, since {why}", call.start_byte, call.end_byte, name=name,
           family="runtime")
    return True


def edge_data_call(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """A call with CUDA's edge-data argument: dropped when null (every edge a default one, all HIP
    has), else an error finding; any other call is the plain rename."""
    call = p.call_of(node)
    index, count, renamed = EDGE_DATA[name]
    args = p.arguments(call) if call is not None and p.inside(call) else []
    if len(args) != count:
        return False
    if renamed is None:
        p.apply_entry(name, node.start_byte, node.end_byte)
    else:
        p.edit(node.start_byte, node.end_byte, renamed, "runtime")
        p.need_runtime()
    edge_data = p.text(args[index]).strip()
    if edge_data in _NULL:
        p.edit(args[index - 1].end_byte, args[index].end_byte, "", "runtime")
    else:
        p.find(fc.UNSUPPORTED_API, "error", f"{name} with edge data ({edge_data}): HIP's graphs have default edges "
               "only and its call takes no cudaGraphEdgeData; pass NULL for default edges, or port by hand",
               args[index].start_byte, args[index].end_byte, name=name, family="runtime")
    return True


def size_callback_call(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """``cuOccupancyMaxPotentialBlockSize(&g, &b, f, 0, smem, limit)`` -> HIP's call without the null
    callback; a real callback is an error finding (HIP has no form that takes one)."""
    call = p.call_of(node)
    index, count = SIZE_CALLBACK[name]
    args = p.arguments(call) if call is not None and p.inside(call) else []
    if len(args) != count:
        return False
    p.apply_entry(name, node.start_byte, node.end_byte)
    callback = p.text(args[index]).strip()
    if callback in _NULL:
        p.edit(args[index - 1].end_byte, args[index].end_byte, "", "driver")
    else:
        p.find(fc.UNSUPPORTED_API, "error", f"{name} with a block-size-to-shared-memory callback ({callback}): HIP's "
               "module occupancy calls take one dynamic shared memory size for every block size; pass the size "
               "(0 for the callback) or port by hand", args[index].start_byte, args[index].end_byte, name=name,
               family="driver")
    return True


def image_call(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    if not p.target.image_support:
        p.find(fc.UNSUPPORTED_API, "error", f"{name}: {p.target.arch} has no texture units, and HIP marks the "
               "texture/surface API unavailable there; read the data from global memory instead",
               node.start_byte, node.end_byte, name=name, family="device")
        return True
    call = p.call_of(node)
    if name in SURFACE_READS and call is not None and p.inside(call):
        _surface_read_value(p, node, call)
    return True


def _surface_read_value(p: RuleContext, node: tree_sitter.Node, call: tree_sitter.Node) -> None:
    """``surf2Dread<T>(s, x, y)`` returns the value in CUDA; HIP has only ``surf2Dread(&v, s, x, y)``,
    so the call becomes an immediately invoked lambda around that form."""
    callee = call.child_by_field_name(nodes.Field.FUNCTION)
    if callee is None or callee.type != nodes.TEMPLATE_FUNCTION:
        return
    template_args = callee.child_by_field_name(nodes.Field.ARGUMENTS)
    args = p.arguments(call)
    if template_args is None or not args:
        return
    value_type = p.text(template_args)[1:-1].strip()
    name = p.text(node)
    p.edit(call.start_byte, args[0].start_byte,
           f"[&] {{ {value_type} {_READ_VALUE}; {name}(&{_READ_VALUE}, ")
    p.edit(args[-1].end_byte, call.end_byte, f"); return {_READ_VALUE}; }}()", "device")


def unwrap_symbol(p: RuleContext, name_node: tree_sitter.Node) -> bool:
    call = p.call_of(name_node)
    if call is not None and p.inside(call):
        launch.unwrap(p, call, "HIP_SYMBOL")
    return True
