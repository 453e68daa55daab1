"""Which library a CUDA library name becomes: the hip* layers, the native ROC libraries, MIOpen.

``translate.libraries = "hip"`` (the default) turns cuBLAS, cuSPARSE, cuRAND and cuSOLVER into
hipBLAS, hipSPARSE, hipRAND and hipSOLVER (the tables' ``hip`` column). ``"roc"`` (hipify's
``-roc``) turns them into rocBLAS, rocSPARSE, rocRAND and rocSOLVER, the tables' ROC ``alt`` column:
no marshalling layer, the native API. cuFFT keeps hipFFT in both: the tables carry no rocFFT column,
since rocFFT's plan-description API has no function-for-function equivalent of cuFFT (hipFFT is
the thin layer over rocFFT); under "roc" the first cuFFT name of a file says so
(:data:`FFT_UNDER_ROC`). cuDNN becomes MIOpen (the MIOPEN ``alt`` column) in both settings: HIP
has no cuDNN layer of its own (hipDNN is named by HIPIFY but never shipped).

A name whose ROC or MIOpen counterpart behaves differently is still renamed, with a warning that
says how (:data:`SEMANTICS`, workspace queries, signatures changed in a ROCm release), never
silently. A name with no counterpart is an ``unsupported-api`` error naming what is missing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cass_lsp.translate import codes as fc
from cass_lsp.translate import headers, tables
from cass_lsp.translate.codes import Severity

if TYPE_CHECKING:
    import tree_sitter

    from cass_lsp.translate.context import RuleContext

ROC_FAMILIES = frozenset({"blas", "sparse", "rand", "solver"})
LIBRARY = {"blas": "rocBLAS", "sparse": "rocSPARSE", "rand": "rocRAND", "solver": "rocSOLVER", "dnn": "MIOpen"}
MIOPEN_HEADER = "miopen/miopen.h"

Note = tuple[str, Severity, str]
Plan = tuple[str | None, str, tuple[Note, ...]]

_POTRF = ("cusolverDnSpotrf", "cusolverDnDpotrf", "cusolverDnCpotrf", "cusolverDnZpotrf")
# ROC names that exist but do not do quite what the CUDA call did: renamed, with this finding.
SEMANTICS: dict[str, tuple[Severity, str]] = {
    "cublasInit": ("warning", "rocblas_initialize() only loads rocBLAS's kernels ahead of the first call and returns "
                   "void (cublasInit returned a cublasStatus_t); rocBLAS needs no global initialisation"),
    "cusolverDnCreate": ("info", "rocSOLVER works on a rocBLAS handle: cuSOLVER and cuBLAS handles of the program "
                         "become the same type, and one handle may serve both"),
    "cusolverDnSetStream": ("info", "the stream is the rocBLAS handle's, so rocBLAS calls on that handle use it too"),
    **{name: ("info", "rocSOLVER keeps its workspace in the handle: the Workspace and Lwork arguments are "
                      "dropped (rocsolver_*potrf(handle, uplo, n, A, lda, info))") for name in _POTRF},
}
# cuSOLVER's (Workspace, Lwork) arguments of these calls, as [first, end) argument indices.
DROPPED_ARGUMENTS: dict[str, tuple[int, int]] = {name: (5, 7) for name in _POTRF}
# Their workspace queries: rocSOLVER has none, so the size becomes 0 (the program's allocation of a
# zero-sized workspace stays valid) and the query a successful status.
WORKSPACE_QUERIES = frozenset(f"{name}_bufferSize" for name in _POTRF)
CALL_RULES = frozenset({*DROPPED_ARGUMENTS, *WORKSPACE_QUERIES})
_WORKSPACE_QUERY = ("_bufferSize", "_bufferSizeExt", "WorkspaceSize")


# cuFFT stays hipFFT under "roc" too, said once per file so the choice is not silent.
FFT_UNDER_ROC = ("cuFFT becomes hipFFT, also with --roc: hipFFT is AMD's cuFFT-compatible layer over rocFFT, and "
                 "rocFFT's plan-description API (rocfft_plan_create with plan descriptions and execution info) "
                 "has no call-for-call equivalent of cuFFT's plans")
# <cublas.h> is cuBLAS's legacy (v1) API: cublasSgemm(transa, ...) takes no handle, scalars by value
# and reports errors through cublasGetError. <cublas_v2.h>, which nvcc rejects together with it,
# makes the same names the v2 functions (cublasSgemm_v2(handle, ...)), which are what the tables'
# rows, hipBLAS and rocBLAS have. In a file that includes <cublas.h> a rename would give a v2 call
# with the v1 arguments.
LEGACY_BLAS_HEADER = "cublas.h"


def legacy_blas_call(row: tables.Row) -> Note | None:
    """The finding, instead of a rename, for a cuBLAS v1 compute call (the file includes <cublas.h>)."""
    if row.family != "blas" or "Level" not in row.section or tables.row(f"{row.cuda}_v2") is None:
        return None
    return (fc.UNSUPPORTED_API, "error",
            f"{row.cuda} here is the legacy cuBLAS API (<cublas.h>: no handle, scalars by value), which hipBLAS "
            f"and rocBLAS do not have: port it to cuBLAS v2 ({row.cuda}_v2(handle, ...), the {row.cuda} of "
            "<cublas_v2.h>, with alpha and beta by pointer), then translate")


class HeaderRule(NamedTuple):
    path: str
    legacy: str  # before ROCm 5.2's <lib>/<lib>.h layout
    family: str


_ROC_HEADERS: dict[str, HeaderRule] = {
    **{h: HeaderRule("rocblas/rocblas.h", "rocblas.h", "blas") for h in ("cublas_v2.h", "cublas.h", "cublas_api.h")},
    **{h: HeaderRule("rocsparse/rocsparse.h", "rocsparse.h", "sparse") for h in ("cusparse.h", "cusparse_v2.h")},
    "curand.h": HeaderRule("rocrand/rocrand.h", "rocrand.h", "rand"),
    "curand_kernel.h": HeaderRule("rocrand/rocrand_kernel.h", "rocrand_kernel.h", "rand"),
    **{h: HeaderRule("rocsolver/rocsolver.h", "rocsolver.h", "solver") for h in ("cusolverDn.h", "cusolver_common.h")},
}
_NEW_LAYOUT = (5, 2)


def uses_alt(row: tables.Row, libraries: str) -> bool:
    """The row's ``alt`` column, not its ``hip`` one, says what the name becomes."""
    return row.family == "dnn" or (libraries == "roc" and row.family in ROC_FAMILIES)


