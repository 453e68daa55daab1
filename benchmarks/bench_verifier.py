"""The verifier's verdicts on realistic programs, measured (issue 18, "Measure it").

  .venv/bin/python benchmarks/bench_verifier.py [--programs a,b] [--jobs N] [--max-mutants 8] [--operators a,b] [--no-mutants]
  .venv/bin/python benchmarks/bench_verifier.py --samples DIR... [--jobs N]

Runs ``cass-lsp verify <copy> --runner cpu --json`` the way a user would, one program of
``tests/corpus/verifier_programs`` at a time, each in a temp copy of its folder (compile_commands.json's
``"directory": "."`` made the copy's path, as a build system would write it; verify.json's args as
``--arg``), with a cache of its own for this run.

1. Correct pairs: each program against its rule translation (no .hip files). Goals: (a) no "failed"
   where the translation's output really is the original's, (b) at most 10% "could not verify".
2. Mutants: per program, at most ``--max-mutants`` translations with ONE change each (an off-by-one
   bound, a changed arithmetic operator, a dropped __syncthreads, a wrong shuffle offset, a 32-bit
   ballot mask on gfx942 where 64 lanes need 64 bits, a changed constant, one element not written:
   a kernel's guard ``i < n`` made ``i < n - 1``, a wrong value in the last element only: the
   guarded store ``out[i] = v`` made ``out[i] = (i == n - 1 ? v + 1 : v)``), written as ``unit.hip``
   beside ``unit.cu`` from ``cass-lsp translate unit.cu -o unit.hip``. (c) mutation score: the share
   of mutants whose output differs from the original's that the verifier reports as failed (goal
   >= 90%), and false passes: mutants it calls verified although their output differs (goal 0).
   A mutant counts only when the verifier passes its unit's unmutated .hip (else a "failed" would
   not be the mutation's doing) and the unmutated translation's output is the original's.

Ground truth ("does the output differ") comes from building the original and the mutant program
here with the CPU runtime's own building blocks (``prepare_source``, ``build_program``; every unit
and local header rule-translated, the mutated unit replaced) and running both in a scratch folder
with the program's data files: outputs compared exactly once verify.json's ``timingLines`` are
masked, exit codes too; a crash, a timeout or a non-zero exit of the mutant where the original exits
cleanly counts as "differs", and so does a mutant whose device-to-host copies (the CPU runtime's
copy record, :mod:`cass_lsp.verify.copies`) differ from the original's where the unmutated
translation's agree: an element the program never prints is still a wrong result. Mutants with the
same output and copies are equivalent and reported apart.

``--samples DIR...``: the real-code corpus instead, NVIDIA's cuda-samples under each DIR
(``Samples/0_Introduction`` and the like), each sample verified with ``verify --project``, its rule
translation, ``--run`` (smaller arguments where the defaults are sized for a GPU) and the CPU
runner: verified / failed / could not verify, the last by reason, each "failed" with its evidence
(:mod:`benchmarks._samples`). Goal: could not verify <= 15% of the samples, no false verdict.

Reference measured in the same run: a plain ``nvcc -c`` of the program's units with its flags; the
ratio says what verification costs against the compile a user runs anyway. Nothing here asserts on
time.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import os
import re
import shutil
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _samples as cuda_samples
from cass_lsp import toolchains
from cass_lsp.compile.scratch import HipTarget
from cass_lsp.core import proc
from cass_lsp.cpu.build import build_program
from cass_lsp.cpu.rewrite import prepare_source
from cass_lsp.services.settings import resolve_cli
from cass_lsp.translate.buffer import translated
from cass_lsp.verify import copies
from tests.corpus.verifier_programs import COMPILE_COMMANDS, Program, programs

CLI = Path(sys.executable).with_name("cass-lsp")
DEFAULT_ARCH = "gfx1100"  # wave 32, as the original's warps
WAVE64_ARCH = "gfx942"  # wave 64: where a 32-bit ballot mask loses lanes
GOAL_UNVERIFIED = 0.10
GOAL_SCORE = 0.90
VERIFY_TIMEOUT_S = 900.0
BUILD_TIMEOUT_S = 300.0
RUN_TIMEOUT_S = 30.0
RECORD_CAP = 64 << 20  # bytes of device-to-host copies kept per ground-truth run
TRANSLATE_TIMEOUT_S = 120.0
NVCC_TIMEOUT_S = 300.0
Verdict = Literal["passed", "failed", "unverified", "error"]
_VERDICT_BY_EXIT: dict[int, Verdict] = {0: "passed", 1: "failed", 2: "unverified"}


# ---- mutation operators: small regexes over the device code of a translated unit ---------------


@dataclasses.dataclass(frozen=True)
class Site:
    start: int
    end: int
    replacement: str
    what: str


_COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.S)


def _blanked(text: str) -> str:
    """``text`` with comments and string literals blanked out, offsets kept."""
    return _COMMENT_OR_STRING.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), text)


def device_spans(text: str) -> list[tuple[int, int]]:
    """Bodies of ``__global__``/``__device__`` functions and lambdas: (start, end) offsets."""
    spans: list[tuple[int, int]] = []
    text = _blanked(text)
    for m in re.finditer(r"\b__global__\b|\b__device__\b", text):
        if spans and m.start() < spans[-1][1]:
            continue
        brace = text.find("{", m.end())
        if brace < 0 or ";" in text[m.end() : brace]:
            continue  # a declaration or a __device__ variable, not a definition
        depth = 0
        for i in range(brace, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                spans.append((brace, i + 1))
                break
    return spans


def _in_spans(text: str, pattern: str, spans: list[tuple[int, int]], flags: int = 0) -> Iterator[re.Match[str]]:
    for start, end in spans:
        yield from re.compile(pattern, flags).finditer(text, start, end)


def _bound_sites(text: str, spans: list[tuple[int, int]]) -> list[Site]:
    flipped = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
    return [
        Site(m.start(1), m.end(1), flipped[m[1]], f"off-by-one bound: '{m[1]}' -> '{flipped[m[1]]}'")
        for m in _in_spans(text, r"(?<=[\w)\]]) (<=|>=|<|>) (?=[\w(-])", spans)
    ]


def _operator_sites(text: str, spans: list[tuple[int, int]]) -> list[Site]:
    swapped = {"+": "-", "-": "+", "*": "+", "+=": "-=", "-=": "+=", "*=": "+="}
    return [
        Site(m.start(1), m.end(1), swapped[m[1]], f"arithmetic operator: '{m[1]}' -> '{swapped[m[1]]}'")
        for m in _in_spans(text, r"(?<=[\w)\]]) ([+\-*]=?) (?=[\w(])", spans)
    ]


def _sync_sites(text: str, spans: list[tuple[int, int]]) -> list[Site]:
    return [Site(m.start(), m.end(), "", "dropped __syncthreads()") for m in _in_spans(text, r"__syncthreads\(\);", spans)]


def _shuffle_sites(text: str, spans: list[tuple[int, int]]) -> list[Site]:
    sites = []
    # a literal lane offset: __shfl_xor(v, 1) -> 2, __shfl_down_sync(m, v, 16) -> 8
    for m in _in_spans(text, r"__shfl\w*\((?:[^()]|\([^()]*\))*?,\s*(\d+)\s*(?:,\s*\w+\s*)?\)", spans):
        offset = int(m[1])
        moved = 2 * offset if offset < 16 else offset // 2
        sites.append(Site(m.start(1), m.end(1), str(moved), f"shuffle offset: {offset} -> {moved}"))
    # the offset loop of a shuffle reduction or scan: /= 2 -> /= 4, >>= 1 -> >>= 2, *= 2 -> *= 4
    for m in _in_spans(text, r"for\s*\([^;]*;[^;]*;[^)]*?(/=\s*2|>>=\s*1|\*=\s*2|/\s*2)\s*\)[^;]*?__shfl", spans, re.S):
        step = m[1].replace(" ", "")
        new = {"/=2": "/= 4", ">>=1": ">>= 2", "*=2": "*= 4", "/2": "/ 4"}[step]
        sites.append(Site(m.start(1), m.end(1), new, f"shuffle offset step: '{step}' -> '{new}'"))
    return sites


def _mask32_sites(text: str, spans: list[tuple[int, int]]) -> list[Site]:
    sites = [
        Site(m.start(1), m.end(1), "unsigned int", "32-bit ballot mask: 'unsigned long long' -> 'unsigned int'")
        for m in _in_spans(text, r"(unsigned\s+long\s+long|uint64_t)\s+\w+\s*=\s*__(?:ballot|activemask)", spans)
    ]
    sites += [
        Site(m.start(), m.end(), m[0][:-3] + "(", f"32-bit bit count on a mask: '{m[0][:-1]}' -> '{m[0][:-3]}'")
        for m in _in_spans(text, r"__(?:popc|ffs|clz)ll\(", spans)
    ]
    sites += [
        Site(m.start(), m.end(), "0xffffffff", "32-bit lane mask: full 64-bit mask -> 0xffffffff")
        for m in _in_spans(text, r"0x[fF]{16}(?:ull|ULL|llu|LLU)?", spans)
    ]
    return sites


_GUARD = r"if\s*\(\s*(\w+)\s*<\s*(\w+)\s*\)"


def _unwritten_sites(text: str, spans: list[tuple[int, int]]) -> list[Site]:
    return [
        Site(m.start(2), m.end(2), f"{m[2]} - 1", f"one element not written: '{m[1]} < {m[2]}' -> '{m[1]} < {m[2]} - 1'")
        for m in _in_spans(text, _GUARD, spans)
    ]


def _unprinted_sites(text: str, spans: list[tuple[int, int]]) -> list[Site]:
    # the guarded store's value, wrong in the guard's last element only (which a program printing
    # its first elements or a partial checksum never shows)
    store = _GUARD + r"\s*\{?\s*\w+\[\s*\1\s*\]\s*=(?!=)\s*([^;]+);"
    return [
        Site(m.start(3), m.end(3), f"({m[1]} == {m[2]} - 1 ? ({m[3]}) + 1 : ({m[3]}))",
             f"wrong last element: '{m[3]}' -> +1 at {m[1]} == {m[2]} - 1")
        for m in _in_spans(text, store, spans)
    ]  # fmt: skip


def _constant_sites(text: str, spans: list[tuple[int, int]]) -> list[Site]:
    sites = []
    for m in _in_spans(text, r"(?<![\w.])(\d+\.\d*f?|\d*\.\d+f?|[2-9]|[1-9]\d+)(?![\w.])", spans):
        literal = m[1]
        if "." in literal:
            value = float(literal.rstrip("f"))
            new = repr(value * 2 if value else 1.0) + ("f" if literal.endswith("f") else "")
        else:
            new = str(int(literal) + 1)
        sites.append(Site(m.start(1), m.end(1), new, f"constant: {literal} -> {new}"))
    return sites


@dataclasses.dataclass(frozen=True)
class Operator:
    name: str
    arch: str
    sites: Callable[[str, list[tuple[int, int]]], list[Site]]


OPERATORS = (
    Operator("bound", DEFAULT_ARCH, _bound_sites),
    Operator("operator", DEFAULT_ARCH, _operator_sites),
    Operator("sync", DEFAULT_ARCH, _sync_sites),
    Operator("shuffle", DEFAULT_ARCH, _shuffle_sites),
    Operator("mask32", WAVE64_ARCH, _mask32_sites),
    Operator("constant", DEFAULT_ARCH, _constant_sites),
    Operator("unwritten", DEFAULT_ARCH, _unwritten_sites),
    Operator("unprinted", DEFAULT_ARCH, _unprinted_sites),
)


@dataclasses.dataclass(frozen=True)
class Mutant:
    operator: str
    arch: str
    unit: str  # the .cu unit whose translation is mutated
    site: Site
    text: str  # the mutated translation
    line: int

    @property
    def label(self) -> str:
        return f"{self.operator}@{self.unit}:{self.line} ({self.site.what})"


def mutants(
    program: Program, translations: dict[tuple[str, str], str], limit: int, operators: tuple[Operator, ...] = OPERATORS
) -> list[Mutant]:
    """At most one mutant per operator of ``operators`` (at most ``limit``), its site chosen by a hash
    of the program and operator names among every unit's sites: deterministic, and spread over the code."""
    found: list[Mutant] = []
    for operator in operators[:limit]:
        candidates = []
        for unit in program.units:
            text = translations[(unit.name, operator.arch)]
            # sites are found in the code only; a blanked text keeps every offset
            sites = operator.sites(_blanked(text), device_spans(text))
            candidates += [(unit.name, text, site) for site in sites]
        if not candidates:
            continue
        unit_name, text, site = candidates[zlib.crc32(f"{program.name}/{operator.name}".encode()) % len(candidates)]
        mutated = text[: site.start] + site.replacement + text[site.end :]
        found.append(Mutant(operator.name, operator.arch, unit_name, site, mutated, text.count("\n", 0, site.start) + 1))
    return found


