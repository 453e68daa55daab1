"""HIP library headers (hipBLAS, hipFFT, hipSOLVER, hipCUB, rocThrust, rocPRIM, rocBLAS, rocSOLVER)
from Debian 13.

Debian 12 packages none of hipBLAS, hipFFT, hipSOLVER, hipCUB, rocThrust, rocBLAS or rocSOLVER, and
the triton wheels carry only HIP itself. Debian 13 (trixie) packages them: ``-dev`` packages, 0.8 MB
to download, 16 MB of headers (rocBLAS and rocSOLVER 5.5 serve ``translate --roc``; rocSPARSE and
rocRAND come from Debian 12's own packages, and no Debian release packages MIOpen). :func:`fetch` downloads them with ``apt-get download`` against a private apt state (its own
sources, lists, cache and status: the system's apt setup is neither read for sources nor written),
extracts their ``usr/include`` with ``dpkg-deb`` and publishes the folder atomically in the cache.
It runs from setup (``cass-lsp setup --only hip-libs``), never from the language
server.

Not every library suits every HIP header set: rocPRIM 5.7 (and rocThrust and hipCUB, built on it)
needs a ``constexpr warpSize`` and ``hipDeviceProp_t::gcnArch``, both gone from HIP 7.0, so the
ROCm 7.1 profile gets only hipBLAS, hipFFT and hipSOLVER (:data:`NOT_IN_PROFILE` says why; rocPRIM
7.x is packaged only in Debian experimental, whose versions come and go).
:func:`include_dir` is the folder per profile, put on clang's path after the profile's HIP runtime
headers and before ``/usr/include``, where Debian 12's older rocPRIM 5.3 would otherwise win.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import msgspec

from cass_lsp.core import proc
from cass_lsp.core.dirs import cache_root
from cass_lsp.toolchains import devlibs
from cass_lsp.toolchains.errors import ToolchainMissing

SUITE = "trixie"
MIRROR = "http://deb.debian.org/debian"
MIRROR_ENV = "CASS_LSP_DEBIAN_MIRROR"
"""A Debian mirror to use instead of deb.debian.org (same layout, e.g. a local proxy)."""
KEYRING = Path("/usr/share/keyrings/debian-archive-keyring.gpg")
SETUP_HINT = "cass-lsp setup --only hip-libs"
APT_HINT = "run setup on Debian or Ubuntu (needs apt-get and dpkg-deb), then " + SETUP_HINT
KEYRING_HINT = "apt-get install debian-archive-keyring, then " + SETUP_HINT
PROFILES = ("5.2", "7.1")
"""The ROCm profiles of :data:`cass_lsp.toolchains.ROCM_PROFILES`, each with its include folder."""

PACKAGES: dict[str, tuple[str, ...]] = {
    "libhipblas-dev": ("hipblas",),
    "libhipfft-dev": ("hipfft",),
    "libhipsolver-dev": ("hipsolver",),
    "librocprim-dev": ("rocprim",),
    "librocthrust-dev": ("thrust",),
    "libhipcub-dev": ("hipcub",),
    "librocblas-dev": ("rocblas",),
    "librocsolver-dev": ("rocsolver",),
}
"""Each package and the top-level include folders it installs."""

DEBIAN12_PACKAGES = {"hiprand": "libhiprand-dev", "rocrand": "librocrand-dev", "hipsparse": "libhipsparse-dev",
                     "rocsparse": "librocsparse-dev"}
"""Library include folders every profile takes from Debian 12's own packages in ``/usr/include``
(ROCm 5.3 builds, which scripts/setup.sh installs): no Debian release has them for HIP 7."""
DEBIAN12_PROFILE = "5.2"
"""The profile whose HIP (Debian 12's) those packages are built with."""
LIBRARY_NAMES = {"hipblas": "hipBLAS", "hipfft": "hipFFT", "hipsolver": "hipSOLVER", "rocprim": "rocPRIM",
                 "thrust": "rocThrust", "hipcub": "hipCUB", "rocblas": "rocBLAS", "rocsolver": "rocSOLVER",
                 "hiprand": "hipRAND", "rocrand": "rocRAND", "hipsparse": "hipSPARSE", "rocsparse": "rocSPARSE"}
"""The include folder of each HIP library a translation can include here -> the library's name."""

_ROCPRIM_VS_HIP7 = (
    "rocPRIM 5.7 (the newest in a Debian release) uses warpSize as a constant expression and reads "
    "hipDeviceProp_t::gcnArch; HIP 7.0 made warpSize a run-time value and dropped gcnArch"
)
NOT_IN_PROFILE: dict[str, dict[str, str]] = {
    "7.1": {
        "rocprim": _ROCPRIM_VS_HIP7,
        "thrust": f"rocThrust 5.7 is built on rocPRIM: {_ROCPRIM_VS_HIP7}",
        "hipcub": f"hipCUB 5.7 is built on rocPRIM: {_ROCPRIM_VS_HIP7}",
    },
}
"""Per ROCm profile, the include folders left out of it and why (every other profile has all)."""

_UPDATE_TIMEOUT_S = 300.0
_DOWNLOAD_TIMEOUT_S = 600.0
_EXTRACT_TIMEOUT_S = 60.0
# Read with -c, after the system's configuration (so its proxy settings still apply); its update
# hooks (AppStream refresh, PackageKit notices) must not run for this private update.
_APT_CONF = """\
#clear APT::Update::Pre-Invoke;
#clear APT::Update::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
Dir::Etc::SourceList "/dev/null";
Dir::Etc::SourceParts "{state}/sources.list.d";
Dir::Etc::Preferences "/dev/null";
Dir::Etc::PreferencesParts "{state}/preferences.d";
Dir::State "{state}/state";
Dir::State::Lists "{state}/state/lists";
Dir::State::status "{state}/state/status";
Dir::Cache "{state}/cache";
Acquire::Languages "none";
"""
_SOURCES = """\
Types: deb
URIs: {mirror}
Suites: {suite}
Components: main
Signed-By: {keyring}
"""


class PackageRecord(msgspec.Struct, rename="camel", frozen=True):
    """What :func:`fetch` installed, kept beside the headers (``packages.json``)."""

    suite: str
    mirror: str
    packages: dict[str, str]  # package -> Debian version


def root() -> Path:
    return cache_root() / "hip-libs" / SUITE


def _expected() -> dict[str, object]:
    return {
        "suite": SUITE,
        "packages": sorted(PACKAGES),
        "profiles": {profile: list(libraries(profile)) for profile in PROFILES},
    }


def installed() -> bool:
    return devlibs.is_ready(root(), _expected())


def record() -> PackageRecord | None:
    """The suite and package versions fetched, or None before :func:`fetch`."""
    if not installed():
        return None
    try:
        return msgspec.json.decode((root() / "packages.json").read_bytes(), type=PackageRecord)
    except (OSError, msgspec.DecodeError):
        return None


def version() -> str | None:
    """``trixie: libhipblas-dev 5.5.1-4, ...`` (for doctor and compile cache keys)."""
    fetched = record()
    if fetched is None:
        return None
    return f"{fetched.suite}: " + ", ".join(f"{name} {v}" for name, v in sorted(fetched.packages.items()))


DPKG_STATUS = Path("/var/lib/dpkg/status")


def system_version(status: Path = DPKG_STATUS) -> str | None:
    """``libhiprand-dev 5.3.3-4, libhipsparse-dev 5.3.3+dfsg-2~deb12u1``: the installed Debian 12
    packages of :data:`DEBIAN12_PACKAGES` (the library headers every profile reads from
    ``/usr/include``), read from dpkg's database; None when none is installed or there is no dpkg.
    Their versions are ROCm's, which tell a name newer than those headers (:mod:`cass_lsp.verify.header_gaps`)."""
    wanted = set(DEBIAN12_PACKAGES.values())
    try:
        text = status.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found = {}
    for stanza in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in stanza.splitlines() if ": " in line and not line.startswith(" "))
        if fields.get("Package") in wanted and fields.get("Status", "").endswith(" installed") and "Version" in fields:
            found[fields["Package"]] = fields["Version"]
    return ", ".join(f"{name} {v}" for name, v in sorted(found.items())) or None