def as_target(row: tables.Row, libraries: str) -> tables.Row:
    """The row with the library the setting chooses in its ``hip`` columns (the coverage test and
    the engine judge it like any HIP row)."""
    if not uses_alt(row, libraries):
        return row
    return row._replace(hip=row.alt, hip_added=row.alt_added, hip_deprecated=row.alt_deprecated,
                        hip_changed=row.alt_changed, hip_removed=row.alt_removed,
                        hip_experimental=row.alt_experimental)


def plan(row: tables.Row, libraries: str, rocm: tuple[int, int]) -> Plan | None:
    """The rewrite of a name the ROC or MIOpen column decides; None when the ``hip`` column does."""
    if not uses_alt(row, libraries):
        return None
    name, family, library = row.cuda, row.family, LIBRARY[row.family]
    if name in WORKSPACE_QUERIES:
        return None, family, ((fc.UNTRANSLATED, "info", f"{name}: rocSOLVER needs no workspace; the query "
                               "reports 0 bytes and succeeds (rocblas_status_success)"),)
    if not (row.alt and row.alt_added):
        text = f"{name} has no {library} equivalent"
        if row.alt:
            text = f"{name}: {row.alt} is named by HIPIFY but not implemented in {library}"
        if family != "dnn" and row.supported:
            text += f" (the hip* layer has {row.hip}: translate without --roc, or port this call by hand)"
        if row.note:
            text += f". {row.note}"
        return None, family, ((fc.UNSUPPORTED_API, "error", text),)
    rocm_text = f"{rocm[0]}.{rocm[1]}"
    if tables.version_tuple(row.alt_added) > rocm:
        return None, family, ((fc.API_NEWER_THAN_TARGET, "error",
                               f"{row.alt} (for {name}) needs ROCm {row.alt_added} or newer; the target is "
                               f"ROCm {rocm_text}"),)
    return (row.alt if row.alt != name else None), family, tuple(_notes(row, library, rocm))