# ---- the verifier, run as a user runs it ---------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Answer:
    verdict: Verdict
    summary: str
    seconds: float


def stage_copy(program: Program, into: Path) -> Path:
    """A copy of the program folder; compile_commands.json's directories point at the copy."""
    copy = into / program.name
    shutil.copytree(program.root, copy, ignore=shutil.ignore_patterns("__pycache__", "*.hip"))
    database = copy / COMPILE_COMMANDS
    if database.is_file():
        entries = json.loads(database.read_text(encoding="utf-8"))
        for entry in entries:
            entry["directory"] = str(copy)
        database.write_text(json.dumps(entries, indent=1), encoding="utf-8")
    return copy


def verify(copy: Path, program: Program, arch: str, scratch: Path) -> Answer:
    """``cass-lsp verify`` on the copy, with its cache and temp folders in ``scratch`` (see :func:`scratch_dirs`)."""
    argv = [str(CLI), "verify", str(copy), "--runner", "cpu", "--json", "--arch", arch]
    argv += [f"--arg={a}" for a in program.args]
    env = {**os.environ, "XDG_CACHE_HOME": str(scratch / "cache"), "TMPDIR": str(scratch / "tmp")}
    result = proc.run(argv, timeout=VERIFY_TIMEOUT_S, env=env, cwd=copy)
    if result.timed_out:
        return Answer("error", f"cass-lsp verify timed out after {VERIFY_TIMEOUT_S:g} s", result.duration)
    try:
        decoded = json.loads(result.stdout)
    except ValueError:
        # a crash exits 1 too (Python's traceback): without a report it is no verdict
        return Answer("error", f"exit {result.returncode}, no JSON report: {result.text().strip()[-400:]}",
                      result.duration)
    verdict = _VERDICT_BY_EXIT.get(result.returncode, "error")
    return Answer(verdict, _summary(decoded, verdict, result.returncode), result.duration)


