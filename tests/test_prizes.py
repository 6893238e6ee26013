"""Prizes: entry fees, the pool, prizes by place with shared places, the treasurer's sum."""

from __future__ import annotations

from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.domain.model import RuleError
from scorer.domain.prizes import (
    Cash,
    PlacePrize,
    Prize,
    PrizePlan,
    plan_from_json,
    plan_to_json,
    pool_of,
    prizes_for,
    settle_cash,
)
from scorer.domain.tournament import drawn_order

# --- helpers, written independently of the module ------------------------------------------


def ranked_first(*names: str):
    """An odd-cents order that puts `names` first, in this order (anyone else after)."""
    return lambda name: names.index(name) if name in names else len(names)


def percents(*values: int) -> tuple[PlacePrize, ...]:
    return tuple(PlacePrize(percent=v) for v in values)


def fixed(*values: int) -> tuple[PlacePrize, ...]:
    return tuple(PlacePrize(cents=v) for v in values)


def won(prizes) -> dict[str, int]:
    return {prize.player: prize.cents for prize in prizes}


def refused(field: str, **arguments) -> list[str]:
    """The English messages `plan_from_json` gives for `field` when given `arguments`."""
    given_ = {"entry_fee_cents": 1000, "pool_percent": 100, "prizes": None, **arguments}
    with pytest.raises(RuleError) as caught:
        plan_from_json(**given_)
    assert field in caught.value.fields, caught.value.fields
    return [str(message) for message in caught.value.fields[field]]


FIELD = [(1, "Anna"), (2, "Bert"), (3, "Cilli"), (4, "Done"), (5, "Egon"), (6, "Fritz")]


# --- the plan's pool and prizes -------------------------------------------------------------


def test_percent_plan_on_101_players_rounds_each_prize_down():
    plan = PrizePlan(entry_fee_cents=1050, places=percents(30, 25, 15, 10))
    fees = 101 * plan.entry_fee_cents  # 106 050
    cash = settle_cash(plan, fees_cents=fees, charity_cents=0, places=FIELD, odd_cents_order=len)
    assert cash.pool_cents == 106_050
    assert [p.cents for p in cash.prizes] == [31_815, 26_512, 15_907, 10_605]  # .5s dropped
    assert [p.player for p in cash.prizes] == ["Anna", "Bert", "Cilli", "Done"]
    assert cash.remainder_cents == 106_050 - 84_839


def test_a_tie_shares_both_places_and_the_odd_cent_goes_by_drawn_order_not_by_name():
    plan = PrizePlan(places=percents(30, 25, 15, 10))
    standings = [(1, "Xaver"), (2, "Anton"), (2, "Zenzi"), (4, "Moni")]
    prizes = prizes_for(plan, 10_004, standings, odd_cents_order=ranked_first("Zenzi", "Anton"))
    # place 2: 2501, place 3: 1500 (1500.6 rounded down) -> 4001 shared: 2001 and 2000
    assert won(prizes) == {"Xaver": 3001, "Anton": 2000, "Zenzi": 2001, "Moni": 1000}
    assert [(p.place, p.player) for p in prizes] == standings


def test_the_odd_cents_follow_the_tournaments_drawn_order():
    seed = 0
    assert drawn_order(seed, "Zenzi") < drawn_order(seed, "Anton")  # unlike the name order
    plan = PrizePlan(places=fixed(5000, 3001, 2000))
    standings = [(1, "Xaver"), (2, "Anton"), (2, "Zenzi")]
    prizes = prizes_for(plan, 0, standings, odd_cents_order=partial(drawn_order, seed))
    assert won(prizes) == {"Xaver": 5000, "Anton": 2500, "Zenzi": 2501}


