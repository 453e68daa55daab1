"""Every API-table row HIP has for the target, translated in the positions such a name takes.

For each row whose HIP name exists by the target ROCm (``hip_added`` at or before it, not removed
by then), a snippet uses the CUDA name where that kind of name goes: a type in declarations,
typedef/using, fields, parameters, return types, casts, ``sizeof``, ``new`` and template arguments;
an enum value or constant macro in initializers, case labels, template arguments, enumerators and
comparisons; a function in calls, a function pointer and a lambda, device functions in a
``__device__`` body; each kind in a ``#define`` body too. The translation must put the HIP name at
every one of those positions (the CUDA name's bytes replaced; untouched where HIP spells it the
same) with no error finding there. Coverage is printed per family (``pytest -s`` shows it) and must
reach 99.5% in each. Rows the engine translates otherwise on purpose are listed, with the reason,
in :mod:`cass_lsp.translate.deliberate`.

Both library settings are checked: ``hip`` (every family; cuDNN rows by their MIOpen column) and
``roc`` (the rocBLAS/rocSPARSE/rocRAND/rocSOLVER columns of the four ROC families; the other
families translate as under ``hip``). Which column a row is judged by is
:func:`cass_lsp.translate.libraries.as_target`'s answer, the one the engine uses.

All snippets of a family go into one source (one function each) so the check costs one
translation per family and target.
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import NamedTuple

import pytest

from cass_lsp.translate import TargetProfile, TranslateOptions, deliberate, libraries, tables, translate
from cass_lsp.translate.findings import Finding, TranslationResult

FAMILIES = ("runtime", "driver", "device", "blas", "sparse", "rand", "fft", "solver", "dnn", "cub", "rtc",
            "complex")
# 6.2 too: between the two, the warp rules spell names otherwise than the tables.
ROCM_VERSIONS = ("5.2", "6.2", "7.1")
# (library setting, families it changes): "roc" changes only the ROC families.
SETTINGS = (("hip", FAMILIES), ("roc", tuple(f for f in FAMILIES if f in libraries.ROC_FAMILIES)))
MIN_PERCENT = 99.5
_SHOWN_MISSES = 40

# Snippets by kind: ``@`` is the CUDA name, ``{fn}`` a function name unique in the source. Each
# kind puts the name in several positions a real program uses (the grammar parses them differently).
TEMPLATES: dict[str, str] = {
    "type": ("typedef @ {fn}_alias;\nusing {fn}_using = @;\n#define {fn}_MACRO @\n"
             "struct {fn}_s {{ @ field; static const int size = sizeof(@); }};\n"
             "template <typename T = @> @ {fn}(@ p, const @& q) {{\n    @ a;\n    @* b = (@*)&p;\n"
             "    unsigned long c = sizeof(@);\n    holder<std::pair<@, int>> d;\n"
             "    auto e = static_cast<const @*>(b);\n    @* f = new @[2];\n    return a;\n}}\n"),
    "tag": ("struct @* {fn}_global;\nvoid {fn}(void* p) {{\n    struct @* a = (struct @*)p;\n"
            "    unsigned long c = sizeof(struct @);\n}}\n"),
    "value": ("#define {fn}_MACRO (@)\nenum {fn}_e {{ {fn}_first = @ }};\n"
              "template <int N = @> int {fn}(int x) {{\n    int a = @;\n"
              "    switch (x) {{ case @: return 1; default: break; }}\n    holder<@> b;\n"
              "    int list[] = {{@, x}};\n    return x == @ ? a : (int)@ + f(@);\n}}\n"),
    "call": ("#define {fn}_MACRO(p) @(p, 0)\nvoid {fn}(void* p) {{\n    @(p, 0);\n    int r = (int)@(p);\n"
             "    if (@(p, &r, 0) != 0) return;\n    auto fp = &@;\n    ::@(p);\n"
             "    auto l = [&]() {{ return @(p); }};\n}}\n"),
    "device_call": ("#define {fn}_MACRO(x) @(0xffffffffu, x, 1)\n__device__ float {fn}(float x, unsigned m) {{\n"
                    "    float a = @(0xffffffffu, x, 1);\n    return @(m, a) + x;\n}}\n"),
    "defined": "#ifdef @\n#endif\n#if !defined(@) || @ >= 700\nint {fn};\n#endif\n",
}

_ALL_CAPS = re.compile(r"[A-Z0-9_]+")
_TYPE_SUFFIX = re.compile(r"(?:_t|_enum|_st)$")


class Occurrence(NamedTuple):
    row: tables.Row
    start: int  # UTF-8 byte offsets in the generated source
    end: int


class FamilyCoverage(NamedTuple):
    applicable: int
    covered: int
    deliberate: list[str]  # rows missed on purpose (cass_lsp.translate.deliberate)
    misses: list[str]  # "name (kind): what the output has instead"

    @property
    def percent(self) -> float:
        checked = self.applicable - len(self.deliberate)
        return 100.0 if checked == 0 else 100.0 * self.covered / checked


def applicable(row: tables.Row, rocm: tuple[int, int]) -> bool:
    """HIP has the name by this ROCm (and has not removed it)."""
    return (row.supported and tables.version_tuple(row.hip_added) <= rocm
            and not (row.hip_removed and tables.version_tuple(row.hip_removed) <= rocm))


@functools.cache
def _type_stems(family: str) -> frozenset[str]:
    """Names of a family's data-type rows without their type suffix (``cudaStream`` for cudaStream_t)."""
    stems = set()
    for name in tables.names():
        found = tables.row(name)
        if found is not None and found.family == family and _is_data_section(found.section):
            stems.add(_TYPE_SUFFIX.sub("", name))
    return frozenset(stems)


