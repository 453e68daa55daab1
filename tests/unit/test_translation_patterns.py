"""Regression tests for issue 19: a translation pattern with a placeholder other than {stem} and
{name} was accepted, then raised KeyError at every save (in the CLI: a traceback and exit 1,
which means "translation wrong")."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.core.pairs import check_patterns, translation_of
from cass_lsp.core.settings import load_settings

GOOD = ["{stem}.hip", "hip/{stem}.cpp", "../hip/{stem}.hip", "{name}.hip.cpp", "port.hip"]
BAD = {
    "{foo}.hip": "{foo} is not a placeholder",
    "{stem!r}.hip": "{stem!r} is not a placeholder",
    "{stem[0]}.hip": "{stem[0]} is not a placeholder",
    "{}.hip": "{} is not a placeholder",
    "hip/{stem.hip": 'a lone "{" or "}"',
}


def test_good_patterns_pass_and_find_their_files(tmp_path: Path) -> None:
    check_patterns(GOOD)
    (tmp_path / "k.hip").write_text("")
    assert translation_of(tmp_path / "k.cu", GOOD) == tmp_path / "k.hip"


@pytest.mark.parametrize("pattern", BAD)
def test_a_bad_pattern_is_refused_with_the_placeholders_named(pattern: str) -> None:
    with pytest.raises(ValueError, match=r"the placeholders are \{stem\} .* and \{name\}") as refused:
        check_patterns(["{stem}.hip", pattern])
    assert BAD[pattern] in str(refused.value)
    assert f'"{pattern}"' in str(refused.value)


def test_settings_report_the_key_and_keep_the_rest() -> None:
    settings, problems = load_settings({"verification": {"translationPatterns": ["{foo}.hip"], "watch": False}})
    assert settings.verification.translation_patterns == ["{stem}.hip"]  # the default, never the bad one
    assert settings.verification.watch is False  # the rest of the section applies
    assert len(problems) == 1
    assert problems[0].startswith("cass.verification.translationPatterns: ")
    assert "{foo} is not a placeholder" in problems[0]
    assert "{stem}" in problems[0] and "{name}" in problems[0]