def libraries(profile: str) -> tuple[str, ...]:
    """The include folders (``hipblas``, ``thrust``, ...) a ROCm profile uses."""
    left_out = NOT_IN_PROFILE.get(profile, {})
    return tuple(sorted(lib for libs in PACKAGES.values() for lib in libs if lib not in left_out))


def absent(folder: str, profile: str) -> str | None:
    """Why a HIP library's include folder (``thrust``, ``hiprand``) is not on the ROCm ``profile``'s
    include path here, and what would put it there; None when it is (or ``folder`` is no library's)."""
    name = LIBRARY_NAMES.get(folder)
    if name is None:
        return None
    package = DEBIAN12_PACKAGES.get(folder)
    if package is not None:
        return None if (Path("/usr/include") / folder).is_dir() else f"{name}'s headers are not installed (apt-get install {package})"
    left_out = NOT_IN_PROFILE.get(profile, {}).get(folder)
    if left_out is not None:
        others = " or ".join(f"--rocm {p}" for p in PROFILES if folder in libraries(p))
        return f"{name}'s headers for ROCm {profile} are not on this machine ({left_out}); {others} has them"
    if include_dir(profile) is None:
        return f"{name}'s headers are not installed ({SETUP_HINT})"
    return None


def unsuited(folder: str, profile: str) -> str:
    """What the headers of a library found in the ROCm ``profile``'s include path are, said when that
    profile's HIP cannot compile them."""
    name = LIBRARY_NAMES.get(folder, folder)
    if folder in DEBIAN12_PACKAGES:
        instead = f": verify with --rocm {DEBIAN12_PROFILE}" if profile != DEBIAN12_PROFILE else ""
        return (f"the {name} headers here are Debian 12's ROCm 5.3 build ({DEBIAN12_PACKAGES[folder]}), and no "
                f"{name} headers for ROCm {profile} are installed{instead}")
    return f"the {name} headers here (Debian {SUITE}'s) do not suit ROCm {profile}'s HIP"


