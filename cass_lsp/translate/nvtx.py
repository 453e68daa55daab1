"""NVTX calls roctx has no twin for (the twins are table renames: nvtxRangePushA -> roctxRangePushA).

roctracer's roctx has markers and ranges by an ASCII message only. An event-attributes call
(``nvtxRangePushEx(&attr)``, ``nvtxMarkEx``, ``nvtxRangeStartEx``) becomes a compatibility helper that
passes the attributes' ASCII message to roctx (``cass_nvtxRangePushEx`` -> ``roctxRangePushA``);
``nvtxEventAttributes_t`` becomes the helper's struct of the same layout, and the helper defines the
NVTX constants the attributes are filled with (``NVTX_VERSION``, ``NVTX_COLOR_ARGB``, ...). Colour,
category and payload have no roctx twin and are dropped (an info finding). The naming calls
(``nvtxNameCudaStreamA``, ``nvtxNameOsThreadA``, ...) become ``cass_nvtxName``, which evaluates its
arguments and does nothing: roctx cannot name threads or HIP objects.
"""

from __future__ import annotations

from typing import Protocol

import tree_sitter

from cass_lsp.translate import codes as fc
from cass_lsp.translate.context import RuleContext

HELPER = "nvtx-attributes"
GUARD = "CASS_NVTX_ATTRIBUTES"
WHY = "NVTX's event attributes, which roctx lacks: the message goes to roctx, the rest is dropped"
NAMING_HELPER = "nvtx-naming"
NAMING_GUARD = "CASS_NVTX_NAMING"
NAMING_WHY = "NVTX's naming calls, which roctx lacks: the name is dropped"
ATTRIBUTE_CALLS = {"nvtxRangePushEx": "cass_nvtxRangePushEx", "nvtxMarkEx": "cass_nvtxMarkEx",
                   "nvtxRangeStartEx": "cass_nvtxRangeStartEx"}
ATTRIBUTES = "nvtxEventAttributes_t"
NAMING_CALLS = frozenset({"nvtxNameCudaStreamA", "nvtxNameCudaEventA", "nvtxNameCudaDeviceA", "nvtxNameOsThreadA"})
NAMES = frozenset({*ATTRIBUTE_CALLS, ATTRIBUTES, *NAMING_CALLS})
_NAMING = "cass_nvtxName"
# NVTX 3's values (nvToolsExt.h), defined where the program does not include NVTX itself.
_CONSTANTS = {"NVTX_VERSION": "3", "NVTX_EVENT_ATTRIB_STRUCT_SIZE": "((uint16_t)sizeof(cass_nvtxEventAttributes_t))",
              "NVTX_COLOR_UNKNOWN": "0", "NVTX_COLOR_ARGB": "1", "NVTX_MESSAGE_UNKNOWN": "0",
              "NVTX_MESSAGE_TYPE_ASCII": "1", "NVTX_MESSAGE_TYPE_UNICODE": "2", "NVTX_PAYLOAD_UNKNOWN": "0",
              "NVTX_PAYLOAD_TYPE_UNSIGNED_INT64": "1", "NVTX_PAYLOAD_TYPE_INT64": "2", "NVTX_PAYLOAD_TYPE_DOUBLE": "3",
              "NVTX_PAYLOAD_TYPE_UNSIGNED_INT32": "4", "NVTX_PAYLOAD_TYPE_INT32": "5", "NVTX_PAYLOAD_TYPE_FLOAT": "6"}


class _HelperContext(RuleContext, Protocol):
    def need_helper(self, key: str, start: int) -> None: ...


def code() -> str:
    constants = "".join(f"#ifndef {k}\n#define {k} {v}\n#endif\n" for k, v in _CONSTANTS.items())
    message = "(a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii ? a->message.ascii : \"\")"
    return ("#include <stdint.h>\n"
            "struct cass_nvtxEventAttributes_t {\n  uint16_t version;\n  uint16_t size;\n  uint32_t category;\n"
            "  int32_t colorType;\n  uint32_t color;\n  int32_t payloadType;\n  int32_t reserved0;\n"
            "  union { uint64_t ullValue; int64_t llValue; double dValue; uint32_t uiValue; int32_t iValue; "
            "float fValue; } payload;\n  int32_t messageType;\n"
            "  union { const char* ascii; const wchar_t* unicode; void* registered; } message;\n};\n"
            + constants
            + f"static inline int cass_nvtxRangePushEx(const cass_nvtxEventAttributes_t* a) {{ return roctxRangePushA({message}); }}\n"
            f"static inline void cass_nvtxMarkEx(const cass_nvtxEventAttributes_t* a) {{ roctxMarkA({message}); }}\n"
            "static inline roctx_range_id_t cass_nvtxRangeStartEx(const cass_nvtxEventAttributes_t* a) "
            f"{{ return roctxRangeStartA({message}); }}\n")


def naming_code() -> str:
    return f"template <class... A> static inline void {_NAMING}(const A&...) {{}}\n"


def forward(p: _HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """The attribute calls, the attributes type and the naming calls -> the helper's (always handled)."""
    if name in ATTRIBUTE_CALLS:
        new = ATTRIBUTE_CALLS[name]
        message = (f"{name}: roctx has ranges and markers by message only; {new}, a compatibility helper this "
                   "translation defines, passes the attributes' ASCII message to roctx; their colour, category "
                   "and payload have no roctx twin and are dropped")
    elif name == ATTRIBUTES:
        new = "cass_nvtxEventAttributes_t"
        message = f"{name}: roctx has no event attributes; {new} is the compatibility helper's struct of NVTX's layout"
    else:
        new = _NAMING
        message = (f"{name}: roctx cannot name threads, streams, events or devices; {new}, a compatibility helper "
                   "this translation defines, drops the name")
    p.edit(node.start_byte, node.end_byte, new, "nvtx")
    p.need_helper(NAMING_HELPER if name in NAMING_CALLS else HELPER, node.start_byte)
    p.find(fc.UNSUPPORTED_API, "info", message, node.start_byte, node.end_byte, name=name, family="nvtx")
    return True
