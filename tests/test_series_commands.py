"""The commands of a series (scorer.domain.series_commands): a new series' settings as it
keeps them, every bad field said at once, and a rename's new name folded."""

from __future__ import annotations

import pytest

from scorer.domain import RuleError
from scorer.domain.cup import DEFAULT_SERIES_TIE_BREAKS
from scorer.domain.series_commands import NewSeries, RenamePlayer, new_series, rename_player


def test_a_new_series_is_kept_as_its_command_says():
    assert new_series(" Cup  2026 ", cup_points=[100, 90, 82], final_carry=[30, 20]) == NewSeries(
        name="Cup 2026",
        cup_points=[100, 90, 82],
        best_of=None,
        final_carry=[30, 20],
        tie_breaks=list(DEFAULT_SERIES_TIE_BREAKS),
    )


def test_every_bad_setting_is_refused_at_once():
    with pytest.raises(RuleError) as refused:
        new_series("", cup_points="x", best_of=0, final_carry="y", tie_breaks=["nope"])
    assert list(refused.value.fields) == [
        "name",
        "cup_points",
        "best_of",
        "final_carry",
        "tie_breaks",
    ]


def test_a_new_name_is_folded_and_a_blank_one_refused():
    assert rename_player("Anna", "  Anna  M. ") == RenamePlayer("Anna", "Anna M.")
    with pytest.raises(RuleError) as refused:
        rename_player("Anna", "   ")
    assert list(refused.value.fields) == ["into"]


def test_a_spelling_nobody_played_and_a_blank_new_name_are_said_at_once():
    with pytest.raises(RuleError) as refused:
        rename_player("Niemand", "   ", played=lambda name: name == "Anna")
    assert list(refused.value.fields) == ["into", "from"]
    assert rename_player("Anna", "Anna M.", played=lambda name: name == "Anna").into == "Anna M."
