"""A cup over a season (RULES §5.2): an organiser's series of tournaments, the cup points
each finished tournament gives by place, the series table of the best results, and the
final whose players start with the points carried in by their place in the series.

- A tournament is made part of a series when it is created (`create_tournament`'s
  `series`); its final results give cup points once it is finished (no correction can
  change them after). Tied places share the cup points of the places they occupy
  (`scorer.domain.cup.cup_points`, odd points by the tournament's drawn order).
- The series table counts each player's best `best_of` results (all where None).
- **The final** (one per series): when its first round is drawn, each of its players
  gets the carry of his place in the series table at that moment (`final_carry`), shown
  as "aus dem Cup" and part of his total, not as an adjustment. **[decision]** Once the
  final is finished, the series' winner is decided by the final: the series table lists
  the final's players first, in the final's order with its totals, then everyone else in
  the series order; before that, the table is the cup points.
- **One person, one name**: the organiser renames a player in the series, or merges two
  spellings of one person (never two who played the same tournament); each is a line of
  the series' log of names (`rename`), applied to every result.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import func, select

from scorer.domain import RuleError, cup
from scorer.domain.message import msg
from scorer.domain.names import same_name
from scorer.domain.series_commands import NewSeries, RenamePlayer
from scorer.domain.tournament import drawn_order
from scorer.domain.validation import whole_number_in
from scorer.services import tournaments
from scorer.store import table_rows
from scorer.store.database import db, unit_of_work
from scorer.store.errors import Conflict, NotFound
from scorer.store.locks import lock_one
from scorer.store.models import Organiser, Series, Tournament, TournamentPlayer, utcnow


@unit_of_work
def create_series(organiser: Organiser, command: NewSeries) -> Series:
    series = Series(
        organiser_id=organiser.id,
        key=secrets.token_urlsafe(24),
        name=command.name,
        cup_points=command.cup_points,
        best_of=command.best_of,
        final_carry=command.final_carry,
        tie_breaks=command.tie_breaks,
    )
    db.session.add(series)
    db.session.flush()
    return series


def own_series(organiser: Organiser, series_id: int) -> Series:
    """The organiser's series `series_id` (a tournament's "series" as sent), locked until
    the write commits: two finals made at once see each other (`check_final`)."""
    series_id = whole_number_in(series_id, "series", low=1, high=2**31 - 1)
    organiser_id = organiser.id
    series = lock_one(Series, Series.id == series_id)
    if series is None or series.organiser_id != organiser_id:
        raise RuleError.one("series", msg("no such series"))
    return series


def series_of(organiser: Organiser, series_id: int) -> Series:
    """The organiser's series `series_id`; another's does not exist for him (404)."""
    series = db.session.get(Series, series_id)
    if series is None or series.organiser_id != organiser.id:
        raise NotFound(msg("no such series"))
    return series


def check_final(series: Series | None, final: bool) -> None:
    """A final needs a series with a carry table, and a series has one final."""
    if not final:
        return
    if series is None:
        raise RuleError.one("final", msg("a final is the final of a series: name the series"))
    if not series.final_carry:
        raise RuleError.one("final", msg("the series has no points to carry into a final"))
    if any(t.final for t in series.tournaments):
        raise Conflict(msg("the series has its final already"))


def public_series(key: str) -> Series:
    series = None
    if table_rows.KEY_SHAPE.fullmatch(key):
        series = db.session.scalar(select(Series).where(Series.key == key))
    if series is None:
        raise NotFound(msg("no such series"))
    return series


@dataclass(frozen=True)
class Table:
    """The series table: its rows, the tournaments counted (in season order), and the
    final if it is finished (then it decides the order)."""

    rows: list[cup.SeriesStanding]
    tournaments: list[Tournament]
    final: Tournament | None


def season(series: Series) -> list[Tournament]:
    """The series' finished tournaments that give cup points, in season order."""
    return [t for t in series.tournaments if t.finished and not t.final]


def cup_results(series: Series) -> dict[str, list[tuple[int, str, int, int]]]:
    """Each person's results: (number in the season, tournament, place, cup points), under
    the name the series' log of names gives him."""
    table = cup.cup_table_from_json(series.cup_points)
    person = one_person(series)
    results: dict[str, list[tuple[int, str, int, int]]] = {}
    for number, tournament in enumerate(season(series), start=1):
        places = [(s.place, s.player) for s in tournaments.tournament_standings(tournament)]
        points = cup.cup_points(table, places, order=partial(drawn_order, tournament.seed))
        for place, player in places:
            entry = (number, tournament.name, place, points[player])
            results.setdefault(person(player), []).append(entry)
    return results


