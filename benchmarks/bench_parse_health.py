#!/usr/bin/env python3
"""Parser health on real CUDA and HIP code from public projects, and API names translations keep unreported.

For every file of the recorded corpus (below: projects and commits; none is a GPU benchmark suite
or a translator's test suite):

1. the share of files whose tree holds any ERROR or MISSING node, such nodes per 1k lines, and the
   lines inside ERROR regions per 1k lines (one unparsable region can swallow a whole file), for
   bare tree-sitter-cuda (``syntax.parse``) and for the parse every feature uses
   (``syntax.parse_source``: the macro-aware pre-pass), in the same run (goal: <= 3% of files, both
   directions);
2. ``translate`` (CUDA -> HIP, or HIP -> CUDA with ``--reverse``'s engine) on the file: occurrences of
   a source-direction API name left in the translation's code (outside strings, comments and
   include lines) that no finding covers or names as untranslated (goal: 0), and the parse-error
   findings.

The code is read straight from bare git mirrors (``git cat-file --batch``), never copied into this
repository. "bare" is the reference measured in the same run; the translation figures before the
pre-pass were measured at commit b2acc07 (where the parse every feature used was the bare one):

  before (b2acc07)  CUDA 717 files: 11.6% with an error region, 2.47 nodes/kl, 23.9 lines/kl in
                    ERROR regions, 460 parse-error findings in 83 files, 6 kept API names no
                    finding reports; HIP 187 files: 42.2%, 6.41/kl, 35.9 lines/kl, 342 findings in
                    78 files, 1 unreported
  after             CUDA 1.5%, 0.23/kl, 2.6 lines/kl, 67 findings in 16 files, 0 unreported;
                    HIP 1.6%, 0.42/kl, 0.4 lines/kl, 24 findings in 4 files, 0 unreported

Since the pre-pass reads the project's headers (as ``cass-lsp translate`` reads a tree's), each file is
measured with the macros of every header of its project; "file's macros only" is the same pre-pass
without them, in the same run. On NVIDIA's samples and the four applications with their own headers
(llm.c, tiny-cuda-nn, SGEMM_CUDA, nccl: 389 CUDA files), measured with ``--only`` for each:

  before (c6077af, no header read)  10.8% of files with an error region (bare: 18.5%)
  after                              2.6%, 0.15 nodes/kl, 0.2 lines/kl in ERROR regions, 20 parse-error
                                     findings in 11 files, 0 unreported (file's macros only: 9.5%)

The whole corpus at a837966 (one run, 2 shared cores, under 5 minutes): CUDA 881 files, 2.0% with an
error region (bare 15.2%, file's macros only 5.1%), 0.24 nodes/kl, 82 parse-error findings in 23
files, 0 unreported; HIP 187 files, 1.6%, 0 unreported. With macros between string literals read
(``"%" PRId64 "\\n"``, ``"ld." PTX_relaxed_gpu ".global"``, ``"ARCH=" STR(ARCH)``; branch realproj,
same run shape): CUDA 1.8% (16 files; tiny-cuda-nn 4.1%, nccl 5.7%, ggml 1.8%, cutlass 1.4%,
samples 1.3%), 0.21 nodes/kl, 2.1 lines/kl, 74 findings in 21 files, 0 unreported; HIP unchanged.
The rule's own cost: 0.014 s over 300 cutlass files (5.5 MB), within the noise of prepare's 0.5-0.8 s.

The HIP direction with the headers read (session 9, ``--only`` for rocm-examples, amd-lab-notes and
rocPRIM: 187 files): 1.6% of files with an error region (file's macros only: 1.6%; bare: 42.2%), 0.42
nodes/kl, 24 parse-error findings in 4 files, 0 unreported; the pre-pass parses in 1.71x the bare time.

Usage:

  .venv/bin/python benchmarks/bench_parse_health.py [--mirrors /work/.mirror] [--list-errors N] [--only OWNER+NAME]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tree_sitter

from cass_lsp.core import proc
from cass_lsp.syntax import nodes
from cass_lsp.syntax import parsing as syntax
from cass_lsp.translate import TargetProfile, tables, translate
from cass_lsp.translate.findings import TranslationResult

GOAL_SHARE = 0.03
_GIT_TIMEOUT_S = 120.0


class Project(NamedTuple):
    mirror: str  # folder under --mirrors holding the bare repository ``repo``
    url: str
    commit: str
    paths: str  # regex over paths in the tree
    direction: str  # "cuda" or "hip"
    kind: str


CORPUS = (
    Project("NVIDIA+cuda-samples", "https://github.com/NVIDIA/cuda-samples",
            "c94ff366aed18c797b8a85dfaac7817b0228b420", r"\.(cu|cuh)$", "cuda", "vendor samples"),
    Project("NVIDIA+cutlass", "https://github.com/NVIDIA/cutlass",
            "7107b05535f8977f5ecb9d01ee203205b1fd9bc4", r"^(examples|tools)/.*\.cu$", "cuda", "template library"),
    Project("ggml-org+ggml", "https://github.com/ggml-org/ggml",
            "d99724f2b141fed9e1a9f402213506c081433465", r"^src/ggml-cuda/.*\.(cu|cuh)$", "cuda",
            "inference-engine kernels"),
    Project("ROCm+rocm-examples", "https://github.com/ROCm/rocm-examples",
            "7dfb7d402794c33031be2847eaa06ee6732f07cb", r"\.hip$", "hip", "vendor examples"),
    # Applications with their own headers (macros defined there: the headers-read column).
    Project("karpathy+llm.c", "https://github.com/karpathy/llm.c",
            "f1e2ace651495b74ae22d45d1723443fd00ecd3a", r"\.(cu|cuh)$", "cuda", "application (LLM training)"),
    Project("NVlabs+tiny-cuda-nn", "https://github.com/NVlabs/tiny-cuda-nn",
            "6ee3546bda615f51abe684ce9edefeb414689135", r"^(src|samples|benchmarks|include/tiny-cuda-nn)/.*\.(cu|cuh|h)$",
            "cuda", "application library (neural networks)"),
    Project("siboehm+SGEMM_CUDA", "https://github.com/siboehm/SGEMM_CUDA",
            "60cba6f9b20a198116c76f18de8047f44df8c8b8", r"\.(cu|cuh)$", "cuda", "application (GEMM kernels)"),
    Project("NVIDIA+nccl", "https://github.com/NVIDIA/nccl",
            "5067397c2676d5aed50042fc39e5c8ee96eb0027", r"^src/(.*\.(cu|cuh)|device/.*\.h)$", "cuda",
            "application library (collectives)"),
    Project("amd+amd-lab-notes", "https://github.com/amd/amd-lab-notes",
            "d0cc1529f61c7d42eb4186f62908bdfb8a91256d", r"\.(cpp|hpp)$", "hip", "blog examples"),
    Project("ROCm+rocPRIM", "https://github.com/ROCm/rocPRIM",
            "0ce43c037bd90b88b90ac15ebf697307ca5a932d", r"^(test/rocprim|example)/.*\.(cpp|hpp)$", "hip",
            "library tests and examples"),
)
# lab-notes and rocPRIM hold host-only C++ too: a file is HIP code when it uses HIP.
_HIP_CODE = re.compile(rb"\bhip[A-Z]\w*|\b__global__\b|hip/hip_runtime")
_OPAQUE = re.compile(rb'(?s)//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?'
                     rb"|^[ \t]*#[ \t]*include[^\n]*", re.M)
_WORD = re.compile(rb"[A-Za-z_]\w*")
_HEADER = re.compile(r"\.(h|hh|hpp|hxx|cuh|inl|inc|cu|hip)$")


class Source(NamedTuple):
    path: str
    data: bytes
    headers: tuple[bytes, ...]  # the texts of the project's headers (their macros are read)


def read_files(mirrors: Path, project: Project) -> list[Source]:
    repo = mirrors / project.mirror / "repo"
    listing = proc.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", project.commit],
                       timeout=_GIT_TIMEOUT_S)
    if not listing.ok:
        raise SystemExit(f"{repo}: cannot list {project.commit}: {listing.text().strip()}")
    pattern = re.compile(project.paths)
    every = listing.stdout.decode().splitlines()
    wanted = {p for p in every if pattern.search(p) or _HEADER.search(p)}
    paths = [p for p in every if p in wanted]
    batch = proc.run(["git", "-C", str(repo), "cat-file", "--batch"], timeout=_GIT_TIMEOUT_S,
                     input="".join(f"{project.commit}:{p}\n" for p in paths).encode())
    if not batch.ok:
        raise SystemExit(f"{repo}: cat-file failed: {batch.text().strip()}")
    out, pos, texts = batch.stdout, 0, {}
    for path in paths:
        header_end = out.index(b"\n", pos)
        size = int(out[pos:header_end].split()[2])
        texts[path] = out[header_end + 1:header_end + 1 + size]
        pos = header_end + 2 + size
    # The project's headers, as a tree's translation reads them for every unit: a header that uses
    # its includer's macros (nccl's op128.h) finds them there too.
    headers = tuple(texts[p] for p in paths if _HEADER.search(p))
    return [Source(path, texts[path], headers) for path in paths
            if pattern.search(path) and (project.direction == "cuda" or path.endswith(".hip")
                                         or _HIP_CODE.search(texts[path]))]


def problems(tree: tree_sitter.Tree) -> list[tree_sitter.Node]:
    """The outermost ERROR and every MISSING node."""
    found: list[tree_sitter.Node] = []
    stack = [tree.root_node] if tree.root_node.has_error else []
    while stack:
        node = stack.pop()
        if node.type == nodes.ERROR or node.is_missing:
            found.append(node)
            continue
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return found


def swallowed(found: list[tree_sitter.Node]) -> int:
    """Lines inside the ERROR regions."""
    return sum(n.end_point.row - n.start_point.row + 1 for n in found if not n.is_missing)


def source_names(direction: str) -> frozenset[bytes]:
    """Names the tables rename in this direction."""
    if direction == "hip":
        return frozenset(n.encode() for n in tables.reverse_names())
    renamed = (n for n in tables.action_names() if (r := tables.row(n)) is not None and r.hip and r.hip != n)
    return frozenset(n.encode() for n in renamed)


def unreported_names(source: bytes, result: TranslationResult, names: frozenset[bytes]) -> list[tuple[int, str]]:
    """(original offset, name) of each source-direction API name the translation kept in code that
    no finding's span covers."""
    out = result.text.encode("utf-8", "surrogateescape")
    code = _OPAQUE.sub(lambda m: b" " * len(m[0]), out)
    spans = sorted((f.start_byte, f.end_byte) for f in result.findings)
    # A name the file declares itself is said once, at its declaration, for all its uses.
    declared = {f.name.encode() for f in result.findings if f.code == "untranslated" and f.name}
    left: list[tuple[int, str]] = []
    for m in _WORD.finditer(code):
        if m[0] not in names or m[0] in declared:
            continue
        original = original_offset(result, m.start())
        if original is None or any(s <= original < max(e, s + 1) for s, e in spans):
            continue
        left.append((original, m[0].decode()))
    return left