def _summary(decoded: object, verdict: Verdict, returncode: int) -> str:
    """The reports' summaries that explain the verdict (the passed ones only when all passed)."""
    reports = decoded if isinstance(decoded, list) else [decoded]
    wanted = [r for r in reports if isinstance(r, dict) and (verdict == "passed" or r.get("verdict") != "passed")]
    return " | ".join(str(r.get("summary", "")) for r in wanted) or f"exit {returncode}"


def scratch_dirs(root: Path) -> Path:
    """``root`` readied for :func:`verify`: a cache of this run's own, and a temp folder like a shell's
    /tmp (world-writable, sticky), since the sandbox runs programs as an unprivileged user that must
    reach its run folder (proc.run would otherwise give the CLI a private 0700 TMPDIR)."""
    root.chmod(0o755)
    (root / "cache").mkdir()
    (root / "tmp").mkdir()
    (root / "tmp").chmod(0o1777)
    return root


def translate_unit(copy: Path, unit: str, arch: str) -> str:
    """``cass-lsp translate unit.cu -o <tmp>.hip --arch`` in the copy, as a user would; its text."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch, Path(unit).with_suffix(".hip").name)
        result = proc.run([str(CLI), "translate", str(copy / unit), "-o", str(out), "--arch", arch],
                          timeout=TRANSLATE_TIMEOUT_S)
        if not out.is_file():
            raise RuntimeError(f"cass-lsp translate {unit} failed: {result.text()[-400:]}")
        return out.read_text(encoding="utf-8")


# ---- ground truth: both programs built on the CPU runtime and run here -------------------------


@dataclasses.dataclass(frozen=True)
class Run:
    exit_code: int | None  # None: it did not finish (timeout, build failure)
    output: str  # masked stdout
    note: str  # why it did not finish, or ""
    record: copies.Record | None = None  # what it copied back from the device

    def same_as(self, other: Run) -> bool:
        return self.exit_code == other.exit_code and self.output == other.output

    def copies_differ(self, other: Run) -> bool:
        """Whether an element of the two runs' device-to-host copies differs (False where the records
        cannot be matched copy for copy)."""
        if self.record is None or other.record is None:
            return False
        return copies.compare(self.record, other.record).difference is not None


def ground_truth_run(program: Program, sources: dict[str, str], *, hip: bool, warp_size: int, work: Path) -> Run:
    """Build ``sources`` (file name -> text: units, host units, headers) on the CPU runtime and run it
    in a fresh folder holding the program's data files."""
    tree = work / ("hip" if hip else "cuda")
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    units = []
    for name, text in sources.items():
        # headers too: a template launcher in a header has launches to rewrite
        (tree / name).write_text(prepare_source(text), encoding="utf-8")
        if name.endswith((".cu", ".cpp")):
            units.append(tree / name)
    main = program.main_unit()
    units.sort(key=lambda u: u.name != (main.name if main else ""))
    flags = [f for unit in program.units for f in program.nvcc_flags(unit) if f.startswith(("-D", "-U", "-std"))]
    built = build_program(units, tree / "program", hip=hip, warp_size=warp_size, timeout=BUILD_TIMEOUT_S,
                          extra_args=list(dict.fromkeys(flags)))
    if not built.ok:
        first = next((line for line in built.log.splitlines() if "error" in line), built.log[-200:])
        return Run(None, "", f"build failed: {first}")
    rundir = tree / "run"
    rundir.mkdir()
    for data in program.data_files:
        shutil.copy2(data, rundir / data.name)
    with tempfile.TemporaryFile() as record:
        env = {**os.environ, copies.ENV_FD: str(record.fileno()), copies.ENV_CAP: str(RECORD_CAP)}
        result = proc.run([built.exe, *program.args], timeout=RUN_TIMEOUT_S, cwd=rundir, env=env,
                          pass_fds=(record.fileno(),))
        record.seek(0)
        recorded = copies.parse(record.read(RECORD_CAP + (1 << 16)))
    if result.timed_out:
        return Run(None, "", f"timed out after {RUN_TIMEOUT_S:g} s")
    note = "" if result.returncode >= 0 else f"killed by signal {-result.returncode}"
    return Run(result.returncode, program.masked(result.stdout.decode("utf-8", "replace")), note, recorded)


