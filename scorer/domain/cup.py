"""A cup: a season of tournaments scored by cup points, the series table and a final.

Plain Python on names and whole numbers, as Austrian Tarock cups count: each tournament of
the season gives cup points by final place, a player's best N results count for the series,
and a final may start with points carried in by series place. The web layer stores the
table (`cup_table_to_json`) and the carry, and passes in each tournament's final standings.

The cup table (`CupTable`)
    Cup points for place 1, 2, 3 … as a list, whole numbers 0..`MAX_CUP_POINTS`, never more
    than the place before, at most `MAX_CUP_PLACES` places; a place beyond the list gets 0.
    Or the field rule, `{"rule": "field"}`: field size − place + 1, so the last place gets 1
    and the winner as many points as there were players.

The cup points of one tournament (`cup_points`)
    **[decision]** Tied players share the cup points of the places they occupy, equally,
    exactly as prizes share cents (`scorer.domain.prizes`): two tied on place 2 occupy places
    2 and 3 and each gets half of their points together. The odd points that do not divide
    go one each to the tied players in the order the caller passes (`order`, smallest first:
    the tournament's drawn order), never by name, which would favour Anton over Zenzi at every
    tournament of the season. Every player of the standings gets an entry, 0 beyond the table.

The series (`series_standings`)
    A result is one tournament a player finished: its number in the season (1, 2, …; the
    final is not one of them), its name, the place and the cup points. With `best_of` N the
    N results with the most cup points count, every result without it. **[decision]** Among
    equal cup points the earlier result counts: of 50, 80, 50, 30 with the best two counting,
    80 and the first 50 count, not the most recent ones. What counts is marked on each result
    (`Result.counted`), zeros too: a 0 among the best N is a counted result.
    Highest counted points first. **[decision]** Equal points are decided by the tie-breaks the
    cup chose, in order (`SERIES_TIE_BREAKS`; by default `counted`, then `best`):
      `counted` more results counted (as marked, zeros too);
      `best`    the better best single result, in cup points, counted or not;
      `results` more tournaments played;
      `latest`  the results compared tournament by tournament from the latest of the season
                back (the highest number anyone has a result in), the first difference
                decides; a tournament a player missed counts 0, and every result counts here,
                counted or not.
    Players still equal share the place (1, 2, 2, 4) and are listed by name (casefold).

The final (`carried_points`)
    A final may start with points carried in by series place: the player at series place k
    gets `carry[k − 1]`; players beyond the carry get nothing and are not listed.
    **[decision]** Tied series places share the carry of the places they occupy, equally, the
    odd points one each in `order` (smallest first), by the same rule as the cup points; a tie
    that straddles the end of the carry shares what there is, and every player of it is
    listed, even with 0. **[decision]** The carry is taken as given: whole numbers
    0..`MAX_CUP_POINTS`, at most `MAX_CUP_PLACES`, not required to fall (the cup table is);
    `[]` is a carry of nothing, like None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from scorer.domain.message import Msg, msg, one_of
from scorer.domain.model import RuleError
from scorer.domain.places import shared, tied
from scorer.domain.validation import is_whole

MAX_CUP_POINTS = 10_000
"""Cup points of one place, and the points carried into a final by one series place."""
MAX_CUP_PLACES = 200
"""Places of a cup table and of a final's carry."""
FIELD_RULE = "field"
"""The cup table's rule as the JSON names it: `{"rule": "field"}`."""

SERIES_TIE_BREAKS = ("counted", "best", "results", "latest")
"""What can decide equal series points: more results counted, the better best single
result, more tournaments played, the better result from the latest tournament back."""
DEFAULT_SERIES_TIE_BREAKS = ("counted", "best")


@dataclass(frozen=True)
class CupTable:
    """Cup points for place 1, 2, 3 … (places beyond get 0), or the field rule: field size −
    place + 1, so that the last place gets 1."""

    points: tuple[int, ...] = ()
    field_rule: bool = False

    def __post_init__(self) -> None:
        if self.field_rule and self.points:
            raise ValueError("a cup table is points by place or the field rule, not both")
        if any(p < 0 for p in self.points) or any(
            later > earlier for earlier, later in zip(self.points, self.points[1:], strict=False)
        ):
            raise ValueError(f"cup points are never negative and never rise: {self.points}")

    def for_place(self, place: int, field_size: int) -> int:
        """The cup points of `place` (1 = the winner) in a field of `field_size` players."""
        if not 1 <= place <= field_size:
            raise ValueError(f"place {place} in a field of {field_size}")
        if self.field_rule:
            return field_size - place + 1
        return self.points[place - 1] if place <= len(self.points) else 0


