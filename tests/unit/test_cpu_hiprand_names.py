"""The CPU runtime's hipRAND is its cuRAND under hipRAND's names: every cuRAND name the runtime
defines has its hipRAND twin (from the API tables) defined too, and the other way round, so a
translation never stops building, or is refused, where its original runs."""

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
