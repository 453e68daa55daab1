"""llama-cpp-python, imported with a CPU backend loaded, and what llama.cpp runs on here.

scripts/setup.sh builds llama.cpp portably (``GGML_NATIVE=OFF GGML_BACKEND_DL=ON
GGML_CPU_ALL_VARIANTS=ON``): the CPU backend is not part of libggml but one library per x86-64
level (``libggml-cpu-haswell.so``, ``-skylakex``, ``-sapphirerapids``, …) in llama_cpp/lib, and ggml
loads the best one this CPU can run (each scores itself). llama-cpp-python (0.3.36) never asks for
that: llama.cpp's own fallback, ``ggml_backend_load_all()``, searches the executable's folder (the
venv's bin) and the current folder, which never hold the libraries, and the current folder is the
user's workspace, where no library may ever be loaded from. So :func:`load` loads them from the
folder of the libggml that llama-cpp-python itself uses. A native build (``GGML_NATIVE=ON``, the
pip default) has its CPU backend linked in and needs nothing.
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path
from types import ModuleType

import msgspec

from cass_lsp.infer.backend import ModelError

_CPU = 0  # GGML_BACKEND_DEVICE_TYPE_CPU
_INSTALL = "scripts/llama_wheel.sh PYTHON (./scripts/setup.sh runs it: a portable build)"


class _Feature(ctypes.Structure):
    _fields_ = (("name", ctypes.c_char_p), ("value", ctypes.c_char_p))


class CpuBackend(msgspec.Struct, frozen=True):
    """What llama.cpp computes with on this machine."""

    library: str
    """The CPU backend's library: ``libggml-cpu-haswell.so`` (a portable build's pick for this CPU)
    or ``libggml-cpu.so`` (a native build's own)."""
    portable: bool
    """The library is one of a portable build's CPU variants."""
    device: str
    """The CPU as ggml names it."""
    features: list[str]
    """The instruction sets the backend was built with (AVX2, AVX512, AMX_INT8, …)."""
    extra_buffer_types: list[str]
    """The extra buffer types it offers (CPU_REPACK, AMX); whether they are used is a load setting."""


def load() -> ModuleType:
    """``llama_cpp``, with a CPU backend registered; ModelError when it is missing or has none."""
    try:
        import llama_cpp
    except ImportError as error:
        raise ModelError(f"llama-cpp-python is not installed: {_INSTALL}") from error
    ggml, folder = _ggml()
    if ggml.ggml_backend_reg_count() == 0:
        ggml.ggml_backend_load_all_from_path(os.fsencode(folder))
        if ggml.ggml_backend_dev_by_type(_CPU) is None:
            raise ModelError(f"llama.cpp found no CPU backend it can run in {folder}: reinstall llama-cpp-python: {_INSTALL}")
    return llama_cpp


def describe() -> CpuBackend:
    """The CPU backend :func:`load` registered, its features and extra buffer types."""
    load()
    ggml, _ = _ggml()
    device = ggml.ggml_backend_dev_by_type(_CPU)
    registry = ggml.ggml_backend_dev_backend_reg(device)
    features: list[str] = []
    address = ggml.ggml_backend_reg_get_proc_address(registry, b"ggml_backend_get_features")
    if address:
        listed = ctypes.CFUNCTYPE(ctypes.POINTER(_Feature), ctypes.c_void_p)(address)(registry)
        index = 0
        while listed[index].name:
            if listed[index].value == b"1":
                features.append(listed[index].name.decode())
            index += 1
    buffer_types: list[str] = []
    address = ggml.ggml_backend_reg_get_proc_address(registry, b"ggml_backend_dev_get_extra_bufts")
    if address:
        listed_types = ctypes.CFUNCTYPE(ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p)(address)(device)
        index = 0
        while listed_types and listed_types[index]:
            buffer_types.append(ggml.ggml_backend_buft_name(listed_types[index]).decode())
            index += 1
    library = next((p for p in _mapped() if p.name.startswith("libggml-cpu")), None)
    name = library.name if library else "(linked into libggml)"
    return CpuBackend(
        library=name,
        portable=name.startswith("libggml-cpu-"),
        device=ggml.ggml_backend_dev_description(device).decode(errors="replace"),
        features=features,
        extra_buffer_types=buffer_types,
    )


def _ggml() -> tuple[ctypes.CDLL, Path]:
    """The libggml that llama-cpp-python's libllama loaded (the very file: a wheel holds copies of
    each library under its versioned names, and another copy would be a second, empty registry)."""
    found = next((p for p in _mapped() if p.name.startswith("libggml.so")), None)
    if found is None:
        raise ModelError(f"llama-cpp-python's libggml is not loaded: reinstall llama-cpp-python: {_INSTALL}")
    ggml = ctypes.CDLL(str(found))
    pointer = ctypes.c_void_p
    for name, result, arguments in (
        ("ggml_backend_reg_count", ctypes.c_size_t, []),
        ("ggml_backend_load_all_from_path", None, [ctypes.c_char_p]),
        ("ggml_backend_dev_by_type", pointer, [ctypes.c_int]),
        ("ggml_backend_dev_backend_reg", pointer, [pointer]),
        ("ggml_backend_dev_description", ctypes.c_char_p, [pointer]),
        ("ggml_backend_reg_get_proc_address", pointer, [pointer, ctypes.c_char_p]),
        ("ggml_backend_buft_name", ctypes.c_char_p, [pointer]),
    ):
        function = getattr(ggml, name)
        function.restype, function.argtypes = result, arguments
    return ggml, found.parent


def _mapped() -> list[Path]:
    """The files mapped into this process (/proc/self/maps), in order."""
    paths: dict[str, None] = {}
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split(maxsplit=5)
            if len(fields) == 6 and fields[5].startswith("/"):
                paths.setdefault(fields[5].rstrip("\n"), None)
    return [Path(p) for p in paths]