def include_dir(profile: str) -> Path | None:
    """The ``-isystem`` folder of library headers for a ROCm profile (``"5.2"``, ``"7.1"``), or
    None when they were not fetched. It holds only library folders, never ``hip/``."""
    return root() / f"rocm{profile}" / "include" if installed() else None


def _require_tools() -> tuple[Path, Path]:
    apt_get, dpkg_deb = shutil.which("apt-get"), shutil.which("dpkg-deb")
    if apt_get is None or dpkg_deb is None:
        raise ToolchainMissing("apt-get and dpkg-deb (to fetch HIP library headers from Debian)", APT_HINT)
    if not KEYRING.is_file():
        raise ToolchainMissing(f"Debian archive keyring {KEYRING}", KEYRING_HINT)
    return Path(apt_get), Path(dpkg_deb)


def _apt_config(state: Path, mirror: str) -> Path:
    for folder in ("sources.list.d", "preferences.d", "state/lists/partial", "cache/archives/partial"):
        (state / folder).mkdir(parents=True, exist_ok=True)
    (state / "state" / "status").touch()
    (state / "sources.list.d" / f"{SUITE}.sources").write_text(
        _SOURCES.format(mirror=mirror, suite=SUITE, keyring=KEYRING)
    )
    config = state / "apt.conf"
    config.write_text(_APT_CONF.format(state=state))
    return config


