"""Target profile (GPU arch, wave size, ROCm version) and translation options, as settings."""

from __future__ import annotations

from typing import Literal

import msgspec

from cass_lsp.core import targets


class TargetProfile(msgspec.Struct, rename="camel", frozen=True):
    arch: str = "gfx1100"  # gfx1100, gfx1030, gfx1200, gfx90a, gfx942, ...
    rocm: str = "auto"  # "auto": the installed HIP headers; else MAJOR.MINOR such as "5.2", "7.1"
    cuda: str = "auto"  # reverse translations: "auto" is the installed nvcc's CUDA; else MAJOR.MINOR

    def __post_init__(self) -> None:
        targets.check_arch(self.arch)
        targets.check_rocm(self.rocm)
        targets.check_cuda(self.cuda)

    @property
    def wave_size(self) -> int:
        return targets.wave_size(self.arch)

    def resolved_rocm(self) -> str:
        return targets.resolve_rocm(self.rocm)

    def rocm_version(self) -> tuple[int, int]:
        major, minor = self.resolved_rocm().split(".")
        return int(major), int(minor)

    def resolved_cuda(self) -> str:
        return targets.resolve_cuda(self.cuda)

    def target(self) -> targets.Target:
        return targets.resolve(self.arch, self.rocm, self.cuda)


LaunchStyle = Literal["chevron", "hipLaunchKernelGGL"]
# hip: the hip* marshalling libraries (hipBLAS, ...); roc: hipify's -roc, the native rocBLAS, rocSPARSE,
# rocRAND and rocSOLVER APIs (cuDNN becomes MIOpen in both).
Libraries = Literal["hip", "roc"]


class TranslateOptions(msgspec.Struct, rename="camel", frozen=True):
    launch_style: LaunchStyle = "chevron"
    rewrite_strings_and_comments: bool = False
    libraries: Libraries = "hip"