def original_offset(result: TranslationResult, out_pos: int) -> int | None:
    """Where output byte ``out_pos`` came from in the original (None: inserted by an edit)."""
    shift = 0
    for e in result.edits:
        new_len = len(e.new_text.encode("utf-8", "surrogateescape"))
        if out_pos < e.start_byte + shift:
            break
        if out_pos < e.start_byte + shift + new_len:
            return None
        shift += new_len - (e.end_byte - e.start_byte)
    return out_pos - shift


class Tally(NamedTuple):
    files: int
    lines: int
    bare_files: int
    bare_nodes: int
    bare_lines: int
    alone_files: int  # with the pre-pass, the file's own macros only (no header read)
    ours_files: int
    ours_nodes: int
    ours_lines: int
    findings: int
    finding_files: int
    unreported: int
    seconds_bare: float
    seconds_ours: float


def measure(files: list[Source], direction: str, list_errors: int) -> Tally:
    names = source_names(direction)
    profile = TargetProfile("gfx1100", "5.2")
    lines = bare_files = bare_nodes = bare_lines = alone_files = ours_files = ours_nodes = ours_lines = 0
    findings = finding_files = unreported = 0
    seconds_bare = seconds_ours = 0.0
    shown: Counter[str] = Counter()
    for path, data, headers in files:
        lines += data.count(b"\n") + 1
        t0 = time.perf_counter()
        bare = problems(syntax.parse(data))
        t1 = time.perf_counter()
        ours = problems(syntax.parse_source(data, headers=headers))
        seconds_bare += t1 - t0
        seconds_ours += time.perf_counter() - t1
        alone_files += bool(ours) if not headers else bool(problems(syntax.parse_source(data)))
        bare_files += bool(bare)
        bare_nodes += len(bare)
        bare_lines += swallowed(bare)
        ours_files += bool(ours)
        ours_nodes += len(ours)
        ours_lines += swallowed(ours)
        for node in ours:
            if sum(shown.values()) < list_errors:
                line = data[:node.start_byte].count(b"\n") + 1
                text = data[node.start_byte:node.end_byte][:70].decode("utf-8", "replace").replace("\n", "\\n")
                print(f"    {path}:{line}: {'MISSING ' + node.type if node.is_missing else 'ERROR'}: {text}")
                shown[path] += 1
        result = translate(data.decode("utf-8", "surrogateescape"), profile, reverse=direction == "hip",
                           headers=[h.decode("utf-8", "surrogateescape") for h in headers])
        parse_findings = [f for f in result.findings if f.code == "parse-error"]
        findings += len(parse_findings)
        finding_files += bool(parse_findings)
        left = unreported_names(data, result, names)
        unreported += len(left)
        for offset, name in left[:3]:
            line = data[:offset].count(b"\n") + 1
            print(f"    unreported: {path}:{line}: {name}")
    return Tally(len(files), lines, bare_files, bare_nodes, bare_lines, alone_files, ours_files, ours_nodes, ours_lines,
                 findings, finding_files, unreported, seconds_bare, seconds_ours)


