"""Tournaments (RULES.md §5): the points of a hand, and the standings.

A tournament plays one game and payment system in **points**. Everything here is plain
Python on names and numbers; the web layer stores rounds, tables and hands and calls in.
Who sits where in a round is `scorer.domain.seating`.

The points of a hand
    `tournament_rules` and the ledger's `points_only` score a hand with the table's rules,
    with no pot cap, and keep the players' side only: **[decision]** where a system pays out
    of a pot (Haferl, Kasse), a payment from the pot counts as points for the player it is
    paid to, and what a player pays into it counts against him; the pot's own balance is
    dropped, because the pot is money and not a competitor, and stakes are never scores.
    One unit is one point in the systems that count in units (`unit_cents`, `point_cents`),
    otherwise one cent is one point.

The standings
    `ranked` adds up each player's points per round from the tables' scores (`TableScore`:
    what a table keeps as its hands are played), so their cost does not grow with the hands;
    `standings` does the same from the hands themselves (`table_scores`), the fresh fold the
    kept scores must always equal. A director's adjustments count in the total.
    **[decision]** Equal totals are decided by the tie-breaks the tournament chose, in order
    (`TIE_BREAKS`); by default as before: more games won as declarer, then the better score
    in the last round that has been played (the latest round in which any hand was
    recorded; a player who sat it out scored 0 in it). Players still equal share the place
    (1, 2, 2, 4) and are listed by name; `draw` (the drawn order, from the tournament's
    seed) leaves nobody equal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from scorer.domain import seating
from scorer.domain.message import msg
from scorer.domain.model import POT
from scorer.domain.scoring import Rules

T = TypeVar("T")

UNIT_PARAMS = ("unit_cents", "point_cents")
"""Parameters that give the value of one unit in cents: in a tournament a unit is a point."""


# --- the points of a hand -------------------------------------------------------------------


def tournament_rules(game: Any, system: Any, params: Mapping[str, Any] | None) -> Rules:
    """The rules of a tournament's tables: the system's unit set to one, so that one unit is
    one point. A table scores them with `Ledger(..., points_only=True)`: no pot, no cap, no
    stakes, and a payment from the pot counts for its receiver only."""
    rules = Rules.build(game, system, params)
    units = {p: 1 for p in UNIT_PARAMS if p in rules.params}
    return Rules.build(game, system, {**(params or {}), **units}) if units else rules


def hands_per_table(table_size: int, deals_each: int = 4) -> int:
    """How many hands a table of `table_size` plays in a round: each player deals
    `deals_each` times.

    **[decision]** At a table of four the dealer sits out, so there each player plays three of
    every four hands; at a table of three everyone plays every hand. Dealing the same number
    of times at both sizes (16 hands at a four, 12 at a three by default) therefore gives every
    player the same number of hands played, 3 × `deals_each` = 12, wherever they were drawn.
    """
    if table_size not in seating.TABLE_SIZES:
        raise ValueError(f"a tournament table seats 3 or 4 players, not {table_size}")
    if deals_each < 1:
        raise ValueError("each player deals at least once a round")
    return table_size * deals_each


# --- the standings --------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentHand:
    """One recorded tournament hand: where it was played, by whom, and the points it made.

    `players` are the active players; `net` maps players to their points for the hand
    (a `"pot"` entry, if any, is ignored).
    """

    round: int
    table: int
    players: tuple[str, ...]
    declarer: str
    result: str
    net: Mapping[str, int]


TIE_BREAKS = ("wins", "best_round", "fewest_losses", "last_round", "draw")
"""What can decide equal totals: more games won as declarer, the better best round, fewer
games lost as declarer, the better score in the last round played, the drawn order."""
DEFAULT_TIE_BREAKS = ("wins", "last_round")


def check_tie_breaks(value: object) -> tuple[str, ...]:
    """`value` as a list of tie-breaks, each once, or ValueError naming what is wrong."""
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError(msg("must be a list of tie-breaks"))
    unknown = [v for v in value if v not in TIE_BREAKS]
    if unknown:
        raise ValueError(msg("unknown tie-break %(name)s", name=str(unknown[0])))
    if len(set(value)) != len(value):
        raise ValueError(msg("each tie-break may be chosen once"))
    return tuple(value)


@dataclass(frozen=True)
class Standing:
    """One line of the standings. `per_round` has one total per round (0 where the player
    had no hand); `last_round` is the score in the latest round played; `adjustment` the
    director's points and `carried` the points a cup's final starts with (both in
    `total`)."""

    place: int
    player: str
    total: int
    wins_as_declarer: int
    per_round: list[int]
    last_round: int
    adjustment: int = 0
    losses_as_declarer: int = 0
    carried: int = 0


@dataclass(frozen=True)
class TableScore:
    """What one table of a round adds to the standings: each player's points there, the
    hands each declarer won there, and how many hands counted (0: the table has not begun).

    A table keeps these as it goes (its ledger's balances, its tally of results per
    declarer), so the standings add up tables, never every hand of the tournament."""

    round: int
    points: Mapping[str, int]
    wins: Mapping[str, int]
    hands: int
    losses: Mapping[str, int] = field(default_factory=dict)


def table_scores(hands: Iterable[TournamentHand]) -> list[TableScore]:
    """`hands` added up per table, in the order the tables first appear."""
    tables: dict[
        tuple[int, int], tuple[dict[str, int], dict[str, int], dict[str, int], list[int]]
    ] = {}
    for hand in hands:
        points, wins, losses, count = tables.setdefault((hand.round, hand.table), ({}, {}, {}, [0]))
        count[0] += 1
        for name, value in hand.net.items():
            if name != POT:
                points[name] = points.get(name, 0) + value
        if hand.result == "won":
            wins[hand.declarer] = wins.get(hand.declarer, 0) + 1
        elif hand.result == "lost":
            losses[hand.declarer] = losses.get(hand.declarer, 0) + 1
    return [
        TableScore(round_, points, wins, count[0], losses)
        for (round_, _), (points, wins, losses, count) in tables.items()
    ]


def standings(
    players: Sequence[str],
    hands: Iterable[TournamentHand],
    rounds: int,
    *,
    adjustments: Mapping[str, int] | None = None,
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    seed: int = 0,
    carried: Mapping[str, int] | None = None,
) -> list[Standing]:
    """Rank `players` on the `hands` of a tournament of `rounds` rounds (numbered from 1):
    `ranked` on the hands added up per table."""
    return ranked(
        players,
        table_scores(hands),
        rounds,
        adjustments=adjustments,
        tie_breaks=tie_breaks,
        seed=seed,
        carried=carried,
    )


def ranked(
    players: Sequence[str],
    tables: Iterable[TableScore],
    rounds: int,
    *,
    adjustments: Mapping[str, int] | None = None,
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    seed: int = 0,
    carried: Mapping[str, int] | None = None,
) -> list[Standing]:
    """Rank `players` on the `tables` of a tournament of `rounds` rounds (numbered from 1),
    with the director's `adjustments` and the points `carried` into a cup's final (points
    per player) in the totals.

    Highest total first; equal totals are decided by `tie_breaks` in order (`TIE_BREAKS`;
    `draw` by the order drawn from `seed`); players still equal share the place (1, 2, 2,
    4) and are listed by name. Every player is listed, with 0 if they have no hand yet.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is named twice")
    adjusted = {name: 0 for name in players}
    for name, points in (adjustments or {}).items():
        if name not in adjusted:
            raise ValueError(f"{name!r} is not a player of this tournament")
        adjusted[name] += points
    tally = _Tally.of(players, tables, rounds)
    per_round, wins, losses, last = tally.per_round, tally.wins, tally.losses, tally.last_round
    brought = {name: (carried or {}).get(name, 0) for name in players}

    def total(name: str) -> int:
        return sum(per_round[name]) + adjusted[name] + brought[name]

    deciders = tally.deciders(seed)
    chosen = [deciders[tie_break] for tie_break in tie_breaks]

    def key(name: str) -> tuple[int, ...]:
        return (-total(name), *(decide(name) for decide in chosen))

    ordered = sorted(players, key=lambda name: (key(name), name.casefold(), name))
    result: list[Standing] = []
    for position, name in enumerate(ordered, start=1):
        place = result[-1].place if result and key(ordered[position - 2]) == key(name) else position
        result.append(
            Standing(
                place=place,
                player=name,
                total=total(name),
                wins_as_declarer=wins[name],
                per_round=list(per_round[name]),
                last_round=last(name),
                adjustment=adjusted[name],
                losses_as_declarer=losses[name],
                carried=brought[name],
            )
        )
    return result


