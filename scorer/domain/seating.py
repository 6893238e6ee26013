"""Seating a tournament round (RULES.md §5): the tables, the draw, and the seating modes.

Everything here is plain Python on names and numbers; `scorer.domain.tournament` scores the
hands and ranks the players, and the web layer stores the rounds and calls in.

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

The seating modes
    `seat` answers a `Seating` (tables, byes, club-mates still together) in one of the
    `SEATING_MODES`. **random** is the draw (`draw` is `seat` with nothing else asked).
    **standings** is a Setzrunde: the players in `ranking` order (leader first) fill the
    tables in order, ranks 1–4 at table 1, 5–8 at table 2, …, the threes last, each table in
    rank order; the bye of five is chosen as in the draw.

    **[decision]** `clubs` (player → club; none or "" is free) keeps club-mates apart. In
    random mode a pair of club-mates at a table costs one more than all repeat meetings could
    together, so the draw parts club-mates wherever it can before it avoids repeat meetings.
    In standings mode the lower-ranked of two club-mates swaps with the nearest-ranked player
    at another table (a neighbouring one whenever that works) for whom the swap parts them
    without a new clash; failing that, with one for whom it lowers the clashes; failing that,
    the higher-ranked one moves. The pairs that remain are `together`.

    **[decision]** A player in `fixed` (player → table number from 1: limited mobility) sits
    at that table in any mode, before club-mates are parted, and never has the bye: in random
    mode he is placed first and the draw seats the others around him; in standings mode he
    swaps with the player at his table nearest him in rank (one fixed nowhere first). A table
    the round lacks, more fixed players than a table seats, or a fixed player not playing is
    refused.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorer.domain.message import msg

TABLE_SIZES = (4, 3)
"""A tournament table seats four or three players (the dealer sits out at a table of four)."""

SEATING_MODES = ("random", "standings")
"""How a round is seated: drawn (avoiding repeat table-mates), or by the standings."""

Rounds = Sequence[Sequence[Sequence[str]]]


@dataclass(frozen=True)
class Seating:
    """A round's seats, as `seat` gives them."""

    tables: list[list[str]]  # fours first, each table in seating (and dealing) order
    byes: list[str]  # who sits out (one of five players), in the players' order
    together: list[tuple[str, str]]  # club-mates at one table though asked apart, each pair once


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


def draw(players: Sequence[str], previous_rounds: Rounds, seed: int) -> list[list[str]]:
    """Seat `players` at tables of `table_sizes(len(players))` for the next round.

    Every player is seated exactly once, except the bye of a five-player tournament (who is
    the one name missing from the result; see `sitting_out`). The same players, previous
    rounds and seed always give the same tables. Pairs who already shared a table in
    `previous_rounds` (a list of rounds, each a list of tables, each a list of names) are kept
    apart as far as possible; names in previous rounds that are no longer playing are ignored.
    Tables are listed fours first; the order within a table is the seating order.
    """
    return seat(players, previous_rounds, seed).tables


def seat(
    players: Sequence[str],
    previous_rounds: Rounds,
    seed: int,
    *,
    mode: str = "random",
    ranking: Sequence[str] | None = None,
    clubs: Mapping[str, str] | None = None,
    fixed: Mapping[str, int] | None = None,
) -> Seating:
    """Seat `players` for the next round in `mode`, with `ranking` (every player once, the
    leader first) for "standings", club-mates apart by `clubs`, players at their `fixed`
    tables (see the module's docstring). The same arguments always give the same seating."""
    names, playing = list(players), set(players)
    if mode not in SEATING_MODES:
        raise ValueError(msg("seating must be random or standings"))
    if len(playing) != len(names):
        raise ValueError(msg("a player is named twice"))
    sizes = table_sizes(len(names))
    if mode == "standings" and sorted(ranking or ()) != sorted(names):
        raise ValueError(msg("seating by the standings needs every player ranked once"))
    pinned = _pinned(names, sizes, fixed or {})
    club_of = {name: club for name, club in (clubs or {}).items() if club and name in playing}
    rng = random.Random(seed)
    seated = _without_byes(names, previous_rounds, pinned, rng=rng)
    if mode == "standings":
        rank = {name: r for r, name in enumerate(ranking or ())}
        seats = [names[i] for i in seated]
        tables = _by_standings(seats, sizes, rank, pinned=pinned, club_of=club_of)
    else:
        tables = _drawn(
            names,
            seated,
            sizes,
            previous_rounds=previous_rounds,
            rng=rng,
            at=pinned,
            club_of=club_of,
        )
    return Seating(tables, sitting_out(names, tables), _together(tables, club_of))


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


