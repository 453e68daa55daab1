"""The CPU runtime's hipRAND and rocRAND are its cuRAND under their names: every cuRAND name the
runtime defines has its hipRAND and rocRAND twins (from the API tables) defined too, and the other
way round, so a translation never stops building, or is refused, where its original runs."""

from __future__ import annotations

from cass_lsp.cpu import refuse
from cass_lsp.translate import tables


def test_each_curand_name_the_runtime_defines_has_its_hiprand_twin() -> None:
    defined = refuse._implemented_names()
    rows = [row for row in map(tables.row, tables.names()) if row is not None and row.family == "rand" and row.hip]
    assert {row.cuda for row in rows if row.cuda in defined} >= {"curand_init", "curandGenerateNormal", "curandState"}
    missing_hip = sorted(f"{row.cuda} -> {row.hip}" for row in rows if row.cuda in defined and row.hip not in defined)
    missing_cuda = sorted(f"{row.hip} <- {row.cuda}" for row in rows if row.hip in defined and row.cuda not in defined)
    assert missing_hip == [] and missing_cuda == []


def test_each_curand_name_the_runtime_defines_has_its_rocrand_twin() -> None:
    defined = refuse._implemented_names()
    # names, not rocrand_device::mrg32k3a_engine (a token is what the refusal reads)
    rows = [(row.cuda, row.alt) for row in map(tables.row, tables.names())
            if row is not None and row.family == "rand" and row.alt and row.alt_kind == "ROC" and "::" not in row.alt]
    assert {roc for cuda, roc in rows if cuda == "curand_init"} == {"rocrand_init"}
    missing_roc = sorted(f"{cuda} -> {roc}" for cuda, roc in rows if cuda in defined and roc not in defined)
    missing_cuda = sorted(f"{roc} <- {cuda}" for cuda, roc in rows if roc in defined and cuda not in defined)
    assert missing_roc == [] and missing_cuda == []
