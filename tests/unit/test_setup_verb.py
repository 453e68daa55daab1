"""`cass-lsp setup` (the user-level steps, idempotent, progress, what needs the system) and the
per-distribution install hints; with the real clang-19 / llvm-as-19 making the device libraries in
tests/toolchain/test_setup_verb.py."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cass_lsp.cli import setup
from cass_lsp.toolchains import amd, distro

OS_RELEASES = {
    "debian": 'ID=debian\nVERSION_ID="12"\n',
    "ubuntu": 'ID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n',
    "fedora": "ID=fedora\nVERSION_ID=41\n",
    "rocky": 'ID="rocky"\nID_LIKE="rhel centos fedora"\n',
    "arch": "ID=arch\n",
    "opensuse": 'ID="opensuse-tumbleweed"\nID_LIKE="opensuse suse"\n',
    "alpine": "ID=alpine\n",
}
FAMILIES = {
    "debian": "debian",
    "ubuntu": "debian",
    "fedora": "fedora",
    "rocky": "fedora",
    "arch": "arch",
    "opensuse": "suse",
    "alpine": "unknown",
}


@pytest.mark.parametrize("name", list(OS_RELEASES))
def test_family_from_os_release(tmp_path: Path, name: str) -> None:
    os_release = tmp_path / "os-release"
    os_release.write_text(OS_RELEASES[name])
    assert distro.family(os_release) == FAMILIES[name]


def test_family_without_os_release(tmp_path: Path) -> None:
    assert distro.family(tmp_path / "absent") == "unknown"


def test_hints_per_family() -> None:
    assert distro.hint(amd.CLANG_HINT, "debian") == amd.CLANG_HINT
    assert distro.hint(amd.CLANG_HINT, "fedora") == "dnf install clang lld"
    assert distro.hint(amd.CLANG_HINT, "arch") == "pacman -S --needed clang lld"
    assert distro.hint(amd.INSTALL_HINT, "fedora") == "dnf install clang lld llvm rocm-hip-devel rocm-device-libs"
    suse = distro.hint(amd.HIP_HINT, "suse")
    assert "/opt/rocm" in suse and "libamdhip64-dev" in suse  # openSUSE packages no HIP: ROCm's own install
    assert "libamdhip64-dev" in distro.hint(amd.HIP_HINT, "unknown")
    assert distro.hint("pip install 'cass-lsp[nvidia]'", "fedora") == "pip install 'cass-lsp[nvidia]'"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_and_lines_elsewhere() -> None:
    terminal = _Terminal()
    progress = setup.Progress(2, terminal)
    progress.start("first")
    progress.log("a message")
    progress.finish("ready")
    drawn = terminal.getvalue()
    assert "\r\033[K[------------------------] 1/2 first ..." in drawn
    assert "  a message\n" in drawn
    assert "[############------------] 1/2 first: ready\n" in drawn
    plain = io.StringIO()
    progress = setup.Progress(2, plain)
    progress.start("first")
    progress.log("a message")
    progress.finish("ready")
    assert plain.getvalue() == "  a message\n[1/2 first: ready]\n"