def lifecycle_notes(row: tables.Row, rocm: tuple[int, int], library: str = "HIP") -> list[Note]:
    """Where the target name (the row's ``hip`` columns; :func:`as_target` puts a ROC or MIOpen name
    there) and the CUDA name stand in their APIs' lives: removed, deprecated, experimental on the
    target ROCm."""
    name, target = row.cuda, row.hip
    notes: list[Note] = []
    if row.hip_removed and tables.version_tuple(row.hip_removed) <= rocm:
        notes.append((fc.DEPRECATED_API, "error", f"{target} was removed in {library} {row.hip_removed}"))
    elif row.hip_deprecated and tables.version_tuple(row.hip_deprecated) <= rocm:
        notes.append((fc.DEPRECATED_API, "warning", f"{target} is deprecated since {library} {row.hip_deprecated}"))
    elif row.cuda_removed:
        notes.append((fc.DEPRECATED_API, "warning", f"{name} was removed in CUDA {row.cuda_removed}"))
    elif row.cuda_deprecated:
        notes.append((fc.DEPRECATED_API, "warning", f"{name} is deprecated since CUDA {row.cuda_deprecated}"))
    if row.hip_experimental and tables.version_tuple(row.hip_experimental) <= rocm:
        notes.append((fc.EXPERIMENTAL_API, "info", f"{target} is experimental in {library} {row.hip_experimental}"))
    return notes


def _notes(row: tables.Row, library: str, rocm: tuple[int, int]) -> list[Note]:
    name, alt = row.cuda, row.alt
    notes = lifecycle_notes(as_target(row, "roc"), rocm, library)
    severity: Severity = "warning"
    why: str | None = None
    if name in SEMANTICS:
        severity, why = SEMANTICS[name]
    elif name.endswith(_WORKSPACE_QUERY):
        why = (f"{alt} is {library}'s workspace query for the same operation: its arguments follow the "
               f"{library} call it sizes, not {name}'s")
    elif row.alt_changed and tables.version_tuple(row.alt_changed) <= rocm:
        why = f"{alt} changed its signature in ROCm {row.alt_changed}: check the arguments against {library}'s"
    if why is not None:
        notes.append((fc.UNTRANSLATED, severity, f"{name} -> {alt}: {why}"))
    return notes


def rewrite_call(p: RuleContext, name: str, node: tree_sitter.Node) -> None:
    """The argument-level part of a roc-mode translation (:data:`DROPPED_ARGUMENTS`,
    :data:`WORKSPACE_QUERIES`); a use it cannot rewrite is reported."""
    call = p.call_of(node)
    args = p.arguments(call) if call is not None and p.inside(call) else []
    if name in WORKSPACE_QUERIES:
        if call is not None and len(args) == 6:
            size = p.text(args[-1])
            p.edit(call.start_byte, call.end_byte, f"(*({size}) = 0, rocblas_status_success)", "solver")
            return
        what = "a workspace query rocSOLVER does not have: port this use by hand"
    else:
        first, end = DROPPED_ARGUMENTS[name]
        if len(args) == 8:
            p.edit(args[first - 1].end_byte, args[end - 1].end_byte, "", "solver")
            return
        what = f"drop cuSOLVER's workspace arguments {first + 1}-{end} by hand: rocSOLVER takes none"
    p.find(fc.UNSUPPORTED_API, "error", f"{name}: {what}", node.start_byte, node.end_byte, name=name,
           family="solver")


def forward_header(cuda_path: str, rocm: tuple[int, int], libraries: str) -> headers.HeaderMapping | None:
    """The include for a CUDA include under the library setting (else :func:`headers.forward`'s)."""
    if cuda_path == "cudnn.h":
        return headers.HeaderMapping(MIOPEN_HEADER, "dnn", "")
    rule = _ROC_HEADERS.get(cuda_path) if libraries == "roc" else None
    if rule is None:
        return headers.forward(cuda_path, rocm)
    return headers.HeaderMapping(rule.legacy if rocm < _NEW_LAYOUT else rule.path, rule.family, "")
