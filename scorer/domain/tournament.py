"""Tournaments (RULES.md §5): the seat draw, the points of a hand, and the standings.

A tournament plays one game and payment system in **points**. Everything here is plain
Python on names and numbers; the web layer stores rounds, tables and hands and calls in.

The draw
    `table_sizes(n)` splits `n ≥ 3` players into tables of four and three, as many fours as
    possible. Every `n` except 5 splits that way. **[decision]** Five players cannot: they play
    one table of four and one player has a **bye** (sits out the round and scores 0 for it).
    `draw` gives the bye to a player who has had the fewest byes so far, so over five rounds
    each of the five sits out once. `bye_count(n)` says how many sit out (1 for n = 5, else 0)
    and `sitting_out(players, tables)` who they are.

    `draw` seats everyone else exactly once, reproducibly from `seed` (its own
    `random.Random`, never the global one), and avoids repeat table-mates where it can: it
    minimises the sum, over every pair seated together, of how often that pair has already
    shared a table (so a pair meeting a third time costs more than one meeting a second time).
    It runs a few randomised greedy placements, each polished by swapping players between
    tables while a swap lowers the cost, and keeps the best. Within a table the order of the
    names is the seating and dealing order.

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
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorer.domain.message import msg
from scorer.domain.model import POT
from scorer.domain.scoring import Rules

TABLE_SIZES = (4, 3)
"""A tournament table seats four or three players (the dealer sits out at a table of four)."""

UNIT_PARAMS = ("unit_cents", "point_cents")
"""Parameters that give the value of one unit in cents: in a tournament a unit is a point."""


# --- the draw -------------------------------------------------------------------------------


def table_sizes(n: int) -> list[int]:
    """The sizes of the tables for `n` players: as many fours as possible, the rest threes.

    Five players are the one count that does not split into fours and threes: they play one
    table of four and one has a bye (see `bye_count`). Fewer than three players cannot play.
    """
    if n < 3:
        raise ValueError(f"a tournament needs at least 3 players, not {n}")
    if n == 5:
        return [4]
    threes = (-n) % 4  # n = 4·fours + 3·threes with the fewest threes
    return [4] * ((n - 3 * threes) // 4) + [3] * threes


def bye_count(n: int) -> int:
    """How many of `n` players sit out a round: 1 for five players, 0 for any other count."""
    return n - sum(table_sizes(n))


def sitting_out(players: Sequence[str], tables: Sequence[Sequence[str]]) -> list[str]:
    """The players of the tournament who have no seat at `tables` (their bye), in list order."""
    seated = {name for table in tables for name in table}
    return [name for name in players if name not in seated]


def draw(
    players: Sequence[str],
    previous_rounds: Sequence[Sequence[Sequence[str]]],
    seed: int,
) -> list[list[str]]:
    """Seat `players` at tables of `table_sizes(len(players))` for the next round.

    Every player is seated exactly once, except the bye of a five-player tournament (who is
    the one name missing from the result; see `sitting_out`). The same players, previous
    rounds and seed always give the same tables. Pairs who already shared a table in
    `previous_rounds` (a list of rounds, each a list of tables, each a list of names) are kept
    apart as far as possible; names in previous rounds that are no longer playing are ignored.
    Tables are listed fours first; the order within a table is the seating order.
    """
    names = list(players)
    if len(set(names)) != len(names):
        raise ValueError("a player is named twice")
    sizes = table_sizes(len(names))
    rng = random.Random(seed)
    index = {name: i for i, name in enumerate(names)}
    met = _meetings(index, previous_rounds)

    seated = list(range(len(names)))
    for _ in range(bye_count(len(names))):
        byes = _byes(names, previous_rounds)
        fewest = min(byes[names[i]] for i in seated)
        candidates = [i for i in seated if byes[names[i]] == fewest]
        seated.remove(rng.choice(candidates))

    best: list[list[int]] | None = None
    best_cost = math.inf
    for _ in range(_restarts(len(seated))):
        tables = _greedy(seated, sizes, met, rng)
        cost = _improve(tables, met, rng)
        if cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    assert best is not None
    for table in best:
        rng.shuffle(table)
    return [[names[i] for i in table] for table in best]


def swap(tables: Sequence[Sequence[str]], a: str, b: str) -> list[list[str]]:
    """New tables with `a` and `b` in each other's seat (at different tables or the same one).

    Both must be seated; the input is not changed.
    """
    result = [list(table) for table in tables]
    seats = {name: (t, s) for t, table in enumerate(result) for s, name in enumerate(table)}
    for name in (a, b):
        if name not in seats:
            raise ValueError(msg("'%(name)s' has no seat at these tables", name=name))
    (ta, sa), (tb, sb) = seats[a], seats[b]
    result[ta][sa], result[tb][sb] = b, a
    return result


def _meetings(
    index: Mapping[str, int], previous_rounds: Sequence[Sequence[Sequence[str]]]
) -> list[list[int]]:
    """met[i][j]: how many previous rounds players i and j shared a table in."""
    n = len(index)
    met = [[0] * n for _ in range(n)]
    for round_tables in previous_rounds:
        for table in round_tables:
            seats = [index[name] for name in table if name in index]
            for k, i in enumerate(seats):
                for j in seats[k + 1 :]:
                    met[i][j] += 1
                    met[j][i] += 1
    return met


def _byes(
    names: Sequence[str], previous_rounds: Sequence[Sequence[Sequence[str]]]
) -> dict[str, int]:
    counts = dict.fromkeys(names, 0)
    for round_tables in previous_rounds:
        seated = {name for table in round_tables for name in table}
        for name in names:
            if name not in seated:
                counts[name] += 1
    return counts


def _restarts(n: int) -> int:
    """Small fields get many cheap restarts; large ones, where a clash-free draw is easy to
    find, a few (the search stops at the first draw without repeat meetings anyway)."""
    return max(3, min(40, 2400 // n))


def _greedy(
    seated: Sequence[int], sizes: Sequence[int], met: list[list[int]], rng: random.Random
) -> list[list[int]]:
    """Place the players one by one, most-met first, each at a table with room where they
    have met the fewest; ties go to a random such table."""
    order = list(seated)
    rng.shuffle(order)
    order.sort(key=lambda i: -sum(met[i]))  # stable: equal players stay shuffled
    tables: list[list[int]] = [[] for _ in sizes]
    for player in order:
        row = met[player]
        best_cost, choices = math.inf, []
        for t, table in enumerate(tables):
            if len(table) == sizes[t]:
                continue
            cost = sum(row[q] for q in table)
            if cost < best_cost:
                best_cost, choices = cost, [t]
            elif cost == best_cost:
                choices.append(t)
        tables[rng.choice(choices)].append(player)
    return tables


def _improve(tables: list[list[int]], met: list[list[int]], rng: random.Random) -> int:
    """Swap players between tables while a swap lowers the cost; return the final cost.

    Only a player who has met someone at their table can gain from a swap, so each pass
    looks at those players only, trying every player at every other table.
    """
    where = {p: t for t, table in enumerate(tables) for p in table}

    def clash(p: int, table: list[int], without: int = -1) -> int:
        row = met[p]
        return sum(row[q] for q in table if q != p and q != without)

    improved = True
    while improved:
        improved = False
        clashing = [p for p in where if clash(p, tables[where[p]])]
        rng.shuffle(clashing)
        for a in clashing:
            ta = where[a]
            here = clash(a, tables[ta])
            if here == 0:
                continue  # an earlier swap in this pass fixed it
            best_delta, best_b = 0, -1
            for tb, table in enumerate(tables):
                if tb == ta:
                    continue
                for b in table:
                    before = here + clash(b, table)
                    after = clash(a, table, without=b) + clash(b, tables[ta], without=a)
                    if after - before < best_delta:
                        best_delta, best_b = after - before, b
            if best_b >= 0:
                tb = where[best_b]
                tables[ta][tables[ta].index(a)] = best_b
                tables[tb][tables[tb].index(best_b)] = a
                where[a], where[best_b] = tb, ta
                improved = True
    return sum(clash(p, table) for table in tables for p in table) // 2


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
    if table_size not in TABLE_SIZES:
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
    director's points (in `total`)."""

    place: int
    player: str
    total: int
    wins_as_declarer: int
    per_round: list[int]
    last_round: int
    adjustment: int = 0
    losses_as_declarer: int = 0


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
    adjustments: Mapping[str, int] | None = None,
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    seed: int = 0,
) -> list[Standing]:
    """Rank `players` on the `hands` of a tournament of `rounds` rounds (numbered from 1):
    `ranked` on the hands added up per table."""
    return ranked(players, table_scores(hands), rounds, adjustments, tie_breaks, seed)


