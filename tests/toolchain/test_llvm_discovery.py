"""Which LLVM the AMD jobs use where users have one, paired with the device libraries it can read.

Real compilers only: Debian's clang-15 (hipcc brings it; scripts/setup.sh installs it) and clang-19,
placed where users have them (``/usr/lib/llvm-NN/bin``, ``clang++-NN`` on PATH, a ROCm install's
``llvm/bin``) by symlinks in a temporary tree; the places the machine's own LLVMs sit are pointed
at that tree, so each test sees only the candidates it built.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp import toolchains
from cass_lsp.cli import doctor
from cass_lsp.core import proc
from cass_lsp.core.dirs import cache_root
from cass_lsp.toolchains import amd, bitcode, devlibs, distro, llvm, rocm71
from cass_lsp.toolchains.errors import ToolchainMissing

KERNEL = """
#include <hip/hip_runtime.h>
__global__ void k(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down(v, o);
  out[i] = sinf(v);
}
"""
LLVM15 = Path("/usr/lib/llvm-15/bin")
LLVM19 = Path("/usr/lib/llvm-19/bin")
DEBIAN_BITCODE = Path("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")
TOOLS = ("clang", "clang++", "ld.lld", "llvm-as", "llvm-objdump", "llvm-cxxfilt")
FETCHED_ROCM71 = rocm71.root()  # the session's cache, before a test points the cache elsewhere
INSTALL = "apt-get install --no-install-recommends clang-15 clang-19 llvm-15 llvm-19 lld-19 rocm-device-libs"


def _need(*paths: Path) -> None:
    for path in paths:
        assert path.exists(), f"{path} is missing: {INSTALL}, {rocm71.SETUP_HINT} (scripts/setup.sh does both)"


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No LLVM anywhere but what a test links under the returned folder: an empty PATH, Debian's and
    Fedora's LLVM folders and /opt pointed into it, no $ROCM_PATH, a fresh cache."""
    _need(LLVM15 / "clang++", LLVM19 / "clang++", DEBIAN_BITCODE / "ocml.bc")
    for folder in ("bin", "usr-lib", "opt"):
        (tmp_path / folder).mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setattr(llvm, "DISTRO_LAYOUTS", ((tmp_path / "usr-lib", "llvm-*", r"llvm-(\d+)$", "Debian/Ubuntu's LLVM {major}"),))
    monkeypatch.setattr(llvm, "ROCM_BASE", tmp_path / "opt")
    monkeypatch.delenv(llvm.ROCM_PATH_ENV, raising=False)
    monkeypatch.delenv(llvm.LLVM_DIR_ENV, raising=False)
    monkeypatch.setenv("CASS_LSP_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def _listing(arch: str, rocm: str, source: Path) -> str:
    hip = toolchains.hip_invocation(arch, rocm)
    out = source.with_suffix(f".{arch}.s")
    result = proc.run([*hip.argv, "--cuda-device-only", "-S", "-O2", "-o", str(out), str(source)], env=hip.env, timeout=300)
    assert result.ok, result.text()
    return out.read_text()


def _rocm_install(root: Path, llvm_bin: Path, bitcode_files: list[Path]) -> Path:
    """A ROCm install's layout: llvm/bin, include/hip, share/hip, amdgcn/bitcode, from real files."""
    (root / "llvm" / "bin").mkdir(parents=True)
    for tool in TOOLS:
        (root / "llvm" / "bin" / tool).symlink_to(llvm_bin / tool)
    (root / "include").mkdir()
    (root / "include" / "hip").symlink_to("/usr/include/hip")
    (root / "share").mkdir()
    (root / "share" / "hip").symlink_to("/usr/share/hip")  # the version file clang reads
    (root / "amdgcn" / "bitcode").mkdir(parents=True)
    for file in bitcode_files:
        (root / "amdgcn" / "bitcode" / file.name).symlink_to(file)
    return root


def test_bitcode_says_which_llvm_wrote_it(tmp_path: Path) -> None:
    _need(DEBIAN_BITCODE / "ocml.bc")
    assert bitcode.producer(DEBIAN_BITCODE / "ocml.bc") == "LLVM15.0.5"
    assert bitcode.folder_major(DEBIAN_BITCODE) == 15
    # a module assembled here says the llvm-as that made it
    for bin_dir, major in ((LLVM15, 15), (LLVM19, 19)):
        out = tmp_path / f"isa{major}.bc"
        layout = devlibs.datalayout(bin_dir / "clang++")
        devlibs.assemble(bin_dir / "llvm-as", layout, [devlibs.isa_global(11000)], out)
        assert bitcode.llvm_major(out) == major
    text = tmp_path / "not.bc"
    text.write_text("BC but not bitcode")
    assert bitcode.producer(text) is None and bitcode.llvm_major(tmp_path / "absent.bc") is None


def test_llvm_19_first_then_newer_then_older_newest_first() -> None:
    def made(major: int) -> llvm.Llvm:
        return llvm.Llvm(Path(f"/x/clang++-{major}"), f"{major}.1.0", major, "x", "y")

    order = sorted((made(m) for m in (15, 16, 17, 18, 19, 20, 21)), key=llvm.rank)
    assert [m.major for m in order] == [19, 20, 21, 18, 17, 16, 15]


def test_clang_15_from_its_debian_folder_covers_what_its_libraries_do(machine: Path, tmp_path: Path) -> None:
    (machine / "usr-lib" / "llvm-15").symlink_to(LLVM15.parent)
    where = machine / "usr-lib" / "llvm-15" / "bin"
    choice = amd.choose()
    assert choice.llvm is not None and choice.llvm.major == 15 and choice.llvm.where == str(where)
    assert choice.libs is not None and choice.libs.folder == DEBIAN_BITCODE and choice.libs.llvm_major == 15
    source = tmp_path / "k.hip"
    source.write_text(KERNEL)
    # a target Debian's ROCm 5.2 libraries have, and one whose ISA file LLVM 15's llvm-as generates
    assert "amdgcn-amd-amdhsa--gfx1030" in _listing("gfx1030", "5.2", source)
    assert "amdgcn-amd-amdhsa--gfx1100" in _listing("gfx1100", "5.2", source)
    generated = devlibs.isa_file(cache_root() / "amdgcn-15" / "bitcode", "gfx1100")
    assert bitcode.llvm_major(generated) == 15
    # a target LLVM 15 does not know: said before any compile, with the LLVM that knows it
    with pytest.raises(ToolchainMissing) as unknown:
        toolchains.hip_invocation("gfx1200", "5.2")
    assert f"an LLVM that knows gfx1200 (clang++ 15.0.6 from {where} does not; LLVM 19 does)" in str(unknown.value)
    assert unknown.value.hint == amd.CLANG_HINT
    # doctor: which LLVM, from where, its libraries and targets, and what needs LLVM 19
    statuses = {s.name: s for s in toolchains.report()}
    clang = statuses["clang++-15"]
    assert clang.found and clang.path == str(where / "clang++")
    assert clang.source == (
        f"clang++ 15.0.6 from {where} (Debian/Ubuntu's LLVM 15); device libraries: Debian's rocm-device-libs "
        f"5.2.3, LLVM 15 bitcode ({DEBIAN_BITCODE}), targets gfx600…gfx1103 (38); gfx942, gfx1150, gfx1151, "
        f"gfx1152, gfx1200, gfx1201 need LLVM 19 ({amd.CLANG_HINT})"
    )
    assert statuses["llvm-as-15"].path == str(where / "llvm-as")
    assert statuses["ROCm device libraries"].version == "LLVM 15 bitcode"
    line = next(x for x in doctor.render(doctor.DoctorReport(tools=list(statuses.values()), missing=0)).splitlines()
                if "clang++-15" in x)
    assert line.startswith("ok ") and "(clang++ 15.0.6 from" in line


def test_device_libraries_inside_the_llvm_come_first(machine: Path, tmp_path: Path) -> None:
    """Debian 13 and Ubuntu 24.04 put rocm-device-libs inside the LLVM (``lib/clang/NN/amdgcn/bitcode``)."""
    install = machine / "usr-lib" / "llvm-19"
    (install / "lib" / "clang" / "19" / "amdgcn" / "bitcode").mkdir(parents=True)
    (install / "bin").symlink_to(LLVM19)
    own = install / "lib" / "clang" / "19" / "amdgcn" / "bitcode"
    for file in DEBIAN_BITCODE.glob("*.bc"):
        if file.name != "oclc_isa_version_90a.bc":  # a set that stops short of one target
            (own / file.name).symlink_to(file)
    choice = amd.choose()
    assert choice.libs is not None and choice.libs.folder == own  # before the distribution's in /usr/lib
    assert choice.libs.describe() == f"LLVM 19's own ({install}), LLVM 15 bitcode ({own})"
    source = tmp_path / "k.hip"
    source.write_text(KERNEL)
    assert "amdgcn-amd-amdhsa--gfx1030" in _listing("gfx1030", "5.2", source)
    assert (cache_root() / "amdgcn-19" / "bitcode" / "ocml.bc").resolve() == (DEBIAN_BITCODE / "ocml.bc").resolve()
    # its libraries' targets, the generated ones included, and no others
    with pytest.raises(ToolchainMissing, match=r"oclc_isa_version_90a\.bc for gfx90a \(LLVM 19's own"):
        toolchains.hip_invocation("gfx90a", "5.2")


def test_rocm71_needs_the_llvm_its_bitcode_was_written_by(machine: Path) -> None:
    _need(FETCHED_ROCM71 / "devlibs" / "ocml.bc")
    (machine / "cache").mkdir()
    (machine / "cache" / "rocm71").symlink_to(FETCHED_ROCM71)
    (machine / "bin" / "clang++-15").symlink_to(LLVM15 / "clang++")
    (machine / "bin" / "llvm-as-15").symlink_to(LLVM15 / "llvm-as")
    with pytest.raises(ToolchainMissing) as old:
        toolchains.hip_invocation("gfx1030", "7.1")
    assert str(old.value).startswith(
        "LLVM 19 or newer for ROCm 7.1 (triton's device libraries are LLVM 19 bitcode, which LLVM 15 cannot read)"
    )
    status = {s.name: s for s in toolchains.report()}["HIP headers (ROCm 7.1, triton)"]
    assert not status.found and status.hint is not None and "which LLVM 15 cannot read" in status.hint
    # with clang-19 beside it, 19 is chosen and the profile compiles
    (machine / "bin" / "clang++-19").symlink_to(LLVM19 / "clang++")
    (machine / "bin" / "llvm-as-19").symlink_to(LLVM19 / "llvm-as")
    assert toolchains.hip_invocation("gfx1030", "7.1").argv[0] == str(machine / "bin" / "clang++-19")
    assert {s.name: s for s in toolchains.report()}["HIP headers (ROCm 7.1, triton)"].found


def test_rocm_install_brings_its_llvm_headers_and_libraries(machine: Path, tmp_path: Path) -> None:
    root = _rocm_install(machine / "opt" / "rocm-6.4.0", LLVM19, sorted(DEBIAN_BITCODE.glob("*.bc")))
    (machine / "opt" / "rocm-5.7.1").mkdir()  # older and without LLVM: never chosen
    (machine / "bin" / "clang++-15").symlink_to(LLVM15 / "clang++")
    (machine / "bin" / "llvm-as-15").symlink_to(LLVM15 / "llvm-as")
    choice = amd.choose()
    assert choice.llvm is not None and choice.llvm.rocm == root and choice.llvm.major == 19
    assert choice.libs is not None and choice.libs.folder == root / "amdgcn" / "bitcode"
    headers = amd.hip_headers()
    assert headers is not None and headers.include_dir == root / "include"  # its own, before Debian's
    source = tmp_path / "k.hip"
    source.write_text(KERNEL)
    hip = toolchains.hip_invocation("gfx1100", "5.2")
    assert hip.argv[0] == str(root / "llvm" / "bin" / "clang++") and f"--rocm-path={root}" in hip.argv
    assert "amdgcn-amd-amdhsa--gfx1100" in _listing("gfx1100", "5.2", source)
    statuses = {s.name: s for s in toolchains.report()}
    source_text = statuses["clang++-19"].source or ""
    assert source_text.startswith(f"clang++ 19.1.7 from {root / 'llvm' / 'bin'} (the ROCm install {root}); "
                                  f"device libraries: the ROCm install {root}, LLVM 15 bitcode")
    assert source_text.endswith("not used: clang++-15 15.0.6 from clang++-15 on PATH (LLVM 19 is preferred)")
    assert statuses["llvm-as-19"].source == f"{root / 'llvm' / 'bin'} (the ROCm install {root})"
    assert statuses["HIP headers (ROCm 5.2)"].source == f"the ROCm install {root}, whose LLVM is used"
    # $ROCM_PATH comes first
    other = _rocm_install(machine / "custom-rocm", LLVM19, sorted(DEBIAN_BITCODE.glob("*.bc")))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(llvm.ROCM_PATH_ENV, str(other))
        assert amd.clang() == other / "llvm" / "bin" / "clang++"


def test_an_llvm_older_than_the_only_libraries_is_not_used(machine: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Device libraries written by LLVM 19 only (here: triton's ocml/ockl in a ROCm install), and
    only clang-15: nothing can compile, and doctor says why clang-15 is passed over."""
    _need(FETCHED_ROCM71 / "devlibs" / "ocml.bc")
    lib19 = sorted((FETCHED_ROCM71 / "devlibs").glob("o[cl]*.bc"))
    root = machine / "opt" / "rocm-7.1.0"
    (root / "amdgcn" / "bitcode").mkdir(parents=True)
    for file in lib19:
        target = root / "amdgcn" / "bitcode" / file.name
        target.symlink_to(file)
    monkeypatch.setattr(amd, "DEBIAN_LIB", machine / "no-lib")  # no distribution libraries either
    (machine / "bin" / "clang++-15").symlink_to(LLVM15 / "clang++")
    (machine / "bin" / "llvm-as-15").symlink_to(LLVM15 / "llvm-as")
    choice = amd.choose()
    assert choice.llvm is None
    [(passed, why)] = choice.passed
    assert passed.major == 15
    assert why == f"LLVM 15 cannot read the device libraries here (the ROCm install {root}, LLVM 19 bitcode ({root / 'amdgcn' / 'bitcode'}))"
    with pytest.raises(ToolchainMissing) as missing:
        toolchains.hip_invocation("gfx1030", "5.2")
    assert missing.value.hint == amd.CLANG_HINT
    status = {s.name: s for s in toolchains.report()}["clang++-19"]
    assert not status.found and status.hint is not None
    assert status.hint.startswith(amd.CLANG_HINT) and "clang++-15 15.0.6 from clang++-15 on PATH (LLVM 15 cannot read" in status.hint


def test_llvm_dir_alone_when_set(machine: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (machine / "bin" / "clang++-19").symlink_to(LLVM19 / "clang++")
    monkeypatch.setenv(llvm.LLVM_DIR_ENV, str(LLVM15))
    choice = amd.choose()
    assert choice.llvm is not None and choice.llvm.clang == LLVM15 / "clang++" and choice.passed == ()
    assert choice.explain().startswith(f"clang++ 15.0.6 from {LLVM15} (${llvm.LLVM_DIR_ENV})")


def test_hints_for_another_llvm_major_in_each_family() -> None:
    llvm17 = "apt-get install --no-install-recommends llvm-17"
    assert distro.hint(llvm17, "debian") == llvm17
    assert distro.hint(llvm17, "fedora") == "dnf install llvm17"
    assert distro.hint(llvm17, "suse") == "zypper install llvm17"
    assert distro.hint(amd.CLANG_HINT, "fedora") == "dnf install clang lld"  # 19 is Fedora's current LLVM