def test_three_tied_share_three_places_and_two_odd_cents():
    plan = PrizePlan(places=fixed(1000, 500, 302, 201))
    standings = [(1, "A"), (1, "B"), (1, "C"), (4, "D")]
    prizes = prizes_for(plan, 0, standings, odd_cents_order=ranked_first("C", "A", "B"))
    assert won(prizes) == {"A": 601, "B": 600, "C": 601, "D": 201}
    assert [p.place for p in prizes] == [1, 1, 1, 4]


def test_a_tie_straddling_the_last_prize_place_shares_what_there_is():
    plan = PrizePlan(places=fixed(4000, 3000, 2000, 1001))
    standings = [*FIELD[:3], (4, "Done"), (4, "Egon"), (6, "Fritz")]
    prizes = prizes_for(plan, 0, standings, odd_cents_order=ranked_first("Egon"))
    assert won(prizes) == {"Anna": 4000, "Bert": 3000, "Cilli": 2000, "Done": 500, "Egon": 501}


def test_a_tie_of_three_over_the_last_two_prize_places_lists_all_three():
    plan = PrizePlan(places=fixed(4000, 3000, 2000, 1))
    standings = [(1, "Anna"), (2, "Bert"), (3, "Cilli"), (3, "Done"), (3, "Egon"), (6, "Fritz")]
    prizes = prizes_for(plan, 0, standings, odd_cents_order=ranked_first("Egon", "Done"))
    assert won(prizes) == {"Anna": 4000, "Bert": 3000, "Cilli": 667, "Done": 667, "Egon": 667}


def test_a_tie_on_a_small_last_prize_lists_the_player_who_gets_nothing():
    plan = PrizePlan(places=fixed(100, 1))
    prizes = prizes_for(plan, 0, [(1, "A"), (2, "B"), (2, "C")], odd_cents_order=ranked_first("C"))
    assert prizes == [Prize(1, "A", 100), Prize(2, "B", 0), Prize(2, "C", 1)]


def test_players_beyond_the_prize_places_are_left_out():
    plan = PrizePlan(places=percents(50, 30))
    prizes = prizes_for(plan, 1000, FIELD, odd_cents_order=len)
    assert prizes == [Prize(1, "Anna", 500), Prize(2, "Bert", 300)]


def test_goods_go_one_each_in_drawn_order_the_better_places_first():
    plan = PrizePlan(
        places=(
            PlacePrize(cents=5000),
            PlacePrize(goods="Geschenkkorb"),
            PlacePrize(goods="Weinflasche"),
            PlacePrize(goods="Salami"),
        )
    )
    standings = [(1, "Anna"), (2, "Bert"), (2, "Cilli"), (4, "Done"), (5, "Egon")]
    prizes = prizes_for(plan, 0, standings, odd_cents_order=ranked_first("Cilli", "Bert"))
    assert prizes == [
        Prize(1, "Anna", 5000),
        Prize(2, "Bert", 0, ("Weinflasche",)),
        Prize(2, "Cilli", 0, ("Geschenkkorb",)),
        Prize(4, "Done", 0, ("Salami",)),
    ]


def test_a_tie_over_money_and_goods_shares_the_money_and_gives_the_goods_in_order():
    plan = PrizePlan(places=(PlacePrize(cents=3001), PlacePrize(goods="Korb")))
    prizes = prizes_for(plan, 0, [(1, "A"), (1, "B")], odd_cents_order=ranked_first("B"))
    assert prizes == [Prize(1, "A", 1500), Prize(1, "B", 1501, ("Korb",))]


def test_fixed_prizes_above_the_fees_leave_a_negative_remainder_the_club_adds():
    plan = PrizePlan(entry_fee_cents=1000, places=fixed(5000, 3000))
    cash = settle_cash(
        plan, fees_cents=3000, charity_cents=0, places=FIELD[:3], odd_cents_order=len
    )
    assert [p.cents for p in cash.prizes] == [5000, 3000]
    assert cash.remainder_cents == -5000