def _is_data_section(section: str) -> bool:
    return "type" in section.lower()


def kind_of(row: tables.Row) -> str:
    """The kind of name a row is, from its family, section and spelling (the tables give no kind).

    Functions sit in function sections; in data-type sections, ALL_CAPS names are enum values or
    constant macros, ``_t``/``_enum`` names types, ``_st`` names struct tags, and a camelCase name
    is an enum value when it extends another type of the family (cudaMemoryTypeManaged extends
    cudaMemoryType), else a type. A wrong guess still yields valid syntax for the name."""
    name, section = row.cuda, row.section
    if "Preprocessor" in section:
        return "defined"
    if not _is_data_section(section):
        return "device_call" if row.family == "device" or section == "Device API Functions" else "call"
    if name.endswith("_st"):
        return "tag"
    if _TYPE_SUFFIX.search(name):
        return "type"
    if _ALL_CAPS.fullmatch(name):
        return "value"
    stems = _type_stems(row.family)
    for i in range(len(name) - 1, 2, -1):
        if name[i].isupper() and name[:i] in stems:
            return "value"
    return "type"


def _snippets(rows: list[tables.Row]) -> tuple[str, list[Occurrence]]:
    parts: list[str] = []
    occurrences: list[Occurrence] = []
    size = 0
    for i, found in enumerate(rows):
        template = TEMPLATES[kind_of(found)].format(fn=f"cass_row_{i}")
        pieces = template.split("@")
        for piece in pieces[:-1]:
            size += len(piece.encode())
            occurrences.append(Occurrence(found, size, size + len(found.cuda)))
            size += len(found.cuda)
        size += len(pieces[-1].encode())
        parts.append(template.replace("@", found.cuda))
    return "".join(parts), occurrences