def ranked(
    players: Sequence[str],
    tables: Iterable[TableScore],
    rounds: int,
    adjustments: Mapping[str, int] | None = None,
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    seed: int = 0,
) -> list[Standing]:
    """Rank `players` on the `tables` of a tournament of `rounds` rounds (numbered from 1),
    with the director's `adjustments` (points per player) in the totals.

    Highest total first; equal totals are decided by `tie_breaks` in order (`TIE_BREAKS`;
    `draw` by the order drawn from `seed`); players still equal share the place (1, 2, 2,
    4) and are listed by name. Every player is listed, with 0 if they have no hand yet.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is named twice")
    per_round = {name: [0] * rounds for name in players}
    wins = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    adjusted = {name: 0 for name in players}
    for name, points in (adjustments or {}).items():
        if name not in adjusted:
            raise ValueError(f"{name!r} is not a player of this tournament")
        adjusted[name] += points
    last_played = 0
    for table in tables:
        if not table.hands:
            continue
        if not 1 <= table.round <= rounds:
            raise ValueError(f"hand in round {table.round}, but the rounds are 1..{rounds}")
        last_played = max(last_played, table.round)
        for name, points in table.points.items():
            if name == POT:
                continue
            if name not in per_round:
                raise ValueError(f"{name!r} is not a player of this tournament")
            per_round[name][table.round - 1] += points
        for name, won in table.wins.items():
            if name not in wins:
                raise ValueError(f"{name!r} is not a player of this tournament")
            wins[name] += won
        for name, lost in table.losses.items():
            if name not in losses:
                raise ValueError(f"{name!r} is not a player of this tournament")
            losses[name] += lost

    def last(name: str) -> int:
        return per_round[name][last_played - 1] if last_played else 0

    def total(name: str) -> int:
        return sum(per_round[name]) + adjusted[name]

    deciders: dict[str, Callable[[str], int]] = {
        "wins": lambda name: -wins[name],
        "best_round": lambda name: -max(per_round[name][:last_played], default=0),
        "fewest_losses": lambda name: losses[name],
        "last_round": lambda name: -last(name),
        "draw": lambda name: drawn_order(seed, name),
    }
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
            )
        )
    return result


def drawn_order(seed: int, name: str) -> int:
    """A player's place in the order drawn from the tournament's `seed`: the same on every
    server and at every reading, different for every name."""
    digest = hashlib.sha256(f"{seed}\x00{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