def one_person(series: Series) -> Callable[[str], str]:
    """The name each spelling stands for, after the series' renames and merges."""
    into = {line["from"]: line["into"] for line in series.names}

    def person(name: str) -> str:
        seen = {name}
        while name in into and into[name] not in seen:
            name = into[name]
            seen.add(name)
        return name

    return person


def spellings(series: Series) -> dict[str, list[int]]:
    """Each name as the series' person it stands for, with the tournaments he played."""
    person = one_person(series)
    played: dict[str, list[int]] = {}
    for tournament in series.tournaments:
        for player in tournament.players:
            if player.checked_in and not player.waiting:
                played.setdefault(person(player.name), []).append(tournament.id)
    return played


def played_in(series: Series) -> Callable[[str], bool]:
    """Whether a spelling played in the series (as the person it stands for)."""
    played, person = spellings(series), one_person(series)
    return lambda name: person(name) in played


@unit_of_work
def rename(series: Series, command: RenamePlayer, *, by: str) -> dict[str, Any]:
    """One person under a new name in the series (a rename), or two spellings as one
    person (a merge, when `new` played too); kept in the series' log of names. Refused
    where both spellings played the same tournament: they are two people. The series is
    locked first, so two renames at once both land in its log."""
    series_id = series.id
    series = lock_one(Series, Series.id == series_id) or series
    played = spellings(series)
    person = one_person(series)
    if person(command.from_) not in played:
        raise RuleError.one("from", msg("nobody of that name played in this series"))
    old, new = person(command.from_), person(command.into)
    if old == new:
        raise RuleError.one("into", msg("that is the same name"))
    if set(played[old]) & set(played.get(new, [])):
        raise Conflict(msg("both names played the same tournament: they are two people"))
    line = {"from": old, "into": new, "at": stamp_now(), "by": by}
    series.names = [*series.names, line]
    db.session.flush()
    return line


def stamp_now() -> str:
    return utcnow().isoformat(timespec="seconds") + "Z"


def known_names(organiser: Organiser, limit: int = 2000) -> list[str]:
    """The names the organiser's tournaments have seen, for the desk to offer as letters
    are typed (one person, one name: the newest spelling first)."""
    rows = db.session.execute(
        select(TournamentPlayer.name)
        .join(Tournament, Tournament.id == TournamentPlayer.tournament_id)
        .where(Tournament.organiser_id == organiser.id)
        .group_by(TournamentPlayer.name)
        .order_by(func.max(TournamentPlayer.id).desc())
        .limit(limit)
    )
    return sorted((name for (name,) in rows), key=str.casefold)


def series_table(series: Series) -> Table:
    rows = cup.series_standings(
        cup_results(series), best_of=series.best_of, tie_breaks=series.tie_breaks
    )
    final = next((t for t in series.tournaments if t.final and t.finished), None)
    if final is not None:
        rows = decided_by_the_final(rows, tournaments.tournament_standings(final))
    return Table(rows, season(series), final)


def decided_by_the_final(
    rows: Sequence[cup.SeriesStanding], final: Sequence[Any]
) -> list[cup.SeriesStanding]:
    """The final's players first, in its order and with its totals, then the rest."""
    by_player = {row.player: row for row in rows}
    decided = [
        cup.SeriesStanding(
            place=s.place,
            player=s.player,
            points=s.total,
            results=by_player[s.player].results if s.player in by_player else (),
        )
        for s in final
    ]
    played = {s.player for s in final}
    rest = [row for row in rows if row.player not in played]
    offset = len(decided)
    first_place: dict[int, int] = {}
    for position, row in enumerate(rest, start=offset + 1):
        first_place.setdefault(row.place, position)
    return decided + [
        cup.SeriesStanding(first_place[row.place], row.player, row.points, row.results)
        for row in rest
    ]


def carry_into_final(tournament: Tournament) -> None:
    """Before a final's first round is drawn: each of its players gets the carry of his
    place in the series table (tied places share it, as cup points do)."""
    if not tournament.final or tournament.series is None or tournament.round_list:
        return
    series = tournament.series
    rows = cup.series_standings(
        cup_results(series), best_of=series.best_of, tie_breaks=series.tie_breaks
    )
    carried = cup.carried_points(
        series.final_carry or [], rows, order=partial(drawn_order, tournament.seed)
    )
    for player in tournament.players:
        # One person is one name: a look-alike spelling in the final is the same player.
        player.carried = next(
            (points for name, points in carried.items() if same_name(name, player.name)), 0
        )
    db.session.flush()
