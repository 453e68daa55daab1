"""Stable finding codes (editors and scripts key on them) and severities."""

from __future__ import annotations

from typing import Literal

Severity = Literal["error", "warning", "info", "hint"]

UNSUPPORTED_API = "unsupported-api"
API_NEWER_THAN_TARGET = "api-newer-than-target"
DEPRECATED_API = "deprecated-api"
EXPERIMENTAL_API = "experimental-api"
UNSUPPORTED_HEADER = "unsupported-header"
INLINE_PTX = "inline-ptx"
TEXTURE_REFERENCE = "texture-reference"
WARP_SIZE_ASSUMPTION = "warp-size-assumption"
WARP_MASK_WIDTH = "warp-mask-width"
WARP_MASK_DROPPED = "warp-mask-dropped"
DYNAMIC_PARALLELISM = "dynamic-parallelism"
CUDA_ARCH_CHECK = "cuda-arch-check"
NVCC_ISM = "nvcc-ism"
UNTRANSLATED = "untranslated"
PARSE_ERROR = "parse-error"
NOT_CODE = "not-code"

ALL = (UNSUPPORTED_API, API_NEWER_THAN_TARGET, DEPRECATED_API, EXPERIMENTAL_API, UNSUPPORTED_HEADER, INLINE_PTX,
       TEXTURE_REFERENCE, WARP_SIZE_ASSUMPTION, WARP_MASK_WIDTH, WARP_MASK_DROPPED, DYNAMIC_PARALLELISM,
       CUDA_ARCH_CHECK, NVCC_ISM, UNTRANSLATED, PARSE_ERROR, NOT_CODE)
