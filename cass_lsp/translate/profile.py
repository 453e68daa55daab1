"""Target profile (GPU arch, wave size, ROCm version) and translation options, as settings."""

from __future__ import annotations

from typing import Literal

import msgspec

from cass_lsp.translate import targets


class TargetProfile(msgspec.Struct, rename="camel", frozen=True):
    arch: str = "gfx1100"  # gfx1100, gfx1030, gfx1200, gfx90a, gfx942, ...
    rocm: str = "auto"  # "auto": the installed HIP headers; else MAJOR.MINOR such as "5.2", "7.1"

    def __post_init__(self) -> None:
        targets.check_arch(self.arch)
        targets.check_rocm(self.rocm)

    @property
    def wave_size(self) -> int:
        return targets.wave_size(self.arch)

    def resolved_rocm(self) -> str:
        return targets.resolve_rocm(self.rocm)

    def rocm_version(self) -> tuple[int, int]:
        major, minor = self.resolved_rocm().split(".")
        return int(major), int(minor)

    def target(self) -> targets.Target:
        return targets.Target(self.arch, self.wave_size, self.rocm_version())


LaunchStyle = Literal["chevron", "hipLaunchKernelGGL"]


class TranslateOptions(msgspec.Struct, rename="camel", frozen=True):
    launch_style: LaunchStyle = "chevron"
    rewrite_strings_and_comments: bool = False