def _pinned(names: Sequence[str], sizes: Sequence[int], fixed: Mapping[str, int]) -> dict[str, int]:
    """The fixed players' tables (counted from 0), in the players' order; or ValueError."""
    playing = set(names)
    for name, number in fixed.items():
        if name not in playing:
            raise ValueError(msg("%(name)s has a fixed table but is not playing", name=name))
        if not 1 <= number <= len(sizes):
            raise ValueError(msg("there is no table %(number)s in this round", number=number))
    for number, size in enumerate(sizes, start=1):
        if sum(at == number for at in fixed.values()) > size:
            raise ValueError(msg("table %(number)s seats only %(size)s", number=number, size=size))
    return {name: fixed[name] - 1 for name in names if name in fixed}


def _without_byes(
    names: Sequence[str], previous_rounds: Rounds, pinned: Mapping[str, int], *, rng: random.Random
) -> list[int]:
    """The players seated this round (by index): all but the byes, each bye drawn among the
    players not fixed to a table who have had the fewest byes so far."""
    seated = list(range(len(names)))
    for _ in range(bye_count(len(names))):
        byes = _byes(names, previous_rounds)
        free = [i for i in seated if names[i] not in pinned]
        fewest = min(byes[names[i]] for i in free)
        seated.remove(rng.choice([i for i in free if byes[names[i]] == fewest]))
    return seated


def _byes(names: Sequence[str], previous_rounds: Rounds) -> dict[str, int]:
    seated = [{name for table in round_ for name in table} for round_ in previous_rounds]
    return {name: sum(name not in round_ for round_ in seated) for name in names}


def _together(tables: Sequence[Sequence[str]], club_of: Mapping[str, str]) -> list[tuple[str, str]]:
    """The pairs of club-mates sharing a table, each once, in table order."""
    pairs = (pair for table in tables for pair in itertools.combinations(table, 2))
    return [(a, b) for a, b in pairs if a in club_of and club_of.get(b) == club_of[a]]


# --- the standings ----------------------------------------------------------------------------


def _by_standings(
    playing: Sequence[str],
    sizes: Sequence[int],
    rank: Mapping[str, int],
    *,
    pinned: Mapping[str, int],
    club_of: Mapping[str, str],
) -> list[list[str]]:
    """The players in rank order at the tables in order; then each fixed player, best first,
    swaps with the player at his table nearest him in rank (one fixed nowhere first, one
    fixed there never); then club-mates are parted (`_club_swap`); each table in rank order."""
    ordered = sorted(playing, key=rank.__getitem__)
    tables = [ordered[a:b] for a, b in itertools.pairwise(itertools.accumulate(sizes, initial=0))]
    for name in sorted(pinned, key=rank.__getitem__):
        if name not in tables[pinned[name]]:
            at = [p for p in tables[pinned[name]] if pinned.get(p) != pinned[name]]
            _, _, _, other = min((p in pinned, abs(rank[p] - rank[name]), rank[p], p) for p in at)
            tables = swap(tables, name, other)
    while (pair := _club_swap(tables, rank, pinned, club_of=club_of)) is not None:
        tables = swap(tables, *pair)
    return [sorted(table, key=rank.__getitem__) for table in tables]