def original_sources(program: Program) -> dict[str, str]:
    files = (*program.units, *program.host_units, *program.headers)
    return {f.name: f.read_text(encoding="utf-8") for f in files}


def translated_sources(program: Program, arch: str, rocm: str, units: dict[str, str]) -> dict[str, str]:
    """The HIP program: ``units`` (.cu name -> its translation), headers rule-translated, host units as they are."""
    sources = {u.name: units[u.name] for u in program.units}
    sources.update({h.name: h.read_text(encoding="utf-8") for h in program.host_units})
    for header in program.headers:
        text, _, _ = translated(header.read_text(encoding="utf-8"), HipTarget(arch, rocm))
        sources[header.name] = text
    return sources


def wave(arch: str) -> int:
    return 64 if arch == WAVE64_ARCH else 32


# ---- one program ----------------------------------------------------------------------------------


@dataclasses.dataclass
class MutantResult:
    mutant: Mutant
    differs: bool | None  # None: the ground truth could not be had
    truth_note: str
    answer: Answer | None
    copies_only: bool = False  # the output is the original's; only the device-to-host copies differ


@dataclasses.dataclass
class ProgramResult:
    program: Program
    correct: Answer
    correct_differs: bool | None  # the rule translation's own output differs (a translation bug)
    truth_note: str
    nvcc_s: float
    mutants: list[MutantResult] = dataclasses.field(default_factory=list)
    excluded: list[str] = dataclasses.field(default_factory=list)  # mutants not counted, and why


