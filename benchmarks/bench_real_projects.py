#!/usr/bin/env python3
"""Real CUDA applications, ported as a new user would: ``cass-lsp translate PROJECT --out-dir PORT``,
then the port's own build following only what the translation's report says, then
``cass-lsp verify --project``. Nothing here was written for cass-lsp, and none of it is tuned to.

Per application (one row each), five steps, each "ok", "FAIL" or "-" (not reached):

1. translate: ``cass-lsp translate SRC --out-dir PORT --arch gfx1030`` exits 0 with no traceback;
2. configure: CMake configures the port with the toolchain file the report names (Debian's
   packages; none on a ROCm install) and the project's own options (``-DMODEL=cuda``: the options
   that pick what to build, never the CUDA-only ones such as ``CUDA_ARCH``: the port must stay
   configurable without them); a Makefile's "configure" is ``make -n`` of the targets (the
   variables and rules resolve);
3. build: ``cmake --build`` / ``make`` of the application's targets (only those: the machine is
   shared), ``HIP_PLATFORM=amd`` and the variables the translation's report names;
4. verify: ``cass-lsp verify --project SRC --translation PORT --runner cpu`` (``--run`` the
   application's command with small, GPU-shaped arguments; the original's CUDA-only options as
   ``--configure-arg``); the verdicts, counted;
5. hand edits: whether the port needed any before it built (goal: none); the first error line of
   each failed step is printed below the table. Where the first failure is a library this machine
   lacks (Debian 12 packages no hipBLAS library), the row names the package instead.

The corpus, read from bare git mirrors (``--mirrors`` holds ``OWNER+NAME/repo``; a missing one is
named with how to fetch it), only the listed paths extracted (``git archive``). Each repository was
checked to ship no HIP port (no ``hip/`` folder, ``*.hip`` file, HIP include or HIP CMake model) and
none is a GPU benchmark suite that pairs CUDA programs with HIP ports:

- alalvarez29/Pi-Kernel @ 3b62dfd78d8b6c132fe2852a514ddfead02b4c0c: ``pikernel``, a multi-model CMake
  benchmark (``-DMODEL=cuda``; Kokkos, RAJA, OpenMP and SYCL models beside it) with BabelStream-style
  macros (``register_flag_required(CUDA_ARCH ...)``, ``CMAKE_CUDA_FLAGS_${BUILD_TYPE}``,
  ``-forward-unknown-to-host-compiler``). The only multi-model CMake benchmark found that ships no HIP
  model: BabelStream, miniBUDE, CloverLeaf and TeaLeaf do, and are reserved for independent evaluation;
- karpathy/llm.c @ f1e2ace651495b74ae22d45d1723443fd00ecd3a: ``llmc-dev``, ``dev/cuda``'s Makefile
  (``%: %.cu`` pattern rule, ``NVCC := $(shell which nvcc 2>/dev/null)``, ``-lcublas -lcublasLt``),
  two of its targets;
- siboehm/SGEMM_CUDA @ 60cba6f9b20a198116c76f18de8047f44df8c8b8: ``sgemm``, CMake with FindCUDA's
  variables (``CUDA_CUBLAS_LIBRARIES``), ``aux_source_directory``, cuBLAS and libcu++;
- NVIDIA/cuda-samples @ c94ff366aed18c797b8a85dfaac7817b0228b420 (each sample with ``Common/`` and
  ``cmake/``, configured from its own folder): ``simpleCUBLAS`` (``CUDA::cudart CUDA::cublas``) and
  ``radixSortThrust`` (Thrust);
- NVIDIA/multi-gpu-programming-models @ 9a600f5ea8f5e53614e30b7b36e9136107178dd8: ``jacobi``
  (``single_gpu``: Makefile, CUB's ``BlockReduce``, NVTX, ``-Xcompiler -fopenmp``, ``-Xptxas``);
- NVIDIA-developer-blog/code-samples @ 72d62ec464442786a36754508bcb1094d197d6a5: ``gups``
  (``posts/gups``: ``$(CUDA_HOME)/bin/nvcc``, ``%.o: %.cu`` and ``%.d`` rules, targets from
  ``$(foreach)``) and ``sepcomp`` (``posts/separate-compilation-linking``: ``nvcc -x cu -dc`` of
  ``.cpp`` units and nvcc's device link).

The columns: translate (exit 0, no traceback), unported (the constructs the translation reports it
could not port: error findings), configure, build, verify (the worst verdict), hand edits ("none";
"needs X": the first failure is a library X this machine lacks that the port's sources use, and the
translation's report names X; "yes"; "yes (unused X)": the port's build asks for a package its
sources never use; "yes (unnamed X)": the report does not say the port needs X). A Makefile's build
sets what the report says to (``HIPCC_COMPILE_FLAGS_APPEND`` where the system lacks rocThrust or
hipCUB); a traceback fails a step only when it is cass-lsp's (hipcc's ``rocm_agent_enumerator``
prints one on a machine without a GPU).

Usage:

  .venv/bin/python benchmarks/bench_real_projects.py [--mirrors /work/.mirror] [--only NAME ...] [--keep DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Literal, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cass_lsp.buildfiles import files
from cass_lsp.core import proc

ARCH = "gfx1030"  # Debian 12's clang-15 device libraries build it out of the box
TRANSLATE_TIMEOUT_S = 600.0
BUILD_TIMEOUT_S = 1200.0
VERIFY_TIMEOUT_S = 1800.0
NICE = 10
_ROCM_HIP_LANG = Path("/opt/rocm/lib/cmake/hip-lang")


class App(NamedTuple):
    name: str
    mirror: str  # folder under --mirrors holding the bare repository ``repo``
    url: str
    commit: str
    paths: tuple[str, ...]  # what to extract (git archive pathspecs)
    root: str  # the project's folder in the extracted tree (where its build file is)
    system: Literal["cmake", "make"]
    options: tuple[str, ...]  # cmake -D options that pick what to build (both sides)
    cuda_options: tuple[str, ...]  # the original's CUDA-only options (verify's --configure-arg)
    targets: tuple[str, ...]  # the targets built (make goals, cmake --target)
    run: str  # verify --run: the application's command, small arguments
    kind: str


CORPUS = (
    App("pikernel", "alalvarez29+Pi-Kernel", "https://github.com/alalvarez29/Pi-Kernel",
        "3b62dfd78d8b6c132fe2852a514ddfead02b4c0c", (".",), ".", "cmake", ("-DMODEL=cuda",),
        ("-DCUDA_ARCH=sm_80",), ("cuda-pikernel",), "cuda-pikernel", "multi-model CMake"),
    App("llmc-dev", "karpathy+llm.c", "https://github.com/karpathy/llm.c",
        "f1e2ace651495b74ae22d45d1723443fd00ecd3a", ("dev/cuda",), "dev/cuda", "make", (), (),
        ("gelu_forward", "layernorm_forward"), "./gelu_forward 1", "Makefile, %: %.cu, cuBLAS"),
    App("sgemm", "siboehm+SGEMM_CUDA", "https://github.com/siboehm/SGEMM_CUDA",
        "60cba6f9b20a198116c76f18de8047f44df8c8b8", (".",), ".", "cmake", (), (), ("sgemm",), "sgemm 1",
        "CMake, FindCUDA, cuBLAS"),
    App("simpleCUBLAS", "NVIDIA+cuda-samples", "https://github.com/NVIDIA/cuda-samples",
        "c94ff366aed18c797b8a85dfaac7817b0228b420", ("Samples/4_CUDA_Libraries/simpleCUBLAS", "Common", "cmake"),
        "Samples/4_CUDA_Libraries/simpleCUBLAS", "cmake", (), (), ("simpleCUBLAS",), "simpleCUBLAS",
        "CMake, CUDA::cublas"),
    App("radixSortThrust", "NVIDIA+cuda-samples", "https://github.com/NVIDIA/cuda-samples",
        "c94ff366aed18c797b8a85dfaac7817b0228b420",
        ("Samples/2_Concepts_and_Techniques/radixSortThrust", "Common", "cmake"),
        "Samples/2_Concepts_and_Techniques/radixSortThrust", "cmake", (), (), ("radixSortThrust",),
        "radixSortThrust -n=4096", "CMake, Thrust"),
    App("jacobi", "NVIDIA+multi-gpu-programming-models", "https://github.com/NVIDIA/multi-gpu-programming-models",
        "9a600f5ea8f5e53614e30b7b36e9136107178dd8", ("single_gpu",), "single_gpu", "make", (), (), ("jacobi",),
        "./jacobi -niter 10 -nx 256 -ny 256", "Makefile, CUB, OpenMP, NVTX"),
    App("gups", "NVIDIA-developer-blog+code-samples", "https://github.com/NVIDIA-developer-blog/code-samples",
        "72d62ec464442786a36754508bcb1094d197d6a5", ("posts/gups",), "posts/gups", "make", (), (), ("gups",),
        "./gups -n 16 -t 1", "Makefile, $(CUDA_HOME)/bin/nvcc, %.o: %.cu"),
    App("sepcomp", "NVIDIA-developer-blog+code-samples", "https://github.com/NVIDIA-developer-blog/code-samples",
        "72d62ec464442786a36754508bcb1094d197d6a5", ("posts/separate-compilation-linking",),
        "posts/separate-compilation-linking", "make", (), (), ("all",), "./app", "Makefile, -x cu -dc, device link"),
)

Outcome = Literal["ok", "FAIL", "-"]
# what stopped a step, before any line that merely mentions an error
_FAILURE_LINE = re.compile(r"\berror:|\bfatal\b|CMake Error|undefined reference|No rule to make|\*\*\* |command not found")
_ERROR_LINE = re.compile(r"(?i)\berror\b|Traceback|not found|No such file|cannot find|undefined reference")


class Step(NamedTuple):
    outcome: Outcome
    seconds: float
    first_error: str  # the first error line of a failed step ("" otherwise)


class Result(NamedTuple):
    app: App
    steps: dict[str, Step]
    unsupported: int  # constructs the translation reports it could not port
    verdicts: str  # "passed 1, unverified 2" or why verify did not run
    uses: dict[str, bool]  # each package a failed step says is missing: whether the port's sources use it
    report: str  # what the translation said on standard error (the packages it names)


SKIPPED = Step("-", 0.0, "")


def first_error(text: str, ours: bool = True) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines if ours else ():
        if "Traceback" in line:
            return next((rest for rest in reversed(lines) if rest and not rest.startswith("File ")), line)[:300]
    at = next((i for i, line in enumerate(lines) if _FAILURE_LINE.search(line)), None)
    if at is None:
        at = next((i for i, line in enumerate(lines) if _ERROR_LINE.search(line)), None)
    if at is None:
        return lines[-1][:300] if lines else "(no output)"
    # CMake says where on one line and what on the next
    said = lines[at:at + 2] if lines[at].endswith(":") else lines[at:at + 1]
    return " ".join(said)[:300]


def extract(mirrors: Path, app: App, into: Path) -> str | None:
    """The app's paths at its commit written under ``into``; None, else why not."""
    repo = mirrors / app.mirror / "repo"
    if not (repo / "objects").is_dir():
        return f"no mirror of {app.url} at {repo}: fetch it with `git clone --mirror {app.url} {repo}`"
    archive = proc.run(["git", f"--git-dir={repo}", "archive", "--format=tar", app.commit, "--", *app.paths],
                       timeout=TRANSLATE_TIMEOUT_S)
    if not archive.ok:
        return f"{repo}: cannot read {app.commit} ({first_error(archive.text())}); fetch a newer mirror"
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return None


