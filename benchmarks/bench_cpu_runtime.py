#!/usr/bin/env python3
"""The CPU runtime on the issue's two workloads: time and barrier crossings per second.

1. Tiled 512x512 matmul (16x16 blocks, 2 barriers per tile step) and a 1M-element reduction
   (256-thread blocks), built with -DCASS_CPU_COUNT_BARRIERS, for each fiber kind (the x86-64
   assembly switch and ucontext) and worker count. Goal: each under 2 s on 2 cores.
2. The alternative the issue names, one OS thread per GPU thread with a barrier: a 256-thread
   pthread_barrier loop, for its crossing rate against the fibers'.

Usage: .venv/bin/python benchmarks/bench_cpu_runtime.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.cpu import build

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "tests" / "cpu" / "kernels"
WORKLOADS = {
    "matmul 512x512 (16x16 blocks)": ("matmul_tiled.cu", ["512", "0"]),
    "reduction 1M (256-thread blocks)": ("reduce_shared.cu", ["1048576"]),
}
FIBERS = {"asm": [], "ucontext": ["-DCASS_CPU_UCONTEXT"]}
GOAL_S = 2.0  # seconds per workload on 2 cores: verification stays interactive

OS_THREADS_SOURCE = r"""
#include <pthread.h>
#include <cstdio>
#include <cstdlib>
#include <ctime>
static pthread_barrier_t barrier;
static int rounds;
static void* body(void*) { for (int i = 0; i < rounds; ++i) pthread_barrier_wait(&barrier); return nullptr; }
int main(int argc, char** argv) {
  int threads = atoi(argv[1]);
  rounds = atoi(argv[2]);
  pthread_barrier_init(&barrier, nullptr, threads);
  pthread_t* t = new pthread_t[threads];
  timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (int i = 0; i < threads; ++i) pthread_create(&t[i], nullptr, body, nullptr);
  for (int i = 0; i < threads; ++i) pthread_join(t[i], nullptr);
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("seconds=%.6f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
}
"""


def _stat(text: str, key: str) -> float:
    m = re.search(rf"{key}=([\d.]+)", text)
    return float(m.group(1)) if m else float("nan")


def bench_runtime(tmp: Path, repeat: int) -> dict[tuple[str, str, str], tuple[float, float]]:
    """Kernel seconds and crossings/s by (workload, fibers, workers)."""
    measured: dict[tuple[str, str, str], tuple[float, float]] = {}
    print(f"{'workload':34} {'fibers':9} {'workers':>7} {'kernel s':>9} {'process s':>9} {'crossings':>11} {'crossings/s':>12}")
    for label, (name, args) in WORKLOADS.items():
        source = KERNELS / name
        for kind, extra in FIBERS.items():
            built = build(source, source.read_text(), tmp / f"{source.stem}_{kind}", timeout=300,
                          extra_args=["-DCASS_CPU_COUNT_BARRIERS", *extra])
            if not built.ok:
                raise SystemExit(built.log)
            for workers in ("1", "2"):
                kernel, wall, crossings = [], [], 0.0
                for _ in range(repeat if kind == "asm" else 1):
                    start = time.perf_counter()
                    result = proc.run(["env", f"CASS_CPU_THREADS={workers}", built.exe, *args], timeout=600)
                    wall.append(time.perf_counter() - start)
                    text = result.text()
                    kernel.append(_stat(text, "kernel_ms") / 1e3)
                    crossings = _stat(text, "barrier_crossings")
                k = statistics.median(kernel)
                print(f"{label:34} {kind:9} {workers:>7} {k:9.3f} {statistics.median(wall):9.3f} "
                      f"{crossings:11.0f} {crossings / k:12.3e}")
                measured[(label, kind, workers)] = (k, crossings / k)
    return measured


def report(measured: dict[tuple[str, str, str], tuple[float, float]], os_thread_rate: float) -> None:
    """Ratios between the runs above, and the goal (each workload under 2 s on 2 cores)."""
    print("\nratios, measured in this run (2 workers):")
    for label in WORKLOADS:
        fast, _ = measured[(label, "asm", "2")]
        for kind in FIBERS:
            if kind != "asm":
                print(f"  {label}: asm fibers {measured[(label, kind, '2')][0] / fast:.1f}x faster than {kind}")
        verdict = "met" if fast < GOAL_S else "NOT met"
        print(f"  {label}: {fast:.2f} s, goal < {GOAL_S:.0f} s: {verdict}")
    best = max(rate for (_, kind, _), (_, rate) in measured.items() if kind == "asm")
    print(f"  barrier crossings/s: asm fibers {best / os_thread_rate:.0f}x one OS thread per GPU thread")


def bench_os_threads(tmp: Path) -> float:
    source = tmp / "os_threads.cpp"
    source.write_text(OS_THREADS_SOURCE)
    exe = tmp / "os_threads"
    built = proc.run(["g++", "-O2", "-pthread", str(source), "-o", str(exe)], timeout=120)
    if not built.ok:
        raise SystemExit(built.text())
    threads, rounds = 256, 2000
    result = proc.run([str(exe), str(threads), str(rounds)], timeout=600)
    seconds = _stat(result.text(), "seconds")
    crossings = threads * rounds
    print(f"\none OS thread per GPU thread, pthread_barrier, {threads} threads x {rounds} barriers: "
          f"{seconds:.3f} s, {crossings / seconds:.3e} crossings/s")
    return crossings / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cass-cpu-bench-") as tmp:
        measured = bench_runtime(Path(tmp), ns.repeat)
        report(measured, bench_os_threads(Path(tmp)))


if __name__ == "__main__":
    main()
