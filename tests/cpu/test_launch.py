"""How the CPU runtime runs a launch (kernels/launch_paths.cu): a block starts as a plain loop over
its threads and becomes fibers only when a thread reaches a yield point; blocks run on a pool of
workers sized to the cores and the process cap; CASS_CPU_ORDER=reverse runs each block's threads
last-first, which a dropped barrier cannot survive, in thread index order reversed along every
axis of a 3-D block. The paths are read from the runtime's own
counters (-DCASS_CPU_COUNT_BARRIERS), every result from an answer computed here."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from cass_lsp.core import proc
from cass_lsp.cpu import build
from tests.cpu.conftest import KERNELS, RUN_TIMEOUT_S, need_gxx

BLOCK = 256
N = 1 << 20
INPUT = [(i * 7 + 3) % 1000 for i in range(N)]


class Ran:
    def __init__(self, result: proc.ProcResult) -> None:
        assert result.ok, result.text()
        self.values = dict(re.findall(r"^(\w+)=(-?\d+)$", result.stdout.decode(), re.M))
        self.lists = {k: [int(v) for v in vs.split(",")] for k, vs in re.findall(r"^(\w+)=(-?\d+(?:,-?\d+)+)$",
                                                                                 result.stdout.decode(), re.M)}  # fmt: skip
        stats = re.search(r"^cass-cpu-stats: (.*)$", result.stderr.decode(), re.M)
        assert stats is not None, result.text()
        self.stats = dict(re.findall(r"(\w+)=(\w+)", stats.group(1)))


@pytest.fixture(scope="module")
def exe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_gxx()
    source = KERNELS / "launch_paths.cu"
    built = build(source, source.read_text(), tmp_path_factory.mktemp("launch") / "launch_paths",
                  extra_args=["-DCASS_CPU_COUNT_BARRIERS"])  # fmt: skip
    assert built.ok, built.log
    return Path(built.exe)


def run(exe: Path, mode: str, env: Mapping[str, str] | None = None, wrapper: Sequence[str] = ()) -> Ran:
    argv = [*wrapper, str(exe), mode]
    return Ran(proc.run(argv, timeout=RUN_TIMEOUT_S, env={**os.environ, **(env or {})}))


def weighted(values: Sequence[int]) -> int:
    return sum(v * (i % 13 + 1) for i, v in enumerate(values))


def test_a_barrier_free_kernel_runs_every_block_as_a_plain_loop(exe: Path) -> None:
    for workers, switches in (("1", 1), ("4", 64)):
        ran = run(exe, "plain", {"CASS_CPU_THREADS": workers})
        assert int(ran.values["weighted"]) == weighted([3 * x for x in INPUT])
        assert ran.stats["plain_blocks"] == ran.stats["blocks"] == str(N // BLOCK // 4)
        # one switch into the plain loop per share of the grid (16 shares a worker), none per block or thread
        assert int(ran.stats["switches"]) == switches, workers


def test_blocks_that_reach_a_barrier_go_on_as_fibers_and_the_others_stay_plain(exe: Path) -> None:
    expected = []
    for g in range(N):
        b, t = divmod(g, BLOCK)
        expected.append(2 * INPUT[g] if b % 2 == 0 else INPUT[b * BLOCK + (t + 1) % BLOCK])
    for order in ("forward", "reverse"):
        ran = run(exe, "mixed", {"CASS_CPU_ORDER": order})
        assert int(ran.values["weighted"]) == weighted(expected), order
        assert int(ran.stats["plain_blocks"]) * 2 == int(ran.stats["blocks"]) == N // BLOCK
        assert ran.stats["block_barriers"] == str(N // BLOCK // 2)


def test_lanes_that_ended_in_the_plain_loop_are_not_waited_for_by_a_shuffle(exe: Path) -> None:
    sums = []
    for b in range(N // BLOCK):
        for w in range(BLOCK // 32):
            start = b * BLOCK + w * 32
            sums.append(0 if w == 0 else sum(INPUT[start : start + 32]))
    for order in ("forward", "reverse"):
        ran = run(exe, "shuffle", {"CASS_CPU_ORDER": order})
        assert int(ran.values["weighted"]) == weighted(sums), order
        # every block began as a plain loop and went on as fibers at its first shuffle
        assert (ran.stats["order"], ran.stats["plain_blocks"]) == (order, "0")


def test_atomics_and_a_lock_add_up_with_plain_blocks_on_several_workers(exe: Path) -> None:
    ran = run(exe, "atomics", {"CASS_CPU_THREADS": "4"})
    assert ran.stats["workers"] == "4"
    assert int(ran.stats["plain_blocks"]) > 0
    bins = [0] * 97
    for x in INPUT:
        bins[x % 97] += 1
    assert [int(ran.values[f"bin{b}"]) for b in range(97)] == bins
    assert int(ran.values["guarded"]) == sum(INPUT[::32])


def test_workers_fit_the_cores_the_run_may_use_and_the_process_cap(exe: Path) -> None:
    assert run(exe, "plain", wrapper=["taskset", "-c", "0"]).stats["workers"] == "1"
    # threads count against RLIMIT_NPROC: at most half of it, the rest left to the program
    assert run(exe, "plain", wrapper=["prlimit", "--nproc=2", "--"]).stats["workers"] == "1"


def test_a_dropped_barrier_changes_the_result_when_threads_run_in_reverse(exe: Path) -> None:
    expected = weighted([(t - 1) * 3 + b if t > 0 else -1 for b in range(8) for t in range(BLOCK)])
    forward = run(exe, "shift")
    assert forward.stats["order"] == "forward"
    assert int(forward.values["synced"]) == int(forward.values["unsynced"]) == expected  # the race hides
    reverse = run(exe, "shift", {"CASS_CPU_ORDER": "reverse"})
    assert reverse.stats["order"] == "reverse"
    assert int(reverse.values["synced"]) == expected
    assert int(reverse.values["unsynced"]) != expected
    # reversed alone, the kernel with the barrier agrees still: the other one races
    only = run(exe, "shift", {"CASS_CPU_ORDER": "reverse", "CASS_CPU_ORDER_KERNEL": "shift_synced"})
    assert int(only.values["synced"]) == int(only.values["unsynced"]) == expected


def test_threads_of_3d_blocks_run_in_index_order_and_reversed_along_every_axis(exe: Path) -> None:
    block, grid = (5, 3, 2), (3, 2, 2)
    size = block[0] * block[1] * block[2]
    blocks = [(bx, by, bz) for bz in range(grid[2]) for by in range(grid[1]) for bx in range(grid[0])]
    threads = [(x, y, z) for z in range(block[2]) for y in range(block[1]) for x in range(block[0])]
    index = [x + 8 * y + 64 * z + 512 * (bx + 4 * by + 16 * bz) for bx, by, bz in blocks for x, y, z in threads]
    for order in ("forward", "reverse"):
        place = list(range(size)) if order == "forward" else list(range(size - 1, -1, -1))
        # one worker: the plain loop goes on with the next block after a block that went on as fibers
        ran = run(exe, "walk", {"CASS_CPU_ORDER": order, "CASS_CPU_THREADS": "1"})
        assert ran.lists["index"] == index, order
        for b, (bx, _, _) in enumerate(blocks):
            before, after = ran.lists["order"][b * size : (b + 1) * size], ran.lists["after"][b * size : (b + 1) * size]
            if bx == 1:  # all take a place before the barrier, in run order, then all after it
                assert (before, sorted(after)) == (place, list(range(size, 2 * size))), (order, b)
            else:  # a plain loop: each thread runs to its end before the next starts
                assert (before, after) == ([2 * p for p in place], [2 * p + 1 for p in place]), (order, b)
        assert (ran.stats["blocks"], ran.stats["plain_blocks"], ran.stats["block_barriers"]) == ("12", "8", "4")