def _apt(apt_get: Path, config: Path, args: list[str], cwd: Path, timeout: float) -> None:
    # As root, apt would hand downloads to the _apt user, who cannot write our private folders.
    argv = [str(apt_get), "-q", "-c", str(config), "-o", "APT::Sandbox::User=root", *args]
    result = proc.run(argv, env={**os.environ, "LC_ALL": "C"}, cwd=cwd, timeout=timeout)
    if not result.ok:
        why = "timed out" if result.timed_out else f"exit {result.returncode}"
        raise ToolchainMissing(
            f"HIP library packages from Debian {SUITE} (apt-get {args[0]} {why}: {result.text()[-800:]})",
            SETUP_HINT,
        )


def _deb_field(dpkg_deb: Path, deb: Path, field: str) -> str:
    result = proc.run([str(dpkg_deb), "--field", str(deb), field], timeout=_EXTRACT_TIMEOUT_S)
    if not result.ok:
        raise ToolchainMissing(f"a readable {deb.name} ({result.text()[-400:]})", SETUP_HINT)
    return result.stdout.decode().strip()


def _unpack(dpkg_deb: Path, debs: Path, into: Path) -> dict[str, str]:
    """Extract every ``.deb`` in ``debs`` under ``into/tree``; returns package -> version."""
    versions: dict[str, str] = {}
    tree = into / "tree"
    for deb in sorted(debs.glob("*.deb")):
        result = proc.run([str(dpkg_deb), "--extract", str(deb), str(tree)], timeout=_EXTRACT_TIMEOUT_S)
        if not result.ok:
            raise ToolchainMissing(f"an extractable {deb.name} ({result.text()[-400:]})", SETUP_HINT)
        versions[_deb_field(dpkg_deb, deb, "Package")] = _deb_field(dpkg_deb, deb, "Version")
    return versions


def _assemble(tree: Path, staging: Path) -> None:
    """Keep the headers (and each package's copyright) and build one include folder per profile."""
    include = staging / "include"
    shutil.move(tree / "usr" / "include", include)
    for package in PACKAGES:
        notice = tree / "usr" / "share" / "doc" / package / "copyright"
        if notice.is_file():
            (staging / "copyright").mkdir(exist_ok=True)
            shutil.copyfile(notice, staging / "copyright" / package)
    for package, libs in PACKAGES.items():
        for lib in libs:
            if not (include / lib).is_dir():
                raise ToolchainMissing(f"usr/include/{lib} in {package}", SETUP_HINT)
    for profile in PROFILES:
        folder = staging / f"rocm{profile}" / "include"
        folder.mkdir(parents=True)
        for lib in libraries(profile):
            # Relative links keep the published folder valid after the rename out of staging.
            (folder / lib).symlink_to(Path("..", "..", "include", lib))


def fetch(*, log: devlibs.Log | None = None) -> Path:
    """Download and unpack the packages into :func:`root`; a no-op when they are already there."""
    final = root()
    expected = _expected()
    if devlibs.is_ready(final, expected):
        if log:
            log(f"HIP library headers: already in {final} ({version()})")
        return final
    apt_get, dpkg_deb = _require_tools()
    mirror = os.environ.get(MIRROR_ENV) or MIRROR
    staging = devlibs.staging_dir(final)
    try:
        with tempfile.TemporaryDirectory(prefix="apt-", dir=final.parent) as tmp:
            work = Path(tmp)
            config = _apt_config(work / "apt", mirror)
            debs = work / "debs"
            debs.mkdir()
            _apt(apt_get, config, ["update"], work, _UPDATE_TIMEOUT_S)
            _apt(apt_get, config, ["download", *PACKAGES], debs, _DOWNLOAD_TIMEOUT_S)
            versions = _unpack(dpkg_deb, debs, work)
            missing = sorted(set(PACKAGES) - set(versions))
            if missing:
                raise ToolchainMissing(f"{', '.join(missing)} from Debian {SUITE}", SETUP_HINT)
            _assemble(work / "tree", staging)
        fetched = PackageRecord(suite=SUITE, mirror=mirror, packages=versions)
        (staging / "packages.json").write_bytes(msgspec.json.encode(fetched))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    devlibs.publish(staging, final, expected)
    if log:
        log(f"HIP library headers: {version()} in {final}")
    return final