def row(label: str, t: Tally) -> str:
    k = max(t.lines, 1) / 1000
    return (f"{label:<26} {t.files:>5} {t.lines:>7} | bare {t.bare_files / max(t.files, 1):6.1%} "
            f"{t.bare_nodes / k:6.2f}/kl {t.bare_lines / k:6.1f} l/kl | file's macros only "
            f"{t.alone_files / max(t.files, 1):6.1%} | ours {t.ours_files / max(t.files, 1):6.1%} "
            f"{t.ours_nodes / k:6.2f}/kl {t.ours_lines / k:6.1f} l/kl "
            f"| parse-error findings {t.findings:>4} in {t.finding_files:>3} files | unreported names {t.unreported:>3}"
            f" | parse time ours/bare {t.seconds_ours / max(t.seconds_bare, 1e-9):.2f}x")


def add(a: Tally, b: Tally) -> Tally:
    return Tally._make(x + y for x, y in zip(a, b, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"),
                        help="folder holding OWNER+NAME/repo bare mirrors (default: %(default)s)")
    parser.add_argument("--list-errors", type=int, default=0, metavar="N",
                        help="print the first N remaining error/missing nodes of each project")
    parser.add_argument("--only", action="append", default=[], metavar="OWNER+NAME",
                        help="measure only these projects (repeatable; default: all of the corpus)")
    args = parser.parse_args()
    totals: dict[str, Tally] = {}
    for project in CORPUS:
        if args.only and project.mirror not in args.only:
            continue
        files = read_files(args.mirrors, project)
        print(f"{project.url} @ {project.commit[:12]} ({project.kind}, {project.direction}): {len(files)} files")
        tally = measure(files, project.direction, args.list_errors)
        print("  " + row(project.mirror, tally))
        totals[project.direction] = add(totals[project.direction], tally) if project.direction in totals else tally
    print("totals:")
    for direction, tally in totals.items():
        share = tally.ours_files / max(tally.files, 1)
        verdict = "met" if share <= GOAL_SHARE and tally.unreported == 0 else "NOT met"
        print(f"  {row(direction.upper() + ' (all projects)', tally)}")
        print(f"  goal ({direction}): <= {GOAL_SHARE:.0%} of files with a parse-error region and 0 unreported "
              f"names: {verdict}")


if __name__ == "__main__":
    main()
