"""cass-lsp installed the way a user installs it: the wheel ``python -m build`` makes, pip-installed
(not editable) into a fresh venv by an unprivileged user, run with nothing of this checkout around.

Used by ``tests/install/test_wheel.py`` and ``benchmarks/bench_install.py``. As root, the commands run
as the user :data:`USER` (created with ``useradd`` when missing) through ``runuser``; as any other
user they run as that user. Every command gets a scrubbed environment (:meth:`FreshUser.env`): a
home, XDG folders inside the scratch folder (so the cass-lsp cache starts empty), and a PATH of the
system folders plus, when given, one extra folder (the NVIDIA wheels' ``bin`` of this checkout's
venv, so the smoke test does not download the big NVIDIA wheels again: the installed server finds
that nvcc on PATH, as it finds a CUDA toolkit's).
"""

from __future__ import annotations

import dataclasses
import os
import pwd
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from cass_lsp.core import proc

ROOT = Path(__file__).resolve().parents[2]
USER = "cass-install"
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
PIP_CACHE = "pip-cache"
"""The user's pip cache, inside its home: kept between runs, so a second install is offline-fast."""


@dataclasses.dataclass(frozen=True)
class FreshUser:
    name: str
    home: Path
    switch: bool  # True: commands run through ``runuser -u name`` (we are root)

    def env(
        self, scratch: Path, extra_path: Path | None = None, more: Mapping[str, str] | None = None
    ) -> dict[str, str]:
        path = SYSTEM_PATH if extra_path is None else f"{extra_path}:{SYSTEM_PATH}"
        env = {
            "HOME": str(self.home),
            "USER": self.name,
            "LOGNAME": self.name,
            "PATH": path,
            "LANG": "C.UTF-8",
            "XDG_CACHE_HOME": str(scratch / "xdg-cache"),
            "XDG_CONFIG_HOME": str(scratch / "xdg-config"),
            "XDG_DATA_HOME": str(scratch / "xdg-data"),
            "XDG_STATE_HOME": str(scratch / "xdg-state"),
            "PIP_CACHE_DIR": str(self.home / ".cache" / PIP_CACHE),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        }
        # The machine's pip configuration (mirrors, certificates) applies to every user; these
        # variables carry the parts a CI machine sets in the environment instead.
        for name in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CERT", "PIP_DEFAULT_TIMEOUT"):
            if name in os.environ:
                env[name] = os.environ[name]
        env.update(more or {})
        return env

    def argv(self, argv: Sequence[str | os.PathLike[str]], env: Mapping[str, str]) -> list[str]:
        """``argv`` run as this user in exactly ``env`` (``env -i``: nothing of ours leaks in)."""
        pairs = [f"{key}={value}" for key, value in env.items()]
        prefix = ["runuser", "-u", self.name, "--"] if self.switch else []
        return [*prefix, "env", "-i", *pairs, *(str(arg) for arg in argv)]

    def run(
        self, argv: Sequence[str | os.PathLike[str]], env: Mapping[str, str], cwd: Path, timeout: float
    ) -> proc.ProcResult:
        return proc.run(self.argv(argv, env), cwd=cwd, timeout=timeout)


def ensure_user() -> FreshUser:
    """The unprivileged user the install runs as: :data:`USER` (created if missing) when we are root,
    else ourselves."""
    if os.geteuid() != 0:
        entry = pwd.getpwuid(os.geteuid())
        return FreshUser(entry.pw_name, Path(entry.pw_dir), switch=False)
    if USER not in {entry.pw_name for entry in pwd.getpwall()}:
        made = proc.run(["useradd", "--create-home", "--shell", "/usr/sbin/nologin", USER], timeout=60)
        if not made.ok:
            raise AssertionError(f"useradd {USER} failed: {made.text()}")
    entry = pwd.getpwnam(USER)
    return FreshUser(entry.pw_name, Path(entry.pw_dir), switch=True)


@contextmanager
def scratch_folder(user: FreshUser) -> Iterator[Path]:
    """A folder the user owns and may reach (pytest's tmp_path is root's 0700 folder), removed after."""
    folder = Path(tempfile.mkdtemp(prefix="cass-install-", dir="/tmp"))
    try:
        if user.switch:
            entry = pwd.getpwnam(user.name)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def build_dist(out: Path) -> tuple[Path, Path]:
    """``python -m build`` of this checkout (sdist, then the wheel built from the sdist, so a file
    the sdist lacks is missing from the wheel too): the wheel and the sdist. No network: the build
    backend comes from this venv (the ``dev`` extra)."""
    result = proc.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT], timeout=300)
    if not result.ok:
        raise AssertionError(f"python -m build failed:\n{result.text()[-4000:]}")
    (wheel,) = out.glob("cass_lsp-*.whl")
    (sdist,) = out.glob("cass_lsp-*.tar.gz")
    return wheel, sdist


def install(user: FreshUser, scratch: Path, wheel: Path, env: Mapping[str, str]) -> Path:
    """A fresh venv in ``scratch`` with the wheel installed (not editable); its ``bin`` folder."""
    local_wheel = scratch / wheel.name
    shutil.copyfile(wheel, local_wheel)
    os.chmod(local_wheel, 0o644)
    venv = scratch / "venv"
    made = user.run(["python3", "-m", "venv", venv], env, scratch, timeout=180)
    if not made.ok:
        raise AssertionError(f"python3 -m venv failed: {made.text()[-2000:]}")
    pip = user.run([venv / "bin" / "python", "-m", "pip", "install", "-q", local_wheel], env, scratch, timeout=600)
    if not pip.ok:
        raise AssertionError(f"pip install {wheel.name} failed: {pip.text()[-4000:]}")
    return venv / "bin"


def install_without_pip(user: FreshUser, scratch: Path, wheel: Path, env: Mapping[str, str], pip_from: Path) -> Path:
    """A venv with no pip (the layout ``uv tool install`` makes) with the wheel installed into it by
    the pip of the ``pip_from`` bin folder; its ``bin`` folder."""
    venv = scratch / "venv-without-pip"
    made = user.run(["python3", "-m", "venv", "--without-pip", venv], env, scratch, timeout=180)
    if not made.ok:
        raise AssertionError(f"python3 -m venv --without-pip failed: {made.text()[-2000:]}")
    argv: list[str | Path] = [pip_from / "python", "-m", "pip", "--python", venv / "bin" / "python", "install", "-q"]
    pip = user.run([*argv, scratch / wheel.name], env, scratch, timeout=600)
    if not pip.ok:
        raise AssertionError(f"pip --python ... install {wheel.name} failed: {pip.text()[-4000:]}")
    return venv / "bin"