def nvcc_reference(program: Program) -> float:
    """Seconds for ``nvcc -c`` of every unit with its flags (what building the original costs)."""
    nvcc = toolchains.nvcc_invocation("sm_90")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        for unit in program.units:
            argv = [*nvcc.argv, *program.nvcc_flags(unit), "-c", unit.name, "-o", str(Path(out, unit.stem + ".o"))]
            proc.run(argv, env=nvcc.env, cwd=program.root, timeout=NVCC_TIMEOUT_S)
    return time.perf_counter() - started


def measure(program: Program, max_mutants: int, operators: tuple[Operator, ...] = OPERATORS) -> ProgramResult:
    rocm = resolve_cli(target={"rocm": "auto"}).rocm
    with tempfile.TemporaryDirectory(prefix=f"bench-verifier-{program.name}-") as temp:
        root = scratch_dirs(Path(temp))
        copy = stage_copy(program, root / "copy")
        nvcc_s = nvcc_reference(program)
        correct = verify(copy, program, DEFAULT_ARCH, root)

        original = ground_truth_run(program, original_sources(program), hip=False, warp_size=32, work=root / "truth")
        result = ProgramResult(program, correct, None, "", nvcc_s)
        if original.exit_code != program.expected_exit:
            did = f"exits {original.exit_code}" if original.exit_code is not None else "does not finish"
            result.truth_note = f"the original itself {did}, not {program.expected_exit} ({original.note or 'see its output'})"
            return result

        arches = [DEFAULT_ARCH, WAVE64_ARCH] if max_mutants > 0 else [DEFAULT_ARCH]
        try:
            translations = {(u.name, arch): translate_unit(copy, u.name, arch) for u in program.units for arch in arches}
        except RuntimeError as error:
            result.truth_note = str(error)
            return result
        baselines: dict[str, Run] = {}
        for arch in arches:
            units = {u.name: translations[(u.name, arch)] for u in program.units}
            baselines[arch] = ground_truth_run(program, translated_sources(program, arch, rocm, units), hip=True,
                                               warp_size=wave(arch), work=root / "truth")
        result.correct_differs = not baselines[DEFAULT_ARCH].same_as(original)
        if baselines[DEFAULT_ARCH].note:
            result.truth_note = f"rule translation: {baselines[DEFAULT_ARCH].note}"

        pairs: dict[tuple[str, str], Answer] = {}  # the unmutated unit.hip pair's verdict, per unit and arch

        def verify_with(unit: str, text: str, arch: str) -> Answer:
            hip = copy / Path(unit).with_suffix(".hip").name
            hip.write_text(text, encoding="utf-8")
            try:
                return verify(copy, program, arch, root)
            finally:
                hip.unlink()

        for mutant in mutants(program, translations, max_mutants, operators):
            if not baselines[mutant.arch].same_as(original):
                result.excluded.append(f"{mutant.label}: not counted, the unmutated translation's output already differs"
                                       f" on {mutant.arch} ({baselines[mutant.arch].note or 'output'})")
                continue
            # A mutant is judged against the verdict on its unit's unmutated .hip: when that pair does
            # not pass, a "failed" would not be the mutation's doing.
            key = (mutant.unit, mutant.arch)
            if key not in pairs:
                pairs[key] = verify_with(mutant.unit, translations[key], mutant.arch)
            if pairs[key].verdict != "passed":
                hip_name = Path(mutant.unit).with_suffix(".hip").name
                result.excluded.append(f"{mutant.label}: not counted, the unmutated {hip_name} beside {mutant.unit} is"
                                       f" itself {pairs[key].verdict} on {mutant.arch}: {pairs[key].summary}")
                continue
            units = {u.name: translations[(u.name, mutant.arch)] for u in program.units}
            units[mutant.unit] = mutant.text
            run = ground_truth_run(program, translated_sources(program, mutant.arch, rocm, units), hip=True,
                                   warp_size=wave(mutant.arch), work=root / "truth")
            if run.exit_code is None and run.note.startswith("build failed"):
                result.mutants.append(MutantResult(mutant, None, run.note, None))
                continue
            answer = verify_with(mutant.unit, mutant.text, mutant.arch)
            # the copies are evidence only where the unmutated translation's agree with the original's
            memory = not baselines[mutant.arch].copies_differ(original) and run.copies_differ(original)
            output = not run.same_as(original)
            result.mutants.append(MutantResult(mutant, output or memory, run.note, answer, not output and memory))
        return result