@functools.cache
def _alone(name: str) -> re.Pattern[str]:
    """``name`` not inside a longer word. Not \\b: some ROC names end in a template argument list
    (rocrand_device::sobol32_engine<false>)."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


@functools.cache
def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(name)}\b")


def _miss(result: TranslationResult, errors: list[Finding], source: bytes, occ: Occurrence,
          starts: list[int]) -> str | None:
    """What is wrong at one occurrence, or None when the HIP name is there. ``errors``: the result's
    error findings, in order."""
    cuda, hip = occ.row.cuda, occ.row.hip
    for f in errors:
        if f.start_byte < occ.end and occ.start < f.end_byte:
            return f"error finding {f.code}: {f.message}"
    i = bisect.bisect_left(starts, occ.end) - 1  # the last edit starting inside the name or before it
    edit = result.edits[i] if i >= 0 and result.edits[i].end_byte > occ.start else None
    if edit is None:
        return None if hip == cuda else f"left as {cuda}"
    if _alone(hip).search(edit.new_text) and (hip == cuda or not _word(cuda).search(edit.new_text)):
        return None
    old = source[edit.start_byte:edit.end_byte].decode()
    return f"{old!r} -> {edit.new_text!r}"


def _check(rows: list[tables.Row], rocm: str, library: str) -> dict[str, str]:
    """Rows whose target name is missing somewhere in their snippet -> the first problem."""
    text, occurrences = _snippets(rows)
    result = translate(text, TargetProfile(arch="gfx1100", rocm=rocm), TranslateOptions(libraries=library))
    starts = [e.start_byte for e in result.edits]
    errors = [f for f in result.findings if f.severity == "error"]
    source = text.encode()
    missed: dict[str, str] = {}
    for occ in occurrences:
        if occ.row.cuda not in missed:
            problem = _miss(result, errors, source, occ, starts)
            if problem is not None:
                missed[occ.row.cuda] = f"{occ.row.cuda} ({kind_of(occ.row)}): {problem}"
    return missed


@functools.cache
def coverage(rocm: str, library: str = "hip") -> dict[str, FamilyCoverage]:
    """Per family, the rows whose name the ``library`` setting gives (``hip`` or ``roc``) by ``rocm``."""
    version = tables.version_tuple(rocm)
    families = dict(SETTINGS)[library]
    by_family: dict[str, list[tables.Row]] = {f: [] for f in families}
    for name in tables.names():
        found = tables.row(name)
        if found is None or found.family not in by_family:
            continue
        target = libraries.as_target(found, library)
        if applicable(target, version):
            by_family[found.family].append(target)
    reasons = deliberate.reasons(library)
    out: dict[str, FamilyCoverage] = {}
    for family, rows in by_family.items():
        missed = _check(rows, rocm, library)
        on_purpose = sorted(n for n in missed if n in reasons)
        out[family] = FamilyCoverage(len(rows), len(rows) - len(missed), on_purpose,
                                     sorted(m for n, m in missed.items() if n not in reasons))
    return out


def _table(rocm: str, library: str, result: dict[str, FamilyCoverage]) -> str:
    lines = [f"ROCm {rocm}, gfx1100, libraries={library}: {'family':<8} {'applicable':>10} {'deliberate':>10} "
             f"{'covered':>8} {'%':>7}"]
    for family, c in result.items():
        percent = f"{c.percent:7.2f}" if c.applicable > len(c.deliberate) else "    n/a"
        lines.append(f"{'':<36}{family:<8} {c.applicable:>10} {len(c.deliberate):>10} {c.covered:>8} {percent}")
    total = sum(c.applicable for c in result.values())
    gone = sum(len(c.deliberate) for c in result.values())
    covered = sum(c.covered for c in result.values())
    lines.append(f"{'':<36}{'all':<8} {total:>10} {gone:>10} {covered:>8} {100.0 * covered / (total - gone):7.2f}")
    return "\n".join(lines)


@pytest.mark.parametrize("library", [s[0] for s in SETTINGS])
@pytest.mark.parametrize("rocm", ROCM_VERSIONS)
def test_every_applicable_row_gets_its_target_name(rocm: str, library: str) -> None:
    result = coverage(rocm, library)
    print("\n" + _table(rocm, library, result))
    print("".join(f"  missed: {m}\n" for c in result.values() for m in c.misses), end="")
    low = {f: c for f, c in result.items() if c.percent < MIN_PERCENT}
    misses = [m for c in low.values() for m in c.misses]
    assert not low, (f"under {MIN_PERCENT}% on ROCm {rocm} ({library}): {', '.join(f'{f} {c.percent:.2f}%' for f, c in low.items())}"
                     "\n" + "\n".join(misses[:_SHOWN_MISSES]))


def test_deliberate_entries_name_rows_the_rename_really_misses() -> None:
    """An entry for a name the tables lack, or for a row every checked target translates plainly, is stale."""
    for library, _ in SETTINGS:
        listed = deliberate.reasons(library)
        missed_somewhere = {n for rocm in ROCM_VERSIONS for c in coverage(rocm, library).values() for n in c.deliberate}
        assert all(tables.row(n) is not None and reason for n, reason in listed.items())
        assert sorted(set(listed) - missed_somewhere) == [], library


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("cudaMalloc", "call"), ("cublasSgemm", "call"), ("__hadd", "device_call"), ("curand_uniform", "device_call"),
        ("cudaStream_t", "type"), ("CUgraphExec_st", "tag"), ("cudaExtent", "type"), ("CUdevice", "type"),
        ("cudaMemoryTypeManaged", "value"), ("CUBLAS_OP_N", "value"), ("cudaStreamDefault", "value"),
        ("__CUDA_ARCH__", "defined"),
    ],
)
def test_kind_heuristic(name: str, kind: str) -> None:
    found = tables.row(name)
    assert found is not None
    assert kind_of(found) == kind