def step(argv: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None,
         timeout: float = BUILD_TIMEOUT_S, ours: bool = False) -> tuple[Step, proc.ProcResult]:
    """``argv`` run as a step; ``ours``: a cass-lsp command, whose traceback fails the step (another
    tool's, such as hipcc's rocm_agent_enumerator on a machine without a GPU, is that tool's noise)."""
    started = time.perf_counter()
    result = proc.run(argv, cwd=cwd, env=env, timeout=timeout, nice=NICE)
    elapsed = time.perf_counter() - started
    text = result.text()
    failed = not result.ok or (ours and "Traceback (most recent call last)" in text)
    return Step("FAIL" if failed else "ok", elapsed, first_error(text, ours) if failed else ""), result


def hip_env(report: dict[str, str] | None = None) -> dict[str, str]:
    """The build's environment: HIP for AMD, and what the translation's report says to set."""
    return {**os.environ, "HIP_PLATFORM": "amd", **(report or {})}


def toolchain_args() -> list[str]:
    return [] if _ROCM_HIP_LANG.is_dir() else [f"-DCMAKE_TOOLCHAIN_FILE={files.TOOLCHAIN_FILE}"]


def configure(app: App, port: Path, build: Path) -> Step:
    if app.system == "cmake":
        argv = ["cmake", "-S", str(port), "-B", str(build), *toolchain_args(), *app.options]
    else:
        argv = ["make", "-n", "-B", "-C", str(port), *app.targets]
    return step(argv, env=hip_env())[0]


