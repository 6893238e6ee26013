"""A cup: cup points by place with shared places, the series of best N, its tie-breaks, the
final's carry, and the refusals of the JSON readers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.domain.cup import (
    DEFAULT_SERIES_TIE_BREAKS,
    MAX_CUP_PLACES,
    SERIES_TIE_BREAKS,
    CupTable,
    Result,
    SeriesStanding,
    carried_points,
    carry_from_json,
    check_series_tie_breaks,
    cup_points,
    cup_table_from_json,
    cup_table_to_json,
    series_standings,
)
from scorer.domain.model import RuleError
from scorer.domain.tournament import drawn_order

# --- helpers, written independently of the module ------------------------------------------


def ranked_first(*names: str):
    """An order that puts `names` first, in this order (anyone else after)."""
    return lambda name: names.index(name) if name in names else len(names)


def places_of(*groups: tuple[str, ...]) -> list[tuple[int, str]]:
    """Final standings from groups of tied players, best first: places 1, 2, 2, 4 …"""
    places: list[tuple[int, str]] = []
    for group in groups:
        first = len(places) + 1
        places.extend((first, name) for name in group)
    return places


def table(standings: list[SeriesStanding]) -> list[tuple[int, str, int]]:
    return [(line.place, line.player, line.points) for line in standings]


def refused(reader, field: str, value: object) -> list[str]:
    """The English messages `reader` gives for `field` when given `value`."""
    with pytest.raises(RuleError) as caught:
        reader(value)
    assert list(caught.value.fields) == [field], caught.value.fields
    return [str(message) for message in caught.value.fields[field]]


AUSTRIAN = CupTable((100, 90, 81, 76, 72, 68))


# --- the cup points of one tournament -------------------------------------------------------


def test_a_tie_on_place_two_shares_places_two_and_three_the_odd_point_by_order_not_name():
    places = places_of(("Berta",), ("Anton", "Zenzi"), ("Done",))
    got = cup_points(AUSTRIAN, places, order=ranked_first("Zenzi", "Anton"))
    # 90 + 81 = 171 for two: 85 each and the odd point to Zenzi, drawn first, though Anton
    # is listed first and comes first by name
    assert got == {"Berta": 100, "Anton": 85, "Zenzi": 86, "Done": 76}
    other = cup_points(AUSTRIAN, places, order=ranked_first("Anton", "Zenzi"))
    assert other == {"Berta": 100, "Anton": 86, "Zenzi": 85, "Done": 76}


def test_three_tied_share_three_places_and_the_odd_points_go_one_each_in_order():
    places = places_of(("Anna",), ("Cilli", "Bert", "Egon"), ("Fritz",), ("Gustl",))
    got = cup_points(AUSTRIAN, places, order=ranked_first("Egon", "Cilli", "Bert"))
    # 90 + 81 + 76 = 247: 82 each and one over, to Egon
    assert got == {"Anna": 100, "Cilli": 82, "Bert": 82, "Egon": 83, "Fritz": 72, "Gustl": 68}
    assert list(got) == [name for _, name in places]


def test_the_field_rule_gives_the_field_size_to_the_winner_and_one_to_the_last():
    field = CupTable(field_rule=True)
    names = [f"P{i}" for i in range(1, 11)]
    got = cup_points(field, places_of(*((n,) for n in names)), order=ranked_first())
    assert [got[n] for n in names] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert field.for_place(1, 10) == 10 and field.for_place(10, 10) == 1


def test_the_field_rule_with_a_tie_on_the_last_places():
    field = CupTable(field_rule=True)
    top = [(f"P{i}",) for i in range(1, 9)]
    two = cup_points(field, places_of(*top, ("Xaver", "Ida")), order=ranked_first("Xaver"))
    assert (two["Ida"], two["Xaver"]) == (1, 2)  # places 9 and 10: 2 + 1 = 3
    last = places_of(*top[:7], ("Ida", "Xaver", "Jakob"))
    three = cup_points(field, last, order=ranked_first("Jakob"))
    assert (three["Ida"], three["Xaver"], three["Jakob"]) == (2, 2, 2)  # 3 + 2 + 1 = 6
    assert three["P1"] == 10


def test_places_beyond_the_table_get_zero_and_a_tie_across_its_end_shares_what_there_is():
    short = CupTable((10, 5))
    got = cup_points(short, places_of(("A",), ("C", "B"), ("D",)), order=ranked_first("B"))
    assert got == {"A": 10, "C": 2, "B": 3, "D": 0}
    assert CupTable().for_place(1, 3) == 0


def test_standings_that_do_not_go_1_2_2_4_are_refused():
    with pytest.raises(ValueError):
        cup_points(AUSTRIAN, [(1, "A"), (3, "B")], order=ranked_first())
    with pytest.raises(ValueError):
        cup_points(AUSTRIAN, [(1, "A"), (2, "A")], order=ranked_first())
    with pytest.raises(ValueError):
        CupTable((10, 20))
    with pytest.raises(ValueError):
        CupTable((10,), field_rule=True)


# --- the series -----------------------------------------------------------------------------


def test_best_two_of_50_80_50_30_counts_80_and_the_first_50_not_the_most_recent():
    season = {
        "Anna": [(3, "Wels", 4, 50), (1, "Linz", 3, 50), (2, "Graz", 1, 80), (4, "Wien", 6, 30)]
    }
    (line,) = series_standings(season, best_of=2)
    assert line.points == 130
    assert [r.tournament for r in line.results] == ["Linz", "Graz", "Wels", "Wien"]
    assert [r.counted for r in line.results] == [True, True, False, False]
    assert line.results[0] == Result("Linz", 1, 3, 50, True)
    everything = series_standings(season, best_of=None)
    assert everything[0].points == 210 and all(r.counted for r in everything[0].results)


def test_equal_points_more_results_counted_wins_over_the_name_order():
    season = {
        "Anton": [(1, "Linz", 1, 60), (2, "Graz", 2, 40)],
        "Zenzi": [(1, "Linz", 2, 50), (2, "Graz", 3, 30), (3, "Wels", 4, 20)],
    }
    assert table(series_standings(season, best_of=3)) == [(1, "Zenzi", 100), (2, "Anton", 100)]


def test_equal_points_and_results_counted_the_better_best_result_wins():
    season = {
        "Anton": [(1, "Linz", 2, 50), (2, "Graz", 2, 50)],
        "Zenzi": [(1, "Linz", 1, 70), (2, "Graz", 4, 30)],
    }
    assert table(series_standings(season, best_of=None)) == [(1, "Zenzi", 100), (2, "Anton", 100)]


def test_the_tie_breaks_apply_in_the_order_chosen():
    season = {
        "Anton": [(1, "L", 3, 40), (2, "G", 4, 30), (3, "W", 4, 30)],
        "Zenzi": [(1, "L", 1, 70), (2, "G", 4, 30)],
    }
    assert series_standings(season, best_of=None)[0].player == "Anton"  # counted: 3 to 2
    chosen = series_standings(season, best_of=None, tie_breaks=("best", "counted"))
    assert chosen[0].player == "Zenzi"  # best: 70 to 40


def test_more_tournaments_played_decides_only_when_chosen():
    season = {
        "Anton": [(1, "L", 2, 50), (2, "G", 2, 50)],
        "Zenzi": [(1, "L", 2, 50), (2, "G", 2, 50), (3, "W", 9, 10)],
    }
    shared = series_standings(season, best_of=2)
    assert table(shared) == [(1, "Anton", 100), (1, "Zenzi", 100)]  # counted 2 each, best 50
    chosen = series_standings(season, best_of=2, tie_breaks=("results",))
    assert table(chosen) == [(1, "Zenzi", 100), (2, "Anton", 100)]


def test_latest_compares_from_the_latest_tournament_back_a_missed_one_counting_zero():
    missed = {
        "Anton": [(1, "L", 1, 40), (2, "G", 2, 20)],
        "Zenzi": [(1, "L", 2, 30), (2, "G", 2, 20), (3, "W", 5, 10)],
    }
    assert series_standings(missed, best_of=None, tie_breaks=("latest",))[0].player == "Zenzi"
    # equal in the latest two (4 nobody of them played, 3 the same): tournament 2 decides
    back = {
        "Anton": [(2, "G", 1, 30), (3, "W", 2, 20)],
        "Zenzi": [(1, "L", 1, 20), (2, "G", 3, 10), (3, "W", 2, 20)],
        "Cilli": [(4, "S", 1, 5)],
    }
    assert table(series_standings(back, best_of=None, tie_breaks=("latest",)))[:2] == [
        (1, "Anton", 50),
        (2, "Zenzi", 50),
    ]


def test_latest_looks_at_every_result_counted_or_not():
    # best one counts: Anton's 50 at Graz, Zenzi's earlier 50 at Linz (her 50 at Graz not);
    # at Graz both made 50, at Linz Zenzi 50 to Anton's 20
    season = {
        "Anton": [(1, "L", 5, 20), (2, "G", 1, 50)],
        "Zenzi": [(1, "L", 1, 50), (2, "G", 1, 50)],
    }
    standings = series_standings(season, best_of=1, tie_breaks=("latest",))
    assert table(standings) == [(1, "Zenzi", 50), (2, "Anton", 50)]
    assert [r.counted for r in standings[0].results] == [True, False]


def test_players_still_equal_share_the_place_listed_by_name_casefold():
    one = [(1, "L", 1, 50)]
    season = {"Bert": one, "anna": one, "Zenzi": [(1, "L", 3, 30)], "Done": one, "Egon": []}
    got = table(series_standings(season, best_of=None))
    assert got == [
        (1, "anna", 50),
        (1, "Bert", 50),
        (1, "Done", 50),
        (4, "Zenzi", 30),
        (5, "Egon", 0),
    ]


def test_a_season_that_does_not_add_up_is_refused():
    with pytest.raises(ValueError):
        series_standings({"A": [(1, "L", 1, 5), (1, "L", 2, 4)]}, best_of=None)
    with pytest.raises(ValueError):
        series_standings({"A": [(1, "L", 1, 5)], "B": [(1, "G", 2, 4)]}, best_of=None)
    with pytest.raises(ValueError):
        series_standings({"A": [(1, "L", 1, 5)]}, best_of=0)
    with pytest.raises(ValueError):
        series_standings({"A": [(1, "L", 1, 5)]}, best_of=None, tie_breaks=("wins",))


def test_series_tie_breaks_are_checked_like_the_tournaments():
    assert check_series_tie_breaks(["latest", "counted"]) == ("latest", "counted")
    assert set(DEFAULT_SERIES_TIE_BREAKS) <= set(SERIES_TIE_BREAKS)
    for wrong, says in [
        ("best", "must be a list of tie-breaks"),
        (["best", 1], "must be a list of tie-breaks"),
        (["wins"], "unknown tie-break wins"),
        (["best", "best"], "each tie-break may be chosen once"),
    ]:
        with pytest.raises(ValueError) as caught:
            check_series_tie_breaks(wrong)
        assert str(caught.value) == says


# --- the final ------------------------------------------------------------------------------


def line(place: int, player: str) -> SeriesStanding:
    return SeriesStanding(place, player, 0, ())


def test_a_final_carries_points_by_series_place_tied_places_share_the_odd_by_order():
    standings = [
        line(1, "Anna"),
        line(2, "Bert"),
        line(2, "Zenzi"),
        line(4, "Done"),
        line(5, "Egon"),
    ]
    got = carried_points((30, 20, 15, 10), standings, order=ranked_first("Zenzi"))
    assert got == {"Anna": 30, "Bert": 17, "Zenzi": 18, "Done": 10}  # 35 for two; Egon beyond


def test_a_tie_across_the_end_of_the_carry_shares_what_there_is_and_lists_all():
    standings = [line(1, "Anna"), line(2, "Bert"), line(2, "Cilli"), line(4, "Done")]
    assert carried_points((30, 21), standings, order=ranked_first("Cilli")) == {
        "Anna": 30,
        "Bert": 10,
        "Cilli": 11,
    }
    assert carried_points((), standings, order=ranked_first()) == {}


# --- the readers ----------------------------------------------------------------------------


def test_a_cup_table_reads_back_what_it_writes():
    for value in ([100, 90, 90, 0], {"rule": "field"}, [7]):
        assert cup_table_to_json(cup_table_from_json(value)) == value
    assert cup_table_from_json({"rule": "field"}) == CupTable(field_rule=True)
    assert carry_from_json(None) is None
    assert carry_from_json([]) == ()
    assert carry_from_json([50, 60, 0]) == (50, 60, 0)


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ([100, True], "place 2: must be a whole number 0..10000"),
        ([False], "place 1: must be a whole number 0..10000"),
        ([100, -1], "place 2: must be a whole number 0..10000"),
        ([100, 90.0], "place 2: must be a whole number 0..10000"),
        ([10001], "place 1: must be a whole number 0..10000"),
        ([100, 90, 95], "place 3: must be at most 90"),
        ([], "must be a list of 1..200"),
        ([5] * (MAX_CUP_PLACES + 1), "must be a list of 1..200"),
        (42, "must be a list"),
        ("100 90", "must be a list"),
        (None, "must be a list"),
        ({"rule": "fields"}, "must be one of: field"),
        ({"rule": "field", "points": 3}, "must be one of: field"),
    ],
)
def test_a_cup_table_refuses(value, says):
    assert refused(cup_table_from_json, "cup_points", value) == [says]


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ([50, True], "place 2: must be a whole number 0..10000"),
        ([-5], "place 1: must be a whole number 0..10000"),
        ([5] * (MAX_CUP_PLACES + 1), "must be a list of 0..200"),
        ({"1": 50}, "must be a list"),
        (50, "must be a list"),
    ],
)
def test_a_carry_refuses(value, says):
    assert refused(carry_from_json, "final_carry", value) == [says]


# --- properties -----------------------------------------------------------------------------


@st.composite
def tournaments(draw):
    """A non-increasing table, a field no longer than it, tied groups and a drawn seed."""
    points = sorted(draw(st.lists(st.integers(0, 10_000), min_size=1, max_size=30)), reverse=True)
    size = draw(st.integers(1, len(points)))
    groups, left = [], size
    while left:
        groups.append(draw(st.integers(1, left)))
        left -= groups[-1]
    return tuple(points), groups, draw(st.integers(0, 2**32))


@settings(max_examples=300, deadline=None)
@given(tournaments())
def test_the_points_handed_out_are_the_table_of_the_occupied_places_tied_differ_by_one(case):
    points, groups, seed = case
    names = iter(f"P{i:02d}" for i in range(100))
    places = places_of(*(tuple(next(names) for _ in range(n)) for n in groups))
    got = cup_points(CupTable(points), places, order=lambda name: drawn_order(seed, name))
    assert sum(got.values()) == sum(points[: len(places)])
    assert set(got) == {name for _, name in places}
    for place in {p for p, _ in places}:
        tied = [got[name] for p, name in places if p == place]
        assert max(tied) - min(tied) <= 1
    field = cup_points(
        CupTable(field_rule=True), places, order=lambda name: drawn_order(seed, name)
    )
    assert sum(field.values()) == len(places) * (len(places) + 1) // 2