def test_a_fixed_pool_is_shared_by_percent_whatever_the_fees():
    plan = PrizePlan(pool_cents=20_000, places=percents(50, 30, 20))
    assert plan.pool_percent is None
    assert pool_of(plan, 0) == pool_of(plan, 999_999) == 20_000
    cash = settle_cash(plan, fees_cents=5000, charity_cents=0, places=FIELD, odd_cents_order=len)
    assert [p.cents for p in cash.prizes] == [10_000, 6000, 4000]
    assert cash.remainder_cents == -15_000


def test_pool_percent_80_leaves_the_rest_as_remainder_and_charity_is_handed_on():
    plan = PrizePlan(entry_fee_cents=1000, pool_percent=80, places=percents(50, 30, 20))
    cash = settle_cash(
        plan, fees_cents=10_000, charity_cents=555, places=FIELD, odd_cents_order=len
    )
    assert cash == Cash(
        received_cents=10_555,
        fees_cents=10_000,
        charity_cents=555,
        pool_cents=8000,
        prizes=(Prize(1, "Anna", 4000), Prize(2, "Bert", 2400), Prize(3, "Cilli", 1600)),
        remainder_cents=2000,
    )


def test_pool_of_rounds_the_share_down():
    assert pool_of(PrizePlan(pool_percent=80), 1001) == 800
    assert pool_of(PrizePlan(pool_percent=0), 5000) == 0


def test_no_players_no_prizes_and_the_fees_are_the_remainder():
    plan = PrizePlan(entry_fee_cents=1000, places=percents(60, 40))
    cash = settle_cash(plan, fees_cents=0, charity_cents=0, places=[], odd_cents_order=len)
    assert cash == Cash(0, 0, 0, 0, (), 0)
    assert prizes_for(plan, 5000, [], odd_cents_order=len) == []


def test_fee_zero_pays_zero_cents_on_percent_places_but_fixed_ones_in_full():
    plan = plan_from_json(0, 100, [{"percent": 70}, {"cents": 500}])
    cash = settle_cash(plan, fees_cents=0, charity_cents=0, places=FIELD, odd_cents_order=len)
    assert [p.cents for p in cash.prizes] == [0, 500]
    assert cash.remainder_cents == -500


def test_standings_that_do_not_share_places_as_1_2_2_4_are_refused():
    plan = PrizePlan(places=fixed(1, 1, 1))
    for bad in ([(2, "A")], [(1, "A"), (1, "B"), (2, "C")], [(1, "A"), (2, "A")]):
        with pytest.raises(ValueError):
            prizes_for(plan, 0, bad, odd_cents_order=len)


def test_plans_that_break_their_own_rules_cannot_be_made():
    for bad in (
        lambda: PlacePrize(),
        lambda: PlacePrize(percent=10, cents=5),
        lambda: PlacePrize(cents=-1),
        lambda: PrizePlan(pool_percent=None),
        lambda: PrizePlan(pool_percent=101),
        lambda: PrizePlan(places=percents(60, 41)),
    ):
        with pytest.raises(ValueError):
            bad()


# --- the plan from API input ----------------------------------------------------------------


def test_the_three_forms_of_prizes_read_alike():
    by_kind = plan_from_json(500, 100, {"percent": [30, 25, 15, 10]})
    by_place = plan_from_json(500, 100, [{"percent": v} for v in (30, 25, 15, 10)])
    assert by_kind == by_place == PrizePlan(500, 100, None, percents(30, 25, 15, 10))
    assert plan_from_json(0, 100, {"cents": [5000, 3000]}).places == fixed(5000, 3000)
    goods = plan_from_json(0, 100, {"goods": ["  Geschenk\tkorb "]}).places
    assert goods == (PlacePrize(goods="Geschenk korb"),)
    assert plan_from_json(0, 100, None).places == plan_from_json(0, 100, []).places == ()