def build(app: App, port: Path, build: Path, report: dict[str, str]) -> Step:
    if app.system == "cmake":
        argv = ["cmake", "--build", str(build), "--target", *app.targets]
    else:
        argv = ["make", "-C", str(port), *app.targets]
    return step(argv, env=hip_env(report))[0]


def verify(app: App, source: Path, port: Path) -> tuple[Step, str]:
    """The step (ok: every check passed) and the verdicts counted."""
    argv = [sys.executable, "-m", "cass_lsp", "verify", "--project", str(source), "--translation", str(port),
            "--runner", "cpu", "--json", "--no-cache", "--arch", ARCH, "--run", app.run,
            "--build-system", app.system, *(f"--configure-arg={o}" for o in (*app.options, *app.cuda_options))]
    outcome, result = step(argv, timeout=VERIFY_TIMEOUT_S, ours=True)
    try:
        reports = json.loads(result.stdout) if result.stdout.strip() else []
    except json.JSONDecodeError:
        reports = []
    if not reports:
        # verify says why on stderr when it cannot read the original's build
        said = next((line.removeprefix("cass-lsp verify: ") for line in result.stderr.decode(errors="replace").splitlines()
                     if line.startswith("cass-lsp verify:")), first_error(result.text()))
        verdict = "unverified" if "could not verify" in said else "error"
        return Step("FAIL", outcome.seconds, said[:400]), f"{verdict} (no report)"
    counts = Counter(r["verdict"] for r in reports)
    verdicts = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    bad = [r for r in reports if r["verdict"] != "passed"]
    if not bad:
        return Step("ok", outcome.seconds, ""), verdicts
    return Step("FAIL", outcome.seconds, " | ".join(r["summary"][:300] for r in bad)[:700]), verdicts


