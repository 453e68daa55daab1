"""Builds the kernel corpus once per session, two compiles at a time (the test machine has 2 cores);
gives a module's ``cass-lsp verify`` runs a result cache of their own."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cass_lsp.core import proc
from cass_lsp.core.cache import default_dir
from cass_lsp.core.dirs import CACHE_ENV
from cass_lsp.cpu import BuildResult, available, build

KERNELS = Path(__file__).parent / "kernels"
RUN_TIMEOUT_S = 60.0

# (file, warp size) pairs the tests run.
PROGRAMS: list[tuple[str, int]] = [
    ("vector_add.cu", 32), ("vector_add.hip", 32), ("reduce_shared.cu", 32), ("warp_reduce.cu", 32),
    ("warp_reduce.cu", 64), ("warp_reduce.hip", 32), ("warp_reduce.hip", 64), ("warp_reduce_wrong_width.hip", 32),
    ("warp_aggregate_32.cu", 32), ("warp_aggregate_32.cu", 64), ("block_scan.cu", 32), ("histogram.cu", 32),
    ("matmul_tiled.cu", 32), ("matmul_tiled.hip", 32), ("matmul_off_by_one.hip", 32), ("stencil.cu", 32),
    ("dynamic_shared.cu", 32), ("constant_mem.cu", 32), ("printf_kernel.cu", 32), ("divergent_barrier.cu", 32),
    ("mixed_collectives.cu", 32), ("intrinsics.cu", 32), ("cub_coverage.cu", 32),
]  # fmt: skip


def need_gxx() -> None:
    """Fail (never skip) when g++ is missing: scripts/setup.sh installs it (build-essential)."""
    ok, why = available()
    if not ok:
        pytest.fail(f"{why}; ./scripts/setup.sh installs it (apt package build-essential)", pytrace=False)


def build_and_run(source: Path, text: str, exe: Path) -> str:
    """Build ``text`` (the file ``source``) on the CPU runtime into ``exe``, run it; what it printed."""
    built = build(source, text, exe)
    assert built.ok, built.log
    result = proc.run([str(built.exe)], timeout=RUN_TIMEOUT_S)
    assert result.ok, result.text()
    return result.stdout.decode()


class Corpus:
    def __init__(self, builds: dict[tuple[str, int], BuildResult]) -> None:
        self.builds = builds

    def run(self, name: str, warp: int = 32, args: Sequence[str] = ()) -> proc.ProcResult:
        built = self.builds[(name, warp)]
        assert built.ok, built.log
        return proc.run([built.exe, *args], timeout=RUN_TIMEOUT_S)

    def stdout(self, name: str, warp: int = 32, args: Sequence[str] = ()) -> str:
        result = self.run(name, warp, args)
        assert result.ok, result.text()
        return result.stdout.decode()


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    need_gxx()
    out = tmp_path_factory.mktemp("cpu-corpus")

    def one(item: tuple[str, int]) -> BuildResult:
        name, warp = item
        source = KERNELS / name
        exe = out / f"{name.replace('.', '_')}_w{warp}"
        return build(source, source.read_text(), exe, warp_size=warp)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(one, PROGRAMS))
    return Corpus(dict(zip(PROGRAMS, results, strict=True)))


@pytest.fixture(scope="module")
def own_result_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A result cache of the module's own, empty at its start, for its ``cass-lsp verify`` processes
    (they inherit the environment): a verify reuses the stages an earlier one of the module computed
    (the keys are exact: a wrong port's verify reuses its original's nvcc compile), and nothing
    another session left answers. The rest of the cache folder (the headers and toolchain files
    setup fetched) is the real one's, linked."""
    root = tmp_path_factory.mktemp("cache-root")
    results = default_dir()
    for entry in sorted(results.parent.iterdir()) if results.parent.is_dir() else ():
        if entry != results:
            (root / entry.name).symlink_to(entry)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(root))
        yield
