"""Portability rules: what rules cannot translate, or what assumes NVIDIA hardware.

The rule engine calls these while it translates; ``lint.lint()`` reports them without translating.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.translate import codes as fc
from cass_lsp.translate import compat
from cass_lsp.translate.context import RuleContext

if TYPE_CHECKING:
    from cass_lsp.translate.compat import HelperContext

_LANE_ARITHMETIC = rb"(?:&|%|/)[ \t]*(31|32|0[xX]1[fF]|0[xX]20)\b"
_LANE_HINT = r"(?i)threadIdx|lane|tid|warp|thread"
# A name mentioning a warp, defined or initialised as 32 (``#define WARP_SIZE 32``, ``kWarp = 32``).
_WARP_CONSTANT = rb"\b(\w*(?i:warp)\w*)[ \t]*(?:=[ \t]*)?\(?[ \t]*(32)\b"
# ... unless the name counts warps rather than lanes.
_WARP_COUNT = r"(?:[Ww]arps|WARPS)(?![a-z])|(?i:num|count)"
_ARCH_PREPROC_PARENTS = frozenset({nodes.IFDEF, nodes.DEFINED, nodes.IF, nodes.ELIF})


def register_storage(p: RuleContext, spec: tree_sitter.Node) -> None:
    if not p.inside(spec):
        return
    end = spec.end_byte
    while end < p.hi and p.src[end:end + 1] in (b" ", b"\t"):
        end += 1
    p.edit(spec.start_byte, end, "", "nvcc-ism")
    p.find(fc.NVCC_ISM, "info", "the register storage class is not valid in C++17 and clang rejects it; removed",
           spec.start_byte, spec.end_byte, fix=(p.fix_edit(spec.start_byte, end, ""),), name="register")


def callback_convention(p: RuleContext, start: int, end: int) -> bool:
    """CUDART_CB is a calling convention (__stdcall on Windows, empty elsewhere); HIP has none."""
    while end < p.hi and p.src[end:end + 1] in (b" ", b"\t"):
        end += 1
    p.edit(start, end, "", "runtime")
    return True


def inline_asm(p: RuleContext, asm: tree_sitter.Node) -> None:
    if p.reverse:
        message = "inline AMDGPU assembly cannot be translated to CUDA by rules"
    else:
        message = ("inline PTX cannot be translated by rules: rewrite it with HIP intrinsics, or use the "
                   "model translation (Translate with model)")
    p.find(fc.INLINE_PTX, "warning", message, asm.start_byte, asm.end_byte, name="asm")


GRID_CONSTANT = "__grid_constant__"


def grid_constant(p: RuleContext, start: int, end: int) -> bool:
    """``__grid_constant__`` (CUDA 11.7: a const kernel parameter whose address is taken is not
    copied) has no HIP spelling; AMD passes kernel arguments in a constant segment anyway, so the
    qualifier is removed."""
    while end < p.hi and p.src[end:end + 1] in (b" ", b"\t"):
        end += 1
    p.edit(start, end, "", "nvcc-ism")
    p.find(fc.NVCC_ISM, "info", "__grid_constant__ has no HIP spelling (AMD passes kernel arguments in a "
           "constant segment): removed", start, start + len(GRID_CONSTANT), name=GRID_CONSTANT)
    return True


def file_scope_pow(p: RuleContext, name_node: tree_sitter.Node) -> bool:
    """``pow(2, 36)`` initializing a variable at file scope -> ``pow(double(2), double(36))``: there
    clang picks HIP's device overloads (``pow(double, int)``) or a ``pow<T, U>`` template the headers
    only declare (undefined at link under Debian's hipcc); two doubles pick the C library's ``pow``,
    the value nvcc's host code computes. True when handled."""
    call = name_node.parent
    if (p.is_macro or call is None or call.type != nodes.CALL
            or call.child_by_field_name(nodes.Field.FUNCTION) != name_node or not p.inside(call)):
        return False
    arguments = call.child_by_field_name(nodes.Field.ARGUMENTS)
    values = [a for a in arguments.named_children if a.type != nodes.COMMENT] if arguments is not None else []
    if len(values) != 2 or not _file_scope_initializer(call):
        return False
    for value in values:
        p.edit(value.start_byte, value.start_byte, "double(", "runtime")
        p.edit(value.end_byte, value.end_byte, ")", "runtime")
    p.find(fc.NVCC_ISM, "info", "pow in a file-scope initializer takes double arguments: there clang would pick "
           "HIP's device overloads or a pow template its headers only declare", name_node.start_byte,
           name_node.end_byte, name="pow")
    return True


def _file_scope_initializer(node: tree_sitter.Node) -> bool:
    """``node`` is in the initializer of a variable declared at file or namespace scope."""
    parent = node.parent
    while parent is not None and parent.type != nodes.INIT_DECLARATOR:
        if parent.type in (nodes.FUNCTION_DEFINITION, nodes.LAMBDA):
            return False
        parent = parent.parent
    declaration = parent.parent if parent is not None else None
    return (declaration is not None and declaration.type == nodes.DECLARATION and declaration.parent is not None
            and declaration.parent.type in (nodes.TRANSLATION_UNIT, nodes.DECLARATION_LIST, nodes.LINKAGE))


def launch_bounds(p: RuleContext, bounds: tree_sitter.Node) -> None:
    if len([c for c in bounds.named_children if c.type != nodes.COMMENT]) >= 2:
        p.find(fc.NVCC_ISM, "info", "HIP reads the second __launch_bounds__ argument as the minimum waves per "
               "execution unit, not the minimum blocks per multiprocessor: check its value",
               bounds.start_byte, bounds.end_byte, name="__launch_bounds__")


# The include guards of CUDA's headers, tested by code that adapts to what was included before it
# (NVIDIA's helper_cuda.h defines findCudaDevice only #ifdef __CUDA_RUNTIME_H__), and the guard of
# the HIP header each one's include becomes (the same from ROCm 5.2 to 7.1).
HEADER_GUARDS = {
    "__CUDA_RUNTIME_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_H",
    # cuda.h (the driver API) becomes hip_runtime.h too; NVIDIA's helper_cuda_drvapi.h defines
    # findCudaDeviceDRV and checkCudaErrors only #ifdef __cuda_cuda_h__ (every *_nvrtc sample)
    "__cuda_cuda_h__": "HIP_INCLUDE_HIP_HIP_RUNTIME_H",
    "__CUDA_RUNTIME_API_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H",
    "__DRIVER_TYPES_H__": "HIP_INCLUDE_HIP_DRIVER_TYPES_H",
    "__CUDA_FP16_H__": "HIP_INCLUDE_HIP_HIP_FP16_H",
    "CUBLAS_API_H_": "HIPBLAS_H",
    "_CUFFT_H_": "HIPFFT_H_",
    "CURAND_H_": "HIPRAND_H_",
}


# Version macros of CUDA's toolkit and compiler, which HIP does not define: a test of one silently
# reads 0 and takes the branch for an old CUDA (NVIDIA's simpleZeroCopy then compiles its
# pre-CUDA-2.2 fallback). The runtime's (CUDART_VERSION, CUDA_VERSION) read the original's CUDA
# version through a helper (compat.VERSION_MACROS); the compiler's stay a human's choice.
VERSION_MACROS = ("CUDART_VERSION", "CUDA_VERSION", "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__",
                  "__CUDACC_VER_BUILD__", "__NVCC__")


def version_macro(p: HelperContext, name: str, node: tree_sitter.Node) -> bool:
    if name in compat.VERSION_MACROS:
        ours = compat.VERSION_MACROS[name]
        helper = compat.cudart_version_helper(p.target.cuda)
        p.edit(node.start_byte, node.end_byte, ours, "runtime")
        p.need_helper(helper, node.start_byte)
        p.find(fc.NVCC_ISM, "info", f"HIP has no {name}: this reads {ours}, {helper.split(':')[1]} (the version of "
               f"CUDA {p.target.cuda_text}, which the original is built with: the same branches are taken; "
               f"cass.target.cuda chooses another) or, over a CUDA runtime, its own {name}",
               node.start_byte, node.end_byte, name=name, family="runtime")
        return True
    p.find(fc.NVCC_ISM, "warning", f"HIP does not define {name}: a preprocessor test reads it as 0 and takes the "
           "branch for an old or absent CUDA, and code using it does not compile; choose what HIP should do "
           "by hand (HIP_VERSION counts differently)", node.start_byte, node.end_byte, name=name, family="runtime")
    return True


def _tested_by_preprocessor(node: tree_sitter.Node) -> bool:
    """``node`` is the name an #ifdef/#ifndef, a defined() or an #if/#elif condition tests."""
    parent = node.parent
    if parent is None or parent.type not in _ARCH_PREPROC_PARENTS:
        return False
    field = nodes.Field.CONDITION if parent.type in (nodes.IF, nodes.ELIF) else nodes.Field.NAME
    return (parent.child_by_field_name(field) if parent.type != nodes.DEFINED else node) == node


def header_guard(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    if _tested_by_preprocessor(node):
        p.edit(node.start_byte, node.end_byte, HEADER_GUARDS[name], "headers")
    return True


def cuda_arch(p: HelperContext, node: tree_sitter.Node) -> bool:
    """``#ifdef __CUDA_ARCH__`` / ``defined(__CUDA_ARCH__)`` ask whether this is the device pass:
    ``__HIP_DEVICE_COMPILE__``. Any other use reads the value (``#if __CUDA_ARCH__ >= 700``,
    ``v = __CUDA_ARCH__``): ``CASS_CUDA_ARCH``, which a helper defines on the device pass only, as
    nvcc defines ``__CUDA_ARCH__`` (``compat.CUDA_ARCH_LEVEL``)."""
    if _tested_by_preprocessor(node):
        p.edit(node.start_byte, node.end_byte, "__HIP_DEVICE_COMPILE__", "device")
        return True
    p.edit(node.start_byte, node.end_byte, compat.CUDA_ARCH_MACRO, "device")
    p.need_helper(compat.CUDA_ARCH_HELPER, node.start_byte)
    p.find(fc.CUDA_ARCH_CHECK, "info", f"HIP has no __CUDA_ARCH__: this reads {compat.CUDA_ARCH_MACRO}, "
           f"{compat.CUDA_ARCH_LEVEL} when compiling for an AMD GPU (the NVIDIA level whose CUDA C++ features "
           "AMD GPUs all have; tests for 700 and up, independent thread scheduling, tensor cores, PTX of newer "
           "GPUs, are false) and undefined on the host, as __CUDA_ARCH__ is; define "
           f"{compat.CUDA_ARCH_MACRO} to choose another level", node.start_byte, node.end_byte,
           name="__CUDA_ARCH__", family="device")
    return True


def texture_reference(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    parent = node.parent
    if node.type == nodes.TYPE_NAME and parent is not None and parent.type == nodes.TEMPLATE_TYPE:
        p.find(fc.TEXTURE_REFERENCE, "warning", f"{name} references were removed in CUDA 12 and are deprecated "
               "in HIP: move to texture/surface objects (hipTextureObject_t)", parent.start_byte,
               parent.end_byte, name=name, family="runtime")
    return True


def warp_size_literals(p: RuleContext) -> None:
    """Literal 32s that assume a 32-lane warp (reported for wave64 targets only)."""
    wave, arch = p.target.wave_size, p.target.arch
    for m in re.compile(_LANE_ARITHMETIC).finditer(p.src, p.lo, p.hi):
        where, literal = p.context(m.start(1), m.end(1))
        if where == "macro":
            p.remember_macro(literal)
        expr = literal.parent
        if where != "code" or expr is None or expr.type != nodes.BINARY:
            continue
        left = expr.child_by_field_name(nodes.Field.LEFT)
        if expr.child_by_field_name(nodes.Field.RIGHT) != literal or left is None or not re.search(_LANE_HINT, p.text(left)):
            continue
        p.find(fc.WARP_SIZE_ASSUMPTION, "warning", f"lane arithmetic with {p.text(literal)} assumes a 32-lane "
               f"warp; {arch} runs {wave}-lane waves: use warpSize", expr.start_byte, expr.end_byte,
               name=p.text(literal))
    if p.is_macro:
        return  # the enclosing file's pass saw the whole #define line
    for m in re.compile(_WARP_CONSTANT).finditer(p.src, p.lo, p.hi):
        if re.search(_WARP_COUNT, m[1].decode("utf-8", "surrogateescape")):
            continue
        where, _ = p.context(m.start(2), m.end(2))
        if where in ("code", "macro"):
            p.find(fc.WARP_SIZE_ASSUMPTION, "warning", f"a warp size of 32 is hard-coded; {arch} runs "
                   f"{wave}-lane waves: use warpSize", m.start(), m.end(), name="32")
