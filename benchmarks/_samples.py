"""NVIDIA's cuda-samples as a verification corpus (issue 29's real-code corpus), shared by
``bench_verifier.py --samples`` and ``bench_verify_project.py --samples``.

Every folder with a CMakeLists.txt directly under each DIR (``Samples/0_Introduction`` and the like,
each a project of one sample) is verified as a user would: ``cass-lsp verify --project SAMPLE --run
"SAMPLE ARGS" --runner cpu --json --no-cache``, the rule translation, the CPU runner and its default
limits. ARGS come from :data:`RUN_ARGS` where the sample's defaults are sized for a GPU. The report:
the verdicts counted, each "could not verify" sorted by its reason (:data:`REASONS`), and each
"failed" with its evidence (the translation's first compile error, or the first differing output
line) so that whether it is true can be read off. The samples are not part of this repository:
extract them first (``git archive`` of NVIDIA/cuda-samples; the figures in docs/porting.md name the
commit they were measured at).
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import json
import sys
import time
from pathlib import Path

from cass_lsp.core import proc

TIMEOUT_S = 1800.0

# Smaller run arguments for the samples whose defaults are sized for a GPU, each with why: the CPU
# runner runs every thread of every block, and verify's run limit is 20 s. Each keeps the sample's own
# check of its result (eigenvalues: a -matrix-size would skip it, so only its timing loop shrinks).
_MATMUL = (("-wA=64", "-hA=64", "-wB=64", "-hB=64"),
           "320x320 by 640x320 (multiples of its 32x32 tiles), 300 timed products: 20 G multiply-adds over"
           " 1024-thread blocks with barriers; 64x64 by 64x64 still checks every element against wA * valB")
RUN_ARGS: dict[str, tuple[tuple[str, ...], str]] = {
    "matrixMul": _MATMUL,
    "matrixMul_nvrtc": _MATMUL,
    "reduction": (("-n=65536",), "2^24 elements reduced 100 times by 64 blocks of 256 threads; 2^16 still"
                                 " compares the sum with the CPU's"),
    "threadFenceReduction": (("-n=65536",), "2^20 elements, 100 timed single-pass reductions; 2^16 still"
                                            " compares the sum with the CPU's"),
    "reductionMultiBlockCG": (("-n=65536",), "2^25 elements (128 MiB) reduced with grid.sync(); 2^16 still"
                                             " compares the sum with the CPU's"),
    "transpose": (("-dimX=64", "-dimY=64"), "1024x1024 (its MATRIX_SIZE), 8 kernels x 100 reps over 32x8"
                                            " blocks; 64x64 (two tiles a side) still compares each kernel with"
                                            " the CPU's transpose"),
    "radixSortThrust": (("-n=65536", "-iterations=1"), "2^20 keys sorted 100 times; 2^16 keys once, still"
                                                       " checked to be in order"),
    "eigenvalues": (("-iters-timing=1",), "100 timed runs of the 2048x2048 bisection; one run keeps the default"
                                          " matrix and its self-check against the reference (a -matrix-size"
                                          " skips the check)"),
}

# "could not verify" reasons, in the words of the verdicts: (text in the summary, the reason); first match wins
REASONS = (
    ("the original's build cannot be read here", "the original's build does not configure here (a CUDA library absent)"),
    ("the original does not compile", "nvcc rejects the original"),
    ("cannot run on CPU", "the CPU runtime refuses a construct"),
    ("for the cpu runner failed", "the CPU runtime lacks an API the program uses"),
    ("did not finish", "over the run limits on the CPU"),
    ("has no <", "a header this machine lacks"),
    ("no executable", "the build makes no executable"),
)


@dataclasses.dataclass(frozen=True)
class SampleResult:
    folder: str  # the DIR the sample is in
    name: str
    verdict: str  # passed, failed, unverified
    summary: str
    evidence: str  # failed: the translation's first compile error or the first differing line
    seconds: float

    @property
    def reason(self) -> str:
        return next((why for key, why in REASONS if key in self.summary), "other")


def run_command(sample: Path) -> str:
    args = RUN_ARGS.get(sample.name, ((), ""))[0]
    return " ".join((sample.name, *args))


def _evidence(report: dict[str, object]) -> str:
    for stage in report.get("stages", []):
        if not isinstance(stage, dict) or stage.get("outcome") != "failed":
            continue
        mismatch = stage.get("mismatch")
        if isinstance(mismatch, dict):
            return f"{stage.get('name')} {stage.get('target')}: line {int(mismatch['line']) + 1}: expected" \
                   f" {mismatch['expected']!r}, got {mismatch['actual']!r}"
        errors = [d for d in stage.get("diagnostics", []) if isinstance(d, dict) and d.get("severity") == "error"]
        if errors:
            first = errors[0]
            return f"{stage.get('name')} {stage.get('target')}: {Path(str(first.get('file'))).name}:{first.get('line')}:" \
                   f" {first.get('message')}"
        return f"{stage.get('name')} {stage.get('target')}: {stage.get('message')}"
    return ""


def verify_sample(sample: Path) -> SampleResult:
    argv = [sys.executable, "-m", "cass_lsp", "verify", "--project", str(sample), "--run", run_command(sample),
            "--runner", "cpu", "--json", "--no-cache"]
    result = proc.run(argv, timeout=TIMEOUT_S)
    reports = json.loads(result.stdout) if result.stdout.strip() else []
    if not reports:
        lines = result.text().strip().splitlines() or [f"exit {result.returncode}"]
        return SampleResult(sample.parent.name, sample.name, "unverified", f"no report: {lines[-1]}", "", result.duration)
    last = reports[-1]
    evidence = _evidence(last) if last["verdict"] == "failed" else ""
    return SampleResult(sample.parent.name, sample.name, last["verdict"], last["summary"], evidence, result.duration)


def samples_under(folders: list[Path]) -> list[Path]:
    return [p for folder in folders for p in sorted(folder.iterdir()) if (p / "CMakeLists.txt").is_file()]


def measure(folders: list[Path], jobs: int = 1) -> list[SampleResult]:
    """Every sample under ``folders`` verified, ``jobs`` at a time; one line printed per sample as it ends."""
    chosen = samples_under(folders)
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for done in pool.map(verify_sample, chosen):
            results.append(done)
            extra = f" [{done.evidence}]" if done.evidence else ""
            print(f"  [{len(results)}/{len(chosen)}] {done.verdict:<10} {done.folder}/{done.name} ({done.seconds:.0f} s):"
                  f" {done.summary[:300]}{extra[:300]}", flush=True)
    return results


def report(results: list[SampleResult], elapsed: float) -> None:
    verdicts = collections.Counter(r.verdict for r in results)
    total = len(results)
    print(f"\n{total} samples in {elapsed:.0f} s: " + ", ".join(f"{k} {v}" for k, v in verdicts.most_common()))
    unverified = [r for r in results if r.verdict == "unverified"]
    print(f"could not verify: {len(unverified)} of {total} = {100 * len(unverified) / max(total, 1):.0f}% (goal <= 15%)")
    by_reason: dict[str, list[str]] = collections.defaultdict(list)
    for r in unverified:
        by_reason[r.reason].append(r.name)
    for reason, names in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        print(f"  {len(names):>3}  {reason}: {', '.join(names)}")
    failed = [r for r in results if r.verdict == "failed"]
    if failed:
        print("failed, with the evidence to judge each by:")
        for r in failed:
            print(f"  {r.name}: {r.evidence or r.summary}")
    print("by folder:")
    for folder in sorted({r.folder for r in results}):
        counts = collections.Counter(r.verdict for r in results if r.folder == folder)
        print(f"  {folder}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))


def main(folders: list[Path], jobs: int = 1) -> int:
    started = time.perf_counter()
    results = measure(folders, jobs)
    report(results, time.perf_counter() - started)
    return 0
