"""What a program copies back from the device, compared between an original and its translation.

The program prints a checksum of only the first samples of its buffer: the ports that get a later
element wrong print the same line, and only the record of the device-to-host copy tells them apart.
"""

from __future__ import annotations

from pathlib import Path

from cass_lsp.core import pairs
from cass_lsp.services.settings import resolve_cli
from cass_lsp.verify import engine
from cass_lsp.verify import run as run_stage
from cass_lsp.verify.stages import StageResult

PROGRAM = Path(__file__).parent / "copy_record"
SAMPLES = 1 << 16


def verify(translation: str | None, original: str = "scale.cu", **verification: object) -> StageResult:
    """The run stage of ``original`` against ``translation`` (None: its rule translation)."""
    resolved = resolve_cli(
        target={"arch": "gfx1100", "rocm": "7.1"},
        verification={"run": True, "runner": "cpu", "limits": {"timeoutSeconds": 60}, **verification},
    )
    pair = pairs.Pair(str(PROGRAM / original), str(PROGRAM / translation) if translation else None)
    inputs = engine.read_inputs(pair, {}, resolved, explicit=True)
    [plan] = run_stage.plan_runs(inputs, resolved, "cpu")
    return run_stage.run_programs(plan)


def test_a_correct_port_is_verified_with_its_copies_compared() -> None:
    result = verify("scale.hip")
    assert result.outcome == "passed", result.message
    assert "1 device-to-host copy compared element by element" in result.message


def test_a_wrong_value_the_program_does_not_print_fails_with_the_element_named() -> None:
    result = verify("scale_wrong_tail.hip")
    assert result.outcome == "failed", result.message
    assert "the outputs agree" in result.message
    assert f"copy 1 (line 21): element {SAMPLES - 100} (float) differs" in result.message
    assert "allocated at line 17" in result.message
    assert "last written by kernel scale_offset" in result.message


def test_an_element_left_unwritten_fails_with_the_element_named() -> None:
    result = verify("scale_last_unwritten.hip")
    assert result.outcome == "failed", result.message
    assert f"element {SAMPLES - 1} (float) differs" in result.message


def test_copies_past_the_cap_are_named_never_judged() -> None:
    # 2 MiB copied back under a 1 MiB file size limit: the record stops at its cap on both sides
    samples = str(1 << 19)
    for port in ("scale.hip", "scale_wrong_tail.hip"):
        result = verify(port, args=[samples], limits={"timeoutSeconds": 60, "fileSizeMb": 1})
        assert result.outcome == "passed", result.message
        assert "the copy record stopped at its cap of 1 MiB (copy 1, line 21, 2097152 bytes" in result.message


def test_copies_of_an_input_seeded_from_the_clock_are_noise_not_a_difference() -> None:
    # the original's first two runs may fall in one second and draw the same input; the
    # translation's, seconds later, draws another: one more run of the original shows the copy
    # moving by itself (fp16ScalarProduct was failed as "copy 1 differs")
    result = verify(None, "clock_seeded.cu")
    assert result.outcome == "passed", result.message
    assert "1 copy varies between runs of the original and was not compared" in result.message
