"""The copy record's reader and its element-by-element comparison (records written here in the
runtime's format, cass_cpu/record.hpp)."""

from __future__ import annotations

import struct

from cass_lsp.verify import copies


def _copy(ordinal: int, values: list[float], type_: str = "float", fmt: str = "f", line: int = 40, thread: int = 1) -> bytes:
    data = struct.pack(f"={len(values)}{fmt}", *values)
    header = (f"copy {ordinal} line={line} bytes={len(data)} type={type_} buffer=2 offset=0 size={len(data)} at=31"
              f" kernel=relax thread={thread}\n")
    return header.encode() + data


def test_a_float_within_the_tolerance_agrees_and_one_beyond_is_named() -> None:
    original = copies.parse(_copy(1, [1.0, 2.0, 3.0]))
    close = copies.parse(_copy(1, [1.0, 2.0000001, 3.0]))
    assert copies.compare(original, close).difference is None
    found = copies.compare(original, copies.parse(_copy(1, [1.0, 2.0, 3.5]))).difference
    assert found is not None
    assert found.element == 2
    assert "copy 1 (line 40): element 2 (float) differs: original 3, translation 3.5" in found.describe()
    assert "allocated at line 31" in found.describe() and "kernel relax" in found.describe()


def test_integers_compare_exactly() -> None:
    original = copies.parse(_copy(1, [7, 1 << 40], "int64", "q"))
    off_by_one = copies.parse(_copy(1, [7, (1 << 40) + 1], "int64", "q"))
    found = copies.compare(original, off_by_one).difference
    assert found is not None and found.element == 1


def test_untyped_bytes_that_differ_are_not_judged() -> None:
    original = copies.parse(_copy(1, [1.0], "bytes", "f"))
    other = copies.parse(_copy(1, [1.0000001], "bytes", "f"))
    outcome = copies.compare(original, other)
    assert outcome.difference is None
    assert "not judged" in outcome.describe()


def test_another_count_of_copies_is_said_not_judged() -> None:
    outcome = copies.compare(copies.parse(_copy(1, [1.0])), copies.parse(_copy(1, [1.0]) + _copy(2, [2.0])))
    assert outcome.difference is None and outcome.compared == 0
    assert "the original made 1 device-to-host copies, the translation 2" in outcome.describe()


def test_the_cap_is_named_and_the_copies_before_it_still_compared() -> None:
    cap = b"cap 2 line=52 bytes=4194304 limit=1048576\n"
    original = copies.parse(_copy(1, [1.0]) + cap)
    assert original.cap == copies.Cap(2, 52, 4194304, 1048576)
    wrong = copies.compare(original, copies.parse(_copy(1, [9.0]) + cap))
    assert wrong.difference is not None
    agree = copies.compare(original, copies.parse(_copy(1, [1.0]) + cap))
    assert "stopped at its cap of 1 MiB (copy 2, line 52" in agree.describe()


def test_a_record_cut_off_keeps_what_came_before() -> None:
    record = copies.parse(_copy(1, [1.0]) + _copy(2, [2.0, 3.0])[:-3])
    assert len(record.copies) == 1
    assert record.broken == "the copy record was cut off in copy 2"


def test_copies_that_vary_between_runs_of_the_original_are_left_out() -> None:
    first = copies.parse(_copy(1, [1.0]) + _copy(2, [0.25]))
    second = copies.parse(_copy(1, [1.0]) + _copy(2, [0.75]))
    moving = copies.varying(first, second, mode="numeric", rel_tol=1e-5, abs_tol=1e-8)
    assert moving == {2}
    outcome = copies.compare(first, copies.parse(_copy(1, [1.0]) + _copy(2, [0.5])), skip=moving)
    assert outcome.difference is None
    assert "1 copy varies between runs of the original and was not compared" in outcome.describe()


def test_copies_of_several_host_threads_are_matched_by_content_not_by_their_order() -> None:
    # cuda-samples' simpleCallback: one host thread per workload copies its results back; which
    # thread copies first is the scheduler's choice, and it was failed as "copy 1 differs"
    def threads(order: list[int], bump: int = 0) -> copies.Record:
        return copies.parse(b"".join(_copy(n + 1, [float(w + 1), float(w + 2 + (bump if w == 2 else 0))], "float",
                                           line=106, thread=n + 1) for n, w in enumerate(order)))

    original, again = threads([0, 1, 2]), threads([0, 1, 2])
    assert copies.varying(original, again, mode="numeric", rel_tol=1e-5, abs_tol=1e-8) == set()
    outcome = copies.compare(original, threads([2, 0, 1]))
    assert outcome.difference is None and outcome.compared == 3
    assert "3 host threads made copies" in outcome.describe()
    # a wrong element is still found, whatever order the threads ran in
    wrong = copies.compare(original, threads([1, 2, 0], bump=1)).difference
    assert wrong is not None and (wrong.copy.ordinal, wrong.element, wrong.expected, wrong.actual) == (3, 1, "4", "5")
    # one host thread: the order is the program's, and a swap is a difference
    single = copies.parse(_copy(1, [1.0]) + _copy(2, [2.0]))
    assert copies.compare(single, copies.parse(_copy(1, [2.0]) + _copy(2, [1.0]))).difference is not None


def test_a_copy_that_moves_only_in_a_later_run_of_the_original_is_left_out() -> None:
    # cuda-samples' fp16ScalarProduct seeds rand() with time(NULL): its first two runs fell in one
    # second and agreed, the translation's ran in the next and was failed as "copy 1 differs"
    first, second, later = (copies.parse(_copy(1, [v])) for v in (5147.0, 5147.0, 5045.0))
    assert copies.varying(first, second, mode="numeric", rel_tol=1e-5, abs_tol=1e-8) == set()
    assert copies.varying(first, second, later, mode="numeric", rel_tol=1e-5, abs_tol=1e-8) == {1}