@dataclass(frozen=True)
class Result:
    """One tournament of a player's season: `number` is its order in the season (1, 2, …;
    the final excluded); `counted` whether its cup points are in the series total."""

    tournament: str
    number: int
    place: int
    cup_points: int
    counted: bool


@dataclass(frozen=True)
class SeriesStanding:
    """One line of the series table: `points` are the counted cup points, `results` every
    result in season order (tied players share `place`)."""

    place: int
    player: str
    points: int
    results: tuple[Result, ...]


# --- the table and the carry as JSON --------------------------------------------------------


def cup_table_from_json(value: object) -> CupTable:
    """A cup table from `[100, 90, 82, …]` or `{"rule": "field"}`, or a RuleError on the
    field `cup_points` saying what is wrong."""
    if isinstance(value, dict):
        if value != {"rule": FIELD_RULE}:
            raise RuleError.one("cup_points", one_of([FIELD_RULE]))
        return CupTable(field_rule=True)
    if not isinstance(value, list):
        raise RuleError.one("cup_points", msg("must be a list"))
    points = _numbers("cup_points", value, least=1)
    for place, (earlier, later) in enumerate(zip(points, points[1:], strict=False), start=2):
        if later > earlier:
            raise _at("cup_points", place, msg("must be at most %(maximum)s", maximum=earlier))
    return CupTable(points=points)


def cup_table_to_json(table: CupTable) -> list[int] | dict[str, str]:
    """The table as `cup_table_from_json` reads it back."""
    return {"rule": FIELD_RULE} if table.field_rule else list(table.points)


