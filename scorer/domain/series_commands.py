"""The commands of a series (a cup), and their builders: a new series (`NewSeries`: its
name, cup points, the best N results that count, the final's carry and the series table's
tie-breaks, checked by `scorer.domain.cup`), and a player renamed in it (`RenamePlayer`).
One builder for the API's body (`scorer.api.series`) and for a series' archive
(`scorer.formats.archive_series`), with the same field messages; the services
(`scorer.services.series`) take the command."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorer.domain import cup
from scorer.domain.limits import MAX_GROUP_NAME
from scorer.domain.message import msg
from scorer.domain.model import Refusals
from scorer.domain.names import clean_name
from scorer.domain.validation import whole_number_in

MAX_BEST_OF = 100
"""A cup counts at most this many results per player."""


@dataclass(frozen=True)
class NewSeries:
    """A series' settings as it keeps them (`cup_points` and `final_carry` as JSON)."""

    name: str
    cup_points: Any
    best_of: int | None
    final_carry: list[int] | None
    tie_breaks: list[str]


@dataclass(frozen=True)
class RenamePlayer:
    """One person under a new name in the series (`from_` → `into`), or two spellings
    merged into one."""

    from_: str
    into: str


def new_series(
    name: object,
    *,
    cup_points: object,
    best_of: object = None,
    final_carry: object = None,
    tie_breaks: object = None,
) -> NewSeries:
    """The series these say, or one RuleError with a message for each field that is
    wrong. Its values are JSON-shaped as a body or an archive sends them: checking their
    shape is this builder's work (`scorer.domain.cup`)."""
    refusals = Refusals()
    cleaned = refusals.check(clean_name, name, "name", MAX_GROUP_NAME)
    points = refusals.check(cup.cup_table_from_json, cup_points)
    counted = None
    if best_of is not None:
        counted = refusals.check(whole_number_in, best_of, "best_of", low=1, high=MAX_BEST_OF)
    carry = refusals.check(cup.carry_from_json, final_carry)
    breaks: tuple[str, ...] = cup.DEFAULT_SERIES_TIE_BREAKS
    if tie_breaks is not None:
        breaks = refusals.check_as("tie_breaks", cup.check_series_tie_breaks, tie_breaks)
    refusals.done()
    return NewSeries(
        name=cleaned,
        cup_points=cup.cup_table_to_json(points),
        best_of=counted,
        final_carry=list(carry) if carry is not None else None,
        tie_breaks=list(breaks),
    )


def rename_player(
    from_: str, into: str, *, played: Callable[[str], bool] = lambda _: True
) -> RenamePlayer:
    """`into` as a name is stored (field "into"), and `from_` a spelling that `played` in
    the series (field "from"), both said at once. The series' service asks `played`
    again under its lock: a rename on another device may have moved the name since."""
    refusals = Refusals()
    cleaned = refusals.check(clean_name, into, "into", MAX_GROUP_NAME)
    if not played(from_):
        refusals.refuse("from", msg("nobody of that name played in this series"))
    refusals.done()
    return RenamePlayer(from_, cleaned)
