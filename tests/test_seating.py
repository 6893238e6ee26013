"""Seating a tournament round (RULES.md §5): `seat` in random and standings mode, club-mates
kept apart, fixed tables, and what is refused."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.domain.message import Msg
from scorer.domain.seating import Seating, bye_count, draw, seat, sitting_out, table_sizes

# --- helpers, written independently of the module ------------------------------------------


def ranks(n: int) -> list[str]:
    """Players named by their rank: P1 leads, then P2, …"""
    return [f"P{i}" for i in range(1, n + 1)]


def cut(order: list[str], sizes: list[int]) -> list[list[str]]:
    """`order` cut into consecutive tables of `sizes`."""
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def club_pairs(tables, clubs) -> list[tuple[str, str]]:
    """Every pair of club-mates sharing a table, in table and seat order."""
    return [
        (a, b)
        for table in tables
        for a, b in combinations(table, 2)
        if clubs.get(a) and clubs.get(a) == clubs.get(b)
    ]


def table_of(seating: Seating, name: str) -> int:
    """The table number (from 1) `name` sits at."""
    return next(t for t, table in enumerate(seating.tables, start=1) if name in table)


def refusal(excinfo) -> str:
    """The id of the message a refusal carries (messages are data, not text)."""
    (message,) = excinfo.value.args
    assert isinstance(message, Msg)
    return message.id


# --- random mode ----------------------------------------------------------------------------


def test_random_mode_is_the_draw():
    players = ranks(11)
    previous = [draw(players, [], 3), draw(players, [], 4)]
    for seed in range(10):
        seating = seat(players, previous, seed)
        assert seating.tables == draw(players, previous, seed)
        assert seating.byes == [] and seating.together == []
    five = seat(ranks(5), [], 2)
    assert five.byes == sitting_out(ranks(5), five.tables) and len(five.byes) == 1


@pytest.mark.parametrize("seed", range(12))
def test_random_mode_keeps_three_clubs_of_three_apart(seed):
    players = ranks(12)
    clubs = {p: club for p, club in zip(players, ["Graz", "Linz", "Wels"] * 3, strict=False)}
    previous = [draw(players, [], seed + 100)]
    seating = seat(players, previous, seed, clubs=clubs)
    assert seating.together == []
    assert club_pairs(seating.tables, clubs) == []
    assert sorted(p for table in seating.tables for p in table) == sorted(players)


def test_a_club_clash_costs_more_than_any_repeat_meetings():
    # A and B each met C, D, E and F twice (at tables with players who have left since),
    # never each other, and C to F never met: the draw seats A and B together (4 repeat
    # meetings, not 8). As club-mates they are parted, at the cost of the meetings.
    players = ["A", "B", "C", "D", "E", "F"]
    pairs = [("C", "D"), ("D", "C"), ("E", "F"), ("F", "E")] * 2
    previous = [[["A", a, "Gone"], ["B", b, "Left"]] for a, b in pairs]
    for seed in range(8):
        assert any({"A", "B"} <= set(table) for table in draw(players, previous, seed))
        seating = seat(players, previous, seed, clubs={"A": "Ried", "B": "Ried"})
        assert seating.together == []
        assert table_of(seating, "A") != table_of(seating, "B")


def test_six_of_one_club_among_eight_cannot_be_kept_apart():
    players = ranks(8)
    clubs = dict.fromkeys(players[:6], "Steyr")  # P7 and P8 are free
    for seed in range(8):
        seating = seat(players, [], seed, clubs=clubs)
        # the fewest possible: three of the club at each table, 3 + 3 pairs
        assert len(seating.together) == 6
        assert seating.together == club_pairs(seating.tables, clubs)
        assert [sum(p in clubs for p in table) for table in seating.tables] == [3, 3]
    standing = seat(players, [], 0, mode="standings", ranking=players, clubs=clubs)
    assert standing.tables == [["P1", "P2", "P3", "P7"], ["P4", "P5", "P6", "P8"]]
    assert standing.together == [
        ("P1", "P2"),
        ("P1", "P3"),
        ("P2", "P3"),
        ("P4", "P5"),
        ("P4", "P6"),
        ("P5", "P6"),
    ]


# --- standings mode -------------------------------------------------------------------------


def test_standings_seat_the_ranking_in_order_where_the_draw_would_not():
    players = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fini", "Gust", "Hans"]
    ranking = ["Hans", "Carl", "Fini", "Anna", "Emil", "Bert", "Gust", "Dora"]
    previous = [[["Hans", "Carl", "Fini", "Anna"], ["Emil", "Bert", "Gust", "Dora"]]]
    seating = seat(players, previous, 7, mode="standings", ranking=ranking)
    # a Setzrunde seats by rank, though the four at the top shared a table last round
    assert seating.tables == [["Hans", "Carl", "Fini", "Anna"], ["Emil", "Bert", "Gust", "Dora"]]
    assert seating.byes == [] and seating.together == []
    assert draw(players, previous, 7) != seating.tables


def test_standings_with_thirteen_players_fill_a_four_then_the_threes():
    players = ranks(13)
    ranking = list(reversed(players))  # P13 leads
    seating = seat(sorted(players), [], 1, mode="standings", ranking=ranking)
    assert [len(t) for t in seating.tables] == [4, 3, 3, 3]
    assert seating.tables == [
        ["P13", "P12", "P11", "P10"],
        ["P9", "P8", "P7"],
        ["P6", "P5", "P4"],
        ["P3", "P2", "P1"],
    ]


def test_standings_of_five_give_the_bye_as_the_draw_does():
    players = ["Anna", "Bert", "Carl", "Dora", "Emil"]
    ranking = ["Emil", "Carl", "Anna", "Dora", "Bert"]
    # Rounds 1–4: everyone but Carl sat out once, so Carl has the bye.
    previous = [[[p for p in players if p != out]] for out in ("Anna", "Bert", "Dora", "Emil")]
    seating = seat(players, previous, 3, mode="standings", ranking=ranking)
    assert seating.byes == ["Carl"]
    assert seating.tables == [["Emil", "Anna", "Dora", "Bert"]]
    # With several at the fewest byes the seed chooses, as it does in the draw.
    for seed in range(12):
        chosen = seat(players, previous[:2], seed, mode="standings", ranking=ranking).byes
        assert chosen == sitting_out(players, draw(players, previous[:2], seed))
        assert chosen[0] in ("Carl", "Dora", "Emil")


def test_standings_part_club_mates_by_the_nearest_swap_that_makes_no_new_clash():
    players = ranks(12)
    clubs = {"P3": "A", "P4": "A", "P10": "A", "P1": "B", "P6": "B", "P11": "B"}
    clubs |= {"P2": "C", "P5": "C", "P12": "C"}
    seating = seat(players, [], 0, mode="standings", ranking=players, clubs=clubs)
    # P4 (the lower-ranked of P3 and P4) moves: P5 would meet P2 of his club at table 1
    # and P6 would meet P1, so P7 takes his seat.
    assert seating.tables == [
        ["P1", "P2", "P3", "P7"],
        ["P4", "P5", "P6", "P8"],
        ["P9", "P10", "P11", "P12"],
    ]
    assert seating.together == []


def test_standings_look_past_the_neighbouring_table_when_it_cannot_take_a_club_mate():
    players = ranks(12)
    clubs = dict.fromkeys(["P1", "P2", "P3"], "Enns")
    seating = seat(players, [], 0, mode="standings", ranking=players, clubs=clubs)
    # P3 swaps with P5; P2 cannot go to table 2 (P3 is there now) and swaps with P9.
    assert seating.tables == [
        ["P1", "P4", "P5", "P9"],
        ["P3", "P6", "P7", "P8"],
        ["P2", "P10", "P11", "P12"],
    ]
    assert seating.together == []


def test_standings_prefer_a_swap_without_a_new_clash_to_a_nearer_one():
    players = ranks(12)
    clubs = dict.fromkeys(["P1", "P2", "P3", "P5"], "Amstetten")
    seating = seat(players, [], 0, mode="standings", ranking=players, clubs=clubs)
    # P3 could swap with P6 (nearer) and meet P5 at table 2; he swaps with P9 instead. Four
    # club-mates at three tables: one pair must stay together, and only one does.
    assert seating.tables == [
        ["P1", "P2", "P4", "P9"],
        ["P5", "P6", "P7", "P8"],
        ["P3", "P10", "P11", "P12"],
    ]
    assert seating.together == [("P1", "P2")]


# --- fixed tables ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(10))
def test_a_fixed_player_keeps_his_table_in_random_mode(seed):
    players = ranks(12)
    previous = [[["P7", "P1", "P2", "P3"], ["P4", "P5", "P6", "P8"], ["P9", "P10", "P11", "P12"]]]
    seating = seat(players, previous, seed, fixed={"P7": 3})
    assert "P7" in seating.tables[2]
    assert sorted(p for table in seating.tables for p in table) == sorted(players)
    assert [len(t) for t in seating.tables] == [4, 4, 4]


def test_a_fixed_player_keeps_his_table_in_standings_mode():
    players = ranks(12)
    seating = seat(players, [], 0, mode="standings", ranking=players, fixed={"P1": 3})
    # P1 swaps with the player at table 3 nearest him in rank, P9.
    assert seating.tables == [
        ["P2", "P3", "P4", "P9"],
        ["P5", "P6", "P7", "P8"],
        ["P1", "P10", "P11", "P12"],
    ]


def test_a_fixed_player_never_has_the_bye():
    players = ["Anna", "Bert", "Carl", "Dora", "Emil"]
    previous = [[[p for p in players if p != out]] for out in ("Anna", "Bert", "Dora", "Emil")]
    for mode in ("random", "standings"):
        seating = seat(players, previous, 1, mode=mode, ranking=players, fixed={"Carl": 1})
        assert "Carl" in seating.tables[0]
        assert len(seating.byes) == 1 and seating.byes != ["Carl"]


@pytest.mark.parametrize("seed", range(6))
def test_fixed_tables_win_over_keeping_club_mates_apart(seed):
    players = ranks(12)
    clubs = {"P1": "Ybbs", "P2": "Ybbs"}
    both = seat(players, [], seed, clubs=clubs, fixed={"P1": 1, "P2": 1})
    assert table_of(both, "P1") == table_of(both, "P2") == 1
    table = both.tables[0]
    assert both.together == [
        ("P1", "P2") if table.index("P1") < table.index("P2") else ("P2", "P1")
    ]
    one = seat(players, [], seed, clubs=clubs, fixed={"P2": 1})
    assert table_of(one, "P2") == 1 and table_of(one, "P1") != 1 and one.together == []


def test_in_standings_a_fixed_player_stays_and_his_club_mate_moves():
    players = ranks(12)
    clubs = {"P1": "Melk", "P10": "Melk"}
    seating = seat(players, [], 0, mode="standings", ranking=players, clubs=clubs, fixed={"P1": 3})
    # P1 swaps with P9 to reach table 3, where P10 is; P10 moves, to the nearest in rank.
    assert seating.tables == [
        ["P2", "P3", "P4", "P10"],
        ["P5", "P6", "P7", "P8"],
        ["P1", "P9", "P11", "P12"],
    ]
    assert seating.together == []


# --- refusals -------------------------------------------------------------------------------


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError) as excinfo:
        seat(ranks(8), [], 1, mode="swiss")
    assert refusal(excinfo) == "seating must be random or standings"


@pytest.mark.parametrize(
    "ranking",
    [None, [], ranks(7), [*ranks(7), "P7"], [*ranks(7), "Stranger"], [*ranks(8), "P9"]],
)
def test_standings_need_a_ranking_of_exactly_the_players(ranking):
    with pytest.raises(ValueError) as excinfo:
        seat(ranks(8), [], 1, mode="standings", ranking=ranking)
    assert refusal(excinfo) == "seating by the standings needs every player ranked once"


@pytest.mark.parametrize(
    ("players", "fixed", "refused"),
    [
        (ranks(8), {"P1": 3}, "there is no table %(number)s in this round"),
        (ranks(8), {"P1": 0}, "there is no table %(number)s in this round"),
        (ranks(5), {"P1": 2}, "there is no table %(number)s in this round"),
        (ranks(6), {"P1": 1, "P2": 1, "P3": 1, "P4": 1}, "table %(number)s seats only %(size)s"),
        (ranks(5), dict.fromkeys(ranks(5), 1), "table %(number)s seats only %(size)s"),
        (ranks(8), {"Gone": 1}, "%(name)s has a fixed table but is not playing"),
    ],
)
def test_impossible_fixed_tables_are_refused(players, fixed, refused):
    for mode in ("random", "standings"):
        with pytest.raises(ValueError) as excinfo:
            seat(players, [], 1, mode=mode, ranking=players, fixed=fixed)
        assert refusal(excinfo) == refused


def test_a_player_named_twice_is_refused():
    with pytest.raises(ValueError) as excinfo:
        seat(["A", "B", "C", "A"], [], 1)
    assert refusal(excinfo) == "a player is named twice"


# --- determinism ----------------------------------------------------------------------------


def test_the_same_arguments_give_the_same_seating_and_leave_global_random_alone():
    players = ranks(17)
    clubs = {p: ("Hall", "Imst", "")[i % 3] for i, p in enumerate(players)}
    fixed = {"P5": 2, "P16": 4}
    previous = [draw(players, [], 9)]
    random.seed(42)
    state = random.getstate()
    for mode in ("random", "standings"):
        first = seat(players, previous, 5, mode=mode, ranking=players, clubs=clubs, fixed=fixed)
        assert random.getstate() == state
        again = seat(
            players,
            previous,
            5,
            mode=mode,
            ranking=players,
            clubs=dict(reversed(clubs.items())),
            fixed=dict(reversed(fixed.items())),
        )
        assert again == first
    others = [seat(players, previous, s, clubs=clubs).tables for s in range(6, 10)]
    assert any(other != seat(players, previous, 5, clubs=clubs).tables for other in others)


# --- properties -----------------------------------------------------------------------------


@st.composite
def rounds_to_seat(draw_from):
    """Players, previous rounds, a mode, a ranking, clubs and fixed tables that fit."""
    n = draw_from(st.integers(3, 30))
    players = ranks(n)
    sizes = table_sizes(n)
    ranking = draw_from(st.permutations(players))
    clubs_drawn = draw_from(st.lists(st.sampled_from(["", "A", "B", "C"]), min_size=n, max_size=n))
    clubs = dict(zip(players, clubs_drawn, strict=True))  # "" is no club
    wanted = draw_from(st.lists(st.integers(0, len(sizes)), min_size=n, max_size=n))
    fixed: dict[str, int] = {}
    for p, number in zip(players, wanted, strict=True):
        if number and sum(t == number for t in fixed.values()) < sizes[number - 1]:
            fixed[p] = number
    previous = [draw(players, [], s) for s in draw_from(st.lists(st.integers(0, 99), max_size=3))]
    mode = draw_from(st.sampled_from(["random", "standings"]))
    return players, previous, mode, ranking, clubs, fixed


@settings(max_examples=80, deadline=None)
@given(case=rounds_to_seat(), seed=st.integers(0, 2**32))
def test_property_everyone_seated_once_at_tables_of_the_sizes_fixed_honoured(case, seed):
    players, previous, mode, ranking, clubs, fixed = case
    seating = seat(players, previous, seed, mode=mode, ranking=ranking, clubs=clubs, fixed=fixed)
    seated = [p for table in seating.tables for p in table]
    assert sorted(seated + seating.byes) == sorted(players)
    assert len(seating.byes) == bye_count(len(players))
    assert [len(t) for t in seating.tables] == table_sizes(len(players))
    assert seating.byes == sitting_out(players, seating.tables)
    for name, number in fixed.items():
        assert name in seating.tables[number - 1]
    assert seating.together == club_pairs(seating.tables, clubs)
    if mode == "standings" and not clubs and not fixed:
        order = [p for p in ranking if p not in seating.byes]
        assert seating.tables == cut(order, table_sizes(len(players)))
    assert seat(players, previous, seed, mode=mode, ranking=ranking, clubs=clubs, fixed=fixed) == (
        seating
    )
