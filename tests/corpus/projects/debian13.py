"""A Debian 13 (trixie) root where hipBLAS exists, to build ported projects that link it.

Debian 12 packages no hipBLAS or rocBLAS library, and Debian 13's need glibc 2.38, so they cannot be
used on the Debian 12 host: a translated project that links hipBLAS is built inside a Debian 13 root
instead, with Debian's own toolchain there (CMake 3.31, clang-17, hipcc, libhipblas-dev 5.5).

:func:`ensure` builds the root once in the user cache (``debootstrap --variant=minbase``, then
``apt-get install`` of :data:`PACKAGES` inside it), in a staging folder published by one rename with
its stamp written last, so a half-built root is never used and a finished one is never rebuilt.
:func:`run` runs a command in it through ``chroot``, with nothing mounted: apt, CMake, clang, the
linker and ctest all work without ``/proc``. Every command runs in a mount and PID namespace of its
own (``unshare``): debootstrap mounts ``/proc`` in the root while it works and leaves it mounted if
it is killed, and a package script could start a daemon; a namespace takes both with it when its
command ends or is killed on a timeout, so no mount or process outlives a command.
Both need root, as CI runs; the host's apt sources are never touched (the root has its own).

Build it ahead of the tests with ``.venv/bin/python -m tests.corpus.projects.debian13``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.core.dirs import cache_root
from cass_lsp.toolchains import devlibs, hiplibs

SUITE = hiplibs.SUITE
PACKAGES = ("cmake", "make", "g++", "hipcc", "libhipblas-dev")
"""What a user's Debian 13 needs to build a ported hipBLAS project (g++ for its C++ units)."""
EXCLUDED = ("/usr/lib/*/rocblas/*",)
"""dpkg path-excludes: rocBLAS's Tensile kernel files (1.8 GB) are read when a GEMM runs on an AMD
GPU, never to compile or link, and no AMD GPU runs anything here."""
HINT = "apt-get install debootstrap (and run as root, as CI does)"
_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
_DEBOOTSTRAP_TIMEOUT_S = 900.0
_APT_TIMEOUT_S = 1800.0  # about 840 MB to download


class RootUnavailable(RuntimeError):
    """The Debian 13 root could not be built or used; the message holds the failing step's output."""


def root() -> Path:
    return cache_root() / "debian13-root"


def _expected(mirror: str) -> dict[str, object]:
    return {"suite": SUITE, "mirror": mirror, "packages": list(PACKAGES), "excluded": list(EXCLUDED)}


def _mirror() -> str:
    return os.environ.get(hiplibs.MIRROR_ENV) or hiplibs.MIRROR


def _isolated(argv: list[str]) -> list[str]:
    """``argv`` in a private mount namespace and PID namespace, both gone when it ends."""
    return [_require("unshare"), "--mount", "--propagation", "private", "--pid", "--fork", "--kill-child", *argv]


def _require(tool: str) -> str:
    path = shutil.which(tool, path=_PATH)
    if path is None:
        raise RootUnavailable(f"{tool} not found: {HINT}")
    if os.geteuid() != 0:
        raise RootUnavailable(f"building and entering the Debian {SUITE} root needs root: {HINT}")
    return path


def _check(what: str, result: proc.ProcResult) -> proc.ProcResult:
    if not result.ok:
        why = "timed out" if result.timed_out else f"exit {result.returncode}"
        raise RootUnavailable(f"{what} ({why}):\n{result.text()[-4000:]}")
    return result


def run(where: Path, argv: Sequence[str], *, cwd: str = "/", timeout: float,
        env: dict[str, str] | None = None) -> proc.ProcResult:
    """``argv`` inside the root ``where``, in its folder ``cwd`` (a path inside the root), with a
    clean environment plus ``env``."""
    chroot = _require("chroot")
    # Set inside the root, not through proc.run, whose private TMPDIR is a host folder.
    inside = {"PATH": _PATH, "LC_ALL": "C", "HOME": "/root", "TMPDIR": "/tmp", "DEBIAN_FRONTEND": "noninteractive",
              **(env or {})}
    command = [chroot, str(where), "/usr/bin/env", "-i", f"--chdir={cwd}", *(f"{k}={v}" for k, v in inside.items()),
            *argv]
    return proc.run(_isolated(command), env={"PATH": _PATH, "LC_ALL": "C"}, timeout=timeout)


def _build(staging: Path, mirror: str) -> None:
    debootstrap = _require("debootstrap")
    _check(f"debootstrap --variant=minbase {SUITE} from {mirror}",
           proc.run(_isolated([debootstrap, "--variant=minbase", SUITE, str(staging), mirror]),
                    env={"PATH": _PATH, "LC_ALL": "C"}, timeout=_DEBOOTSTRAP_TIMEOUT_S))
    excludes = staging / "etc" / "dpkg" / "dpkg.cfg.d" / "cass-lsp-excludes"
    excludes.write_text("".join(f"path-exclude={pattern}\n" for pattern in EXCLUDED))
    _check("apt-get update in the root", run(staging, ["apt-get", "-q", "update"], timeout=_APT_TIMEOUT_S))
    install = ["apt-get", "-q", "-y", "--no-install-recommends", "install", *PACKAGES]
    _check(f"apt-get install {' '.join(PACKAGES)} in the root", run(staging, install, timeout=_APT_TIMEOUT_S))
    _check("apt-get clean in the root", run(staging, ["apt-get", "clean"], timeout=_APT_TIMEOUT_S))


def ensure() -> Path:
    """The root, built first if it is missing or was built for other packages."""
    final, mirror = root(), _mirror()
    expected = _expected(mirror)
    if devlibs.is_ready(final, expected):
        return final
    staging = devlibs.staging_dir(final)
    try:
        _build(staging, mirror)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    devlibs.publish(staging, final, expected)
    return final


@contextlib.contextmanager
def workdir(where: Path) -> Iterator[tuple[Path, str]]:
    """A fresh folder in the root's /tmp, removed afterwards: (its host path, its path inside)."""
    host = Path(tempfile.mkdtemp(prefix="cass-", dir=where / "tmp"))
    try:
        yield host, f"/tmp/{host.name}"
    finally:
        shutil.rmtree(host, ignore_errors=True)


def main() -> int:
    start = time.monotonic()
    try:
        where = ensure()
    except RootUnavailable as exc:
        print(f"the Debian {SUITE} root could not be built: {exc}", file=sys.stderr)
        return 1
    print(f"Debian {SUITE} root with {', '.join(PACKAGES)}: {where} ({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