def carry_from_json(value: object) -> tuple[int, ...] | None:
    """A final's carry from None or `[50, 40, 30, …]`, or a RuleError on `final_carry`."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise RuleError.one("final_carry", msg("must be a list"))
    return _numbers("final_carry", value, least=0)


def _numbers(field: str, values: list[object], *, least: int) -> tuple[int, ...]:
    """`values` as whole numbers 0..MAX_CUP_POINTS (ints, never bools), `least` to
    MAX_CUP_PLACES of them, or a RuleError on `field` naming the first wrong place."""
    if not least <= len(values) <= MAX_CUP_PLACES:
        message = msg("must be a list of %(least)s..%(count)s", least=least, count=MAX_CUP_PLACES)
        raise RuleError.one(field, message)
    numbers: list[int] = []
    for place, value in enumerate(values, start=1):
        if not is_whole(value) or not 0 <= value <= MAX_CUP_POINTS:
            message = msg("must be a whole number %(low)s..%(high)s", low=0, high=MAX_CUP_POINTS)
            raise _at(field, place, message)
        numbers.append(value)
    return tuple(numbers)


def _at(field: str, place: int, problem: Msg) -> RuleError:
    return RuleError.one(field, msg("place %(place)s: %(problem)s", place=place, problem=problem))


# --- sharing by place -----------------------------------------------------------------------


def cup_points(
    table: CupTable, places: Sequence[tuple[int, str]], *, order: Callable[[str], int]
) -> dict[str, int]:
    """The cup points of a finished tournament's final standings `places` ((place, player),
    shared places as 1, 2, 2, 4): tied players share as the module's docstring says, the odd
    points in `order` (smallest first). Every player gets an entry."""
    field_size = len(places)
    result: dict[str, int] = {}
    for first, players in tied(places):
        occupied = range(first, first + len(players))
        total = sum(table.for_place(place, field_size) for place in occupied)
        result.update(shared(total, players, order))
    return {name: result[name] for _, name in places}


def carried_points(
    carry: Sequence[int], standings: Sequence[SeriesStanding], *, order: Callable[[str], int]
) -> dict[str, int]:
    """The points each player starts a final with: series place k gets `carry[k − 1]`, tied
    places share the carry of the places they occupy (the odd points in `order`); players
    beyond the carry are not listed."""
    if any(points < 0 for points in carry):
        raise ValueError("a carry is never negative")
    result: dict[str, int] = {}
    for first, players in tied([(line.place, line.player) for line in standings]):
        occupied = carry[first - 1 : first - 1 + len(players)]
        if not occupied:
            break  # this tie and every one after it is beyond the carry
        result.update(shared(sum(occupied), players, order))
    return result


# --- the series -----------------------------------------------------------------------------


def check_series_tie_breaks(value: object) -> tuple[str, ...]:
    """`value` as a list of series tie-breaks, each once, or ValueError naming what is wrong."""
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError(msg("must be a list of tie-breaks"))
    unknown = [v for v in value if v not in SERIES_TIE_BREAKS]
    if unknown:
        raise ValueError(msg("unknown tie-break %(name)s", name=str(unknown[0])))
    if len(set(value)) != len(value):
        raise ValueError(msg("each tie-break may be chosen once"))
    return tuple(value)


def series_standings(
    results: Mapping[str, Sequence[tuple[int, str, int, int]]],
    *,
    best_of: int | None,
    tie_breaks: Sequence[str] = DEFAULT_SERIES_TIE_BREAKS,
) -> list[SeriesStanding]:
    """The series table from each player's results `(number, tournament, place, cup_points)`:
    the best `best_of` count (every one if None), ranked as the module's docstring says.
    Every player of `results` is listed, with 0 if he has no result."""
    if best_of is not None and best_of < 1:
        raise ValueError("at least one result counts")
    unknown = [name for name in tie_breaks if name not in SERIES_TIE_BREAKS]
    if unknown:
        raise ValueError(f"unknown series tie-break {unknown[0]!r}")
    _check_season(results)
    season = {name: _season(entries, best_of) for name, entries in results.items()}
    latest = sorted({r.number for lines in season.values() for r in lines}, reverse=True)

    def decide(name: str, tie_break: str) -> tuple[int, ...]:
        lines = season[name]
        if tie_break == "counted":
            return (-sum(r.counted for r in lines),)
        if tie_break == "best":
            return (-max((r.cup_points for r in lines), default=0),)
        if tie_break == "results":
            return (-len(lines),)
        by_number = {r.number: r.cup_points for r in lines}
        return tuple(-by_number.get(number, 0) for number in latest)

    def key(name: str) -> tuple[tuple[int, ...], ...]:
        total = sum(r.cup_points for r in season[name] if r.counted)
        return ((-total,), *(decide(name, tie_break) for tie_break in tie_breaks))

    keys = {name: key(name) for name in season}
    ordered = sorted(season, key=lambda name: (keys[name], name.casefold(), name))
    table: list[SeriesStanding] = []
    for position, name in enumerate(ordered, start=1):
        tied = bool(table) and keys[ordered[position - 2]] == keys[name]
        points = -keys[name][0][0]
        table.append(
            SeriesStanding(table[-1].place if tied else position, name, points, season[name])
        )
    return table


def _check_season(results: Mapping[str, Sequence[tuple[int, str, int, int]]]) -> None:
    """Each tournament has one number and one name, each player at most one result in it,
    numbers from 1, places from 1 and cup points never negative."""
    names: dict[int, str] = {}
    for player, entries in results.items():
        numbers = [number for number, _, _, _ in entries]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"{player!r} has two results in one tournament")
        for number, tournament, place, points in entries:
            if number < 1 or place < 1 or points < 0:
                raise ValueError(f"{player!r}: a result out of range: {number, place, points}")
            if names.setdefault(number, tournament) != tournament:
                raise ValueError(f"tournament {number} is {names[number]!r}, not {tournament!r}")


def _season(
    entries: Sequence[tuple[int, str, int, int]], best_of: int | None
) -> tuple[Result, ...]:
    """A player's results in season order, the best `best_of` marked counted (the most cup
    points; among equal points the earlier)."""
    by_merit = sorted(entries, key=lambda entry: (-entry[3], entry[0]))
    counted = {entry[0] for entry in by_merit[:best_of]}  # [:None] is every one
    return tuple(
        Result(tournament, number, place, points, number in counted)
        for number, tournament, place, points in sorted(entries)
    )
