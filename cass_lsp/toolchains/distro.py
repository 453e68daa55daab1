"""Install hints in the words of this machine's package manager.

The toolchain modules name what is missing in Debian's terms (their ``*_HINT`` constants, which the
project's setup script runs); :func:`hint` turns such a Debian hint into the command for the
distribution family ``/etc/os-release`` names (Debian and Ubuntu: as is; Fedora/RHEL: dnf; Arch:
pacman; openSUSE: zypper), or says which packages to look for where the family is unknown.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

OS_RELEASE = Path("/etc/os-release")
_APT = "apt-get install --no-install-recommends "

# Debian package → (Fedora, Arch, openSUSE) package; "" where the family packages no equivalent
# (ROCm's HIP on those comes from AMD's repositories as a whole: /opt/rocm).
_EQUIVALENTS: dict[str, tuple[str, str, str]] = {
    "clang-19": ("clang", "clang", "clang19"),
    "lld-19": ("lld", "lld", "lld19"),
    "llvm-19": ("llvm", "llvm", "llvm19"),
    "libamdhip64-dev": ("rocm-hip-devel", "hip-runtime-amd", ""),
    "rocm-device-libs": ("rocm-device-libs", "rocm-device-libs", ""),
    "g++": ("gcc-c++", "gcc", "gcc-c++"),
    "hipcc": ("hipcc", "hip-runtime-amd", ""),
}
_COMMANDS = {"fedora": "dnf install ", "arch": "pacman -S --needed ", "suse": "zypper install "}
_ROCM_NOTE = "or install ROCm under /opt/rocm (https://rocm.docs.amd.com), which cass-lsp finds"


def _parse(text: str) -> dict[str, str]:
    fields = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            fields[key.strip()] = value.strip().strip('"')
    return fields


@functools.cache
def family(os_release: Path = OS_RELEASE) -> str:
    """``debian`` (Debian, Ubuntu, Mint, ...), ``fedora`` (Fedora, RHEL, Rocky, ...), ``arch``,
    ``suse``, or ``unknown``."""
    try:
        fields = _parse(os_release.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return "unknown"
    names = {fields.get("ID", ""), *fields.get("ID_LIKE", "").split()}
    for name, known in (
        ("debian", {"debian", "ubuntu"}),
        ("fedora", {"fedora", "rhel", "centos"}),
        ("arch", {"arch"}),
        ("suse", {"suse", "opensuse", "sles"}),
    ):
        if names & known or (name == "suse" and any(n.startswith("opensuse") for n in names)):
            return name
    return "unknown"


def _equivalent(package: str) -> tuple[str, str, str]:
    """The (Fedora, Arch, openSUSE) names of a Debian package; another LLVM major than the current
    one is ``llvm17``, ``clang17``, ``lld17`` in each of them, as ``llvm-17`` is in Debian."""
    if package in _EQUIVALENTS:
        return _EQUIVALENTS[package]
    versioned = re.fullmatch(r"(clang|lld|llvm)-(\d+)", package)
    if versioned:
        name = "".join(versioned.groups())
        return name, name, name
    return package, package, package


def hint(debian_hint: str, os_family: str | None = None) -> str:
    """A Debian ``apt-get install ...`` hint as this family's command; any other hint unchanged."""
    if not debian_hint.startswith(_APT):
        return debian_hint
    chosen = os_family or family()
    if chosen == "debian":
        return debian_hint
    packages = debian_hint.removeprefix(_APT).split()
    if chosen not in _COMMANDS:
        return f"install the packages Debian calls {' '.join(packages)} ({_ROCM_NOTE} for the AMD ones)"
    column = list(_COMMANDS).index(chosen)
    mapped = [_equivalent(p)[column] for p in packages]
    available = list(dict.fromkeys(p for p in mapped if p))
    lacking = [p for p, m in zip(packages, mapped, strict=True) if not m]
    command = _COMMANDS[chosen] + " ".join(available) if available else ""
    if lacking:
        note = f"{_ROCM_NOTE} (for {' '.join(lacking)})"
        return f"{command}; {note}" if command else note
    return command
