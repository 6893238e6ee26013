"""Shared places in final standings, and what tied players share: the one rule prizes
(`scorer.domain.prizes`) and cup points (`scorer.domain.cup`) both follow. Players tied on
a place occupy the places after it too (1, 2, 2, 4: the two on place 2 occupy 2 and 3);
what those places give is split equally, and the units that do not divide go one each to
the tied players first in a stated order (the tournament's drawn order), never by name."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def tied(places: Sequence[tuple[int, str]]) -> list[tuple[int, list[str]]]:
    """The standings as (place, players sharing it), checked: 1, 2, 2, 4, nobody twice."""
    if len({player for _, player in places}) != len(places):
        raise ValueError("a player is listed twice in the standings")
    groups: list[tuple[int, list[str]]] = []
    for position, (place, player) in enumerate(places, start=1):
        if groups and groups[-1][0] == place:
            groups[-1][1].append(player)
        elif place == position:
            groups.append((place, [player]))
        else:
            raise ValueError(f"place {place} listed {position}.: places go 1, 2, 2, 4")
    return groups


def in_order(players: Sequence[str], order: Callable[[str], int]) -> list[str]:
    """The tied `players` in `order` (smallest first; a name only breaks an equal key)."""
    return sorted(players, key=lambda name: (order(name), name))


def shared(total: int, players: Sequence[str], order: Callable[[str], int]) -> dict[str, int]:
    """`total` shared equally among `players`, the odd units one each in `order`."""
    share, odd = divmod(total, len(players))
    lucky = set(in_order(players, order)[:odd])
    return {name: share + int(name in lucky) for name in players}