@dataclass
class _Tally:
    """What the tables of a tournament add up to for each player: points per round, wins
    and losses as declarer; and the last round with a hand played (0: none yet)."""

    per_round: dict[str, list[int]]
    wins: dict[str, int]
    losses: dict[str, int]
    last: int = 0

    @classmethod
    def of(cls, players: Sequence[str], tables: Iterable[TableScore], rounds: int) -> _Tally:
        tally = cls(
            {name: [0] * rounds for name in players},
            dict.fromkeys(players, 0),
            dict.fromkeys(players, 0),
        )
        for table in tables:
            if table.hands:
                tally.add(table, rounds)
        return tally

    def last_round(self, name: str) -> int:
        """What `name` scored in the last round played (0 before any)."""
        return self.per_round[name][self.last - 1] if self.last else 0

    def deciders(self, seed: int) -> dict[str, Callable[[str], int]]:
        """Each tie-break (`TIE_BREAKS`) as a key: lower decides for the player."""
        return {
            "wins": lambda name: -self.wins[name],
            "best_round": lambda name: -max(self.per_round[name][: self.last], default=0),
            "fewest_losses": lambda name: self.losses[name],
            "last_round": lambda name: -self.last_round(name),
            "draw": lambda name: drawn_order(seed, name),
        }

    def add(self, table: TableScore, rounds: int) -> None:
        if not 1 <= table.round <= rounds:
            raise ValueError(f"hand in round {table.round}, but the rounds are 1..{rounds}")
        self.last = max(self.last, table.round)
        for name, points in table.points.items():
            if name != POT:
                _of_the_field(self.per_round, name)[table.round - 1] += points
        for name, won in table.wins.items():
            self.wins[name] = _of_the_field(self.wins, name) + won
        for name, lost in table.losses.items():
            self.losses[name] = _of_the_field(self.losses, name) + lost


def _of_the_field(counts: Mapping[str, T], name: str) -> T:
    if name not in counts:
        raise ValueError(f"{name!r} is not a player of this tournament")
    return counts[name]


def drawn_order(seed: int, name: str) -> int:
    """A player's place in the order drawn from the tournament's `seed`: the same on every
    server and at every reading, different for every name."""
    digest = hashlib.sha256(f"{seed}\x00{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
