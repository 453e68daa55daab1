#!/usr/bin/env python3
"""The CPU runtime on four kernel shapes, against the same kernels as plain C++ loops and against
the runtime before barrier-free blocks ran as plain loops.

Shapes (benchmarks/cpu_shapes/shapes.cu, GPU-sized: 4M elements, 256-thread blocks): elementwise
(saxpy) and a global-memory stencil, both barrier-free; a shared-memory tree reduction and a
shared-atomics histogram, both with __syncthreads. Each program times its own launches (best of
``--repeat``) and prints a checksum, which must agree across the three builds:

* plain: shapes_plain.cpp, the kernels as ordinary loops, one thread (``g++ -O2``);
* runtime: the CPU runtime of this checkout, with one worker (like for like) and with every core;
* before: the runtime's headers at ``--baseline`` (git), one worker.

Times on one worker are CPU time (the process's, so the machine's other load does not count); the
all-cores column is wall time. Goal: a barrier-free kernel on one worker within 2x of its plain loop.

Usage: .venv/bin/python benchmarks/bench_cpu_runtime.py [--repeat 5] [--n 4194304] [--baseline REV]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.cpu import build, include_dir, prepare_source
from cass_lsp.cpu.build import command

ROOT = Path(__file__).resolve().parent.parent
SHAPES = ROOT / "benchmarks" / "cpu_shapes"
SHAPE_NAMES = {"elementwise": False, "stencil": False, "reduction": True, "histogram": True}  # name: has barriers
# The last commit whose runtime gave every GPU thread a fiber from the start.
BASELINE = "c6077af"
GOAL = 2.0


def _stat(text: str, key: str) -> float:
    m = re.search(rf"{key}=([-\d.e+]+)", text)
    return float(m.group(1)) if m else float("nan")


def _build_runtime(tmp: Path, include: Path, name: str) -> Path:
    source = SHAPES / "shapes.cu"
    exe = tmp / name
    if include == include_dir():
        built = build(source, source.read_text(), exe, timeout=300, extra_args=["-DCASS_CPU_COUNT_BARRIERS"])
        if not built.ok:
            raise SystemExit(built.log)
        return exe
    # the same command line, the baseline's headers in place of this checkout's
    prepared = tmp / f"{name}.cpu.cpp"
    prepared.write_text(prepare_source(source.read_text()))
    argv = command(source, prepared, exe, hip=False, warp_size=32, cxx="g++")
    argv = [str(include) if a == str(include_dir()) else a for a in argv]
    result = proc.run(argv, timeout=300)
    if not result.ok:
        raise SystemExit(result.text())
    return exe


def _baseline_headers(tmp: Path, rev: str) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "cass_lsp/cpu/include"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive.stdout, check=True)
    return tmp / "cass_lsp" / "cpu" / "include"


def _run(exe: Path, args: list[str], workers: int | None) -> tuple[float, float, float, str]:
    """CPU ms, wall ms, checksum and the output of one run."""
    env = [f"CASS_CPU_THREADS={workers}"] if workers is not None else []
    result = proc.run(["env", *env, str(exe), *args], timeout=900)
    text = result.text()
    if not result.ok:
        raise SystemExit(f"{exe.name} {' '.join(args)}: {text}")
    return _stat(text, "kernel_cpu_ms"), _stat(text, "kernel_ms"), _stat(text, "check"), text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--n", type=int, default=1 << 22)
    parser.add_argument("--baseline", default=BASELINE, help="git revision of the runtime to compare with")
    ns = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory(prefix="cass-cpu-bench-") as tmp_name:
        tmp = Path(tmp_name)
        plain = tmp / "plain"
        result = proc.run(["g++", "-O2", str(SHAPES / "shapes_plain.cpp"), "-o", str(plain)], timeout=300)
        if not result.ok:
            raise SystemExit(result.text())
        runtime = _build_runtime(tmp, include_dir(), "runtime")
        before = _build_runtime(tmp, _baseline_headers(tmp, ns.baseline), "before")
        print(f"n={ns.n}, best of {ns.repeat} launches, kernel ms (CPU; rt x{cores}: wall); runtime before = "
              f"{ns.baseline}; {cores} core(s)")  # fmt: skip
        print(f"{'shape':12} {'barriers':8} {'plain':>9} {'runtime':>9} {f'rt x{cores}':>9} {'before':>9} "
              f"{'rt/plain':>9} {'before/rt':>9}  plain blocks  goal")  # fmt: skip
        for shape, barriers in SHAPE_NAMES.items():
            args = [shape, str(ns.n), str(ns.repeat)]
            plain_ms, _, expected, _ = _run(plain, args, None)
            runtime_ms, _, got, stats = _run(runtime, args, 1)
            _, parallel_ms, got_parallel, _ = _run(runtime, args, cores)
            before_ms, _, got_before, _ = _run(before, args, 1)
            if not expected == got == got_parallel == got_before:
                raise SystemExit(f"{shape}: checksums differ: plain {expected}, runtime {got} ({got_parallel} on "
                                 f"{cores} workers), before {got_before}")  # fmt: skip
            ratio = runtime_ms / plain_ms
            goal = "-" if barriers else ("met" if ratio <= GOAL else "NOT met")
            blocks = f"{_stat(stats, 'plain_blocks'):.0f}/{_stat(stats, 'blocks'):.0f}"
            print(f"{shape:12} {'yes' if barriers else 'no':8} {plain_ms:9.1f} {runtime_ms:9.1f} {parallel_ms:9.1f} "
                  f"{before_ms:9.1f} {ratio:9.2f} {before_ms / runtime_ms:9.2f}  {blocks:>12}  {goal}")  # fmt: skip


if __name__ == "__main__":
    main()