def _club_swap(
    tables: Sequence[Sequence[str]],
    rank: Mapping[str, int],
    pinned: Mapping[str, int],
    *,
    club_of: Mapping[str, str],
) -> tuple[str, str] | None:
    """The next swap that parts club-mates: at the first table with a clash that a swap can
    lower, its lowest-ranked clashing player who can move, with the player elsewhere whose
    swap makes no new clash, then the nearest in rank. None when no swap lowers the clashes."""

    def mates(p: str, table: Sequence[str], without: str) -> int:
        club = club_of.get(p)
        return sum(1 for q in table if q not in (p, without) and club and club_of.get(q) == club)

    for ta, table in enumerate(tables):
        clashing = [p for p in table if p not in pinned and mates(p, table, p)]
        for a in sorted(clashing, key=lambda p: -rank[p]):
            options = []
            for tb, other in enumerate(tables):
                for b in other if tb != ta else ():
                    made = mates(a, other, b) + mates(b, table, a)  # the clashes after the swap
                    if b not in pinned and made < mates(a, table, a) + mates(b, other, b):
                        options.append((made > 0, abs(rank[b] - rank[a]), rank[b], b))
            if options:
                return a, min(options)[-1]
    return None


# --- the draw ---------------------------------------------------------------------------------


def _drawn(
    names: Sequence[str],
    seated: Sequence[int],
    sizes: Sequence[int],
    *,
    previous_rounds: Rounds,
    rng: random.Random,
    at: Mapping[str, int],
    club_of: Mapping[str, str],
) -> list[list[str]]:
    """The tables of least cost found (the players in `at` at their tables), each shuffled."""
    index = {name: i for i, name in enumerate(names)}
    met = _meetings(index, previous_rounds)
    _weigh_clubs(met, names, club_of)
    pinned = {index[name]: t for name, t in at.items()}
    best: list[list[int]] | None = None
    best_cost = math.inf
    for _ in range(_restarts(len(seated))):
        tables = _greedy(seated, sizes, met, rng=rng, pinned=pinned)
        cost = _improve(tables, met, rng, pinned=pinned)
        if cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    assert best is not None
    for table in best:
        rng.shuffle(table)
    return [[names[i] for i in table] for table in best]


def _meetings(index: Mapping[str, int], previous_rounds: Rounds) -> list[list[int]]:
    """met[i][j]: how many previous rounds players i and j shared a table in."""
    n = len(index)
    met = [[0] * n for _ in range(n)]
    for round_tables in previous_rounds:
        for table in round_tables:
            for i, j in itertools.combinations([index[p] for p in table if p in index], 2):
                met[i][j] += 1
                met[j][i] += 1
    return met


def _weigh_clubs(met: list[list[int]], names: Sequence[str], club_of: Mapping[str, str]) -> None:
    """Add to each pair of club-mates' cost one more than all meetings together: a draw with
    fewer club-mates together always costs less, whatever its repeat meetings."""
    weight = 1 + sum(map(sum, met)) // 2
    for i, j in itertools.combinations(range(len(names)), 2):
        if names[i] in club_of and club_of.get(names[j]) == club_of[names[i]]:
            met[i][j] += weight
            met[j][i] += weight


def _restarts(n: int) -> int:
    """Small fields get many cheap restarts; large ones, where a clash-free draw is easy to
    find, a few (the search stops at the first draw without repeat meetings anyway)."""
    return max(3, min(40, 2400 // n))


def _greedy(
    seated: Sequence[int],
    sizes: Sequence[int],
    met: list[list[int]],
    *,
    rng: random.Random,
    pinned: Mapping[int, int],
) -> list[list[int]]:
    """Place the `pinned` players at their tables, then the others one by one, most-met
    first, each at a table with room where they have met the fewest; ties go to a random
    such table."""
    order = [i for i in seated if i not in pinned]
    rng.shuffle(order)
    order.sort(key=lambda i: -sum(met[i]))  # stable: equal players stay shuffled
    tables: list[list[int]] = [[] for _ in sizes]
    for player, t in pinned.items():
        tables[t].append(player)
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


def _improve(
    tables: list[list[int]], met: list[list[int]], rng: random.Random, *, pinned: Mapping[int, int]
) -> int:
    """Swap players between tables while a swap lowers the cost; return the final cost.

    Only a player who has met someone at their table can gain from a swap, so each pass
    looks at those players only, trying every player at every other table. A `pinned`
    player never moves.
    """
    where = {p: t for t, table in enumerate(tables) for p in table}

    def clash(p: int, table: list[int], without: int = -1) -> int:
        row = met[p]
        return sum(row[q] for q in table if q != p and q != without)

    improved = True
    while improved:
        improved = False
        clashing = [p for p in where if p not in pinned and clash(p, tables[where[p]])]
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
                    if b in pinned:
                        continue
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