# ---- report ---------------------------------------------------------------------------------------


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.0f}%" if whole else "n/a"


def tally(found: list[MutantResult]) -> dict[str, int]:
    differ = [m for m in found if m.differs]
    return {
        "differ": len(differ),
        "killed": sum(1 for m in differ if m.answer and m.answer.verdict == "failed"),
        "false pass": sum(1 for m in differ if m.answer and m.answer.verdict == "passed"),
        "equivalent": sum(1 for m in found if m.differs is False),
        "unverified": sum(1 for m in differ if m.answer and m.answer.verdict in ("unverified", "error")),
    }


def report(results: list[ProgramResult], elapsed: float) -> None:
    print(f"{'program':<20} {'units':>5} {'correct pair':<12} {'verify s':>8} {'nvcc s':>7} {'ratio':>6}"
          f"  mutants: differ killed false-pass equiv unverified")
    for r in results:
        counts = tally(r.mutants)
        units = len(r.program.units) + len(r.program.host_units)
        ratio = r.correct.seconds / r.nvcc_s if r.nvcc_s else 0.0
        print(f"{r.program.name:<20} {units:>5} {r.correct.verdict:<12} {r.correct.seconds:8.1f} {r.nvcc_s:7.1f}"
              f" {ratio:5.1f}x  {len(r.mutants):>7} {counts['differ']:>6} {counts['killed']:>6}"
              f" {counts['false pass']:>10} {counts['equivalent']:>5} {counts['unverified']:>10}")

    wrong = [r for r in results if r.correct.verdict == "failed" and r.correct_differs is False]
    right_fail = [r for r in results if r.correct.verdict == "failed" and r.correct_differs]
    pair_false_pass = [r for r in results if r.correct.verdict == "passed" and r.correct_differs]
    unverified = [r for r in results if r.correct.verdict in ("unverified", "error")]
    unknown = [r for r in results if r.correct.verdict == "failed" and r.correct_differs is None]
    all_mutants = [m for r in results for m in r.mutants]
    total = tally(all_mutants)
    n = len(results)
    print()
    print(f"programs: {n}")
    print(f"(a) wrong verdicts on correct pairs: {len(wrong)} (goal 0)")
    print(f"(b) could not verify: {len(unverified)} of {n} = {_pct(len(unverified), n)} (goal <= {GOAL_UNVERIFIED:.0%})")
    print(f"(c) mutation score: {total['killed']} of {total['differ']} differing mutants reported failed = "
          f"{_pct(total['killed'], total['differ'])} (goal >= {GOAL_SCORE:.0%}); false passes: {total['false pass']}"
          " (goal 0)")
    for operator in OPERATORS:
        if not any(m.mutant.operator == operator.name for m in all_mutants):
            continue
        counts = tally([m for m in all_mutants if m.mutant.operator == operator.name])
        print(f"    {operator.name:<10} killed {counts['killed']} of {counts['differ']} differing"
              f" (false passes {counts['false pass']}, equivalent {counts['equivalent']},"
              f" unverified {counts['unverified']})")
    passed_equivalent = sum(1 for m in all_mutants if m.differs is False and m.answer and m.answer.verdict == "passed")
    print(f"    equivalent mutants (same output as the original): {total['equivalent']}, of which the verifier passed"
          f" {passed_equivalent}; differing mutants it could not verify: {total['unverified']}; mutants without"
          f" ground truth: {sum(1 for m in all_mutants if m.differs is None)}; not counted (their unmutated pair"
          f" does not pass, see reasons): {sum(len(r.excluded) for r in results)}")
    if right_fail or pair_false_pass:
        print(f"    rule translations whose own output differs: failed (right) {len(right_fail)},"
              f" passed (wrong) {len(pair_false_pass)}")
    verify_s = sum(r.correct.seconds for r in results)
    nvcc_s = sum(r.nvcc_s for r in results)
    print(f"time: verify of the correct pairs {verify_s:.0f} s vs nvcc -c of the same units {nvcc_s:.0f} s"
          f" (reference, same run): {verify_s / nvcc_s if nvcc_s else 0:.1f}x; total {elapsed:.0f} s")

    print("\nmutants (truth: differs/same as the original on the CPU runtime, copies: only its device-to-host copies"
          " differ; verdict of cass-lsp verify)")
    for r in results:
        for m in r.mutants:
            truth = "no truth" if m.differs is None else "copies" if m.copies_only else "differs" if m.differs else "same"
            verdict = m.answer.verdict if m.answer else "-"
            print(f"  {r.program.name:<20} {truth:<8} {verdict:<10} {m.mutant.arch:<7} {m.mutant.label}")

    print("\nreasons")
    for r in results:
        lines = []
        if r in wrong:
            lines.append(f"WRONG VERDICT (correct pair failed): {r.correct.summary}")
        if r in unverified:
            lines.append(f"could not verify: {r.correct.summary}")
        if r in unknown:
            lines.append(f"correct pair failed, ground truth unknown ({r.truth_note}): {r.correct.summary}")
        if r in right_fail:
            lines.append(f"rule translation differs ({r.truth_note or 'output'}); verifier: {r.correct.summary}")
        if r in pair_false_pass:
            lines.append(f"FALSE PASS of the rule translation, whose output differs: {r.correct.summary}")
        if r.truth_note and r.correct_differs is None:
            lines.append(f"no ground truth: {r.truth_note}")
        for m in r.mutants:
            if m.differs is None:
                lines.append(f"{m.mutant.label}: no ground truth ({m.truth_note})")
            elif m.answer is None:
                continue
            elif m.differs and m.answer.verdict == "passed":
                lines.append(f"FALSE PASS {m.mutant.label}{' [' + m.truth_note + ']' if m.truth_note else ''}:"
                             f" {m.answer.summary}")
            elif m.differs and m.answer.verdict != "failed":
                lines.append(f"{m.answer.verdict} {m.mutant.label}: {m.answer.summary}")
            elif not m.differs and m.answer.verdict != "passed":
                lines.append(f"equivalent mutant {m.mutant.label} called {m.answer.verdict}: {m.answer.summary}")
        lines += r.excluded
        if lines:
            print(f"  {r.program.name}:")
            for line in lines:
                print(f"    - {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", help="comma-separated program names (default: the whole corpus)")
    parser.add_argument("--jobs", type=int, default=1, help="programs measured at once (default 1)")
    parser.add_argument("--max-mutants", type=int, default=len(OPERATORS), help=f"mutants per program (default {len(OPERATORS)})")
    parser.add_argument("--no-mutants", action="store_true", help="correct pairs only")
    parser.add_argument("--operators", help="comma-separated mutant kinds (default: all of "
                        + ",".join(o.name for o in OPERATORS) + ")")
    parser.add_argument("--samples", nargs="+", type=Path, metavar="DIR",
                        help="verify NVIDIA's cuda-samples under each DIR instead (Samples/0_Introduction, ...)")
    args = parser.parse_args()
    if args.samples:
        raise SystemExit(cuda_samples.main(args.samples, args.jobs))
    named = args.operators.split(",") if args.operators else [o.name for o in OPERATORS]
    unknown = sorted(set(named) - {o.name for o in OPERATORS})
    if unknown:
        parser.error(f"unknown mutant kinds: {', '.join(unknown)}")
    operators = tuple(o for o in OPERATORS if o.name in named)
    chosen = programs(args.programs.split(",") if args.programs else None)
    limit = 0 if args.no_mutants else args.max_mutants
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(measure, p, limit, operators) for p in chosen]
        results = []
        for program, future in zip(chosen, futures, strict=True):
            results.append(future.result())
            r = results[-1]
            print(f"[{len(results)}/{len(chosen)}] {program.name}: {r.correct.verdict}, {len(r.mutants)} mutant(s)",
                  flush=True)
    print()
    report(results, time.perf_counter() - started)


if __name__ == "__main__":
    main()