# the report's line for a Makefile where the system lacks rocThrust / hipCUB (hipcc reads the variable)
_REPORTED_ENV = re.compile(r"(?P<name>HIPCC_COMPILE_FLAGS_APPEND)='(?P<value>[^']*)' make")
_UNPORTED = re.compile(r"cass-lsp translate: (?P<n>\d+) construct\(s\) remain untranslated")


def translate(source: Path, port: Path) -> tuple[Step, int, str, dict[str, str]]:
    """The step, how many constructs the translation reports it could not port (error findings),
    its report (standard error) and the environment that report says a Makefile's build needs."""
    argv = [sys.executable, "-m", "cass_lsp", "translate", str(source), "--out-dir", str(port), "--arch", ARCH]
    outcome, result = step(argv, timeout=TRANSLATE_TIMEOUT_S, ours=True)
    said = result.stderr.decode(errors="replace")  # the report a user reads (--json prints no hints)
    report = {m["name"]: m["value"] for m in _REPORTED_ENV.finditer(said)}
    unported = _UNPORTED.search(said)
    return outcome, int(unported["n"]) if unported else 0, said, report


def measure(mirrors: Path, app: App, work: Path) -> Result | str:
    tree, ported = work / "src", work / "port"
    why = extract(mirrors, app, tree)
    if why is not None:
        return why
    source, port, out = tree / app.root, ported / app.root, work / "build"
    translated, unsupported, said, report = translate(tree, ported)
    steps = {"translate": translated}
    steps["configure"] = configure(app, port, out) if steps["translate"].outcome == "ok" else SKIPPED
    steps["build"] = build(app, port, out, report) if steps["configure"].outcome == "ok" else SKIPPED
    verdicts = "not run: translation failed"
    if steps["translate"].outcome == "ok":
        steps["verify"], verdicts = verify(app, source, port)
    else:
        steps["verify"] = SKIPPED
    # a header or library the compiler or linker misses is one the sources name; a CMake package may not be
    asked = (_CMAKE_PACKAGE.search(steps[s].first_error) for s in STEPS[:3] if steps[s].outcome == "FAIL")
    uses = {package: sources_use(port, package) for m in asked if m and (package := m["a"] or m["b"])}
    return Result(app, steps, unsupported, verdicts, uses, said)


STEPS = ("translate", "configure", "build", "verify")
_CMAKE_PACKAGE = re.compile(r'By not providing "Find(?P<a>[\w-]+)\.cmake"|provided by "(?P<b>[\w-]+)"')
_MISSING_HEADER = re.compile(r"fatal error: '(?P<h>[^']+)' file not found")
_MISSING_LIBRARY = re.compile(r"cannot find -l(?P<l>[\w-]+)")
# headers of libraries a Debian 12 machine may lack: the header's prefix -> the package to install
# (omp.h: LLVM's OpenMP for hipcc's clang-15, which -Xcompiler -fopenmp becomes)
_LIBRARY_HEADERS = {"omp.h": "libomp-15-dev", "hipcub/": "hipCUB",
                    "thrust/": "rocThrust", "rocprim/": "rocPRIM", "hipblas": "hipBLAS", "hipblaslt": "hipBLASLt",
                    "hiprand/": "hipRAND", "hipfft/": "hipFFT", "roctracer/": "roctracer"}