def test_a_mixed_list_reads_place_by_place():
    plan = plan_from_json(1000, 90, [{"percent": 30}, {"goods": "Korb"}, {"cents": 500}])
    assert plan.places == (PlacePrize(percent=30), PlacePrize(goods="Korb"), PlacePrize(cents=500))


def test_percentages_may_add_up_to_100_not_101():
    assert len(plan_from_json(0, 100, {"percent": [50, 30, 20]}).places) == 3
    mixed = [{"percent": 60}, {"cents": 999}, {"percent": 40}]
    assert len(plan_from_json(0, 100, mixed).places) == 3
    assert refused("prizes", prizes={"percent": [50, 30, 21]}) == [
        "the percentages add up to 101: at most 100"
    ]
    mixed[0] = {"percent": 61}
    assert refused("prizes", prizes=mixed) == ["the percentages add up to 101: at most 100"]


@pytest.mark.parametrize("value", [True, False, -1, 100_001, 10.0, "1000", None])
def test_entry_fee_must_be_a_whole_number_0_to_100000(value):
    assert refused("entry_fee_cents", entry_fee_cents=value) == ["must be a whole number 0..100000"]


def test_entry_fee_boundaries_are_accepted():
    assert plan_from_json(0, 100, None).entry_fee_cents == 0
    assert plan_from_json(100_000, 100, None).entry_fee_cents == 100_000


@pytest.mark.parametrize("value", [True, -1, 101, 50.0])
def test_pool_percent_must_be_0_to_100(value):
    assert refused("pool_percent", pool_percent=value) == ["must be a whole number 0..100"]


def test_pool_percent_none_means_all_the_fees_and_a_fixed_pool_excludes_a_share():
    assert plan_from_json(0, None, None).pool_percent == 100
    assert plan_from_json(0, None, None, pool_cents=0) == PrizePlan(0, None, 0)
    assert refused("pool_percent", pool_percent=80, pool_cents=5000) == [
        "give a share of the fees or a fixed pool, not both"
    ]
    assert refused("pool_cents", pool_percent=None, pool_cents=-5) == [
        "must be a whole number 0..150000000"
    ]


@pytest.mark.parametrize(
    "prizes, message",
    [
        ({"percent": [30, True]}, "place 2: must be a whole number 0..100"),
        ({"percent": [101]}, "place 1: must be a whole number 0..100"),
        ({"cents": [5000, -1]}, "place 2: must be a whole number 0..150000000"),
        ({"cents": [False]}, "place 1: must be a whole number 0..150000000"),
        (
            [{"percent": 30}, {"cents": 1, "goods": "Korb"}],
            "place 2: give one of percent, cents or goods",
        ),
        ([{"amount": 5}], "place 1: give one of percent, cents or goods"),
        ([30, 25], "place 1: give one of percent, cents or goods"),
        ({"goods": [""]}, "place 1: must have 1..80 characters"),
        ({"goods": ["x" * 81]}, "place 1: must have 1..80 characters"),
        ({"goods": ["Ko\x00rb"]}, "place 1: may not contain control or invisible characters"),
        ({"goods": [5]}, "place 1: must be text"),
        ({"percent": [10], "cents": [5]}, "must be one of: percent, cents, goods"),
        ({"percent": 30}, "must be a list"),
        ("30/25/15", "must list the prizes place by place"),
        ({"cents": [1] * 101}, "at most 100 prize places"),
    ],
)
def test_prizes_are_refused_with_a_message_naming_the_place(prizes, message):
    assert refused("prizes", prizes=prizes) == [message]


def test_goods_and_places_at_their_limits_are_accepted():
    assert plan_from_json(0, 100, {"goods": ["x" * 80]}).places[0].goods == "x" * 80
    assert len(plan_from_json(0, 100, {"cents": [0] * 100}).places) == 100


def test_every_wrong_field_is_named_at_once():
    with pytest.raises(RuleError) as caught:
        plan_from_json(-1, 101, {"percent": [101]})
    assert set(caught.value.fields) == {"entry_fee_cents", "pool_percent", "prizes"}


