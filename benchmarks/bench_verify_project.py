#!/usr/bin/env python3
"""``cass-lsp verify --project`` on the corpus projects (tests/corpus/projects), each figure measured
in this run:

- the verdicts of the translated tree (``translate --out-dir``) with the CPU runner: every check
  should pass;
- the same with one mutated kernel per project (a wrong constant in a unit every check links): every
  check that runs the kernel should fail, none pass with differing output;
- time: ``verify --project`` (no cache) against the original's own nvcc build (configure + build
  with CMake, or make), as a ratio.

``--samples DIR...``: instead, NVIDIA's cuda-samples under each DIR (``Samples/0_Introduction`` and
the like), each verified with the rule translation, ``--run`` and the CPU runner, the verdicts
counted by reason: :mod:`benchmarks._samples` (``bench_verifier.py --samples`` runs the same).

Usage: .venv/bin/python benchmarks/bench_verify_project.py [--samples DIR...]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _samples as cuda_samples
from cass_lsp import toolchains
from cass_lsp.core import proc
from tests.corpus.projects.projects import HERE, nvcc_make_variables

TIMEOUT_S = 1800.0


class Case(NamedTuple):
    name: str
    verify_args: tuple[str, ...]
    mutant: tuple[str, str, str]  # file of the translated tree, text, replacement


CASES = (
    Case("cmake_heat", ("--arch", "gfx1030"), ("src/stencil.hip", "- 4.0f * tile", "- 3.0f * tile")),
    Case("make_rdc", ("--build-system", "make", "--run", "./nbody", "--arch", "gfx1030"),
         ("src/forces.hip", "rsqrtf", "sqrtf")),
)


def _original_build(case: Case, work: Path) -> float:
    nvcc = toolchains.nvcc_invocation()
    tree = work / "original"
    shutil.copytree(HERE / case.name, tree)
    started = time.perf_counter()
    if "make" in case.verify_args:
        argv = ["make", "-C", str(tree), *nvcc_make_variables(nvcc.argv[0])]
        result = proc.run(argv, env=nvcc.env, timeout=TIMEOUT_S)
    else:
        build = work / "build"
        result = proc.run(["cmake", "-S", str(tree), "-B", str(build), f"-DCMAKE_CUDA_COMPILER={nvcc.argv[0]}"],
                          env=nvcc.env, timeout=TIMEOUT_S)
        if result.ok:
            result = proc.run(["cmake", "--build", str(build)], env=nvcc.env, timeout=TIMEOUT_S)
    if not result.ok:
        raise SystemExit(f"{case.name}: the original does not build:\n{result.text()[-2000:]}")
    return time.perf_counter() - started


def _verify(case: Case, translation: Path) -> tuple[float, dict[str, str]]:
    argv = [sys.executable, "-m", "cass_lsp", "verify", "--project", str(HERE / case.name), "--translation",
            str(translation), "--runner", "cpu", "--json", "--no-cache", *case.verify_args]
    started = time.perf_counter()
    result = proc.run(argv, timeout=TIMEOUT_S)
    elapsed = time.perf_counter() - started
    reports = json.loads(result.stdout) if result.stdout.strip() else []
    if not reports:
        raise SystemExit(f"{case.name}: verify printed no report:\n{result.text()[-2000:]}")
    return elapsed, {r["summary"].split(":")[0]: r["verdict"] for r in reports}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--samples", nargs="+", type=Path, metavar="DIR", help="folders of sample projects")
    args = parser.parse_args()
    if args.samples:
        return cuda_samples.main(args.samples)
    print("verify --project, CPU runner (tests/corpus/projects), measured in this run")
    print(f"{'project':<12} {'checks':>6} {'translated: passed':>18} {'mutant: failed':>14} {'verify / nvcc build':>20}")
    for case in CASES:
        with tempfile.TemporaryDirectory(prefix="bench-verify-project-") as folder:
            work = Path(folder)
            translated = work / "hip"
            done = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(HERE / case.name), "--out-dir",
                             str(translated), "--arch", "gfx1030"], timeout=TIMEOUT_S)
            if not done.ok:
                raise SystemExit(done.text())
            reference = _original_build(case, work)
            elapsed, verdicts = _verify(case, translated)
            mutant = work / "mutant"
            shutil.copytree(translated, mutant)
            path, text, replacement = case.mutant
            source = (mutant / path).read_text()
            if text not in source:
                raise SystemExit(f"{case.name}: {path} has no {text!r} to mutate")
            (mutant / path).write_text(source.replace(text, replacement, 1))
            _, mutant_verdicts = _verify(case, mutant)
            checks = [name for name in verdicts if not name.startswith("build files")]
            passed = sum(verdicts[c] == "passed" for c in checks)
            failed = sum(mutant_verdicts.get(c) == "failed" for c in checks)
            print(f"{case.name:<12} {len(checks):>6} {f'{passed}/{len(checks)}':>18} {f'{failed}/{len(checks)}':>14} "
                  f"{elapsed / reference:>19.2f}x")
            print(f"  {case.name}: verdicts {verdicts}; mutant {mutant_verdicts}; verify {elapsed:.1f} s, "
                  f"nvcc build {reference:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