def missing_package(error: str) -> str | None:
    """The library package a step's first error says this machine lacks (None: the error is not that)."""
    if m := _CMAKE_PACKAGE.search(error):
        return m["a"] or m["b"]
    if m := _MISSING_LIBRARY.search(error):
        return f"lib{m['l']}"
    if m := _MISSING_HEADER.search(error):
        return next((pkg for prefix, pkg in _LIBRARY_HEADERS.items() if m["h"].startswith(prefix)), None)
    return None


_SOURCE_SUFFIXES = {".hip", ".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".cxx"}


def sources_use(port: Path, package: str) -> bool:
    """Whether a source file of the port's project folder names ``package`` (its headers, its API)."""
    word = package.lower().removeprefix("lib")
    return any(word in path.read_text(errors="replace").lower()
               for path in port.rglob("*") if path.suffix in _SOURCE_SUFFIXES and path.is_file())


def hand_edits(result: Result) -> str:
    """none; else the package the first failure names where the machine lacks a library the port's
    sources use and the translation's report names it; else yes (a library its sources never name
    is the build files' fault, one the report does not name leaves the user guessing)."""
    failed = next((result.steps[s] for s in STEPS[:3] if result.steps[s].outcome != "ok"), None)
    if failed is None:
        return "none"
    package = missing_package(failed.first_error)
    if package is None:
        return "yes"
    if not result.uses.get(package, True):
        return f"yes (unused {package})"
    return f"needs {package}" if package.lower() in result.report.lower() else f"yes (unnamed {package})"


def verify_cell(result: Result) -> str:
    if result.steps["verify"].outcome == "ok":
        return "passed"
    return next((v for v in ("failed", "error", "unverified") if v in result.verdicts), "-")


def print_table(results: list[Result]) -> None:
    header = (f"{'project':<16} {'what it exercises':<42} {'translate':>9} {'unported':>8} {'configure':>9} "
              f"{'build':>5} {'verify':>10}  {'hand edits':<18} verdicts")
    print("\n" + header + "\n" + "-" * len(header))
    for r in results:
        t, c, b = (r.steps[s].outcome for s in STEPS[:3])
        print(f"{r.app.name:<16} {r.app.kind:<42} {t:>9} {r.unsupported:>8} {c:>9} {b:>5} {verify_cell(r):>10}  "
              f"{hand_edits(r):<18} {r.verdicts}")
    clean = sum(hand_edits(r) == "none" for r in results)
    blocked = sum(hand_edits(r).startswith("needs") for r in results)
    print(f"\nports that build with no hand edit: {clean}/{len(results)}; stopped by a library this machine lacks: "
          f"{blocked}; verify --project passed: {sum(verify_cell(r) == 'passed' for r in results)}/{len(results)}")
    print("\nfailures (the first error of each failed step):")
    for r in results:
        for s in STEPS:
            if r.steps[s].outcome == "FAIL":
                print(f"  {r.app.name} {s}: {r.steps[s].first_error}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"),
                        help="folder holding OWNER+NAME/repo bare mirrors (default: %(default)s)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these projects")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep each project's trees under DIR")
    args = parser.parse_args()
    apps = [a for a in CORPUS if not args.only or a.name in args.only]
    results: list[Result] = []
    missing: list[str] = []
    for app in apps:
        with tempfile.TemporaryDirectory(prefix=f"bench-real-{app.name}-") as folder:
            work = Path(folder)
            started = time.perf_counter()
            outcome = measure(args.mirrors, app, work)
            if isinstance(outcome, str):
                missing.append(f"{app.name}: {outcome}")
                print(f"{app.name}: skipped: {outcome}", flush=True)
                continue
            results.append(outcome)
            times = ", ".join(f"{s} {outcome.steps[s].seconds:.1f} s" for s in STEPS if outcome.steps[s].outcome != "-")
            print(f"{app.name} ({app.url} @ {app.commit[:12]}): {time.perf_counter() - started:.0f} s ({times})",
                  flush=True)
            if args.keep:
                shutil.copytree(work, args.keep / app.name, symlinks=True, dirs_exist_ok=True)
    if results:
        print_table(results)
    for line in missing:
        print(f"not measured: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