def test_a_plan_round_trips_through_json():
    for plan in (
        PrizePlan(),
        PrizePlan(1500, 80, None, (PlacePrize(percent=30), PlacePrize(goods="Korb"))),
        PrizePlan(0, None, 20_000, fixed(10_000, 0)),
    ):
        assert plan_from_json(**plan_to_json(plan)) == plan


# --- properties -----------------------------------------------------------------------------

place_prizes = st.one_of(
    st.builds(PlacePrize, percent=st.integers(0, 40)),
    st.builds(PlacePrize, cents=st.integers(0, 20_000)),
    st.builds(PlacePrize, goods=st.sampled_from(["Korb", "Wein", "Salami"])),
)


@st.composite
def plans(draw) -> PrizePlan:
    places: list[PlacePrize] = []
    for place in draw(st.lists(place_prizes, max_size=12)):
        if sum(p.percent or 0 for p in places) + (place.percent or 0) <= 100:
            places.append(place)
    if draw(st.booleans()):
        return PrizePlan(
            draw(st.integers(0, 5000)), None, draw(st.integers(0, 50_000)), tuple(places)
        )
    return PrizePlan(draw(st.integers(0, 5000)), draw(st.integers(0, 100)), None, tuple(places))


@st.composite
def standings(draw) -> list[tuple[int, str]]:
    """Shared places as 1, 2, 2, 4: tie sizes drawn, names in any order."""
    sizes = draw(st.lists(st.integers(1, 4), max_size=10))
    names = draw(st.permutations([f"P{i:02d}" for i in range(sum(sizes))]))
    result, position = [], 1
    for size in sizes:
        result += [(position, names[position - 1 + k]) for k in range(size)]
        position += size
    return result


def expected_share(plan: PrizePlan, pool: int, place: int, size: int) -> int:
    """What a tie of `size` on `place` shares: the prizes of the places it occupies."""
    total = 0
    for prize in plan.places[place - 1 : place - 1 + size]:
        total += pool * prize.percent // 100 if prize.percent is not None else prize.cents or 0
    return total


@settings(max_examples=300, deadline=None)
@given(plans(), standings(), st.integers(0, 500_000), st.integers(0, 10_000), st.integers())
def test_the_treasurers_sum_always_adds_up_and_ties_share_fairly(plan, field, fees, charity, seed):
    order = partial(drawn_order, seed)
    cash = settle_cash(
        plan, fees_cents=fees, charity_cents=charity, places=field, odd_cents_order=order
    )
    paid = sum(p.cents for p in cash.prizes)
    assert paid + cash.remainder_cents + cash.charity_cents == cash.received_cents == fees + charity
    assert all(p.cents >= 0 for p in cash.prizes)
    assert [(p.place, p.player) for p in cash.prizes] == field[: len(cash.prizes)]
    for place in {p.place for p in cash.prizes}:
        tied = [p for p in cash.prizes if p.place == place]
        assert len(tied) == sum(1 for q, _ in field if q == place)  # the whole tie is listed
        cents = [p.cents for p in tied]
        assert max(cents) - min(cents) <= 1
        assert sum(cents) == expected_share(plan, cash.pool_cents, place, len(tied))
        richer = [p for p in tied if p.cents > min(cents)]  # the odd cents: drawn order first
        assert all(
            order(r.player) < order(p.player) for r in richer for p in tied if p not in richer
        )
        occupied = plan.places[place - 1 : place - 1 + len(tied)]
        assert sorted(g for p in tied for g in p.goods) == sorted(
            q.goods for q in occupied if q.goods
        )
    unlisted = len(field) - len(cash.prizes)
    assert unlisted == 0 or field[len(cash.prizes)][0] > len(plan.places)


@given(plans())
def test_any_plan_round_trips_through_json(plan):
    assert plan_from_json(**plan_to_json(plan)) == plan
