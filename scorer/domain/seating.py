"""Seating a tournament round (RULES.md §5): the tables and the draw.

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
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from scorer.domain.message import msg

TABLE_SIZES = (4, 3)
"""A tournament table seats four or three players (the dealer sits out at a table of four)."""


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
