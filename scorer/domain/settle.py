"""Settle-up (RULES.md §4): share the pot remainder, then the fewest transfers that settle.

Balances are integer cents from each player's point of view: positive means the player is
owed money (a creditor), negative means the player owes money (a debtor). A `Transfer` moves
`cents` from `payer` (a debtor) to `payee` (a creditor).

The minimum number of transfers that settles `n` non-zero balances is `n − g`, where `g` is
the largest number of disjoint zero-sum groups the players can be partitioned into: the
transfers of any settlement form a forest whose trees are zero-sum groups, and a tree on
`k` players has `k − 1` edges. `settle` finds `g` exactly for up to `EXACT_LIMIT` non-zero
players with a dynamic programme over subsets, then settles each group on its own with
`size − 1` transfers; beyond that it settles everyone greedily, largest debtor to largest
creditor. Everything is ordered by name, so equal inputs give equal outputs whatever the
order of the dict.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from scorer.domain.validation import is_whole

EXACT_LIMIT = 12
"""Up to this many non-zero balances the number of transfers is exactly minimal."""


@dataclass(frozen=True)
class Transfer:
    """`payer` pays `payee` `cents` (always > 0)."""

    payer: str
    payee: str
    cents: int


def _check_cents(name: str, cents: object) -> int:
    if not is_whole(cents):
        raise TypeError(f"balance of {name!r} must be integer cents, got {cents!r}")
    return cents


def share_pot(balances: dict[str, int], pot_cents: int, seat_order: list[str]) -> dict[str, int]:
    """Return new balances with `pot_cents` split equally among the players in `seat_order`.

    Cents that do not divide go one each in seat order, first seat first. Players in
    `balances` but not in `seat_order` keep their balance; a seated player missing from
    `balances` starts at 0. The input dict is not changed.
    """
    pot_cents = _check_cents("pot", pot_cents)
    if pot_cents < 0:
        raise ValueError("the pot cannot hold a negative amount")
    if len(set(seat_order)) != len(seat_order):
        raise ValueError("seat_order names a player twice")
    result = {name: _check_cents(name, cents) for name, cents in balances.items()}
    if pot_cents == 0:
        return result
    if not seat_order:
        raise ValueError("nobody to share the pot with")
    share, remainder = divmod(pot_cents, len(seat_order))
    for seat, name in enumerate(seat_order):
        result[name] = result.get(name, 0) + share + (1 if seat < remainder else 0)
    return result


def settle(balances: dict[str, int]) -> list[Transfer]:
    """The fewest transfers that settle `balances` exactly, sorted by payer, then payee.

    Balances must sum to 0 (`ValueError` otherwise); zero balances are ignored. Exactly
    minimal for up to `EXACT_LIMIT` non-zero players, greedy beyond.
    """
    checked = {name: _check_cents(name, cents) for name, cents in balances.items()}
    total = sum(checked.values())
    if total != 0:
        raise ValueError(f"balances must sum to 0, they sum to {total}")
    players = sorted((name, cents) for name, cents in checked.items() if cents != 0)
    exact = len(players) <= EXACT_LIMIT
    groups = _zero_sum_groups(players) if exact else [players]
    transfers = [t for group in groups for t in _greedy(group)]
    transfers.sort(key=lambda t: (t.payer, t.payee, t.cents))
    return transfers


def _zero_sum_groups(players: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Partition `players` (sorted, non-zero, summing to 0) into the most zero-sum groups.

    `best[mask]` is the largest number of non-empty zero-sum "prefixes" along some ordering
    of the players in `mask`: removing players one at a time from `mask`, count the masks
    on the way whose sum is 0. For a zero-sum `mask` that count equals the largest number of
    zero-sum groups partitioning it (the differences between consecutive zero-sum prefixes
    are the groups). O(n · 2^n).
    """
    n = len(players)
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        rest = mask ^ low
        sums[mask] = sums[rest] + players[low.bit_length() - 1][1]
        top = 0
        bits = mask
        while bits:
            bit = bits & -bits
            bits ^= bit
            value = best[mask ^ bit]
            if value > top:
                top = value
        best[mask] = top + (1 if sums[mask] == 0 else 0)

    groups: list[list[tuple[str, int]]] = []
    current: list[tuple[str, int]] = []
    mask = full
    while mask:
        want = best[mask] - (1 if sums[mask] == 0 else 0)
        bits = mask
        while True:  # the lowest-index player whose removal keeps the optimum
            bit = bits & -bits
            bits ^= bit
            if best[mask ^ bit] == want:
                break
        mask ^= bit
        current.append(players[bit.bit_length() - 1])
        if sums[mask] == 0:
            groups.append(sorted(current))
            current = []
    return groups


def _greedy(players: list[tuple[str, int]]) -> list[Transfer]:
    """Settle a zero-sum group: the largest debtor pays the largest creditor, repeatedly.

    Every step zeroes at least one balance, so a group of `k` players needs at most `k − 1`
    transfers; for a group with no zero-sum proper subgroup that is exactly `k − 1`, the
    minimum. Ties go to the name that sorts first.
    """
    debtors = [(cents, name) for name, cents in players if cents < 0]
    creditors = [(-cents, name) for name, cents in players if cents > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    transfers: list[Transfer] = []
    while debtors and creditors:
        debt, payer = heapq.heappop(debtors)
        credit, payee = heapq.heappop(creditors)
        cents = min(-debt, -credit)
        transfers.append(Transfer(payer, payee, cents))
        if debt + cents < 0:
            heapq.heappush(debtors, (debt + cents, payer))
        if credit + cents < 0:
            heapq.heappush(creditors, (credit + cents, payee))
    if debtors or creditors:  # pragma: no cover - impossible for a zero-sum group
        raise AssertionError("group does not sum to 0")
    return transfers
